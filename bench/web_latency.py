"""Latency from a controller event to the browser's websocket message (issue 8: within 100 ms).

Starts the real web server (``web.server.WebServer``, uvicorn on a free loopback port) for a real controller
Session on a SimulatedDevice, connects a websocket client in a separate process the way web/static/app.js does
(``ws://HOST:PORT/ws`` plus ``?token=`` when one is needed, Origin of the page), then plays seeded random
moves of an international game, person against person, as physical lift/place commands sent through the
Session. Every event is time-stamped where the Session publishes it (a subscriber queue of this process) and
again when the client process receives its message (both on the system-wide monotonic clock).

Peer, measured in the same run: a bare websocket echo round trip, on the same uvicorn/Starlette stack, of a
message as large as a state message, from the same client process.

    .venv/bin/python bench/web_latency.py [--actions 500] [--seed 1] [--quiet]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import random
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller import commands as cmd
from controller.config import Config
from controller.session import Session
from firmware_bridge.simulated import SimulatedDevice
from web.access import WebOptions
from web.messages import event_message
from web.server import WebServer

TARGET_MS = 100.0
MAX_PLIES = 80
"""A game is replaced by a new one after this many plies (random king endings can go on for ever)."""
GAP_SECONDS = 0.02
"""Pause between two physical actions once the Session has handled the previous one (a hand is slower)."""


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Stamp:
    """One event as the Session published it: when (perf_counter seconds), what, and during which phase."""

    at: float
    message: Any
    phase: str


# --- the client process (stands for the browser) ------------------------------------------------------------
def client_main(conn: Connection) -> None:
    """Serve the main process's requests: echo round trips, then watch the board's websocket until told to
    stop and send back every message received with its perf_counter time."""
    from websockets.sync.client import connect

    while True:
        request = conn.recv()
        if request[0] == "echo":
            _, url, payload, count = request
            rtts: list[float] = []
            with connect(url, max_size=None) as ws:
                for i in range(count + 10):   # the first 10 warm up
                    start = time.perf_counter()
                    ws.send(payload)
                    reply = ws.recv()
                    elapsed = time.perf_counter() - start
                    if reply != payload:
                        raise RuntimeError("the echo server answered something else")
                    if i >= 10:
                        rtts.append(elapsed)
            conn.send(("echo", rtts))
        elif request[0] == "watch":
            _, url, origin = request
            received: list[tuple[float, str]] = []
            with connect(url, origin=origin, max_size=None) as ws:  # type: ignore[arg-type]
                hello = json.loads(ws.recv())
                conn.send(("ready", hello.get("type")))
                while True:
                    try:
                        text = ws.recv(timeout=0.01)
                    except TimeoutError:
                        if conn.poll():
                            conn.recv()
                            break
                        continue
                    received.append((time.perf_counter(), str(text)))
            conn.send(("messages", received))
        else:
            return


# --- the echo peer ------------------------------------------------------------------------------------------
def echo_app() -> Starlette:
    """A websocket echo app on the same Starlette stack as the board's page."""
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await ws.send_text(await ws.receive_text())

    return Starlette(routes=[WebSocketRoute("/echo", echo)])


@contextlib.asynccontextmanager
async def echo_server() -> AsyncIterator[int]:
    """Serve :func:`echo_app` with uvicorn (same settings as web.server.WebServer) on a free loopback port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    sock.setblocking(False)
    config = uvicorn.Config(echo_app(), log_level="warning", lifespan="off", ws="websockets-sansio",
                            ws_max_size=16 * 1024 * 1024, ws_ping_interval=20, timeout_graceful_shutdown=1,
                            access_log=False)
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    task = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    if not server.started:
        raise SystemExit("error: the echo server did not start within 5 s")
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
        sock.close()


# --- driving the board --------------------------------------------------------------------------------------
class Recorder:
    """Time-stamps every event at the moment the Session hands it to its subscribers."""

    def __init__(self, session: Session) -> None:
        self.stamps: list[Stamp] = []
        self.phase = "setup"
        self.queue = session.subscribe()
        put = self.queue.put_nowait

        def stamped(event: Any) -> None:
            self.stamps.append(Stamp(time.perf_counter(), event, self.phase))
            put(event)

        self.queue.put_nowait = stamped  # type: ignore[method-assign]

    def __repr__(self) -> str:
        return f"Recorder(events={len(self.stamps)}, phase={self.phase!r})"


async def settle(session: Session) -> None:
    """Wait until the Session handled every input and no settle timer is pending."""
    for _ in range(500):
        await session.idle()
        if session.controller.next_deadline() is None:
            return
        await asyncio.sleep(0.005)


async def new_game(session: Session, board: SimulatedDevice, recorder: Recorder) -> None:
    recorder.phase = "setup"
    await session.send(cmd.NewGame(variant="international", human_color="both", opponent="person"))
    await session.idle()
    board.set_occupancy(session.controller.exp.base)
    await settle(session)
    if session.controller.state != "person.idle":
        raise SystemExit(f"error: the new game did not start (state {session.controller.state})")


async def drive(session: Session, board: SimulatedDevice, recorder: Recorder, actions: int, seed: int,
                gap: float) -> tuple[int, int, int]:
    """Make ``actions`` physical gestures of random legal moves; returns (actions, plies, games)."""
    rng = random.Random(seed)
    ctl = session.controller
    done = plies = 0
    games = 1   # the game the Session started with
    while done < actions:
        if ctl.state != "person.idle" or len(ctl.records) >= MAX_PLIES:
            await new_game(session, board, recorder)
            games += 1
        shape = rng.choice(sorted(ctl.exp.shapes, key=lambda s: s.text))
        gestures = [cmd.Lift(*shape.origin), *(cmd.Lift(*sq) for sq in shape.captures),
                    cmd.Place(*shape.target)]
        before = len(ctl.records)
        for gesture in gestures:
            if done >= actions:
                break
            recorder.phase = "action"
            await session.send(gesture)
            await settle(session)
            done += 1
            await asyncio.sleep(gap)
        if ctl.state == "ambiguous":
            recorder.phase = "setup"
            await session.send(cmd.ChooseMove(shape.text))
            await settle(session)
        if len(ctl.records) > before:
            plies += 1
        elif done < actions:
            raise SystemExit(f"error: the move {shape.text} was not committed (state {ctl.state})")
    recorder.phase = "setup"
    return done, plies, games


def ws_url(http_url: str) -> tuple[str, str]:
    """The websocket URL app.js opens for the page at ``http_url``, and the page's Origin."""
    parts = urlsplit(http_url)
    token = parse_qs(parts.query).get("token", [""])[0]
    return f"ws://{parts.netloc}/ws" + (f"?token={token}" if token else ""), f"http://{parts.netloc}"


def match(stamps: list[Stamp], received: list[tuple[float, str]]) -> list[tuple[Stamp, float]]:
    """Pair each published event with the websocket message that carried it (messages arrive in order)."""
    decoded = [(at, json.loads(text)) for at, text in received]
    pairs: list[tuple[Stamp, float]] = []
    j = 0
    for stamp in stamps:
        expected = json.loads(json.dumps(event_message(stamp.message)))
        k = j
        while k < len(decoded) and decoded[k][1] != expected:
            k += 1
        if k == len(decoded):
            raise SystemExit(f"error: no websocket message carried the event {type(stamp.message).__name__} "
                             f"published {len(pairs)} events in")
        pairs.append((stamp, (decoded[k][0] - stamp.at) * 1000))
        j = k + 1
    return pairs


async def measure(actions: int, seed: int, gap: float, conn: Connection, quiet: bool) -> int:
    with tempfile.TemporaryDirectory(prefix="dboard-web-bench-") as tmp:
        config = Config(variant="international", human_color="both", opponent="person", data_dir=tmp,
                        settle_ms=50)
        board = SimulatedDevice(10, 10, debounce=0.0)
        options = WebOptions(listen="127.0.0.1", port=0, data_dir=Path(tmp))
        async with Session(config, board, board, journal_dir=Path(tmp) / "journal") as session:
            board.set_occupancy(session.controller.exp.base)
            await settle(session)
            state_text = json.dumps({"type": "state", "state": session.view()}, separators=(",", ":"))
            async with echo_server() as echo_port:
                conn.send(("echo", f"ws://127.0.0.1:{echo_port}/echo", state_text, max(actions, 20)))
                _, rtts = await asyncio.to_thread(conn.recv)
            async with WebServer(session, options=options) as server:
                url, origin = ws_url(server.url)
                conn.send(("watch", url, origin))
                reply = await asyncio.to_thread(conn.recv)
                if reply != ("ready", "hello"):
                    raise SystemExit(f"error: the page's websocket did not say hello: {reply!r}")
                await settle(session)
                recorder = Recorder(session)
                done, plies, games = await drive(session, board, recorder, actions, seed, gap)
                await asyncio.sleep(0.3)   # let the last messages arrive
                conn.send(("stop",))
                _, received = await asyncio.to_thread(conn.recv)
                session.unsubscribe(recorder.queue)
    pairs = match(recorder.stamps, received)
    report(pairs, [r * 1000 for r in rtts], done, plies, games, len(state_text), quiet)
    return 0


def report(pairs: list[tuple[Stamp, float]], echo: list[float], actions: int, plies: int, games: int,
           size: int, quiet: bool) -> None:
    measured = [(s, ms) for s, ms in pairs if s.phase == "action"]
    all_ms = [ms for _, ms in measured]
    if not quiet:
        print(f"international, person v person: {actions} physical actions ({plies} plies, {games} games), "
              f"{len(all_ms)} events sent to the page during them ({len(pairs)} in all)")
        print(f"peer: bare websocket echo round trip of a {size}-byte message on the same uvicorn/Starlette "
              f"stack ({len(echo)} round trips)")
    rows: list[tuple[str, list[float]]] = [("event -> websocket, all events", all_ms)]
    for kind in sorted({type(s.message).__name__ for s, _ in measured}):
        rows.append((f"  {kind}", [ms for s, ms in measured if type(s.message).__name__ == kind]))
    rows.append(("peer: websocket echo round trip", echo))
    print(f"{'latency (ms)':<36}{'n':>6}{'median':>9}{'p95':>9}{'p99':>9}{'max':>9}")
    for name, values in rows:
        print(f"{name:<36}{len(values):>6}{pct(values, 0.5):>9.2f}{pct(values, 0.95):>9.2f}"
              f"{pct(values, 0.99):>9.2f}{max(values):>9.2f}")
    ratios = [pct(all_ms, q) / pct(echo, q) for q in (0.5, 0.95, 0.99)] + [max(all_ms) / max(echo)]
    print(f"{'ratio event / echo peer':<36}{'':>6}" + "".join(f"{r:>8.1f}x" for r in ratios))
    met = max(all_ms) <= TARGET_MS
    print(f"target: every update within {TARGET_MS:.0f} ms of the controller's event: "
          f"{'met' if met else 'NOT met'} (max {max(all_ms):.2f} ms, p99 {pct(all_ms, 0.99):.2f} ms)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500, help="physical lift/place actions (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves (default 1)")
    parser.add_argument("--gap", type=float, default=GAP_SECONDS,
                        help=f"seconds between actions once handled (default {GAP_SECONDS})")
    parser.add_argument("--quiet", action="store_true", help="print only the table and the verdict")
    args = parser.parse_args(argv)
    if args.actions < 1:
        parser.error("--actions must be at least 1")
    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    client = ctx.Process(target=client_main, args=(theirs,), name="web-latency-client", daemon=True)
    client.start()
    try:
        return asyncio.run(measure(args.actions, args.seed, args.gap, ours, args.quiet))
    finally:
        with contextlib.suppress(OSError):
            ours.send(("quit",))
        client.join(5)
        if client.is_alive():
            client.terminate()


if __name__ == "__main__":
    sys.exit(main())
