"""Run the engine in a separate process so a long search never blocks the board (and the GIL stays free).

`EngineWorker` owns one child process; `start_search()` hands it a position, `stop()` cancels at once
(takeback, new game), progress and results arrive on a reader thread through callbacks and a queue.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import queue
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.notation import HISTORY_PLIES, recent_moves
from rules import Board, Move, Variant, get_variant

if TYPE_CHECKING:
    from engine.core import Engine
from rules.options import format_text, parse_text

logger = logging.getLogger(__name__)

GameLine = tuple[str, tuple[str, ...]]   # a FEN and the moves (texts) played from it


def game_line(board: Board, plies: int = HISTORY_PLIES) -> GameLine:
    """(FEN, move texts) that lead to ``board``: its moves since the last capture, at most ``plies`` of them.

    A FEN alone loses the game's history; with the line the worker sees the repetitions and the no-progress
    count the position carries, as a search in this process would.
    """
    base, moves = recent_moves(board, plies)
    fen = base.fen()
    texts = []
    for move in moves:
        texts.append(base.move_text(move))
        base.push(move)
    return fen, tuple(texts)


def _position(variant: Any, fen: str, line: GameLine | None) -> Board:
    """The board to search: ``fen``, with the history of ``line`` when the line really leads there."""
    if line is not None:
        try:
            board = Board(variant, line[0])
            for text in line[1]:
                board.push(board.parse_move(text))
            if board.fen() == Board(variant, fen).fen():
                return board
        except ValueError:
            pass
        logger.warning("the game line sent with %s does not lead to it; searching without history", fen)
    return Board(variant, fen)


@dataclass(frozen=True)
class WorkerProgress:
    """A finished iteration of a running search (texts in the variant's notation)."""

    search_id: int
    depth: int
    score: int
    pv_text: tuple[str, ...]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class WorkerResult:
    """The end of one search: the chosen move (None if no legal move), or `stopped` if it was cancelled."""

    search_id: int
    fen: str
    move: Move | None
    move_text: str | None
    score: int
    pv_text: tuple[str, ...]
    depth: int
    nodes: int
    stopped: bool
    error: str | None = None


class _CancelFlag:
    """Looks like a threading.Event to the searcher: set once the parent cancelled this search id."""

    def __init__(self, cancelled: Any, search_id: int) -> None:
        self._cancelled = cancelled
        self._id = search_id

    def is_set(self) -> bool:
        return self._cancelled.value >= self._id


def _engine(variant: Variant, threads: int, data_dir: str | None) -> Engine:
    """The worker's engine for `variant`: on `threads` threads, probing the endgame tables saved under
    `data_dir` (``dboard endgame build``; play never waits for a table to be built)."""
    from engine.core import Engine
    from engine.endgame import EndgameTables, piece_limit, table_dir
    from rules.native import unsupported

    tables = None
    if data_dir is not None and unsupported(variant) is None:
        tables = EndgameTables(variant, table_dir(Path(data_dir), variant))
        tables.load_saved(piece_limit(variant))
    return Engine(variant, threads=threads, endgames=tables if tables is not None and tables.tables else None)


def _child_main(requests: Any, replies: Any, cancelled: Any, threads: int = 1,
                data_dir: str | None = None) -> None:
    """The worker process: one Engine per variant (searching on ``threads`` threads, probing the endgame
    tables saved in ``data_dir``), one search at a time, until told to quit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle: it closes this process
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    from engine.limits import SearchLimits

    engines: dict[tuple[str, str], Engine] = {}
    while True:
        request = requests.get()
        if request is None or request[0] == "quit":
            return
        if request[0] == "new-game":
            for eng in engines.values():
                eng.new_game()
            continue
        _kind, search_id, fen, (variant_id, options), level, seconds, depth, line = request
        flag = _CancelFlag(cancelled, search_id)
        if flag.is_set():
            replies.put(("done", WorkerResult(search_id, fen, None, None, 0, (), 0, 0, True)))
            continue
        try:
            key = (variant_id, options)
            engine = engines.get(key) or engines.setdefault(
                key, _engine(get_variant(variant_id, **parse_text(options)), threads, data_dir))
            board = _position(engine.variant, fen, line)

            def report(p: Any, search_id: int = search_id) -> None:
                replies.put(
                    ("progress", WorkerProgress(search_id, p.depth, p.score, p.pv_text, p.nodes, p.seconds))
                )

            if level >= 10 or depth is not None:
                limits = SearchLimits(depth=depth, time=seconds)
                result = engine.search(board, limits, on_progress=report, stop_event=flag)  # type: ignore[arg-type]
                move, score, pv, d, nodes = (
                    result.move,
                    result.score,
                    result.pv_text,
                    result.depth,
                    result.nodes,
                )
            else:  # the randomised levels: their scoring iterations are reported as progress too
                last: list[Any] = []

                def report_and_keep(p: Any, last: list[Any] = last) -> None:
                    last[:] = [p]
                    report(p)

                move = (
                    engine.choose_move(
                        board,
                        level,
                        time_limit=seconds,
                        on_progress=report_and_keep,
                        stop_event=flag,  # type: ignore[arg-type]
                    )
                    if board.legal_moves
                    else None
                )
                if last:
                    p = last[0]
                    score, pv, d, nodes = p.score, p.pv_text, p.depth, p.nodes
                else:
                    score, pv, d, nodes = 0, (), 0, engine.searcher.nodes
            text = board.move_text(move) if move is not None else None
            replies.put(
                ("done", WorkerResult(search_id, fen, move, text, score, pv, d, nodes, flag.is_set()))
            )
        except Exception as exc:  # report, keep serving: a bad FEN must not kill the worker
            logger.exception("engine worker search failed")
            replies.put(("done", WorkerResult(search_id, fen, None, None, 0, (), 0, 0, False, f"{exc}")))


class EngineWorker:
    """An engine in its own process. Callbacks run on the worker's reader thread, never the caller's.

    Use as a context manager (or call close()) so the process is ended.
    """

    def __init__(
        self,
        on_progress: Callable[[WorkerProgress], None] | None = None,
        on_result: Callable[[WorkerResult], None] | None = None,
        start_method: str = "spawn",
        threads: int = 1,
        data_dir: Path | None = None,
    ) -> None:
        ctx: Any = mp.get_context(start_method)   # typeshed's BaseContext lacks Process
        self.on_progress = on_progress
        self.on_result = on_result
        self.results: queue.Queue[WorkerResult] = queue.Queue()
        self._requests = ctx.Queue()
        self._replies = ctx.Queue()
        self._cancelled = ctx.Value("q", 0)
        self._next_id = 0
        self._current: int | None = None
        self._lock = threading.Lock()
        self._done = threading.Condition(self._lock)
        self._last: dict[int, WorkerResult] = {}
        self._process = ctx.Process(
            target=_child_main,
            args=(self._requests, self._replies, self._cancelled, threads,
                  None if data_dir is None else str(data_dir)),
            name="draughts-engine",
            daemon=True,
        )
        # Ctrl-C at a terminal reaches the whole process group; the parent decides and closes this process.
        # SIGINT stays blocked while it starts (the mask is inherited) until its main loop ignores it.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        self._reader = threading.Thread(target=self._read, name="engine-worker-reader", daemon=True)
        self._reader.start()
        self._closed = False

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pid={self._process.pid}, searching={self.searching}"
        return f"EngineWorker({state})"

    def __enter__(self) -> EngineWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def searching(self) -> bool:
        """Whether a search is under way and not cancelled."""
        return self._current is not None

    @property
    def pid(self) -> int | None:
        """The worker process id."""
        return self._process.pid

    @property
    def alive(self) -> bool:
        """Whether the worker process is running."""
        return self._process.is_alive()

    def start_search(
        self, fen: str, variant: Variant | str, level: int = 10, time: float | None = 1.0,
        depth: int | None = None, line: GameLine | None = None,
    ) -> int:
        """Cancel any running search and start a new one; returns its id (results carry it).

        ``variant``: the game's Variant (its options travel as text) or an id. ``line`` (from ``game_line``)
        carries the game's recent moves for the draw rules.
        """
        if isinstance(variant, str):
            variant = get_variant(variant)
        if self._closed:
            raise RuntimeError("the engine worker is closed")
        if not 1 <= level <= 10:
            raise ValueError(f"engine level must be 1..10, got {level}")
        with self._lock:
            if self._current is not None:
                self._cancelled.value = self._current
            self._next_id += 1
            self._current = self._next_id
            search_id = self._next_id
        spec = (variant.id, format_text(variant.option_values()))
        self._requests.put(("search", search_id, fen, spec, level, time, depth, line))
        return search_id

    def stop(self) -> None:
        """Cancel the running search now; its late results are dropped (a result marked stopped is queued)."""
        with self._lock:
            if self._current is not None:
                self._cancelled.value = self._current
                self._current = None

    def new_game(self) -> None:
        """Stop, and clear the engine's tables for a new game."""
        self.stop()
        self._requests.put(("new-game",))

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called (a wait then returns None at once)."""
        return self._closed

    def wait(self, search_id: int, timeout: float | None = None) -> WorkerResult | None:
        """Block until search `search_id` has ended; its result, or None on timeout."""
        with self._done:
            self._done.wait_for(lambda: search_id in self._last or self._closed, timeout)
            return self._last.get(search_id)

    def close(self, timeout: float = 3.0) -> None:
        """Cancel, ask the process to quit, and end it if it does not."""
        if self._closed:
            return
        with self._done:   # nobody waits for a search of a closed worker
            self._closed = True
            self._done.notify_all()
        self.stop()
        self._cancelled.value = 1 << 62
        with contextlib.suppress(OSError, ValueError):
            self._requests.put(("quit",))
        self._process.join(timeout)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout)
        self._reader.join(timeout)
        for q in (self._requests, self._replies):
            q.close()
            q.join_thread()

    def _report_death(self) -> None:
        """The process died: end the pending search with an error result so nobody waits forever."""
        with self._done:
            search_id = self._current
            self._current = None
            if search_id is None:
                return
            message = f"engine worker process died (exit code {self._process.exitcode})"
            logger.error(message)
            result = WorkerResult(search_id, "", None, None, 0, (), 0, 0, False, message)
            self._last[search_id] = result
            self._done.notify_all()
        self.results.put(result)
        if self.on_result is not None:
            self.on_result(result)

    def _read(self) -> None:
        while True:
            try:
                item = self._replies.get(timeout=0.2)
            except queue.Empty:
                if self._closed:
                    return
                if not self._process.is_alive():
                    self._report_death()
                    return
                continue
            except (EOFError, OSError):
                return
            kind, payload = item
            if kind == "progress":
                if payload.search_id == self._current and self.on_progress is not None:
                    self.on_progress(payload)
                continue
            with self._done:
                stopped = payload.stopped or payload.search_id != self._current
                if stopped and not payload.stopped:
                    payload = WorkerResult(**{**payload.__dict__, "stopped": True})
                if payload.search_id == self._current:
                    self._current = None
                self._last[payload.search_id] = payload
                if len(self._last) > 64:
                    self._last.pop(min(self._last))
                self._done.notify_all()
            self.results.put(payload)
            if not payload.stopped and self.on_result is not None:
                self.on_result(payload)
