"""The tournament hall under load (issue 17): 200 simulated boards on loopback, each making a move every
second, through a real mosquitto to ``dboard hall``.

Each board is a real journal (``controller.journal``, in RAM: the boards' own cards are not what is measured)
shipped by the real ``Publisher`` (its Session stood in for by a stub that only relays "a move was
committed"); the boards run in four processes, the hall
(``hall.server.HallServer``, with a poller fetching the round's live PDN every second as lidraughts would) in
another. Printed: moves per second through broker and hall, p50/p99 delay from a board's committed move (its
journal line on disk) to the hall holding it for its PDN, the hall's CPU and memory.

Peer, measured in the same run on the same stream: a bare paho-mqtt subscriber (QoS 1, JSON-decoding each
message and nothing else) in a process of its own; the ratios hall/peer are printed.

    ./dev bench hall [--boards 200] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import resource
import shutil
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "hall")]

from broker import Mosquitto  # noqa: E402  (tests/hall: a mosquitto on a free loopback port)

PREFIX, EVENT = "dboard", "bench"
BOARD_PROCESSES = 4
RAM = Path("/dev/shm")
DRAIN_SECONDS = 60.0
"""How long the hall is given, once the boards stopped, to have every move they committed."""


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize() / 2**20


# --- the boards ------------------------------------------------------------------------------------------
class _StubSession:
    """What the Publisher reads of a Session: its events, its state and its place (the config's)."""

    def __init__(self, journal_dir: Path) -> None:
        self.journal_dir = journal_dir
        self.broadcast_place = None
        self.queue: asyncio.Queue[Any] = asyncio.Queue()

    def subscribe(self) -> asyncio.Queue[Any]:
        return self.queue

    def unsubscribe(self, queue: Any) -> None:
        pass

    def state(self) -> dict[str, Any]:
        return {"state": "person.idle", "board_connected": True, "clocks": None}


def boards_main(address: str, numbers: range, seconds: float, folder: str, conn: Connection) -> None:
    asyncio.run(_boards(address, numbers, seconds, Path(folder), conn))


async def _boards(address: str, numbers: range, seconds: float, folder: Path, conn: Connection) -> None:
    from controller import events as ev
    from controller.broadcast.publisher import Publisher
    from controller.config import Config
    from controller.journal import JOURNAL_NAME, Journal, PlyRecord
    from controller.settings import GameSettings
    from rules import Board

    boards = []
    for n in numbers:
        config = Config(broadcast=True, broadcast_broker=address, broadcast_event=EVENT,
                        broadcast_board=str(n))
        session = _StubSession(folder / str(n))
        journal = Journal(folder / str(n))
        journal.start({"settings": GameSettings("english", "both", "person").to_json(),
                       "started": f"2026-12-01T10:00:{n % 60:02d}", "board": n})
        publisher = Publisher.for_session(session, config)
        assert publisher.tail.path == folder / str(n) / JOURNAL_NAME
        await publisher.start()
        boards.append((n, session, journal, publisher, Board("english"), random.Random(n)))
    await asyncio.gather(*(b[3].wait_connected() for b in boards))
    conn.send("ready")
    conn.recv()   # go
    committed: dict[tuple[str, int], float] = {}
    start = time.monotonic()

    async def play(index: int) -> None:
        number, session, journal, _, board, rng = boards[index]
        clocks = [300.0, 300.0]
        tick = start + (number % 1000) / 1000
        while tick < start + seconds:
            await asyncio.sleep(max(0.0, tick - time.monotonic()))
            tick += 1.0
            if not board.legal_moves or len(board.move_stack) >= 80:
                continue
            move = rng.choice(list(board.legal_moves))
            mover = "white" if board.turn.name == "WHITE" else "black"
            text = board.move_text(move)
            board.push(move)
            clocks[0 if mover == "white" else 1] -= 1.0
            journal.record(PlyRecord("move", text, board.fen(), mover, 1.0, (clocks[0], clocks[1])))
            seq = len(board.move_stack) + 1
            committed[(str(number), seq)] = time.monotonic()
            session.queue.put_nowait(ev.MoveCommitted(seq - 1, text, mover, board.fen()))

    await asyncio.gather(*(play(i) for i in range(len(boards))))
    await asyncio.sleep(5.0)   # the last messages on their way
    for _, _, journal, publisher, _, _ in boards:
        await publisher.stop(timeout=0.2)
        journal.close()
    conn.send(committed)


# --- the hall and the bare subscriber ---------------------------------------------------------------------
def hall_main(address: str, folder: str, conn: Connection) -> None:
    asyncio.run(_hall(address, Path(folder), conn))


async def _hall(address: str, folder: Path, conn: Connection) -> None:
    import httpx

    from hall.config import HallConfig
    from hall.server import HallServer

    server = HallServer(HallConfig(broker=address, port=0, data_dir=str(folder), client_id="bench-hall"))
    registry = server.hall.registry
    applied: dict[tuple[str, int], float] = {}
    seen: dict[str, int] = {}
    receive = registry.receive

    def timed(topic: str, payload: bytes) -> None:
        """Every entry the hall has applied, however it came (a stream message, a retained game asked for
        again), timed when it was applied."""
        receive(topic, payload)
        board = topic.split("/")[3]
        feed = registry.boards.get((EVENT, "1", board))
        if feed is not None and feed.game is not None and feed.game.seq > seen.get(board, 0):
            now = time.monotonic()
            for seq in range(seen.get(board, 0) + 1, feed.game.seq + 1):
                applied.setdefault((board, seq), now)
            seen[board] = feed.game.seq

    registry.receive = timed  # type: ignore[method-assign]
    await server.start()
    await server.hall.connected.wait()
    conn.send("ready")
    conn.recv()
    cpu, wall = cpu_seconds(), time.monotonic()
    renders: list[float] = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", timeout=60) as http:
        while not conn.poll():
            t = time.monotonic()
            reply = await http.get(f"/pdn/{EVENT}/1.pdn")
            assert reply.status_code == 200
            renders.append(time.monotonic() - t)
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - t)))
    committed: set[tuple[str, int]] = conn.recv()
    used, elapsed = cpu_seconds() - cpu, time.monotonic() - wall
    drained = time.monotonic()   # the boards have stopped: wait until the hall has every move they committed
    while not committed <= applied.keys() and time.monotonic() - drained < DRAIN_SECONDS:
        await asyncio.sleep(0.1)
    conn.send({"applied": applied, "cpu": used / elapsed, "rss": rss_mb(), "renders": renders,
               "dropped": registry.dropped, "duplicates": registry.duplicates,
               "recoveries": server.hall.recoveries, "drain": time.monotonic() - drained})
    await server.stop()


def bare_main(address: str, conn: Connection) -> None:
    import paho.mqtt.client as mqtt

    host, port = address.split(":")
    received: dict[tuple[str, int], float] = {}

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        if message.topic.endswith("/stream"):
            data = json.loads(message.payload)
            received.setdefault((message.topic.split("/")[3], data["seq"]), time.monotonic())

    ready = mp.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-bare", protocol=mqtt.MQTTv5)
    client.on_message = on_message
    client.on_connect = lambda c, u, f, r, p: (c.subscribe(f"{PREFIX}/#", qos=1), ready.set())
    client.connect(host, int(port))
    client.loop_start()
    ready.wait(10)
    conn.send("ready")
    conn.recv()
    cpu, wall = cpu_seconds(), time.monotonic()
    conn.recv()
    used, elapsed = cpu_seconds() - cpu, time.monotonic() - wall
    client.disconnect()
    client.loop_stop()
    conn.send({"applied": received, "cpu": used / elapsed, "rss": rss_mb()})


def delays(committed: dict[tuple[str, int], float], seen: dict[tuple[str, int], float]) -> list[float]:
    return sorted(seen[k] - t for k, t in committed.items() if k in seen)


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    if not 1 <= args.boards <= 1000 or not 1 <= args.seconds <= 300:
        parser.error("at most 1000 boards and 300 seconds")
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="dboard-bench-hall-") as tmp:
        broker = Mosquitto(Path(tmp) / "broker")
        broker.start()
        try:
            groups = [f"boards-{i}" for i in range(BOARD_PROCESSES)]
            pipes = {name: ctx.Pipe() for name in ("hall", "bare", *groups)}
            procs = [ctx.Process(target=hall_main, args=(broker.address, f"{tmp}/hall", pipes["hall"][1])),
                     ctx.Process(target=bare_main, args=(broker.address, pipes["bare"][1]))]
            journals = tempfile.mkdtemp(prefix="dboard-bench-boards-", dir=RAM if RAM.is_dir() else tmp)
            for i, name in enumerate(groups):   # each board's journal on its own (fast) card
                numbers = range(i + 1, args.boards + 1, BOARD_PROCESSES)
                procs.append(ctx.Process(target=boards_main, args=(broker.address, numbers, args.seconds,
                                                                   journals, pipes[name][1])))
            for proc in procs:
                proc.start()
            for name, (mine, _) in pipes.items():
                if not mine.poll(120):
                    raise SystemExit(f"bench/hall.py: the {name} did not start")
                mine.recv()
            print(f"{args.boards} boards, one move a second each, for {args.seconds:g} s ...", flush=True)
            for mine, _ in pipes.values():
                mine.send("go")
            committed = {}
            for name in groups:
                committed.update(pipes[name][0].recv())
            shutil.rmtree(journals, ignore_errors=True)
            pipes["hall"][0].send(set(committed))
            pipes["bare"][0].send("stop")
            hall, bare = pipes["hall"][0].recv(), pipes["bare"][0].recv()
            for proc in procs:
                proc.join(30)
        finally:
            broker.stop()
    moves = len(committed)
    hall_d, bare_d = delays(committed, hall["applied"]), delays(committed, bare["applied"])
    print(f"moves committed: {moves} ({moves / args.seconds:.0f}/s); in the hall: {len(hall_d)} "
          f"({hall['drain']:.1f} s after the boards stopped; {hall['recoveries']} retained games asked for "
          f"again), at the bare subscriber: {len(bare_d)}; dropped {hall['dropped']}, "
          f"already held {hall['duplicates']}")
    print(f"{'':24}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'CPU %':>8}{'RSS MB':>8}")
    for name, d, r in (("hall (dboard hall)", hall_d, hall), ("bare paho subscriber", bare_d, bare)):
        print(f"{name:24}{pct(d, .5):9.1f}{pct(d, .99):9.1f}{pct(d, 1.0):9.1f}{r['cpu'] * 100:8.1f}"
              f"{r['rss']:8.1f}")
    print(f"ratio hall/bare: p50 {pct(hall_d, .5) / pct(bare_d, .5):.2f}x, "
          f"p99 {pct(hall_d, .99) / pct(bare_d, .99):.2f}x, CPU {hall['cpu'] / max(bare['cpu'], 1e-9):.2f}x")
    renders = sorted(hall["renders"])
    print(f"round PDN ({args.boards} games) served in p50 {pct(renders, .5):.1f} ms, "
          f"max {pct(renders, 1.0):.1f} ms")
    target = pct(hall_d, .99) < 500
    print(f"target p99 < 500 ms: {'met' if target else 'NOT met'}")
    return 0 if len(hall_d) == moves else 1


if __name__ == "__main__":
    sys.exit(main())
