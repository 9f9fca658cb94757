"""Computer opponents for the Session: the built-in engine's worker process and external engines.

Each picks a move for the side to move on a worker thread; ``ask`` turns any failure into a note for the page.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

from rules import Board, Move

from .config import Config

log = logging.getLogger(__name__)


class Opponent(Protocol):
    """A computer player: picks a move for the side to move."""

    def choose_move(self, board: Board, level: int) -> Move:
        """The move to play in ``board`` at engine ``level`` (called on a worker thread)."""
        ...


class WorkerOpponent:
    """Runs the engine in its own process through engine.worker.EngineWorker."""

    def __init__(self, config: Config, on_progress: Callable[[Any], None] | None = None) -> None:
        from engine.worker import EngineWorker

        self.config = config
        self.worker = EngineWorker(on_progress=on_progress)

    def choose_move(self, board: Board, level: int, seconds: float | None = None) -> Move:
        from engine.levels import get_level
        from engine.worker import game_line

        lvl = get_level(level)
        # levels without randomness run the worker's iterative search; the randomised ones score every move
        # depth by depth (both report each iteration as progress)
        depth = lvl.depth if not lvl.randomised else None
        budget = min(self.config.engine_time, seconds) if seconds is not None else self.config.engine_time
        search = self.worker.start_search(board.fen(), board.variant.id, level, budget, depth=depth,
                                          line=game_line(board))
        result = self.worker.wait(search, timeout=budget * 10 + 30)
        if result is None or result.move_text is None:
            raise RuntimeError(f"the engine found no move ({result.error if result else 'timeout'})")
        return board.parse_move(result.move_text)

    def close(self) -> None:
        self.worker.close()


class ExternalOpponent:
    """A Hub engine (the config's ``external_engine`` command); the built-in engine takes over when it cannot
    be started, dies, times out or plays an illegal move. ``take_note()`` gives the reason once."""

    def __init__(self, config: Config, variant: str, builtin: Callable[[], WorkerOpponent]) -> None:
        self.config = config
        self.variant = variant
        self._builtin = builtin
        self.hub: Any = None
        self.failed: str | None = None
        self._note: str | None = None
        self._lock = threading.Lock()

    def _fail(self, reason: str) -> None:
        self.failed = reason
        self._note = f"The external engine failed: {reason}. The built-in engine plays on."
        if self.hub is not None:
            with contextlib.suppress(Exception):
                self.hub.close()
            self.hub = None

    def choose_move(self, board: Board, level: int, seconds: float | None = None) -> Move:
        from engine.external import ExternalEngineError, HubEngine

        with self._lock:
            if self.failed is None:
                budget = self.config.engine_time if seconds is None else min(self.config.engine_time, seconds)
                try:
                    if not self.config.external_engine.strip():
                        raise ExternalEngineError("no command is configured (config key external_engine)")
                    if self.hub is None:
                        self.hub = HubEngine(self.config.external_engine, self.variant)
                        self.hub.new_game()
                    move = self.hub.play(board, budget)
                    if move not in board.legal_moves:
                        raise ExternalEngineError(f"it sent the illegal move {move!r}")
                    return move
                except (ExternalEngineError, OSError) as exc:
                    log.warning("external engine failed: %s", exc)
                    self._fail(str(exc))
        return self._builtin().choose_move(board, level, seconds)

    def take_note(self) -> str | None:
        note, self._note = self._note, None
        return note

    def close(self) -> None:
        with self._lock:
            if self.hub is not None:
                with contextlib.suppress(Exception):
                    self.hub.close()
                self.hub = None


def ask(opponent: Any, board: Board, level: int, seconds: float | None) -> tuple[Move | None, str | None]:
    """The opponent's move (None when it failed) and the note to show, if any (runs on a worker thread)."""
    note = None
    try:
        if isinstance(opponent, WorkerOpponent | ExternalOpponent):
            move = opponent.choose_move(board, level, seconds)
        else:
            move = opponent.choose_move(board, level)
    except Exception as exc:
        log.exception("the computer opponent failed")
        move, note = None, f"The computer opponent failed: {exc}"
    if isinstance(opponent, ExternalOpponent):
        note = opponent.take_note() or note
    return move, note
