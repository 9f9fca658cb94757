"""The `Engine` facade: evaluation + search + levels for one variant."""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable

from engine.endgame import EndgameTables
from engine.errors import EngineError
from engine.evaluation import Evaluator
from engine.levels import get_level
from engine.limits import SearchLimits, SearchProgress, SearchResult
from engine.native import make_searcher
from engine.search import SearchAborted
from rules import Board, Move, Variant, get_variant


class NoLegalMoveError(EngineError, ValueError):
    """Asked for a move in a position where the side to move has none (the game is over)."""


class Engine:
    """A draughts engine for one variant: `search()` for analysis, `choose_move()` to play at a level.

    `threads`: search threads of the compiled search (1: single-threaded and reproducible; the Pi has 4).
    `endgames`: the endgame tables the search probes (engine.endgame, loaded by the caller).
    """

    def __init__(self, variant: Variant | str, threads: int = 1,
                 endgames: EndgameTables | None = None) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.evaluator = Evaluator(self.variant)
        self.searcher = make_searcher(self.evaluator, threads)
        if endgames is not None:
            self.searcher.set_endgames(endgames)

    def __repr__(self) -> str:
        return f"Engine({self.variant.id!r})"

    def _check(self, board: Board) -> None:
        if board.variant.id != self.variant.id:
            raise ValueError(f"engine plays {self.variant.id}, the board is {board.variant.id}")

    def new_game(self) -> None:
        """Forget what was learnt in the previous game (hash table, killers, history)."""
        self.searcher.clear()

    def evaluate(self, board: Board) -> int:
        """Static score of the position for the side to move (hundredths of a man)."""
        self._check(board)
        return self.evaluator.evaluate(board)

    def search(
        self,
        board: Board,
        limits: SearchLimits | None = None,
        on_progress: Callable[[SearchProgress], None] | None = None,
        stop_event: threading.Event | None = None,
    ) -> SearchResult:
        """Best move, score, PV, depth and nodes within the limits (default: 1 second)."""
        self._check(board)
        return self.searcher.search(board, limits or SearchLimits(time=1.0), on_progress, stop_event)

    def choose_move(
        self,
        board: Board,
        level: int,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        on_progress: Callable[[SearchProgress], None] | None = None,
        stop_event: threading.Event | None = None,
    ) -> Move:
        """The move the engine plays at `level` (1-10); `rng` makes the low levels' choices reproducible."""
        self._check(board)
        lvl = get_level(level)
        moves = list(board.legal_moves)
        if not moves:
            raise NoLegalMoveError(f"no legal move for {board.turn.name.lower()} in {board.fen()}")
        if len(moves) == 1:
            return moves[0]
        budget = time_limit if time_limit is not None else lvl.default_time
        if not lvl.randomised:
            limits = SearchLimits(depth=lvl.depth, time=budget)
            result = self.searcher.search(board, limits, on_progress, stop_event)
            return result.move if result.move is not None else moves[0]
        rng = rng or random.Random()
        scored = self._scored(board, lvl.depth or 1, budget, stop_event, on_progress)
        if rng.random() < lvl.blunder:
            half = scored[: max(2, (len(scored) + 1) // 2)]
            return rng.choice(half)[0]
        best = scored[0][1]
        candidates = [(m, s) for m, s in scored if s >= best - lvl.margin]
        weights = [math.exp(-(best - s) / lvl.temperature) for _m, s in candidates]
        return rng.choices([m for m, _s in candidates], weights=weights, k=1)[0]

    def _scored(
        self,
        board: Board,
        depth: int,
        budget: float,
        stop_event: threading.Event | None,
        on_progress: Callable[[SearchProgress], None] | None = None,
    ) -> list[tuple[Move, int]]:
        """Scores of all moves at the deepest depth (up to `depth`) finished within the budget.

        Each finished depth goes to `on_progress` (best score, the best move and the table's line after it);
        reporting only reads, so the scores and hence the level's choice are the same with or without it.
        """
        start = time.perf_counter()
        deadline = start + budget
        try:
            scored = self.searcher.score_moves(board, 1, stop_event=stop_event)
        except SearchAborted:  # stopped at once: every move counts as equal
            return [(m, 0) for m in board.legal_moves]
        nodes = self.searcher.nodes
        self._report(board, 1, scored, nodes, start, on_progress)
        for d in range(2, depth + 1):
            try:
                scored = self.searcher.score_moves(board, d, deadline, stop_event=stop_event)
            except SearchAborted:
                break
            nodes += self.searcher.nodes
            self._report(board, d, scored, nodes, start, on_progress)
        return scored

    def _report(
        self,
        board: Board,
        depth: int,
        scored: list[tuple[Move, int]],
        nodes: int,
        start: float,
        on_progress: Callable[[SearchProgress], None] | None,
    ) -> None:
        """Send one finished iteration of the randomised levels' scoring to `on_progress`."""
        if on_progress is None or not scored:
            return
        best, score = scored[0]
        pv = self.searcher.table_line(board, best, depth)
        pv_text = self.searcher._pv_text(board, pv)
        on_progress(SearchProgress(depth, score, pv, pv_text, nodes, time.perf_counter() - start))


def choose_move(
    board: Board, level: int, rng: random.Random | None = None, time_limit: float | None = None
) -> Move:
    """One-shot convenience: the move a fresh engine plays at `level` in this position."""
    return Engine(board.variant).choose_move(board, level, rng=rng, time_limit=time_limit)
