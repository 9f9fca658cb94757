"""Which engine answers the board, on which thread: the computer's moves, the person's questions, progress.

The computer's move comes from the opponent the Session was given, else the config's external Hub or DXP
engine (``opponent = "external"``/``"dxp"``, falling back to the built-in engine with a note), else the
built-in engine's own process (``engine.worker``), started on first use. A hint or a draw offer consults the
built-in engine at the game's level. Every answer is handed to ``post`` (thread-safe: the Session's queue), so
the Table sees it in order with the board's input; the engine's iterations reach ``on_progress`` at most
every PROGRESS_SECONDS, the newest always delivered.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from rules import Board, Move

from .config import Config
from .opponents import (
    EXTERNAL_OPPONENTS,
    ExternalOpponent,
    Opponent,
    WorkerOpponent,
    external_for,
    think_in_background,
)
from .settings import EngineJob

if TYPE_CHECKING:
    from engine.worker import WorkerProgress, WorkerResult

log = logging.getLogger(__name__)

T = TypeVar("T")
PROGRESS_SECONDS = 0.1
"""At most one progress report per this many seconds (the newest iteration is always delivered)."""


@dataclass(frozen=True)
class EngineAnswer:
    """The computer's move for the search ``token`` (None: no move), with a note for the person (a
    fallback)."""

    token: int
    move: Move | None
    note: str | None = None


@dataclass(frozen=True)
class Answered(Generic[T]):
    """Work done away from the Table (a consultation, a background job): ``then(value)`` runs in order."""

    then: Callable[[T], None]
    value: T


Posted = EngineAnswer | Answered["WorkerResult | None"]
"""What the engines hand the Session's queue."""


class Engines:
    """The engines of one Session. ``post`` takes an EngineAnswer or Answered from any thread;
    ``later(seconds, fn)`` runs ``fn`` on the Session's loop after ``seconds`` (thread-safe);
    ``on_progress(token, progress)`` runs there with the newest iteration of the search for ``token``."""

    def __init__(self, config: Config, *, post: Callable[[Posted], None],
                 later: Callable[[float, Callable[[], None]], None],
                 on_progress: Callable[[int, WorkerProgress], None],
                 opponent: Opponent | None = None) -> None:
        self.config = config
        self._post = post
        self._later = later
        self._on_progress = on_progress
        self._opponent = opponent
        self._owned: WorkerOpponent | None = None
        self._external: ExternalOpponent | None = None
        self._builtin_lock = threading.Lock()
        self._progress_lock = threading.Lock()
        self._progress: tuple[int, WorkerProgress] | None = None
        self._progress_due = False
        self._token = -1
        self.stopping = False

    def play(self, job: EngineJob, kind: str) -> None:
        """Ask the computer's move for ``job`` from the engine the game's ``opponent`` kind names."""
        self._token = job.token
        opponent: Opponent
        if self._opponent is not None:
            opponent = self._opponent
        elif kind in EXTERNAL_OPPONENTS:
            self._external = external_for(kind, self.config, job.board.variant, self.builtin, self._external)
            opponent = self._external
        else:
            opponent = self.builtin()

        def deliver(move: Move | None, note: str | None) -> None:
            if not self.stopping:   # else the session closed the engine under this search: nobody waits
                self._post(EngineAnswer(job.token, move, note))

        think_in_background(opponent, job.board, job.level, job.seconds, deliver)

    def consult(self, board: Board, level: int, seconds: float,
                then: Callable[[WorkerResult | None], None]) -> None:
        """Ask the built-in engine about ``board`` on a worker thread (at ``level``, as the computer would
        play); ``then`` gets its WorkerResult, or None when it failed."""

        def work() -> None:
            from engine.worker import game_line

            result = None
            try:
                worker = self.builtin().worker
                search = worker.start_search(board.fen(), board.variant, level, seconds,
                                             line=game_line(board))
                result = worker.wait(search, timeout=seconds * 10 + 30)
            except Exception:
                if not self.stopping:
                    log.exception("the engine could not be consulted")
            if not self.stopping:
                self._post(Answered(then, result))

        threading.Thread(target=work, name="engine-consulted", daemon=True).start()   # never joined at exit

    def fresh_try(self) -> None:
        """A new game: an external engine that failed is closed (on a thread), to be started afresh."""
        if self._external is not None:
            old, self._external = self._external, None
            threading.Thread(target=old.close, name="external-engine-close", daemon=True).start()

    def builtin(self) -> WorkerOpponent:
        """The built-in engine's worker process (started on first use; thread-safe)."""
        with self._builtin_lock:
            if self._owned is None:
                self._owned = WorkerOpponent(self.config, self.progressed)
            return self._owned

    @property
    def started(self) -> WorkerOpponent | None:
        """The built-in engine's worker, once started (None before its first use and after ``close``)."""
        return self._owned

    def progressed(self, progress: WorkerProgress) -> None:
        """Called on the worker's reader thread with each iteration: keep the newest, and have the loop hand
        it on at most every PROGRESS_SECONDS."""
        with self._progress_lock:
            self._progress = (self._token, progress)
            if self._progress_due:
                return
            self._progress_due = True
        self._later(PROGRESS_SECONDS, self.flush_progress)

    def flush_progress(self) -> None:
        """Hand on the newest iteration now (before the search's move, so its last iteration comes first)."""
        with self._progress_lock:
            pending, self._progress, self._progress_due = self._progress, None, False
        if pending is not None:
            self._on_progress(*pending)

    def close(self) -> None:
        """End the external engine and the built-in engine's process (blocking: call it off the loop)."""
        self.stopping = True
        if self._external is not None:
            self._external.close()
            self._external = None
        if self._owned is not None:
            self._owned.close()
            self._owned = None

    def __repr__(self) -> str:
        return f"Engines(opponent={self._opponent!r}, builtin={self._owned!r}, external={self._external!r})"
