"""The asyncio Session on the simulated board: events out, commands in, the real engine as opponent."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rig import next_event

from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.session import Session
from engine.core import Engine
from firmware_bridge.device import open_device
from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.profile import load_profile
from firmware_bridge.simulated import SimulatedDevice


class LevelOneEngine:
    """The real engine, at its weakest level (quick)."""

    def __init__(self, variant: str) -> None:
        self.engine = Engine(variant)

    def choose_move(self, board, level):
        return self.engine.choose_move(board, 1, time_limit=0.05)



def _drain(queue: asyncio.Queue) -> list[ev.Event]:
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


def test_session_plays_against_the_engine_on_the_simulated_board(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="black", opponent="engine", settle_ms=50, grace_ms=500,
                        auto_computer=False)   # the person makes the computer's moves, as on a real board
        session = Session(config, board, board, tmp_path, opponent=LevelOneEngine("english"))
        async with session:
            events = session.subscribe()
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            assert session.view()["state"] == "person.idle"
            await session.send(cmd.Lift(5, 1))   # a black man, moved through the virtual board
            await session.send(cmd.Place(4, 0))
            moved = await next_event(events, ev.MoveCommitted)
            assert moved.by == "black"
            await next_event(events, lambda e: isinstance(e, ev.Message) and "The computer" in e.text)
            await session.idle()
            shape = session.controller.computer_shape
            assert shape is not None and session.view()["engine"]["move"] == shape.text
            board.lift(shape.origin)
            for sq in shape.captures:
                board.lift(sq)
            board.place(shape.target)
            second = await next_event(events, ev.MoveCommitted)
            assert second.by == "white" and second.text == shape.text
            await session.idle()
            state = session.view()
            assert [m["text"] for m in state["moves"]] == [moved.text, second.text]
            assert state["turn"] == "black" and len(state["pieces"]) == 24
            await session.send(cmd.Takeback(2))
            await session.idle()
            assert session.view()["state"] == "out_of_sync"
            await session.send(cmd.Command.from_json({"kind": "resign", "color": "black"}))
            over = await next_event(events, ev.GameOver)
            assert over.result == "1-0" and over.reason == "resignation"
        assert len(list((tmp_path / "games").glob("*-english.pdn"))) == 1

    asyncio.run(main())


def test_session_resumes_the_journaled_game(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(10, 10)
        config = Config(variant="international", human_color="both", opponent="person")
        async with Session(config, board, board, tmp_path) as session:
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            ctl = session.controller
            board.lift(ctl.map.rc(ctl.variant.geometry.parse_square("32")))
            board.place(ctl.map.rc(ctl.variant.geometry.parse_square("28")))
            await session.idle()
            assert len(session.controller.records) == 1
            position = session.controller.exp.base
        board2 = SimulatedDevice(10, 10)
        async with Session(config, board2, board2, tmp_path) as again:   # the virtual board sets it up
            await again.idle()
            assert again.view()["state"] == "person.idle" and board2.occupied == position
            assert [m["text"] for m in again.view()["moves"]] == [session.controller.records[0].text]

    asyncio.run(main())


def test_default_engine_runs_in_its_own_process(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine", level=1, engine_time=0.1,
                        auto_computer=False)
        async with Session(config, board, board, tmp_path) as session:
            events = session.subscribe()
            board.set_occupancy(session.controller.exp.base)  # Black (the engine) moves first in English
            await next_event(events, lambda e: isinstance(e, ev.Message) and "The computer" in e.text, 15)
            await session.idle()
            shape = session.controller.computer_shape
            assert shape is not None and shape.text in session.view()["legal_moves"]
            assert session.engines.started is not None and session.engines.started.worker.alive
        assert session.engines.started is None

    asyncio.run(main())


def test_brightness_dims_what_the_board_shows_not_what_the_game_says() -> None:
    """Config.brightness scales the colors sent to the LEDs; the controller's frame stays whole."""
    async def main() -> None:
        board = SimulatedDevice(10, 10)
        config = Config(variant="international", human_color="both", opponent="person", brightness=0.25,
                        auto_computer=False)   # the pieces are put on by hand
        async with Session(config, board, board) as session:
            await session.idle()   # an empty board: the start squares are lit to be filled
            frame = session.controller.frame
            assert frame.lights and board.frame.lights
            assert board.frame == frame.dimmed(0.25) != frame
            (sq, light), (shown_sq, shown) = frame.lights[0], board.frame.lights[0]
            assert shown_sq == sq and shown.pattern == light.pattern
            assert shown.rgb.r == round(light.rgb.r / 4) and shown.rgb.b == round(light.rgb.b / 4)

    asyncio.run(main())


def test_the_simulated_board_follows_the_variant_size(tmp_path: Path) -> None:
    """Issue 13 item 1: international (10x10) then spanish and turkish (8x8) from the page's New game."""
    async def main() -> None:
        board = SimulatedDevice(10, 10)
        config = Config(variant="international", human_color="both", opponent="person")
        async with Session(config, board, board, tmp_path) as session:
            for variant in ("spanish", "turkish", "international"):
                events = session.subscribe()
                await session.send(cmd.NewGame(variant, "both", "person"))
                await session.idle()
                size = (session.controller.variant.height, session.controller.variant.width)
                assert (board.rows, board.cols) == size
                assert (session.view()["rows"], session.view()["cols"]) == size
                assert board.occupied == session.controller.exp.base   # its pieces set themselves up
                assert session.view()["state"] == "person.idle", variant
                errors = [e for e in _drain(events) if isinstance(e, ev.Message) and e.level == "error"]
                assert errors == []

    asyncio.run(main())


def test_a_real_board_refuses_a_variant_of_another_size(tmp_path: Path) -> None:
    """Issue 13 item 1: a physical board cannot change size: one message naming both sizes."""
    async def main() -> None:
        profile = load_profile("8x8-gpio")
        matrix = SwitchMatrix(8, 8, diodes=profile.sensors.diodes)
        board = open_device(profile, gpio=GPIOModel(matrix, profile.gpio.row_pins, profile.gpio.col_pins),
                            spi=False)
        config = Config(variant="english", human_color="both", opponent="person")
        try:
            async with Session(config, board, board, tmp_path) as session:
                events = session.subscribe()
                await session.send(cmd.NewGame("international", "both", "person"))
                await session.idle()
                (refusal,) = [e for e in _drain(events) if isinstance(e, ev.Refusal)]
                assert "this board is 8x8; International draughts is played on 10x10" in refusal.message
                assert session.controller.variant.id == "english"
        finally:
            board.close()

    asyncio.run(main())


@pytest.mark.parametrize(("fen", "accepts"), [
    ("W:W32,31,30,29,28:B1", True),      # the computer (black) has one man against five: it takes the draw
    ("W:W32:B1,2,3,4,5", False),         # it has five against one: it plays on
])
def test_the_computer_answers_a_draw_offer(tmp_path: Path, fen: str, accepts: bool) -> None:
    """Issue 13 item 13: the engine answers a person's draw offer by what its search sees."""
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine", level=5, engine_time=0.5)
        async with Session(config, board, board, tmp_path) as session:
            await session.send(cmd.NewGame("english", "white", "engine", 5, fen=fen))
            await session.idle()
            events = session.subscribe()
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            assert session.view()["state"] == "person.idle"
            await session.send(cmd.OfferDraw("white"))
            answer = await next_event(events, lambda e: isinstance(e, ev.Message) and (
                e.text.startswith("Black declines") or e.text.startswith("Game over")), 20)
            assert ("Game over" in answer.text) is accepts, answer.text

    asyncio.run(main())


def test_konane_removals_and_alquerque_on_the_simulated_board(tmp_path: Path) -> None:
    """The computer's Konane removal plays itself on the simulated board as a lift with no place; the person's
    removal is a lift; then the 5x5 board takes an Alquerque game (docs/rules/hawaii.md, alquerque.md)."""
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="hawaii", human_color="white", opponent="engine", settle_ms=50)
        session = Session(config, board, board, tmp_path, opponent=LevelOneEngine("hawaii"))
        events = session.subscribe()
        async with session:                                       # the virtual board sets itself up
            first = await next_event(events, ev.MoveCommitted)   # Black, the computer, takes a piece off
            assert first.by == "black" and first.text in ("a8xa8", "h1xh1", "d5xd5", "e4xe4")
            await session.idle()
            assert len(board.occupied) == 63 and session.view()["state"] == "person.idle"
            every = frozenset((r, c) for r in range(8) for c in range(8))
            (hole,) = every - session.controller.exp.base
            mine = next(s for s in session.controller.exp.shapes if s.move.is_removal)
            assert abs(mine.origin[0] - hole[0]) + abs(mine.origin[1] - hole[1]) == 1
            board.lift(mine.origin)
            second = await next_event(events, ev.MoveCommitted)
            assert second.by == "white" and second.text == mine.text
            third = await next_event(events, ev.MoveCommitted)   # the computer's first capture plays itself
            assert third.by == "black" and "x" in third.text and len(board.occupied) == 61
            await session.send(cmd.NewGame("alquerque", "both", "person"))
            await session.idle()
            assert [e for e in _drain(events) if isinstance(e, ev.Message) and e.level == "error"] == []
            assert (board.rows, board.cols) == (5, 5) and board.occupied == session.controller.exp.base
            assert session.view()["state"] == "person.idle" and len(session.view()["legal_moves"]) == 4

    asyncio.run(main())
