"""Faults of a hall, each its own test: the broker killed and restarted mid-round, one board's network gone
for a while, a board process SIGKILLed and restarted, the hall restarted. Afterwards the hall's PDN of every
board is still the board's own record: nothing lost, nothing twice, in order."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from boards import EVENT, HallHarness, SimBoard, moves_of, wait_for
from broker import ROOT, Mosquitto
from link import Link

from engine import choose_move
from rules import Board


async def same_games(hall: HallHarness, sims: list[SimBoard]) -> None:
    await wait_for(lambda: all(hall.has(s) for s in sims), "every board's whole game in the hall")
    for sim in sims:
        assert moves_of(await hall.pdn(sim.number)) == moves_of(sim.pdn()), f"board {sim.number}"


def test_the_broker_killed_and_restarted_mid_round(broker: Mosquitto, tmp_path: Path, ram_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            sims = [SimBoard(ram_path, broker.address, n) for n in range(1, 11)]
            await asyncio.gather(*(s.start() for s in sims))
            try:
                await asyncio.gather(*(s.play(4, resign=False) for s in sims))
                await wait_for(lambda: all(hall.has(s) for s in sims), "the first moves in the hall")
                broker.kill()
                await asyncio.gather(*(s.play(4, resign=False) for s in sims))   # the boards play on
                broker.start()
                await asyncio.gather(*(s.play(4) for s in sims))
                await same_games(hall, sims)
            finally:
                await asyncio.gather(*(s.stop() for s in sims))
    asyncio.run(scenario())


def test_a_board_loses_the_network_and_comes_back(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        link = Link(broker.port)
        await link.start()
        async with HallHarness(tmp_path, broker.address) as hall:
            lonely = SimBoard(tmp_path, link.address, 1, broadcast_heartbeat=0.2)
            others = [SimBoard(tmp_path, broker.address, n) for n in (2, 3)]
            sims = [lonely, *others]
            await asyncio.gather(*(s.start() for s in sims))
            registry = hall.server.hall.registry
            feed = lambda: registry.boards[(EVENT, "1", "1")]  # noqa: E731
            try:
                await asyncio.gather(*(s.play(4, resign=False) for s in sims))
                await wait_for(lambda: all(hall.has(s) for s in sims), "the first moves in the hall")
                seen = hall.game(1).seq
                link.cut()   # the network is gone: what the board sends now is lost on the way
                await asyncio.gather(*(s.play(6, resign=False) for s in sims))
                await wait_for(lambda: "silent" in feed().flags(registry.now()), "the hall to flag board 1")
                assert hall.game(1).seq == seen and link.swallowed > 0
                link.restore()
                await asyncio.gather(*(s.play(2) for s in sims))
                await same_games(hall, sims)
                await wait_for(lambda: feed().flags(registry.now()) == [], "board 1 back to normal")
            finally:
                await asyncio.gather(*(s.stop() for s in sims))
                await link.stop()
    asyncio.run(scenario())


def test_the_hall_restarts_and_misses_nothing(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        sims = [SimBoard(tmp_path, broker.address, n) for n in range(1, 6)]
        try:
            async with HallHarness(tmp_path, broker.address) as hall:
                await asyncio.gather(*(s.start() for s in sims))
                await asyncio.gather(*(s.play(4, resign=False) for s in sims))
                await wait_for(lambda: all(hall.has(s) for s in sims), "the first moves in the hall")
            await asyncio.gather(*(s.play(4) for s in sims))   # while the hall is away; the games end
            async with HallHarness(tmp_path, broker.address) as again:
                await same_games(again, sims)
                archive = (await again.http.get(f"/archive/{EVENT}/1.pdn")).text
                assert archive.count("[Board ") == len(sims)
        finally:
            await asyncio.gather(*(s.stop() for s in sims))
    asyncio.run(scenario())


def engine_game(plies: int, seed: int) -> list[str]:
    board, rng, texts = Board("english"), random.Random(seed), []
    for _ in range(plies):
        move = choose_move(board, 1, rng=rng)
        texts.append(board.move_text(move))
        board.push(move)
    return texts


def test_a_board_killed_and_restarted_resumes_its_stream(broker: Mosquitto, tmp_path: Path) -> None:
    texts = engine_game(14, seed=5)
    data = tmp_path / "board-9"

    def dboard(script: list[str]) -> subprocess.Popen[bytes]:
        path = tmp_path / f"script-{len(script)}.txt"
        path.write_text("\n".join(script) + "\n")
        return subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "play", "--script", str(path), "--no-web", "--variant",
             "english", "--human-color", "both", "--opponent", "person", "--settle-ms", "0", "--data-dir",
             str(data), "--broadcast", "--broadcast-broker", broker.address, "--broadcast-event", EVENT,
             "--broadcast-board", "9"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)})

    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            first = dboard([*texts[:8], "wait 600"])
            try:
                await wait_for(lambda: hall.game(9) is not None and len(hall.game(9).plies) == 8,
                               "the first eight plies in the hall")
                game_id = hall.game(9).game
                first.send_signal(signal.SIGKILL)
                first.wait(10)
            finally:
                first.kill()
            second = dboard([*texts[8:], "resign white"])
            assert await asyncio.to_thread(second.wait, 60) == 0
            await wait_for(lambda: hall.game(9).result is not None, "the game's end in the hall")
            [record] = (data / "games").glob("*.pdn")
            assert hall.game(9).game == game_id
            assert moves_of(await hall.pdn(9)) == moves_of(record.read_text())
            assert [t for t, _ in moves_of(await hall.pdn(9))] == texts
    asyncio.run(scenario())
