"""Exercise mode: the LEDs lead the set-up of an exercise position, then the person's move is judged.

The position is set up by the controller's own `setup` state (the LEDs show what to empty and fill, in any
order). The first move made is compared with the solution: a wrong try is explained with the engine's scores
and taken back (the LEDs show how), the right one confirmed and counted in the player's progress
(`<data dir>/exercises.json`, written whole so a power cut loses nothing already solved).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.exercises import Collection, Exercise, Verdict, verify
from engine.limits import format_score
from rules import Move, get_variant

from .durable import SaveError, durable_replace, keep_copy
from .settings import EngineJob, GameSettings

if TYPE_CHECKING:
    from .machine import Controller

log = logging.getLogger(__name__)
PROGRESS_FILE = "exercises.json"


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
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
                raise ValueError("expected an object of players")
            self.data = data
        except (OSError, ValueError) as exc:
            damaged = path.with_name(path.name + ".damaged")
            keep_copy(path, damaged)
            self.notice = f"The exercise progress in {path.name} could not be read ({exc}); kept as " \
                          f"{damaged.name}, starting afresh."
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


@dataclass
class ExerciseLesson:
    """One exercise on the board: set up, tried, solved."""

    exercise: Exercise
    number: int
    of: int
    progress: ExerciseProgress
    player: str
    verdict: Verdict = field(init=False)
    solution: Move = field(init=False)
    tries: int = 0
    solved: bool = False
    kind = "exercise"

    def __post_init__(self) -> None:
        """The engine confirms this exercise before it is set up (the board reads a collection without
        checking every exercise, which would keep it busy for seconds)."""
        self.verdict = verify(self.exercise, f"exercise {self.exercise.id}")
        self.solution = self.exercise.board().parse_move(self.exercise.solution)

    def __repr__(self) -> str:
        return f"ExerciseLesson({self.exercise.id}, tries={self.tries}, solved={self.solved})"

    def settings(self, base: GameSettings) -> GameSettings:
        return GameSettings(get_variant(self.exercise.variant), "both", "person", base.level,
                            self.exercise.fen, base.flipped, None, self.player)

    def begin(self, ctl: Controller) -> None:
        how = "" if ctl.moves_itself else (" Set up the position as the LEDs show: take off the pieces on "
                                           "the squares lit, put pieces on the squares lit in their color.")
        ctl.say(f"Exercise {self.exercise.id} ({self.number} of {self.of}): {self.exercise.task}.{how}")

    def follow(self, ctl: Controller) -> None:
        """After every input: judge the first move once it is committed."""
        if self.solved or not ctl.records:
            return
        board = ctl.game.board
        move = board.peek()
        text = ctl.records[0].text
        right = move == self.solution
        self.tries += 1
        self.progress.record(self.player, self.exercise.variant, self.exercise.id, right)
        if right:
            self.solved = True
            line = " ".join(self.exercise.line)
            ctl.say(f"Right: {text} is the solution ({format_score(self.verdict.scored[0][1])} at depth "
                    f"{self.exercise.depth}; the line: {line}). Exercise {self.exercise.id} solved.")
            return
        scores = dict(self.verdict.scored)
        again = "Try again" if ctl.moves_itself else "Put the pieces back as the LEDs show and try again"
        ctl.takeback(1)
        best = format_score(self.verdict.scored[0][1])
        ctl.say(f"{text} is not it: the engine (depth {self.exercise.depth}) scores it "
                f"{format_score(scores.get(move, 0))}, the solution {best}. "
                f"{again} (or ask for a hint).", "warning")

    def hint(self, ctl: Controller) -> None:
        if ctl.turn_state != "person":
            raise ValueError("set up the exercise's position first: the LEDs show what is missing")
        ctl.show_hint(ctl.engine_token, self.solution)

    def step(self, ctl: Controller, step: str) -> None:
        if step != "hint":
            raise ValueError(f"an exercise has no step {step!r}: ask for a hint, or stop")
        self.hint(ctl)

    def answer(self, job: EngineJob) -> Move | None:
        return None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.exercise.id, "task": self.exercise.task,
                "exercise_kind": self.exercise.kind, "number": self.number, "of": self.of,
                "tries": self.tries, "solved": self.solved, "source": self.exercise.source,
                "fen": self.exercise.fen,
                "player_solved": len(self.progress.solved(self.player, self.exercise.variant))}
