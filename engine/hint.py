"""Hints for the controller: the engine's best move in a position, searched in the worker process."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Engine
from engine.limits import SearchLimits, format_score
from engine.worker import EngineWorker, game_line
from rules import Board, Move


@dataclass(frozen=True)
class Hint:
    """A suggested move with the engine's score and line (texts in the variant's notation)."""

    move: Move
    move_text: str
    score: int
    pv_text: tuple[str, ...]
    depth: int

    def __str__(self) -> str:
        return f"{self.move_text} ({format_score(self.score)}, depth {self.depth}: {' '.join(self.pv_text)})"


def hint(board: Board, seconds: float = 1.0) -> Hint | None:
    """Search `board` in this process at full strength; None when there is no legal move."""
    result = Engine(board.variant).search(board, SearchLimits(time=seconds))
    if result.move is None:
        return None
    return Hint(result.move, board.move_text(result.move), result.score, result.pv_text, result.depth)


def hint_in_worker(worker: EngineWorker, board: Board, seconds: float = 1.0) -> Hint | None:
    """Like `hint`, but searched in `worker`'s process (the caller's thread only waits)."""
    line = game_line(board)
    search_id = worker.start_search(board.fen(), board.variant, level=10, time=seconds, line=line)
    result = worker.wait(search_id, timeout=seconds + 30.0)
    if result is None or result.move is None or result.stopped:
        return None
    return Hint(
        result.move,
        result.move_text or board.move_text(result.move),
        result.score,
        result.pv_text,
        result.depth,
    )
