"""Issue 28 items 2, 3 and 6 through the Session: the virtual board moves the pieces the game moves (a
takeback, a wrong exercise try, the set-up of every new position) and says what it did; a physical board (the
same switches behind a MappedDevice, as a GPIO or serial board is seen) is told what to set up and move."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rig import until

from controller import commands as cmd
from controller.config import Config
from controller.session import Session
from engine.exercises import load
from firmware_bridge.clock import ManualClock
from firmware_bridge.device import MappedDevice
from firmware_bridge.gpio_model import SwitchMatrix
from firmware_bridge.orientation import Orientation
from firmware_bridge.simulated import SimulatedDevice
from rules import Board, Move

CHECK = 5.0   # the config's sensor_check_ms, in seconds
REPLAY = ('[Event "Manchester 1841"]\n[GameType "21"]\n\n'
          '1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 *\n')


class FirstMove:
    """The computer's player: the first legal move by its text (quick, the same every run)."""

    def choose_move(self, board: Board, level: int) -> Move:
        return min(board.legal_moves, key=board.move_text)


def physical(hand: SimulatedDevice) -> MappedDevice:
    """What the Session sees of a physical board whose switches ``hand`` works: not a SimulatedDevice."""
    squares = frozenset((r, c) for r in range(hand.rows) for c in range(hand.cols))
    return MappedDevice(hand, Orientation(hand.rows, hand.cols), squares)


def play(hand: SimulatedDevice, session: Session, text: str) -> None:
    """Make a legal move with the pieces: lift it, take off what it jumps, put it down."""
    shape = session.controller.exp.shape_of(session.controller.game.board.parse_move(text))
    assert shape is not None, f"{text} is not legal here"
    hand.lift(shape.origin)
    for cell in shape.captures:
        hand.lift(cell)
    hand.place(shape.target)


async def send(session: Session, command: cmd.Command) -> None:
    outcome = await (await session.send(command))
    assert outcome.status == "done", outcome.reason
    await session.idle()


async def checked(session: Session, clock: ManualClock) -> None:
    """Let the health's check time pass with the board still, and the session look at it."""
    clock.advance(CHECK + 1)
    await asyncio.sleep(0.1)   # the session's ticker sees the deadline
    await session.idle()


def said(session: Session, since: int = 0) -> list[str]:
    return [m["text"] for m in list(session.controller.messages)[since:]]


def test_a_takeback_plays_itself_and_no_fault_is_found_afterwards(tmp_path: Path) -> None:
    """Before: the pieces stayed as they were, the game out of sync, and after the check time the simulated
    board was said to have stuck and dead reeds."""
    async def main() -> None:
        clock = ManualClock(10.0)
        board = SimulatedDevice(8, 8, clock=clock, matrix=SwitchMatrix(8, 8))   # reeds that could fail
        config = Config(variant="english", human_color="white", opponent="engine")
        async with Session(config, board, board, tmp_path, opponent=FirstMove(), clock=clock) as session:
            ctl = session.controller
            await until("the computer's first move", lambda: ctl.state == "person.idle" and ctl.records)
            play(board, session, "22-18")
            await until("the computer's answer", lambda: ctl.state == "person.idle" and len(ctl.records) == 3)
            await session.idle()
            await send(session, cmd.Takeback(2))
            assert ctl.state == "person.idle" and len(ctl.records) == 1
            assert board.occupied == ctl.exp.base
            assert "Took back 2 plies." in said(session)
            await checked(session, clock)
            assert session.health.faults == [] and not [t for t in said(session) if "seems" in t]
            assert ctl.state == "person.idle"

    asyncio.run(main())


def test_a_wrong_exercise_try_is_taken_back_by_the_virtual_board(tmp_path: Path) -> None:
    exercise = next(e for e in load("english").exercises if e.kind == "shot")
    position = Board("english", exercise.fen)
    wrong = next(text for text in map(position.move_text, position.legal_moves) if text != exercise.solution)

    async def main() -> None:
        clock = ManualClock(10.0)
        board = SimulatedDevice(8, 8, clock=clock, matrix=SwitchMatrix(8, 8))   # reeds that could fail
        config = Config(variant="english", human_color="white", opponent="person")
        async with Session(config, board, board, tmp_path, clock=clock) as session:
            ctl = session.controller
            await session.idle()
            await send(session, cmd.StartExercise("english", exercise.id))
            assert ctl.state == "person.idle" and board.occupied == ctl.exp.base
            play(board, session, wrong)
            await session.idle()
            [verdict] = [t for t in said(session) if t.startswith(f"{wrong} is not it")]
            assert "Try again (or ask for a hint)." in verdict and "Put the pieces back" not in verdict
            assert ctl.state == "person.idle" and not ctl.records and board.occupied == ctl.exp.base
            await checked(session, clock)
            assert session.health.faults == [] and ctl.state == "person.idle"
            play(board, session, exercise.solution)
            await session.idle()
            assert session.view()["lesson"]["solved"]

    asyncio.run(main())


def test_the_virtual_board_sets_itself_up_for_every_new_position(tmp_path: Path) -> None:
    """Before: each new position waited in set-up, saying "set up the start position" (a FEN or an exercise
    too). Now the pieces stand at once: a new game of another size, a FEN, an exercise, a replay."""
    exercise = next(e for e in load("english").exercises if e.kind == "shot")
    commands: list[tuple[cmd.Command, str]] = [
        (cmd.NewGame("english", "both", "person"), "person.idle"),
        (cmd.SetupPosition("W:W18,22,K30:B11,14"), "person.idle"),
        (cmd.StartExercise("english", exercise.id), "person.idle"),
        (cmd.StartReplay(pdn=REPLAY), "computer.showing"),
        (cmd.NewGame("international", "both", "person"), "person.idle"),
    ]

    async def main() -> None:
        board = SimulatedDevice(10, 10)
        config = Config(variant="international", human_color="both", opponent="person")
        async with Session(config, board, board, tmp_path) as session:
            ctl = session.controller
            await session.idle()
            assert ctl.state == "person.idle" and board.occupied == ctl.exp.base   # at the start, too
            for command, state in commands:
                since = len(ctl.messages)
                await send(session, command)
                assert ctl.state == state, command
                assert (board.rows, board.cols) == (ctl.variant.height, ctl.variant.width)
                assert board.occupied == ctl.exp.base, command
                asked = [t for t in said(session, since) if "set up the" in t.lower()]
                assert not asked, asked
            assert "New game of International draughts." in said(session)

    asyncio.run(main())


def test_a_physical_board_is_told_what_to_set_up(tmp_path: Path) -> None:
    async def main() -> None:
        hand = SimulatedDevice(8, 8)
        board = physical(hand)
        config = Config(variant="english", human_color="both", opponent="person")
        async with Session(config, board, board, tmp_path) as session:
            ctl = session.controller
            await session.idle()
            assert ctl.state == "setup" and not hand.occupied
            assert "New game of English draughts: set up the start position." in said(session)
            hand.set_occupancy(ctl.exp.base)
            await session.idle()
            assert ctl.state == "person.idle"
            await send(session, cmd.SetupPosition("W:W18,22,K30:B11,14"))
            assert ctl.state == "setup"
            assert said(session)[-1] == ("New game of English draughts: set up the position shown: the lit "
                                         "squares say what to empty and fill.")
            hand.set_occupancy(ctl.exp.base)
            await session.idle()
            play(hand, session, "18x9")
            await session.idle()
            await send(session, cmd.Takeback(1))
            assert ctl.state == "out_of_sync" and hand.occupied != ctl.exp.base   # nobody moved them yet
            assert said(session)[-1] == "Took back 1 ply: put the pieces back as the LEDs show."

    asyncio.run(main())


def test_a_virtual_board_set_up_by_hand_names_the_button_that_does_it(tmp_path: Path) -> None:
    """With its pieces moved by hand (auto_computer off, as on a real board) the virtual board waits, and
    the message names what does the set-up for you."""
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="both", opponent="person", auto_computer=False)
        async with Session(config, board, board, tmp_path) as session:
            await session.idle()
            assert session.controller.state == "setup" and not board.occupied
            assert said(session)[-1] == ("New game of English draughts: set up the start position (Arrange "
                                         "pieces on the page, `setup` at the console, does it).")

    asyncio.run(main())


@pytest.mark.parametrize("kind", ["virtual", "physical"])
def test_the_messages_say_what_the_board_did_or_what_the_hands_must_do(tmp_path: Path, kind: str) -> None:
    """Before: on the virtual board "The computer (black) plays 25-29: move the piece as the LEDs show" after
    it had moved itself, "Crown the piece on 29: put a second piece on it", and a replay's moves announced as
    the computer's."""
    async def main() -> None:
        hand = SimulatedDevice(8, 8)
        board = hand if kind == "virtual" else physical(hand)
        config = Config(variant="english", human_color="white", opponent="engine")
        async with Session(config, board, board, tmp_path, opponent=FirstMove()) as session:
            ctl = session.controller
            await session.idle()
            hand.set_occupancy(ctl.exp.base)
            await session.idle()
            await send(session, cmd.NewGame("english", "white", "engine", fen="B:W5:B25"))
            hand.set_occupancy(ctl.exp.base)
            await until("the computer's move", lambda: ctl.computer_shape is not None or ctl.records)
            await session.idle()
            if kind == "physical":
                assert said(session)[-1] == ("The computer (black) plays 25-29: move the piece as the LEDs "
                                             "show.")
                play(hand, session, "25-29")
                await session.idle()
            assert ctl.state == "person.idle" and [r.text for r in ctl.records] == ["25-29"]
            play(hand, session, "5-1")
            await session.idle()
            if kind == "virtual":
                assert said(session)[-3:-1] == ["The computer (black) played 25-29.",
                                                "The man on 29 is crowned."]
                assert said(session)[-1] == "The man on 1 is crowned."
                assert not [t for t in said(session) if " plays " in t or "LEDs" in t]
            else:
                assert "Crown the piece on 29: put a second piece on it." in said(session)
                assert said(session)[-1] == "Crown the piece on 1: put a second piece on it."

            await send(session, cmd.StartReplay(pdn=REPLAY))
            hand.set_occupancy(ctl.exp.base)
            await session.idle()
            since = len(ctl.messages)
            for _ in range(2):
                if kind == "virtual":
                    await send(session, cmd.LessonStep("forward"))
                else:
                    assert ctl.computer_shape is not None
                    play(hand, session, ctl.computer_shape.text)
                    await session.idle()
            replayed = said(session, since)
            if kind == "virtual":
                assert replayed == ["Move 1: 11-15.", "Move 1: 24-20."]
            else:
                assert replayed == ["Move 1: 24-20: move the piece as the LEDs show.",
                                    "Move 2: 8-11: move the piece as the LEDs show."]
                assert said(session, since - 1)[0] == "Move 1: 11-15: move the piece as the LEDs show."
            assert not [t for t in replayed if "computer" in t]

    asyncio.run(main())


@pytest.mark.parametrize(("variant", "fen", "missed", "choice", "said_after"), [
    ("spanish-traditional", "W:W12,4:B15,29", "4-8", "huff", "Huff: the piece on 12 is taken off."),
    ("polish", "W:W28,40:B23,1", "40-34", "retract", "40-34 is retracted: capture."),
])
def test_a_missed_capture_answered_moves_the_pieces_itself(tmp_path: Path, variant: str, fen: str,
                                                           missed: str, choice: str, said_after: str) -> None:
    """The huffed man comes off, the retracted man goes back, by themselves: no "take the piece off" asked
    of anybody's hands."""
    async def main() -> None:
        clock = ManualClock(10.0)
        size = Board(variant).variant.height
        board = SimulatedDevice(size, size, clock=clock)
        config = Config(variant=variant, human_color="both", opponent="person")
        async with Session(config, board, board, tmp_path, clock=clock) as session:
            ctl = session.controller
            await send(session, cmd.NewGame(variant, "both", "person", fen=fen))
            assert ctl.state == "person.idle"
            origin, target = (ctl.map.rc(ctl.variant.geometry.parse_square(s)) for s in missed.split("-"))
            board.lift(origin)
            board.place(target)
            await session.idle()
            clock.advance(0.5)
            await until("the missed capture", lambda: ctl.state == "person.missed_capture")
            since = len(ctl.messages)
            await send(session, cmd.MissedCaptureChoice(choice))
            assert ctl.state == "person.idle" and board.occupied == ctl.exp.base
            assert said_after in said(session, since)
            assert not [t for t in said(session, since) if "does not match" in t or "put the piece" in t]

    asyncio.run(main())
