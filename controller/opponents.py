"""Computer opponents for the Session: the built-in engine's worker process and external engines.

Each picks a move for the side to move on a thread of its own (``think_in_background``, which nobody joins);
``ask`` turns any failure into a note for the page. External engines fall back to the built-in engine.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rules import Board, Move, Variant
from rules.options import format_text

from .config import Config, host_port

if TYPE_CHECKING:
    from engine.worker import WorkerProgress

log = logging.getLogger(__name__)


class Opponent(Protocol):
    """A computer player: picks a move for the side to move."""

    def choose_move(self, board: Board, level: int) -> Move:
        """The move to play in ``board`` at engine ``level`` (called on a worker thread)."""
        ...


class OpponentClosed(RuntimeError):
    """The session closed the opponent while it was thinking: there is no move, and nothing to report."""


class SearchCancelled(RuntimeError):
    """The built-in engine's search was cancelled (a newer search replaced it): its answer is stale."""


class WorkerOpponent:
    """Runs the engine in its own process through engine.worker.EngineWorker."""

    def __init__(self, config: Config, on_progress: Callable[[WorkerProgress], None] | None = None) -> None:
        from engine.worker import EngineWorker

        self.config = config
        self.worker = EngineWorker(on_progress=on_progress, threads=config.engine_threads,
                                   data_dir=config.data_path)

    def __repr__(self) -> str:
        return f"WorkerOpponent({self.worker!r})"

    def choose_move(self, board: Board, level: int, seconds: float | None = None) -> Move:
        from engine.levels import get_level
        from engine.worker import game_line

        lvl = get_level(level)
        # levels without randomness run the worker's iterative search; the randomised ones score every move
        # depth by depth (both report each iteration as progress)
        depth = lvl.depth if not lvl.randomised else None
        budget = min(self.config.engine_time, seconds) if seconds is not None else self.config.engine_time
        search = self.worker.start_search(board.fen(), board.variant, level, budget, depth=depth,
                                          line=game_line(board))
        result = self.worker.wait(search, timeout=budget * 10 + 30)
        if result is None and self.worker.closed:
            raise OpponentClosed("the engine worker was closed during the search")
        if result is not None and result.stopped:
            raise SearchCancelled(f"search {search} was cancelled")
        if result is None or result.move_text is None:
            raise RuntimeError(f"the engine found no move ({result.error if result else 'timeout'})")
        return board.parse_move(result.move_text)

    def close(self) -> None:
        self.worker.close()


class ExternalOpponent:
    """A Hub engine (the config's ``external_engine`` command); the built-in engine takes over when it cannot
    be started, dies, breaks a deadline or plays an illegal move. ``take_note()`` gives the reason once.

    ``close()`` never waits for a thinking thread: it kills the engine, and the thread's question fails.
    """

    kind = "external"
    title = "external engine"

    def __init__(self, config: Config, variant: Variant, builtin: Callable[[], WorkerOpponent]) -> None:
        self.config = config
        self.variant = variant
        self._builtin = builtin
        self.engine: Any = None   # a HubEngine or a DxpEngine (each subclass opens its own)
        self.failed: str | None = None
        self._note: str | None = None
        self._closed = False
        self._turn = threading.Lock()    # one question at a time (held while the engine thinks)
        self._state = threading.Lock()   # guards `engine` and `_closed` (never held while waiting)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.engine!r}, failed={self.failed!r}, closed={self._closed})"

    def _open(self) -> Any:
        """The engine, started as far as `close()` can still interrupt it (no handshake yet)."""
        from engine.external import ExternalEngineError, HubEngine

        if not self.config.external_engine.strip():
            raise ExternalEngineError("no command is configured (config key external_engine)")
        return HubEngine(self.config.external_engine, self.variant, self.config.external_handshake,
                         self.config.external_margin, start=False)

    def _begin(self, engine: Any) -> None:
        """The handshake with a freshly opened engine."""
        engine.start()
        engine.new_game()

    def _move(self, board: Board, budget: float) -> Move:
        from engine.external import ExternalEngineError

        engine = self.engine
        if engine is None:
            engine = self._open()
            with self._state:
                closed = self._closed
                if not closed:
                    self.engine = engine
            if closed:
                engine.close()
                raise OpponentClosed("the session closed")
            self._begin(engine)
        move = engine.play(board, budget)
        if move not in board.legal_moves:
            raise ExternalEngineError(f"it sent the illegal move {move!r}")
        return move

    def _fail(self, reason: str) -> None:
        log.warning("%s failed: %s", self.title, reason)
        self.failed = reason
        self._note = f"The {self.title} failed: {reason}. The built-in engine plays on."
        self._detach()

    def _detach(self) -> None:
        with self._state:
            engine, self.engine = self.engine, None
        if engine is not None:
            with contextlib.suppress(Exception):
                engine.close()

    def choose_move(self, board: Board, level: int, seconds: float | None = None) -> Move:
        from engine.external import ExternalEngineError

        with self._turn:
            if self.failed is None and not self._closed:
                budget = self.config.engine_time if seconds is None else min(self.config.engine_time, seconds)
                try:
                    return self._move(board, budget)
                except (ExternalEngineError, OSError) as exc:
                    if not self._closed:
                        self._fail(str(exc))
        if self._closed:
            raise OpponentClosed("the session closed")
        return self._builtin().choose_move(board, level, seconds)

    def take_note(self) -> str | None:
        note, self._note = self._note, None
        return note

    def close(self) -> None:
        """End the engine now (its process group, or its connection); a thinking thread gets no move."""
        with self._state:
            self._closed = True
        self._detach()


class DxpOpponent(ExternalOpponent):
    """A DXP engine on the network (the config's ``dxp_engine`` HOST:PORT: Scan, Moby Dam, or ``dboard dxp
    --listen``), which plays international draughts only; the built-in engine takes over as for a Hub engine.
    """

    kind = "dxp"
    title = "DXP engine"

    def _open(self) -> Any:
        from engine.external import DxpEngine, ExternalEngineError

        if self.variant.id != "international":
            raise ExternalEngineError(f"DXP is played on the 10x10 board of international draughts, not "
                                      f"{self.variant.id}")
        if self.variant.option_values():
            raise ExternalEngineError(f"DXP plays international draughts by its rules, without options "
                                      f"({format_text(self.variant.option_values())})")
        if not self.config.dxp_engine.strip():
            raise ExternalEngineError("no address is configured (config key dxp_engine)")
        host, port = host_port(self.config.dxp_engine, "dxp_engine")
        return DxpEngine(host, port, self.config.dxp_handshake, self.config.external_margin, connect=False)

    def _begin(self, engine: Any) -> None:
        engine.connect()   # the game is requested with the first move asked for, from that position


EXTERNAL_OPPONENTS: dict[str, type[ExternalOpponent]] = {"external": ExternalOpponent, "dxp": DxpOpponent}
"""The opponent setting's values that name an external engine, and the class that plays it."""


def external_for(kind: str, config: Config, variant: Variant, builtin: Callable[[], WorkerOpponent],
                 current: ExternalOpponent | None) -> ExternalOpponent:
    """`current` if it plays `kind` in `variant`, else a new one (the old one is closed on a thread)."""
    if current is not None and current.kind == kind and current.variant == variant:
        return current
    if current is not None:
        threading.Thread(target=current.close, name="external-engine-close", daemon=True).start()
    return EXTERNAL_OPPONENTS[kind](config, variant, builtin)


def ask(opponent: Opponent, board: Board, level: int,
        seconds: float | None) -> tuple[Move | None, str | None]:
    """The opponent's move (None when it failed) and the note to show, if any (runs on a worker thread)."""
    note = None
    try:
        if isinstance(opponent, WorkerOpponent | ExternalOpponent):
            move = opponent.choose_move(board, level, seconds)
        else:
            move = opponent.choose_move(board, level)
    except (OpponentClosed, SearchCancelled) as exc:
        log.debug("no move from the computer opponent: %s", exc)
        return None, None
    except Exception as exc:
        log.exception("the computer opponent failed")
        move, note = None, f"The computer opponent failed: {exc}"
    if isinstance(opponent, ExternalOpponent):
        note = opponent.take_note() or note
    return move, note


def think_in_background(opponent: Opponent, board: Board, level: int, seconds: float | None,
                        deliver: Callable[[Move | None, str | None], None]) -> threading.Thread:
    """Ask `opponent` on a daemon thread and hand the answer to `deliver`.

    Nobody joins this thread (asyncio's executor would be joined at exit), so a session closing while an
    engine is wedged is never held up by it; closing the opponent makes the thread's question fail.
    """
    thread = threading.Thread(target=lambda: deliver(*ask(opponent, board, level, seconds)),
                              name="computer-opponent", daemon=True)
    thread.start()
    return thread
