"""Exercises and replays on the simulated board through the Session: set up by light, tried, stepped."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from rig import until

from controller import commands as cmd
from controller.config import Config
from controller.hints import BLUE, CYAN, GREEN, RED, WHITE
from controller.session import Session
from engine.exercises import collection_path, load, load_file
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.types import Cell, LedFrame
from rules import Board
from rules.pdn import read_games
from rules.pdn.validate import start_board, variant_of

DATA = Path(__file__).resolve().parents[1] / "data"


def colored(frame: LedFrame | None, *colors: object) -> set[Cell]:
    """The squares lit in any of ``colors``."""
    return {cell for cell, light in (frame.lights if frame else ()) if light.rgb in colors}


async def send(session: Session, command: cmd.Command) -> cmd.Outcome:
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


def test_an_exercise_is_set_up_by_light_tried_wrongly_hinted_and_solved(tmp_path: Path) -> None:
    exercise = next(e for e in load("english").exercises if e.kind == "shot")
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
            assert ctl.state == "person.idle" and not session.state()["lesson"]["solved"]

            assert (await send(session, cmd.LessonStep("hint"))).status == "done"
            solution = ctl.game.board.parse_move(exercise.solution)
            assert colored(ctl.frame, CYAN) == {ctl.map.rc(solution.from_square)}
            assert ctl.map.rc(solution.to_square) in colored(ctl.frame, GREEN)

            play(board, session, exercise.solution)
            await session.idle()
            assert ctl.messages[-1]["text"].startswith(f"Right: {exercise.solution} is the solution")
            lesson = session.state()["lesson"]
            assert lesson["solved"] and lesson["tries"] == 2 and lesson["player_solved"] == 1

            # the next exercise asked for is the first one not solved yet
            assert (await send(session, cmd.StartExercise("english"))).status == "done"
            first_unsolved = next(e for e in load("english", verify_engine=False).exercises
                                  if e.id != exercise.id)
            assert session.state()["lesson"]["id"] == first_unsolved.id
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
            assert session.state()["lesson"] is None and session.controller.state == "setup"

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
                assert session.state()["lesson"]["next"] == ctl.computer_shape.text
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
            review = session.state()["lesson"]["review"]
            assert review["ply"] == steps - 2 and review["played"] == ctl.records[-1].text
        assert not list((tmp_path / "games").glob("*.pdn")), "a replay is not a new game for the library"

    asyncio.run(main())


def test_a_pdn_that_does_not_validate_cannot_be_replayed(tmp_path: Path) -> None:
    bad = '[GameType "21"]\n[Event "Bad"]\n\n1. 11-15 23-19 2. 8-11 22-18 3. 12-16 *\n'
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        async with Session(Config(variant="english"), board, board, tmp_path) as session:
            await session.idle()
            before = session.state()
            outcome = await send(session, cmd.StartReplay(pdn=bad))
            assert outcome.status == "refused"
            assert "game 1 (Event 'Bad'): move 3. 12-16" in outcome.reason, outcome.reason
            outcome = await send(session, cmd.StartReplay(pdn="1. 11-15 {never closed"))
            assert outcome.status == "refused"
            assert outcome.reason.startswith("cannot replay the PDN text: 1:10: game 1: comment")
            outcome = await send(session, cmd.StartReplay(pdn=bad, game=2))
            assert outcome.status == "refused" and "the PDN text has 1 game, not a game 2" in outcome.reason
            assert session.state()["lesson"] is None and session.state()["fen"] == before["fen"]

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
