"""The lesson desk: the exercise or replay under way on the Session's board, and the commands that lead it.

A lesson is a game the controller plays like any other (set up by light, moves inferred, takebacks), with
settings it chooses and a `follow` step after each handled input. Its game is journaled (so a power cut
resumes it) but never written to the game library. A NewGame or SetupPosition ends it. Stopping a replay
leaves the position it reached for free play (the person moves both sides, nothing moves by itself), as
lidraughts' analysis board does; the console's `new` then returns to the settings of the game before.
The desk leads a lesson through the ``LessonHost`` it is handed (the Table): it imports no driver.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engine.exercises import Collection, Exercise, load, variants_with_exercises
from rules import Move

from . import commands as cmd
from .errors import Refused
from .exercises import PROGRESS_FILE, ExerciseLesson, ExerciseProgress
from .replay import ReplayLesson, load_game
from .settings import EngineJob, GameSettings

if TYPE_CHECKING:
    from firmware_bridge.simulated import SimulatedDevice

    from .machine import Controller
    from .ports import StopFlag, Work

T = TypeVar("T")
REVIEW_DEPTH = 6
REVIEW_SECONDS = 0.5


class Lesson(Protocol):
    kind: str

    def settings(self, base: GameSettings) -> GameSettings: ...
    def begin(self, ctl: Controller) -> None: ...
    def follow(self, ctl: Controller) -> None: ...
    def step(self, ctl: Controller, step: str) -> None: ...
    def answer(self, job: EngineJob) -> Move | None: ...
    def leaves_to_engine(self, job: EngineJob) -> bool: ...


class LessonHost(Protocol):
    """What a lesson needs of the board it runs on (the Table)."""

    @property
    def controller(self) -> Controller: ...
    @property
    def simulated(self) -> SimulatedDevice | None: ...
    def begin_lesson(self, settings: GameSettings) -> bool: ...
    def carry_out_shown_move(self) -> None: ...
    def run_in_background(self, work: Work[T], then: Callable[[T], None]) -> StopFlag: ...


class LessonDesk:
    """Keeps the lesson under way, the exercise collections read so far and the players' progress."""

    def __init__(self, data_dir: Path | None) -> None:
        self.data_dir = data_dir
        self.lesson: ExerciseLesson | ReplayLesson | None = None
        self.collections: dict[str, Collection] = {}
        self.progress = ExerciseProgress(data_dir / PROGRESS_FILE if data_dir is not None else None)
        self.review_depth = REVIEW_DEPTH
        self.review_seconds = REVIEW_SECONDS
        self.variants = variants_with_exercises()
        """The variants that have an exercise collection (the page's Exercises panel offers them)."""
        self.home: GameSettings | None = None
        """The settings of the game the first lesson interrupted: the console's `new` goes back to them."""

    def __repr__(self) -> str:
        return f"LessonDesk({self.lesson!r})"

    def collection(self, variant: str) -> Collection:
        """The variant's exercises, read once per session (the engine checks each one as it is set up)."""
        if variant not in self.collections:
            self.collections[variant] = load(variant, verify_engine=False)
        return self.collections[variant]

    def command(self, host: LessonHost, c: cmd.Command) -> None:
        ctl = host.controller
        if isinstance(c, cmd.StartExercise):
            collection = self.collection(c.variant)
            self._exercise(host, collection, collection.get(c.exercise) if c.exercise
                           else self.progress.next_for(ctl.settings.player, collection))
        elif isinstance(c, cmd.StartReplay):
            game, start, moves = load_game(c.pdn, c.game, "the PDN text", c.variant or None)
            name = game.label() or "the PDN text"
            lesson = ReplayLesson(game, start, moves, name)
            self._start(host, lesson)
            depth, seconds = self.review_depth, self.review_seconds
            lesson.stop_review = host.run_in_background(partial(lesson.review_work, depth, seconds),
                                                        lesson.reviewed)
        elif isinstance(c, cmd.LessonStep):
            if self.lesson is None:
                raise Refused("there is no exercise or replay under way")
            if c.step == "stop":
                self._stop_here(host)
                return
            if c.step == "next":
                self._next(host)
                return
            self.lesson.step(ctl, c.step)
            if c.step == "forward":
                host.carry_out_shown_move()
            elif c.step == "back" and host.simulated is not None:
                host.simulated.set_occupancy(ctl.exp.base)

    def _exercise(self, host: LessonHost, collection: Collection, exercise: Exercise) -> None:
        """Set up ``exercise`` of ``collection``, knowing the one that follows it for ``next``."""
        player = host.controller.settings.player
        number = collection.exercises.index(exercise) + 1
        lesson = ExerciseLesson(exercise, number, len(collection), self.progress, player)
        self._start(host, lesson)
        lesson.next_id = self.progress.following(player, collection, exercise.id).id

    def _next(self, host: LessonHost) -> None:
        """The exercise after this one, of the same variant (the first one after it not solved yet)."""
        lesson = self.lesson
        if not isinstance(lesson, ExerciseLesson):
            raise Refused("`next` sets up the next exercise: this is a replay (forward, back or stop)")
        collection = self.collection(lesson.exercise.variant)
        self._exercise(host, collection, collection.get(lesson.next_id))

    def _stop_here(self, host: LessonHost) -> None:
        """End the lesson at once: the position it reached stays on the board for free play (both sides the
        person's, so nothing more is played for it and nothing is rated)."""
        ctl, lesson = host.controller, self.lesson
        self.end()
        plies = len(ctl.records)
        base = self.home or ctl.settings
        free = GameSettings(ctl.variant, "both", "person", base.level, ctl.game.board.fen(),
                            ctl.settings.flipped, None, base.player)
        host.begin_lesson(free)
        what = (f"The replay stopped after {plies} {'ply' if plies == 1 else 'plies'}"
                if isinstance(lesson, ReplayLesson) else "The exercise is over")
        ctl.say(f"{what}: its position stays for free play (you move both sides); start a new game to play "
                f"the computer.")

    def _start(self, host: LessonHost, lesson: ExerciseLesson | ReplayLesson) -> None:
        settings = lesson.settings(host.controller.settings)
        home = self.home or host.controller.settings
        previous, self.lesson = self.lesson, lesson   # in place before the game starts: it answers at once
        try:
            started = host.begin_lesson(settings)
        except Exception:
            self.lesson = previous
            raise
        if not started:
            self.lesson = previous
            return
        if isinstance(previous, ReplayLesson):
            previous.stop_review.set()
        self.home = home
        lesson.begin(host.controller)

    def end(self) -> None:
        """The lesson is over (its review stopped); the settings to go back to are kept."""
        if isinstance(self.lesson, ReplayLesson):
            self.lesson.stop_review.set()
        self.lesson = None

    def stop(self) -> None:
        """A new game or position: the lesson is over and so is the way back to the game before it."""
        self.end()
        self.home = None

    def follow(self, ctl: Controller) -> None:
        if self.lesson is not None:
            self.lesson.follow(ctl)

    def answer(self, job: EngineJob) -> Move | None:
        return self.lesson.answer(job) if self.lesson is not None else None

    def leaves_to_engine(self, job: EngineJob) -> bool:
        """The computer's turn is the engine's although a lesson (or a replay resumed without its record)
        is on the board: an exercise played past its line."""
        return self.lesson is not None and self.lesson.leaves_to_engine(job)

    def to_json(self, ctl: Controller) -> dict[str, Any] | None:
        if isinstance(self.lesson, ReplayLesson):
            return self.lesson.to_json(len(ctl.records))
        return self.lesson.to_json() if self.lesson is not None else None
