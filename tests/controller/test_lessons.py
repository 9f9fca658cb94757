"""Exercises and replays on the simulated board through the Session: set up by light, tried, stepped."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from rig import until

from controller import commands as cmd
from controller.config import Config
from controller.exercises import ExerciseProgress
from controller.lights import BLUE, CYAN, GREEN, RED, WHITE
from controller.session import Session
from engine.exercises import Exercise, collection_path, load, load_file
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.types import Cell, LedFrame
from rules import Board
from rules.pdn import read_games
from rules.pdn.validate import start_board, variant_of

DATA = Path(__file__).resolve().parents[1] / "data"


def colored(frame: LedFrame | None, *colors: object) -> set[Cell]:
    """The squares lit in any of ``colors``."""
    return {cell for cell, light in (frame.lights if frame else ()) if light.rgb in colors}


async def send(session: Session, command: cmd.Command) -> cmd.CommandOutcome:
    outcome = await (await session.send(command))
    await session.idle()
    return outcome


def play(board: SimulatedDevice, session: Session, text: str) -> None:
    """Make a legal move with the pieces: lift it, take off what it jumps, put it down."""
    ctl = session.controller
    move = ctl.game.board.parse_move(text)
    board.lift(ctl.map.rc(move.from_square))
    for sq in move.captures:
        board.lift(ctl.map.rc(sq))
    board.place(ctl.map.rc(move.to_square))


def choice_at(exercise: Exercise, ply: int) -> bool:
    """The exercise's line is longer than ``ply`` and the position there has more than one legal move."""
    board = Board(exercise.variant, exercise.fen)
    for text in exercise.line[:ply]:
        board.push_text(text)
    return len(exercise.line) > ply + 1 and len(list(board.legal_moves)) > 1


def test_an_exercise_is_set_up_by_light_tried_wrongly_hinted_solved_and_played_out(tmp_path: Path) -> None:
    exercise = next(e for e in load("english").exercises if e.kind == "shot" and choice_at(e, 2))
    position = Board("english", exercise.fen)
    wrong = next(text for text in map(position.move_text, position.legal_moves) if text != exercise.solution)

    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="person", auto_computer=False)
        async with Session(config, board, board, tmp_path) as session:
            ctl = session.controller
            board.set_occupancy(ctl.exp.base)          # the start position stands on the board
            await session.idle()
            assert (await send(session, cmd.StartExercise("english", exercise.id))).status == "done"
            assert ctl.state == "setup" and ctl.game.board.fen() == position.fen()
            assert exercise.task in " ".join(m["text"] for m in ctl.messages)
            target = ctl.exp.base
            steps = [("lift", c) for c in sorted(board.occupied - target)]
            steps += [("place", c) for c in sorted(target - board.occupied)]
            random.Random(18).shuffle(steps)           # the pieces go on and off in any order
            for verb, cell in steps:
                # the LEDs lead: red on every square still to empty, white/blue on every one still to fill
                assert colored(ctl.frame, RED) == board.occupied - target
                assert colored(ctl.frame, WHITE, BLUE) == target - board.occupied
                getattr(board, verb)(cell)
                await session.idle()
            assert ctl.state == "person.idle" and board.occupied == target

            play(board, session, wrong)               # a wrong try: explained, then taken back
            await session.idle()
            said = ctl.messages[-1]["text"]
            assert said.startswith(f"{wrong} is not it") and "Put the pieces back" in said
            assert ctl.state == "out_of_sync" and not ctl.records
            board.set_occupancy(target)               # the pieces put back as the LEDs show
            await session.idle()
            assert ctl.state == "person.idle" and not session.view()["lesson"]["solved"]

            assert (await send(session, cmd.LessonStep("hint"))).status == "done"
            solution = ctl.game.board.parse_move(exercise.solution)
            assert colored(ctl.frame, CYAN) == {ctl.map.rc(solution.from_square)}
            assert ctl.map.rc(solution.to_square) in colored(ctl.frame, GREEN)

            play(board, session, exercise.solution)
            await session.idle()
            assert ctl.messages[-2]["text"].startswith(f"Right: {exercise.solution} is the solution")
            lesson = session.view()["lesson"]
            assert lesson["solved"] and lesson["tries"] == 2 and lesson["player_solved"] == 1
            assert not lesson["finished"]

            # issue 28 item 13: the line goes on, the computer's replies are the line's
            line = Board("english", exercise.fen)
            replies = []
            for text in exercise.line:
                replies.append(line.parse_move(text))
                line.push(replies[-1])
            assert ctl.state == "computer.showing" and ctl.computer_shape.move == replies[1]
            session.table.carry_out_shown_move()           # as auto_computer would on the virtual board
            await session.idle()
            assert ctl.state == "person.idle" and len(ctl.records) == 2
            third = ctl.game.board.move_text(replies[2])
            other = next(t for t in map(ctl.game.board.move_text, ctl.game.board.legal_moves) if t != third)
            played = ctl.exp.base
            play(board, session, other)              # off the line: taken back, the line's move named
            await session.idle()
            assert ctl.messages[-1]["text"].startswith(f"{other} is not the line: it goes on with {third}.")
            assert len(ctl.records) == 2 and session.view()["lesson"]["tries"] == 2
            board.set_occupancy(played)
            await session.idle()
            assert (await send(session, cmd.Hint())).status == "done"   # the hint is the line's move
            assert colored(ctl.frame, CYAN) == {ctl.map.rc(replies[2].from_square)}
            play(board, session, third)
            await session.idle()
            assert ctl.computer_shape.move == replies[3]
            session.table.carry_out_shown_move()
            await session.idle()
            lesson = session.view()["lesson"]
            assert lesson["finished"] and ctl.state == "person.idle" and len(ctl.records) == 4
            following = next(e for e in load("english", verify_engine=False).exercises[
                load("english", verify_engine=False).exercises.index(exercise) + 1:])
            assert lesson["next_exercise"] == following.id
            assert ctl.messages[-1]["text"].startswith(f"The line is played out: exercise {exercise.id} is "
                                                       f"done. Type `next`")

            # next: the exercise after this one; a new exercise asked for: the first one not solved yet
            assert (await send(session, cmd.LessonStep("next"))).status == "done"
            assert session.view()["lesson"]["id"] == following.id and ctl.state == "setup"
            assert (await send(session, cmd.StartExercise("english"))).status == "done"
            first_unsolved = next(e for e in load("english", verify_engine=False).exercises
                                  if e.id != exercise.id)
            assert session.view()["lesson"]["id"] == first_unsolved.id
        progress = json.loads((tmp_path / "exercises.json").read_text())
        assert progress["player"]["english"] == {"solved": [exercise.id], "tries": {exercise.id: 2}}
        assert not list((tmp_path / "games").glob("*.pdn")), "an exercise is no game for the library"

    asyncio.run(main())


def test_an_unknown_exercise_or_variant_is_refused_by_name(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", auto_computer=False)   # the board stays empty: the game in setup
        async with Session(config, board, board, tmp_path) as session:
            await session.idle()
            outcome = await send(session, cmd.StartExercise("english", "english-99"))
            assert outcome.status == "refused" and "no exercise 'english-99' in english" in outcome.reason
            outcome = await send(session, cmd.StartExercise("czech"))
            assert outcome.status == "refused" and "there are no exercises for czech" in outcome.reason
            outcome = await send(session, cmd.LessonStep("hint"))
            assert outcome.status == "refused" and "no exercise or replay under way" in outcome.reason
            # a collection read without the engine's check: the exercise is checked as it is set up
            data = json.loads(collection_path("english").read_text(encoding="utf-8"))
            entry = data["exercises"][0]
            board = Board("english", entry["fen"])
            texts = map(board.move_text, board.legal_moves)
            entry["solution"] = next(t for t in texts if t != entry["solution"])
            (tmp_path / "english.json").write_text(json.dumps(data), encoding="utf-8")
            session.lessons.collections["english"] = load_file(tmp_path / "english.json", verify_engine=False)
            outcome = await send(session, cmd.StartExercise("english", entry["id"]))
            assert outcome.status == "refused"
            assert outcome.reason.startswith(f"exercise {entry['id']}: wrong solution {entry['solution']}: ")
            assert session.view()["lesson"] is None and session.controller.state == "setup"

    asyncio.run(main())


def test_a_replay_steps_forwards_and_backwards_through_a_real_game_with_captures(tmp_path: Path) -> None:
    text = (DATA / "pdn-corpus/succeed/OCA_2.0.pdn").read_text(encoding="utf-8", errors="replace")
    game = read_games(text, validate=True, variant="english")[0]     # a real game, without a GameType tag
    variant = variant_of(game, "english")
    boards = [start_board(game, variant)]
    for node in game.moves:
        after = boards[-1].copy()
        after.push(node.move)
        boards.append(after)
    captures = [i for i, node in enumerate(game.moves) if node.move.captures]
    steps = captures[1] + 2                               # past two captures

    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", auto_computer=True)
        async with Session(config, board, board, tmp_path) as session:
            ctl = session.controller
            session.lessons.review_depth, session.lessons.review_seconds = 2, 1.0
            board.set_occupancy(ctl.exp.base)
            await session.idle()
            assert (await send(session, cmd.StartReplay(pdn=text, variant="english"))).status == "done"
            board.set_occupancy(ctl.exp.base)            # set up as the LEDs show
            await session.idle()
            for ply in range(steps):
                assert ctl.state == "computer.showing"   # the LEDs show the record's next move
                assert ctl.computer_shape is not None
                assert ctl.computer_shape.move == game.moves[ply].move
                assert session.view()["lesson"]["next"] == ctl.computer_shape.text
                assert (await send(session, cmd.LessonStep("forward"))).status == "done"
                assert ctl.game.board.fen() == boards[ply + 1].fen()
            assert [r.text for r in ctl.records] == [boards[i].move_text(n.move)
                                                     for i, n in enumerate(game.moves[:steps])]
            for ply in range(steps, steps - 3, -1):      # back over the second capture
                assert (await send(session, cmd.LessonStep("back"))).status == "done"
                assert ctl.game.board.fen() == boards[ply - 1].fen()
                assert ctl.state == "computer.showing" and board.occupied == ctl.exp.base
            assert len(ctl.records) == steps - 3
            assert (await send(session, cmd.LessonStep("forward"))).status == "done"
            assert ctl.game.board.fen() == boards[steps - 2].fen()
            await until("the review", lambda: len(session.lessons.lesson.reviews) == len(game.moves), 60)
            await session.idle()
            review = session.view()["lesson"]["review"]
            assert review["ply"] == steps - 2 and review["played"] == ctl.records[-1].text
        assert not list((tmp_path / "games").glob("*.pdn")), "a replay is not a new game for the library"

    asyncio.run(main())


def test_a_pdn_that_does_not_validate_cannot_be_replayed(tmp_path: Path) -> None:
    bad = '[GameType "21"]\n[Event "Bad"]\n\n1. 11-15 23-19 2. 8-11 22-18 3. 12-16 *\n'
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        async with Session(Config(variant="english"), board, board, tmp_path) as session:
            await session.idle()
            before = session.view()
            outcome = await send(session, cmd.StartReplay(pdn=bad))
            assert outcome.status == "refused"
            assert "game 1 (Event 'Bad'): move 3. 12-16" in outcome.reason, outcome.reason
            outcome = await send(session, cmd.StartReplay(pdn="1. 11-15 {never closed"))
            assert outcome.status == "refused"
            assert outcome.reason.startswith("cannot replay the PDN text: 1:10: game 1: comment")
            outcome = await send(session, cmd.StartReplay(pdn=bad, game=2))
            assert outcome.status == "refused" and "the PDN text has 1 game, not a game 2" in outcome.reason
            assert session.view()["lesson"] is None and session.view()["fen"] == before["fen"]

    asyncio.run(main())


SHORT = ('[Event "Manchester 1841"]\n[GameType "21"]\n\n'
         '1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 *\n')


def test_a_replay_ends_with_its_record_and_a_restart_does_not_hand_it_to_the_engine(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white")
        async with Session(config, board, board, tmp_path) as session:
            ctl = session.controller
            session.lessons.review_depth = 1
            board.set_occupancy(ctl.exp.base)
            await session.idle()
            assert (await send(session, cmd.StartReplay(pdn=SHORT))).status == "done"
            for _ in range(8):
                assert (await send(session, cmd.LessonStep("forward"))).status == "done"
            assert len(ctl.records) == 8 and ctl.messages[-1]["text"] == "The end of the record: *."
            assert not [m for m in ctl.messages if m["level"] == "error"]
            outcome = await send(session, cmd.LessonStep("forward"))
            assert outcome.status == "refused" and "at the end of the game" in outcome.reason
            assert (await send(session, cmd.LessonStep("back"))).status == "done"
            position = ctl.exp.base
        board = SimulatedDevice(8, 8)
        async with Session(config, board, board, tmp_path) as again:   # the power came back
            board.set_occupancy(position)
            await again.idle()
            ctl = again.controller
            assert ctl.state == "computer.thinking" and ctl.computer_shape is None
            assert any(m["text"].startswith("The replay was interrupted by a restart") for m in ctl.messages)

    asyncio.run(main())


def test_stopping_a_replay_leaves_its_position_for_free_play_at_once(tmp_path: Path) -> None:
    """Issue 28 item 1: after Stop the replay committed one more move, said "interrupted by a restart" and
    stayed in "computer: thinking". Now it ends at once: the position it reached stands for free play (both
    sides the person's), nothing is played for it, and the game before it is remembered for a new game."""
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="black", level=2, auto_computer=True)
        async with Session(config, board, board, tmp_path) as session:
            ctl = session.controller
            session.lessons.review_depth = 1
            board.set_occupancy(ctl.exp.base)
            await session.idle()
            assert (await send(session, cmd.StartReplay(pdn=SHORT))).status == "done"
            for _ in range(3):
                assert (await send(session, cmd.LessonStep("forward"))).status == "done"
            reached, occupied = ctl.game.board.fen(), board.occupied
            assert ctl.state == "computer.showing"      # the LEDs show 4. 28-24 ... the record's next move
            assert (await send(session, cmd.LessonStep("stop"))).status == "done"
            assert ctl.state == "person.idle" and ctl.game.board.fen() == reached and not ctl.records
            assert session.view()["lesson"] is None and ctl.settings.human_color == "both"
            for _ in range(10):                          # time passes: nothing is played by itself
                await asyncio.sleep(0.05)
                await session.idle()
            assert not ctl.records and board.occupied == occupied and ctl.state == "person.idle"
            said = [m["text"] for m in ctl.messages]
            assert not [t for t in said if "restart" in t], said
            assert said[-1].startswith("The replay stopped after 3 plies: its position stays for free play")
            play(board, session, "22-17")                # White to move, played by the person
            await session.idle()
            play(board, session, "9-14")                 # and Black too
            await session.idle()
            assert [r.text for r in ctl.records] == ["22-17", "9-14"]
            home = session.lessons.home
            assert home is not None and (home.human_color, home.level) == ("black", 2)

    asyncio.run(main())


def test_next_is_the_first_unsolved_exercise_after_this_one_round_to_the_start(tmp_path: Path) -> None:
    """`next` (issue 28 item 13): the collection's order from the exercise after this one, skipping solved
    ones, round to its start; when all are solved, simply the one after."""
    collection = load("english", verify_engine=False)
    ids = [e.id for e in collection.exercises]
    progress = ExerciseProgress(tmp_path / "exercises.json")
    assert progress.following("ann", collection, ids[0]).id == ids[1]
    progress.record("ann", "english", ids[1], solved=True)
    assert progress.following("ann", collection, ids[0]).id == ids[2]          # a solved one is skipped
    assert progress.following("ann", collection, ids[-1]).id == ids[0]         # round to the start
    for exercise_id in ids:
        progress.record("ann", "english", exercise_id, solved=True)
    assert progress.following("ann", collection, ids[-1]).id == ids[0]         # all solved: the one after
    assert progress.following("bob", collection, ids[3]).id == ids[4]          # each player's own progress
