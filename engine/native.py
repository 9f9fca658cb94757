"""The compiled search (`engine._native`) behind the same interface as `engine.search.Searcher`.

`NativeSearcher` keeps the Python driver (iterative deepening, limits, progress reports, results) and hands
each iteration, and the scoring of the root moves for the randomised levels, to C. The evaluation runs in C
over tables the Python `Evaluator` builds from its `Weights`, so weights and terms stay Python data. The
C search also knows the draw rules the Python one leaves out: the FMJD endgame rule and the Turkish king
versus single man. `make_searcher()` picks it when the extension is built and the variant fits the native
rules core; otherwise (or with DBOARD_PURE_PYTHON=1) the pure-Python Searcher plays.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass
from functools import cache
from types import ModuleType
from typing import Any

from engine.evaluation import Evaluator
from engine.search import SearchAborted, Searcher
from rules import Board, Color, Move
from rules.native import available, load_extension, rules_params, unsupported

logger = logging.getLogger(__name__)

DEFAULT_TT_ENTRIES = 1 << 20   # 16 MB: buckets of four 16-byte entries
MAX_THREADS = 65               # the main search and up to 64 helpers (csrc/dsmp.h)


@dataclass(frozen=True)
class Selectivity:
    """How the compiled search prunes beyond alpha-beta (only with `reductions`; 0 turns a technique off).

    probcut_margin: a search probcut_reduction plies shallower that clears beta by this margin (hundredths
    of a man) cuts the node, from probcut_depth on, where no capture is compulsory; lmr: 1 reduces late
    quiet moves by log(depth) * log(move number) * 100 / lmr_divisor plies (one less at PV nodes), 0 by the
    fixed 1 or 2 plies; aspiration: the root's window around the last iteration's score, from depth 4;
    history_malus (move ordering, with or without `reductions`): quiet moves tried before a cutoff lose
    history. The defaults are what won at equal time (bench/parallel.py, engine/README.md): ProbCut on,
    the others off.
    """

    lmr: int = 0
    lmr_divisor: int = 150
    probcut_margin: int = 25
    probcut_reduction: int = 4
    probcut_depth: int = 5
    aspiration: int = 0
    history_malus: int = 0


@cache
def compiled() -> ModuleType | None:
    """The engine extension whether or not DBOARD_PURE_PYTHON is set (tests compare both), or None."""
    return load_extension("engine._native")


def eval_params(evaluator: Evaluator) -> dict[str, object]:
    """The Evaluator's tables as the C evaluation reads them (dense squares, see rules.native)."""
    return _eval_params(evaluator.variant, evaluator.weights)


@cache
def _eval_params(variant: Any, weights: Any) -> dict[str, object]:
    ev = Evaluator(variant, weights)
    g = variant.geometry
    squares = tuple(sorted(g.squares))
    dense = {sq: i for i, sq in enumerate(squares)}

    def at(sq: int, dr: int, dc: int) -> int:
        r, c = g.rc(sq)
        other = g.square_at(r + dr, c + dc)
        return -1 if other is None else dense[other]

    colors = (Color.WHITE, Color.BLACK)
    return {
        "giveaway": int(ev.giveaway),
        "orthogonal": int(ev.orthogonal),
        "man_value": tuple(tuple(ev._man_table[c][s] for s in squares) for c in colors),
        "king_value": tuple(ev._king_table[s] for s in squares),
        "mobility": ev.weights.mobility,
        "runaway": tuple(tuple(ev._runaway[c][s] for s in squares) for c in colors),
        "cone": tuple(tuple(tuple(dense[t] for t in ev._cone[c][s]) for s in squares) for c in colors),
        "steps": tuple(tuple(tuple(dense[t] for t in ev._forward_steps[c][s]) for s in squares)
                       for c in colors),
        "backed": ev.weights.turkish_backed,
        "side": ev.weights.turkish_side,
        "chase": ev.weights.chase,
        "behind": tuple(tuple(at(s, -variant.forward(c), 0) for s in squares) for c in colors),
        "left": tuple(at(s, 0, -1) for s in squares),
        "right": tuple(at(s, 0, 1) for s in squares),
        "row": tuple(g.rc(s)[0] for s in squares),
        "col": tuple(g.rc(s)[1] for s in squares),
    }


def unsupported_search(evaluator: Evaluator) -> str | None:
    """Why the compiled search cannot play with `evaluator` (None when it can), built or not."""
    if type(evaluator) is not Evaluator:
        return f"{type(evaluator).__name__} is not the plain Evaluator"
    return unsupported(evaluator.variant)


def _since_capture_or_promotion(board: Board) -> int:
    """Plies since the last capture or promotion that the board's history shows (FMJD endgame rule)."""
    plies = 0
    for move in reversed(board.move_stack):
        if move.captures or move.promotion:
            break
        plies += 1
    return plies


class NativeSearcher(Searcher):
    """A Searcher whose tree search and evaluation run in C (same results API, much faster).

    `threads` > 1: each iteration also runs threads - 1 helpers over the shared table (Lazy SMP,
    csrc/dsmp.h), not reproducible from run to run; 1 is the single-threaded search, node for node.
    """

    def __init__(
        self,
        evaluator: Evaluator,
        tt_entries: int = DEFAULT_TT_ENTRIES,
        extend_single_replies: bool = True,
        reductions: bool = True,
        threads: int = 1,
        selectivity: Selectivity = Selectivity(),
    ) -> None:
        module = compiled()
        if module is None:
            raise RuntimeError("the native engine is not built (pip install -e . with a C compiler)")
        reason = unsupported_search(evaluator)
        if reason is not None:
            raise ValueError(f"the native engine cannot play {evaluator.variant.id}: {reason}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"search threads must be 1..{MAX_THREADS}, got {threads}")
        super().__init__(evaluator, tt_entries, extend_single_replies)
        v = evaluator.variant
        options = {
            "tt_entries": tt_entries,
            "no_move_loses": int(v.no_move_loses),
            "king_vs_single_man": int(v.king_vs_single_man_wins),
            "endgame_rules": int(v.endgame_rules),
            "extend_single": int(extend_single_replies),
            "reductions": int(reductions),
            "threads": threads,
            **asdict(selectivity),
        }
        self._native = module.Searcher(rules_params(v), eval_params(evaluator), options)
        self._since_cp = 0

    def __repr__(self) -> str:
        return f"NativeSearcher({self.variant.id})"

    def clear(self) -> None:
        """Forget the transposition table and ordering statistics (new game)."""
        super().clear()
        self._native.clear()

    def set_endgames(self, tables: Any) -> None:
        """Probe these endgame tables (engine.endgame.EndgameTables, or None) in the C tree as well."""
        super().set_endgames(tables)
        if tables is None:
            self._native.set_endgames({}, None)
        else:
            from engine.endgame import native_options

            self._native.set_endgames(native_options(self.variant),
                                      {s.counts: data for s, data in tables.tables.items()})

    def evaluate(self, board: Board) -> int:
        """The C evaluation of `board` (equal to the Evaluator's)."""
        own, opp = board._own_opp()
        return int(self._native.evaluate(own, opp, board._k, board.turn))

    def _begin(self, board: Board, deadline: float | None, node_limit: int | None, stop_event: Any) -> None:
        super()._begin(board, deadline, node_limit, stop_event)
        self._since_cp = _since_capture_or_promotion(board)
        self._native.new_search()

    # -- the C calls ------------------------------------------------------------------------------------
    def _root_args(self, board: Board) -> tuple[object, ...]:
        own, opp = board._own_opp()
        keys = tuple(self._history_keys)
        return (own, opp, board._k, board.turn, keys, self._quiet, self._quiet_limit or 0, self._since_cp,
                self._draw)

    def _seconds_left(self) -> float:
        """Time to the deadline for C (0: none); SearchAborted when it has passed."""
        if self._deadline == float("inf"):
            return 0.0
        left = self._deadline - time.perf_counter()
        if left <= 0:
            raise SearchAborted
        return left

    def _stop_callable(self) -> Any:
        return self._stop.is_set if self._stop is not None else None

    @staticmethod
    def _line(board: Board, keys: list[tuple[int, int, int]]) -> tuple[Move, ...]:
        """The Moves of (from, to, captured) keys played in turn from `board` (left unchanged)."""
        copy = board.copy()
        out: list[Move] = []
        for frm, to, cap in keys:
            raw = next((r for r in copy._legal_raw() if r[0] == frm and r[1] == to and r[2] == cap), None)
            if raw is None:
                break
            out.append(Board._wrap(raw))
            copy._push_raw(raw)
        return tuple(out)

    def _root(self, board: Board, moves: list[Move], depth: int, guess: int) -> tuple[int, Move, tuple]:
        limit = 0
        if self._node_limit is not None:
            limit = self._node_limit - self.nodes
            if limit <= 0:
                raise SearchAborted
        only = None
        if len(moves) != len(board.legal_moves):
            only = [(m.from_square, m.to_square, sum(1 << s for s in set(m.captures))) for m in moves]
        completed, score, keys, nodes = self._native.iterate(
            *self._root_args(board), depth, self._seconds_left(), limit, self._stop_callable(), only, guess)
        self.nodes += nodes
        pv = self._line(board, keys)
        if not completed:
            if pv:   # a new best move was proven before the search stopped
                self._partial = (score, pv[0], pv)
            raise SearchAborted
        return score, pv[0], pv

    def score_moves(
        self,
        board: Board,
        depth: int,
        deadline: float | None = None,
        window: int = 300,
        stop_event: Any = None,
    ) -> list[tuple[Move, int]]:
        """Score of every legal move at `depth`, best first: exact within `window` of the best."""
        self._begin(board, deadline, None, stop_event)
        scored, nodes = self._native.score_moves(*self._root_args(board), depth, window, self._seconds_left(),
                                                 self._stop_callable())
        self.nodes = nodes
        if scored is None:
            raise SearchAborted
        out = [(self._line(board, [(f, t, c)])[0], score) for f, t, c, score in scored]
        out.sort(key=lambda ms: -ms[1])
        return out

    def _hash_move(self, board: Board) -> Move | None:
        own, opp = board._own_opp()
        key = self._native.hash_move(own, opp, board._k, board.turn)
        return None if key is None else (self._line(board, [key]) or (None,))[0]


def make_searcher(evaluator: Evaluator, threads: int = 1) -> Searcher:
    """The compiled searcher when it is built and fits the variant and evaluator, else the Python one.

    `threads` > 1 is the compiled parallel search; the Python searcher has one thread whatever it says.
    """
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"search threads must be 1..{MAX_THREADS}, got {threads}")
    if available() and compiled() is not None:
        reason = unsupported_search(evaluator)
        if reason is None:
            return NativeSearcher(evaluator, threads=threads)
        if unsupported(evaluator.variant) is None:   # (rules.native says so of a variant beyond it)
            logger.info("draughts-board: the engine searches %s in Python (%s)", evaluator.variant.id, reason)
    return Searcher(evaluator)
