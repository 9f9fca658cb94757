"""Simulated hall boards: real Sessions on simulated boards, publishing through the real Publisher, their
games chosen by the engine (level 1) for both sides; and a hall, all on the test's asyncio loop."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from controller import commands as cmd
from controller import events as ev
from controller.broadcast.publisher import Publisher
from controller.broadcast.tail import JournalTail
from controller.config import Config
from controller.journal import JOURNAL_NAME
from controller.session import Session
from engine import Engine
from firmware_bridge.simulated import SimulatedDevice
from hall.config import HallConfig
from hall.server import HallServer
from rules import Board, get_variant
from rules.options import to_json
from rules.pdn import read_games

EVENT = "open"


class SimBoard:
    """Board ``number`` of round ``round_``: a Session publishing to ``broker``, its data under ``folder``."""

    def __init__(self, folder: Path, broker: str, number: int, *, round_: str = "1", variant: str = "english",
                 seed: int = 0, **config: Any) -> None:
        size = get_variant(variant).height
        self.device = SimulatedDevice(size, size, debounce=0.0)
        self.config = Config(variant=variant, human_color="both", opponent="person", settle_ms=0,
                             data_dir=str(folder / f"board-{number}"), broadcast=True,
                             broadcast_broker=broker,
                             broadcast_event=EVENT, broadcast_round=round_, broadcast_board=str(number),
                             broadcast_white=f"White {number}", broadcast_black=f"Black {number}",
                             **config)
        self.number = number
        self.rng = random.Random(seed or number)
        self.engine = Engine(variant)
        self.session: Session | None = None
        self.publisher: Publisher | None = None

    async def start(self, time_control: str | None = "5+3") -> None:
        self.session = Session(self.config, self.device, self.device, self.config.data_path)
        await self.session.start()
        if time_control is not None and not self.session.controller.records:
            s = self.session.controller.settings
            await self.session.send(cmd.NewGame(s.variant.id, "both", "person", s.level,
                                                time_control=time_control,
                                                variant_options=to_json(s.variant.option_values())))
            await self.session.idle()
        self.device.set_occupancy(self.session.controller.exp.base)
        await self.session.idle()
        self.publisher = Publisher.for_session(self.session, self.config)
        await self.publisher.start()

    async def stop(self) -> None:
        if self.publisher is not None:
            await self.publisher.stop()
        if self.session is not None:
            await self.session.stop()

    async def move(self) -> str:
        """The engine's (level 1) move for the side to move, made on the board by hand; its text."""
        assert self.session is not None
        ctl = self.session.controller
        move = self.engine.choose_move(ctl.game.board, 1, rng=self.rng)
        shape = next(s for s in ctl.exp.shapes if s.move == move)
        queue = self.session.subscribe()
        try:
            self.device.lift(shape.origin)
            for cell in shape.captures:
                self.device.lift(cell)
            self.device.place(shape.target)
            while not isinstance(await asyncio.wait_for(queue.get(), 10), ev.MoveCommitted):
                pass
            await self.session.idle()
        finally:
            self.session.unsubscribe(queue)
        return shape.text

    async def play(self, plies: int, resign: bool = True) -> None:
        """Make ``plies`` plies (fewer if the game ends), then White resigns."""
        assert self.session is not None
        ctl = self.session.controller
        for _ in range(plies):
            if ctl.turn_state == "game_over":
                return
            await self.move()
        if resign and ctl.turn_state != "game_over":
            await self.session.send(cmd.Resign("white"))
            await self.session.idle()

    @property
    def over(self) -> bool:
        return self.session is not None and self.session.controller.turn_state == "game_over"

    def pdn(self) -> str:
        assert self.session is not None
        return self.session.pdn()


def journal_entries(moves: tuple[str, ...] = ("11-15", "23-19")) -> list[dict[str, Any]]:
    """A board's journal of an English game of `moves`, as it publishes it: the start, then each move."""
    board, out = Board("english"), [{"type": "start", "settings": {"variant": "english", "fen": None},
                                     "started": "2026-12-01T10:00:00"}]
    for text in moves:
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        out.append({"type": "move", "text": text, "fen": board.fen(), "by": by, "clocks": [60, 60]})
    return out


def moves_of(pdn: str) -> list[tuple[str, Any]]:
    """(move, clock) of every main-line move of a one-game PDN text, read by the project's reader."""
    [game] = read_games(pdn)
    assert not game.errors, game.errors
    return [(m.text, m.clock) for m in game.moves]


async def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait (on the loop, yielding) until ``condition()`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


class HallHarness:
    """A HallServer on the test's loop, and an HTTP client for its pages."""

    def __init__(self, folder: Path, broker: str, **config: Any) -> None:
        self.config = HallConfig(broker=broker, port=0, data_dir=str(folder / "hall"), prefix="dboard",
                                 **config)
        self.server = HallServer(self.config)
        self.http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> HallHarness:
        await self.server.start()
        await asyncio.wait_for(self.server.hall.connected.wait(), 10)
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{self.server.port}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.http is not None:
            await self.http.aclose()
        await self.server.stop()

    def game(self, board: int, round_: str = "1") -> Any:
        feed = self.server.hall.registry.boards.get((EVENT, round_, str(board)))
        return feed.game if feed is not None else None

    def has(self, sim: SimBoard) -> bool:
        """Whether the hall holds the board's whole journal (read afresh from the board's disk)."""
        tail = JournalTail(sim.config.data_path / JOURNAL_NAME)
        tail.read()
        game = self.game(sim.number, sim.config.broadcast_round)
        return game is not None and game.game == tail.game and game.seq == len(tail.entries)

    async def pdn(self, board: int, round_: str = "1") -> str:
        assert self.http is not None
        reply = await self.http.get(f"/pdn/{EVENT}/{round_}/{board}.pdn")
        assert reply.status_code == 200, reply.text
        return reply.text


async def gather(*jobs: Awaitable[Any]) -> list[Any]:
    return list(await asyncio.gather(*jobs))


class LoopThread:
    """An asyncio loop on a thread of its own, for tests that drive a browser from the main thread."""

    def __init__(self) -> None:
        import threading

        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="hall-test-loop", daemon=True)
        self._thread.start()

    def run(self, coro: Awaitable[Any], timeout: float = 60.0) -> Any:
        async def runner() -> Any:
            return await coro
        return asyncio.run_coroutine_threadsafe(runner(), self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
