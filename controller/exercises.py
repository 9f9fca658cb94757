"""Exercise mode: the LEDs lead the set-up of an exercise position, then the person's move is judged.

The position is set up by the controller's own `setup` state (the LEDs show what to empty and fill, in any
order). The first move made is compared with the solution: a wrong try is explained with the engine's scores
and taken back (the LEDs show how), the right one confirmed and counted in the player's progress
(`<data dir>/exercises.json`, written whole so a power cut loses nothing already solved). The exercise then
goes on along its line: the computer plays the line's replies (on the virtual board by themselves), each
move of the person is held to the line, and once the line is played out the person may play on against the
engine or go to the next exercise (`next`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.exercises import Collection, Exercise, Verdict, verify
from engine.limits import format_score
from readers import ReadError, at, expect_dict, expect_int, expect_list, expect_str, loads, read_text
from rules import Move, get_variant

from .durable import SaveError, durable_replace, set_aside_said
from .errors import Refused
from .settings import EngineJob, GameSettings
from .states import PERSON

if TYPE_CHECKING:
    from .machine import Controller

log = logging.getLogger(__name__)
PROGRESS_FILE = "exercises.json"


MAX_PROGRESS_BYTES = 4 * 1024 * 1024
"""Far more than every exercise of every variant solved by a hundred players."""


def read_progress(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """The progress file, checked whole: ``{player: {variant: {"solved": [id, ...], "tries": {id: n}}}}``
    (ReadError naming the field that is wrong)."""
    data = expect_dict(loads(read_text(path, what="exercise progress", limit=MAX_PROGRESS_BYTES),
                             str(path), max_depth=4), str(path))
    progress: dict[str, dict[str, dict[str, Any]]] = {}
    for player, variants in data.items():
        progress[player] = {}
        whose = at(str(path), player, ": ")
        for variant, entry in expect_dict(variants, whose).items():
            where = at(whose, variant)
            entry = expect_dict(entry, where)
            solved = [expect_str(e, f"{where}.solved", 64) for e in expect_list(entry.get("solved", []),
                                                                                 f"{where}.solved")]
            tries = {expect_str(k, f"{where}.tries", 64): expect_int(v, at(f"{where}.tries", k), 0, 10**9)
                     for k, v in expect_dict(entry.get("tries", {}), f"{where}.tries").items()}
            progress[player][variant] = {"solved": solved, "tries": tries}
    return progress


class ExerciseProgress:
    """Which exercises each player solved and how many tries each took, per variant."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict[str, dict[str, dict[str, Any]]] = {}
        self.notice: str | None = None
        if path is not None and path.exists():
            self._read(path)

    def __repr__(self) -> str:
        return f"ExerciseProgress({self.path}, {len(self.data)} players)"

    def _read(self, path: Path) -> None:
        """Read the progress; a damaged file is moved aside under a free name (so it never blocks a start
        again) and the progress starts afresh, said in one line."""
        try:
            self.data = read_progress(path)
        except ReadError as exc:
            self.notice = f"The exercise progress could not be read ({exc}); {set_aside_said(path)}, " \
                          f"starting afresh."
            log.warning("%s", self.notice)

    def _entry(self, player: str, variant: str) -> dict[str, Any]:
        entry = self.data.setdefault(player, {}).setdefault(variant, {})
        entry.setdefault("solved", [])
        entry.setdefault("tries", {})
        return entry

    def solved(self, player: str, variant: str) -> list[str]:
        return list(self.data.get(player, {}).get(variant, {}).get("solved", []))

    def record(self, player: str, variant: str, exercise_id: str, solved: bool) -> None:
        """Count one try (and the solution); written at once."""
        entry = self._entry(player, variant)
        entry["tries"][exercise_id] = entry["tries"].get(exercise_id, 0) + 1
        if solved and exercise_id not in entry["solved"]:
            entry["solved"].append(exercise_id)
        if self.path is not None:
            try:
                durable_replace(self.path, json.dumps(self.data, indent=1, sort_keys=True) + "\n")
            except OSError as exc:
                raise SaveError.of("the exercise progress", exc) from exc

    def next_for(self, player: str, collection: Collection) -> Exercise:
        """The player's first unsolved exercise (the first one again when all are solved)."""
        done = set(self.solved(player, collection.variant))
        return next((e for e in collection.exercises if e.id not in done), collection.exercises[0])

    def following(self, player: str, collection: Collection, current: str) -> Exercise:
        """The next exercise after ``current`` (in the collection's order, round to its start) that the player
        has not solved; simply the one after it when all are solved."""
        exercises = collection.exercises
        at = next((i for i, e in enumerate(exercises) if e.id == current), -1)
        after = exercises[at + 1:] + exercises[:at + 1]
        done = set(self.solved(player, collection.variant))
        return next((e for e in after if e.id not in done), after[0])


@dataclass
class ExerciseLesson:
    """One exercise on the board: set up, tried, solved, then its line played out."""

    exercise: Exercise
    number: int
    of: int
    progress: ExerciseProgress
    player: str
    verdict: Verdict = field(init=False)
    solution: Move = field(init=False)
    line: list[Move] = field(init=False)
    """The solution and the moves that follow it, as the engine expects them (the computer plays the
    replies)."""
    tries: int = 0
    solved: bool = False
    finished: bool = False
    """The line is played out: the person may play on, or go to the next exercise."""
    judged: int = 0
    """How many plies of the game so far have been held to the line."""
    next_id: str = ""
    """The exercise ``next`` sets up (the desk fills it in)."""
    kind = "exercise"

    def __post_init__(self) -> None:
        """The engine confirms this exercise before it is set up (the board reads a collection without
        checking every exercise, which would keep it busy for seconds)."""
        self.verdict = verify(self.exercise, f"exercise {self.exercise.id}")
        board = self.exercise.board()
        self.solution = board.parse_move(self.exercise.solution)
        self.line = []
        for text in self.exercise.line or (self.exercise.solution,):
            self.line.append(board.parse_move(text))
            board.push(self.line[-1])
        if self.line[0] != self.solution:
            self.line = [self.solution]

    def __repr__(self) -> str:
        return f"ExerciseLesson({self.exercise.id}, tries={self.tries}, solved={self.solved})"

    @property
    def solver(self) -> str:
        """The color the person plays: the side to move in the exercise's position."""
        return "white" if self.exercise.task.startswith("White") else "black"

    def settings(self, base: GameSettings) -> GameSettings:
        """The person plays the side to move, the computer (answered by the line) the other side."""
        return GameSettings(get_variant(self.exercise.variant), self.solver, "engine", base.level,
                            self.exercise.fen, base.flipped, None, self.player)

    def begin(self, ctl: Controller) -> None:
        how = "" if ctl.moves_itself else (" Set up the position as the LEDs show: take off the pieces on "
                                           "the squares lit, put pieces on the squares lit in their color.")
        ctl.say(f"Exercise {self.exercise.id} ({self.number} of {self.of}): {self.exercise.task}.{how}")

    def follow(self, ctl: Controller) -> None:
        """After every input: hold each new move of the person to the line, and say when it is played out."""
        plies = ctl.game.board.move_stack
        self.judged = min(self.judged, len(plies))        # a takeback
        while self.judged < len(plies) and self.judged < len(self.line):
            ply = self.judged
            self.judged += 1
            if ply % 2 == 0 and not self._judge(ctl, ply, plies[ply]):
                return
        if len(plies) >= len(self.line) and self.solved and not self.finished:
            self.finished = True
            ctl.say(f"The line is played out: exercise {self.exercise.id} is done. Type `next` (Next "
                    f"exercise on the page) for exercise {self.next_id}, or play on against the computer.")

    def _judge(self, ctl: Controller, ply: int, move: Move) -> bool:
        """The person's move at ``ply``: the key move (counted in the progress) or a later move of the line;
        a wrong one is explained and taken back (False)."""
        text = ctl.records[ply].text
        right = move == self.line[ply]
        if ply == 0:
            self.tries += 1
            self.progress.record(self.player, self.exercise.variant, self.exercise.id, right)
        if right and ply == 0:
            self.solved = True
            line = " ".join(self.exercise.line)
            ctl.say(f"Right: {text} is the solution ({format_score(self.verdict.scored[0][1])} at depth "
                    f"{self.exercise.depth}; the line: {line}). Exercise {self.exercise.id} solved.")
        elif right:
            ctl.say(f"Right: {text}, as the line goes.")
        else:
            self.judged = ply
            again = "Try again" if ctl.moves_itself else "Put the pieces back as the LEDs show and try again"
            ctl.takeback(1)
            ctl.say(f"{self._wrong(ply, move, text)} {again} (or ask for a hint).", "warning")
        return right

    def _wrong(self, ply: int, move: Move, text: str) -> str:
        """Why ``move`` is not it: the engine's scores for the key move, the line's move later on."""
        if ply > 0:
            board = self.exercise.board()
            for earlier in self.line[:ply]:
                board.push(earlier)
            return f"{text} is not the line: it goes on with {board.move_text(self.line[ply])}."
        scores = dict(self.verdict.scored)
        best = format_score(self.verdict.scored[0][1])
        return (f"{text} is not it: the engine (depth {self.exercise.depth}) scores it "
                f"{format_score(scores.get(move, 0))}, the solution {best}.")

    def hint(self, ctl: Controller) -> None:
        """The line's move for the person to make now, lit on the board."""
        if ctl.turn_state != PERSON:
            raise Refused("set up the exercise's position first: the LEDs show what is missing")
        ply = len(ctl.records)
        if ply >= len(self.line):
            raise Refused(f"the exercise's line is played out: type `next` for exercise {self.next_id}")
        ctl.show_hint(ctl.engine_token, self.line[ply])

    def step(self, ctl: Controller, step: str) -> None:
        if step != "hint":
            raise Refused(f"an exercise has no step {step!r}: ask for a hint, next, or stop")
        self.hint(ctl)

    def answer(self, job: EngineJob) -> Move | None:
        """The line's reply for the computer's turn (None past the line, or off it)."""
        ply = len(job.board.move_stack)
        if ply >= len(self.line) or job.board.move_stack != self.line[:ply]:
            return None
        return self.line[ply]

    def leaves_to_engine(self, job: EngineJob) -> bool:
        """Past the line (played along it), the engine plays on; off the line a wrong move is taken back."""
        ply = len(job.board.move_stack)
        return ply >= len(self.line) and job.board.move_stack[:len(self.line)] == self.line

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.exercise.id, "task": self.exercise.task,
                "exercise_kind": self.exercise.kind, "number": self.number, "of": self.of,
                "tries": self.tries, "solved": self.solved, "finished": self.finished,
                "next_exercise": self.next_id, "variant": self.exercise.variant,
                "source": self.exercise.source, "fen": self.exercise.fen,
                "player_solved": len(self.progress.solved(self.player, self.exercise.variant))}
