"""A whole international game replayed as physical actions through firmware, serial bridge and controller.

The game is tests/data/pdn-corpus/succeed/schildpad.pdn, game 26 (10x10II, OnTheCover - schildpad, 0-2):
138 plies, 34 captures of which 3 take several pieces (plies 13: 39x19, 64: 22x44, 114: the king's 46x45),
a promotion for each side (plies 110: 41-46, 111: 10-5) with long king moves after them, and an end in which
White has no piece left, so the controller must end the game by itself.

Every move is made on the simulated reed-switch matrix of the real AVR firmware running on simavr; the
real ``SerialDevice`` reads it over the harness's pty and the asyncio ``Session`` (wired as ``dboard play``
wires it, on the monotonic clock) commits the moves. Captures are made in four hand orders in turn (piece
first, captured pieces first, captured pieces while the piece is in the hand, mixed), and each lift or
placement is awaited until the controller has seen it. The PDN the controller writes at the end must give the
record's moves, final position and winner.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from board_sim import BoardSim

from controller import events as ev
from controller.config import Config
from controller.journal import JOURNAL_NAME, read_journal
from controller.session import Session
from firmware_bridge.clock import MonotonicClock
from firmware_bridge.serial_backend import SerialDevice
from firmware_bridge.types import Cell
from rules import Board, get_variant
from rules.pdn import PdnGame, read_games, validate_game

GAME_FILE = Path(__file__).resolve().parents[1] / "data" / "pdn-corpus" / "succeed" / "schildpad.pdn"
GAME_NUMBER = 26
WAIT = 10.0  # bound for one physical action to reach the controller (milliseconds of simulated time)
WINNER = {"2-0": "white", "1-0": "white", "0-2": "black", "0-1": "black", "1-1": "draw", "1/2-1/2": "draw"}


def load_record(text: str, number: int = 1) -> PdnGame:
    """Game ``number`` of a PDN text, validated against the rules (every move must be legal)."""
    game = next(g for g in read_games(text) if g.number == number)
    errors = validate_game(game)
    assert not errors and not game.errors, f"game {number} does not validate: {errors or game.errors}"
    return game


def canonical(game: PdnGame) -> tuple[list[str], str]:
    """The game's moves in the rules core's notation, and the FEN after the last one."""
    board = Board(get_variant(game.variant_id or "international"))
    texts = []
    for node in game.moves:
        texts.append(board.move_text(node.move))  # type: ignore[arg-type]
        board.push(node.move)  # type: ignore[arg-type]
    return texts, board.fen()


class Table:
    """The physical board: the simulated matrix, and what the player's hands have done to it so far."""

    def __init__(self, sim: BoardSim, session: Session) -> None:
        self.sim, self.session = sim, session
        self.occupied: set[Cell] = set()

    async def until(self, done: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """Wait (bounded) until ``done()`` holds on the session's loop."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                ctl = self.session.controller
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; controller {ctl!r}, "
                                     f"last message {ctl.messages[-1] if ctl.messages else None}")
            await asyncio.sleep(0.005)

    async def act(self, verb: str, square: Cell, why: str) -> None:
        """Lift or place one piece, then wait until the controller has seen the board as it now is."""
        if verb == "lift":
            assert square in self.occupied, f"{why}: no piece on {square} to lift"
            self.occupied.discard(square)
            self.sim.lift(*square)
        else:
            assert square not in self.occupied, f"{why}: {square} is already occupied"
            self.occupied.add(square)
            self.sim.place(*square)
        expected = frozenset(self.occupied)
        await self.until(lambda: self.session.controller.occupancy == expected,
                         f"the controller to see '{verb} {square}' ({why})")


def actions(ply: int, origin: Cell, target: Cell,
            captures: tuple[Cell, ...]) -> list[tuple[str, Cell]]:
    """The hand movements for one move, in one of four orders people use (chosen by the ply number)."""
    lift_caps = [("lift", sq) for sq in captures]
    if not captures:
        return [("lift", origin), ("place", target)]
    order = ply % 4
    if order == 0:   # move the piece, then take off the captured pieces
        return [("lift", origin), ("place", target), *lift_caps]
    if order == 1:   # take off the captured pieces (last jumped first), then move the piece
        return [*reversed(lift_caps), ("lift", origin), ("place", target)]
    if order == 2:   # piece in the hand while the captured pieces come off
        return [("lift", origin), *lift_caps, ("place", target)]
    return [("lift", origin), lift_caps[0], ("place", target), *lift_caps[1:]]


async def replay_on_board(record: PdnGame, sim: BoardSim, journal: Path) -> tuple[str, list[ev.Event]]:
    """Play ``record`` by hand on the simulated board; the controller's PDN at the end, and its events."""
    config = Config(variant="international", human_color="both", opponent="person")
    board = SerialDevice(sim.port, rows=10, cols=10)
    session = Session(config, board, board, journal, clock=MonotonicClock())
    log: list[ev.Event] = []
    try:
        async with session:
            events = session.subscribe()
            synced = await asyncio.to_thread(board.wait_synced, WAIT)
            assert synced, f"{board!r} never synced with the firmware"
            table = Table(sim, session)
            ctl = session.controller
            for cell in sorted(ctl.exp.base):
                await table.act("place", cell, "setting up the start position")
            await table.until(lambda: ctl.state == "person.idle", "the start position to be recognised")

            for ply, node in enumerate(record.moves, 1):
                move = node.move
                shape = ctl.exp.shape_of(move)  # type: ignore[arg-type]
                label = f"ply {ply} ({node.text})"
                assert shape is not None, f"{label} is illegal in the controller's {ctl.game.board.fen()}"
                for verb, cell in actions(ply, shape.origin, shape.target, shape.captures):
                    await table.act(verb, cell, f"{label}: {verb} {ctl.map.name(cell)}")
                await table.until(lambda ply=ply: len(ctl.records) >= ply, f"{label} to be committed")
                assert ctl.records[-1].text == shape.text, f"{label}: committed {ctl.records[-1].text}"
                assert ctl.occupancy == ctl.exp.base, f"{label}: the board and the game disagree"

            await table.until(lambda: ctl.state == "game_over", "the game to end after the last move")
            await session.idle()
            while not events.empty():
                event = events.get_nowait()
                if isinstance(event, ev.Refusal | ev.OutOfSync | ev.GameOver):
                    log.append(event)
            assert board.stats.gaps == 0, f"the serial link lost changes: {board.stats}"
            return ctl.pdn(), log
    finally:
        board.close()


def test_whole_game_through_firmware_bridge_and_controller(tmp_path: Path) -> None:
    record = load_record(GAME_FILE.read_text(encoding="utf-8"), GAME_NUMBER)
    want_moves, want_fen = canonical(record)
    assert len(want_moves) == 138 and want_fen == "W:W:B2,K26,28"   # the game this test was written for

    with BoardSim(rows=10, cols=10) as sim:
        exported, log = asyncio.run(replay_on_board(record, sim, tmp_path))

    [game_file] = (tmp_path / "games").glob("*.pdn")   # each game has its own file
    written = game_file.read_text(encoding="utf-8")
    assert written == exported, "the PDN written at the game's end differs from the controller's PDN"
    played = load_record(exported)
    got_moves, got_fen = canonical(played)
    for ply, (got, want) in enumerate(zip(got_moves, want_moves, strict=False), 1):
        assert got == want, f"ply {ply}: the controller recorded {got}, the game's record has {want}"
    assert len(got_moves) == len(want_moves)
    assert [node.move for node in played.moves] == [node.move for node in record.moves]
    assert got_fen == want_fen
    assert WINNER[played.result] == WINNER[record.result] == "black", (played.result, record.result)
    assert [e for e in log if not isinstance(e, ev.GameOver)] == [], "a correct move was refused"
    ends = [e for e in log if isinstance(e, ev.GameOver)]
    assert len(ends) == 1 and WINNER[ends[0].result] == "black", ends

    journal = read_journal(tmp_path / JOURNAL_NAME)   # what a restart after a power cut would replay
    assert journal is not None and journal.ended is not None and WINNER[journal.ended["result"]] == "black"
    assert [r.text for r in journal.records] == want_moves
    assert journal.records[-1].fen == want_fen
