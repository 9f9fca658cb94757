"""A full or read-only card, on the Session (issue 20 item 3): a move or a new game that cannot be saved is
refused out loud and changes nothing, a retry works once the card takes writes again, and what the data
directory holds at start is said. Each test runs on a real tmpfs when one can be mounted, and always on the
fault-injecting wrapper; a card turning read-only mid-game only on the wrapper: a filesystem cannot be
remounted read-only by hand while the board holds its journal open for writing (a card goes read-only under
a running program only when the kernel remounts it after write errors, which a tmpfs never has)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from card import FaultCard, TmpfsCard, open_card
from journals import begin, play
from rig import next_event, until

from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.journal import JOURNAL_NAME, scan
from controller.machine import RETRY_SECONDS
from controller.session import Session
from firmware_bridge.clock import ManualClock
from firmware_bridge.simulated import SimulatedDevice

CARDS = ["card", "wrapper"]
MID_GAME = [("card", "full"), ("wrapper", "full"), ("wrapper", "read-only")]
WAIT = 10.0


@pytest.fixture(params=CARDS)
def card(request: pytest.FixtureRequest, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[TmpfsCard | FaultCard]:
    """The data directory's card: "card" is a real tmpfs where one can be mounted (else the wrapper),
    "wrapper" the fault-injecting wrapper around the write path."""
    opened = open_card(tmp_path, monkeypatch, request.param)
    yield opened
    opened.close()


def _session(directory: Path, clock: ManualClock) -> tuple[Session, SimulatedDevice]:
    board = SimulatedDevice(8, 8)
    config = Config(variant="english", human_color="both", opponent="person", settle_ms=0)
    return Session(config, board, board, directory, clock=clock), board


def _drain(events: asyncio.Queue[ev.Event]) -> list[ev.Event]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


async def _set_up(session: Session, board: SimulatedDevice) -> asyncio.Queue[ev.Event]:
    """Subscribe to the session's events and set the pieces up."""
    events = session.subscribe()
    board.set_occupancy(session.controller.exp.base)
    await session.idle()
    return events


async def _move(session: Session, board: SimulatedDevice, text: str) -> None:
    """Make ``text`` on the simulated board, the way a hand does: lift, take off, place."""
    ctl = session.controller
    shape = ctl.exp.shape_of(ctl.game.board.parse_move(text))
    assert shape is not None
    board.lift(shape.origin)
    for square in shape.captures:
        board.lift(square)
    board.place(shape.target)
    await session.idle()


FAULTS = {"full": ("fill", "free", "the card is full"),
          "read-only": ("read_only", "writable", "the card is read-only")}


@pytest.mark.parametrize(("card", "fault"), MID_GAME, indirect=["card"])
def test_a_move_that_cannot_be_saved_is_refused_and_saved_when_it_can(
        card: TmpfsCard | FaultCard, fault: str) -> None:
    """Issue 20 item 3: on a full or read-only card the move was rightly not confirmed, but the page said
    nothing and the game froze, even after space was freed. Now: a refusal on the page, in the terminal
    (events) and on the LEDs; the game as it was; the same move saved by itself once the card takes writes."""
    break_it, mend_it, words = FAULTS[fault]

    async def main() -> None:
        clock = ManualClock(0.0)
        session, board = _session(card.path, clock)
        async with session:
            events = await _set_up(session, board)
            await _move(session, board, "9-13")
            await _move(session, board, "22-18")
            getattr(card, break_it)()
            # a full card still takes what fits in the journal's last block: play on until a move is refused
            for _ in range(40):
                before, on_disk = session.view(), (card.path / JOURNAL_NAME).read_bytes()
                ctl = session.controller
                text = min(ctl.game.board.move_text(m) for m in ctl.game.board.legal_moves)
                await _move(session, board, text)
                if len(session.view()["moves"]) == len(before["moves"]):
                    break
            refusal = await next_event(events, ev.Refusal, WAIT)
            assert refusal.message == f"can't save the move: {words}" and refusal.rule == "saving"
            state = session.view()
            assert state["moves"] == before["moves"] and state["turn"] == before["turn"]
            assert state["fen"] == before["fen"]
            assert {"text": f"Refused: can't save the move: {words}", "level": "refusal"} in state["messages"]
            lit = {(light["row"], light["col"]) for light in state["leds"]}
            shape = session.controller.exp.shape_of(session.controller.game.board.parse_move(text))
            assert shape is not None and {shape.origin, shape.target} <= lit   # the LEDs refuse it too
            assert (card.path / JOURNAL_NAME).read_bytes() == on_disk
            retry = session.controller.watch.deadline
            assert retry is not None and retry.kind == "retry"
            clock.advance(RETRY_SECONDS)
            await until("the retry, refused again", lambda: session.controller.watch.deadline is not retry)
            assert session.view()["moves"] == before["moves"]
            assert session.view()["alert"] == {"text": f"Refused: can't save the move: {words}",
                                                "level": "refusal"}
            said_again = [e for e in _drain(events) if isinstance(e, ev.Refusal)]
            assert said_again == [], "a retry that fails again is not said again"
            getattr(card, mend_it)()
            clock.advance(RETRY_SECONDS)
            moved = await next_event(events, ev.MoveCommitted, WAIT)
            assert moved.ply == len(before["moves"]) + 1 and moved.text == text
            saved = [m["text"] for m in session.view()["moves"]]
        found = scan(card.path / JOURNAL_NAME)
        assert found.damage is None and [r.text for r in found.state.records] == saved

    asyncio.run(main())


@pytest.mark.parametrize(("card", "fault"), MID_GAME, indirect=["card"])
def test_a_new_game_that_cannot_be_saved_is_refused_and_the_game_goes_on(
        card: TmpfsCard | FaultCard, fault: str) -> None:
    """Issue 20 item 3: a new game on a full card froze like a move. Now it is refused the same way, the game
    in progress stays (in play and in the journal), and the new game starts once the card takes writes."""
    break_it, mend_it, words = FAULTS[fault]

    async def main() -> None:
        session, board = _session(card.path, ManualClock(0.0))
        async with session:
            events = await _set_up(session, board)
            await _move(session, board, "9-13")
            on_disk = (card.path / JOURNAL_NAME).read_bytes()
            getattr(card, break_it)()
            await session.send(cmd.NewGame("russian", "both", "person", 3))
            await session.idle()
            refusal = await next_event(events, ev.Refusal, WAIT)
            # the game in progress goes to the library first (a stray click loses nothing): that save fails
            assert refusal.message.startswith(f"New game refused: can't save the game: {words}")
            assert refusal.message.endswith("(the game goes on)")
            state = session.view()
            assert state["variant"] == "english" and [m["text"] for m in state["moves"]] == ["9-13"]
            assert state["state"] == "person.idle"
            assert (card.path / JOURNAL_NAME).read_bytes() == on_disk
            getattr(card, mend_it)()
            await session.send(cmd.NewGame("russian", "both", "person", 3))
            await session.idle()
            assert session.view()["variant"] == "russian"
        assert scan(card.path / JOURNAL_NAME).state.header["settings"]["variant"] == "russian"

    asyncio.run(main())


@pytest.mark.parametrize(("card", "fault"), MID_GAME, indirect=["card"])
def test_a_finished_game_that_cannot_be_saved_stays_in_the_journal_until_it_can(
        card: TmpfsCard | FaultCard, fault: str) -> None:
    """Issue 20 item 2: a full card at the end of a game always lost it, and the only message was about the
    rating. Now the player is told, the game stays in the journal, a new game is refused until the PDN is
    in the library, and the next new game writes it first."""
    break_it, mend_it, words = FAULTS[fault]

    async def main() -> None:
        session, board = _session(card.path, ManualClock(0.0))
        async with session:
            events = await _set_up(session, board)
            await _move(session, board, "9-13")
            getattr(card, break_it)()
            await session.send(cmd.Resign("white"))
            await session.idle()
            await next_event(events, ev.GameOver, WAIT)
            said = [m["text"] for m in session.view()["messages"] if m["level"] == "error"]
            assert any(f"can't save the end of the game: {words}" in m or
                       f"can't save the finished game: {words}" in m for m in said), said
            await session.send(cmd.NewGame("english", "both", "person", 3))
            await session.idle()
            assert session.view()["result"] is not None, "the finished game is still on the board"
            assert not list((card.path / "games").glob("*.pdn"))
            getattr(card, mend_it)()
            await session.send(cmd.NewGame("english", "both", "person", 3))
            await session.idle()
            assert session.view()["result"] is None
        [pdn] = (card.path / "games").glob("*.pdn")
        assert '[Result "0-1"]' in pdn.read_text() and "9-13" in pdn.read_text()

    asyncio.run(main())


def test_a_start_on_a_card_that_cannot_be_written_says_so_and_the_board_starts(
        card: TmpfsCard | FaultCard) -> None:
    """Issue 20 item 3: a data directory that became read-only was not reported at start."""
    record = begin(card.path)
    play(record, 2)
    assert record.journal is not None
    record.journal.close()   # that board was switched off
    card.read_only()

    async def main() -> None:
        session, _ = _session(card.path, ManualClock(0.0))
        async with session:
            said = session.view()["messages"]
            assert {"text": f"The data directory {card.path} cannot be written (the card is read-only): "
                            f"moves are refused until it can.", "level": "error"} in said
            assert len(session.view()["moves"]) == 2

    asyncio.run(main())


def test_a_start_with_less_than_a_mebibyte_free_says_so(card: TmpfsCard | FaultCard) -> None:
    begin(card.path)
    card.fill(leave=256 * 1024)

    async def main() -> None:
        session, _ = _session(card.path, ManualClock(0.0))
        async with session:
            said = [m["text"] for m in session.view()["messages"] if m["level"] == "warning"]
            assert any(f"directory {card.path} has only" in m and "KiB free" in m for m in said), said

    asyncio.run(main())


def test_a_damaged_journal_on_a_read_only_card_is_set_aside_before_the_next_move(
        card: TmpfsCard | FaultCard) -> None:
    """Damage found while nothing can be written: the board starts on the valid prefix, says the journal could
    not be set aside yet, and does so before the next move is saved."""
    record = begin(card.path)
    play(record, 2)
    assert record.journal is not None
    record.journal.close()   # that board was switched off
    path = card.path / JOURNAL_NAME
    with open(path, "ab") as fh:
        fh.write(b"torn")
    card.read_only()

    async def main() -> None:
        clock = ManualClock(0.0)
        session, board = _session(card.path, clock)
        async with session:
            events = session.subscribe()
            errors = [m["text"] for m in session.view()["messages"] if m["level"] == "error"]
            assert any("could not be set aside (the card is read-only)" in m for m in errors), errors
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            board_now = session.controller.game.board
            await _move(session, board, min(board_now.move_text(m) for m in board_now.legal_moves))
            await next_event(events, ev.Refusal, WAIT)
            card.writable()
            clock.advance(RETRY_SECONDS)
            await next_event(events, ev.MoveCommitted, WAIT)
        found = scan(path)
        assert found.damage is None and len(found.state.records) == 3
        [copy] = card.path.glob(f"{JOURNAL_NAME}.damaged-*")
        assert copy.read_bytes().endswith(b"torn")

    asyncio.run(main())
