"""Iterative-deepening principal-variation search with quiescence over captures and a transposition table.

Keys come from `board.key()`; move ordering is hash move, captures by size, promotions, killers, history.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

from engine.endgame import DRAW, TABLE_SPAN, TABLE_WIN, WIN, EndgameTables
from engine.evaluation import Evaluator
from engine.limits import INFINITY, MATE, MATE_BOUND, SearchLimits, SearchProgress, SearchResult
from rules import Board, Move

EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 96
QUIESCENCE_PLIES = 8
_CHECK_EVERY = 512
GROWTH_MIN, GROWTH_MAX = 1.5, 10.0   # bounds on the predicted growth of an iteration over the last one
GROWTH_SPAN = 3   # ... measured over the last three iterations (with a warm table one ratio alone jumps)
HOPELESS = 3.0   # no next iteration once it is predicted to end past HOPELESS times the budget
CONTEMPT_MAX = 50      # a draw costs the side ahead up to half a man: it plays on rather than repeat
CONTEMPT_SHARE = 4     # ... a quarter of its lead at the root


class SearchAborted(Exception):
    """Raised inside the tree when time, nodes or the stop event end the search."""


def _to_tt(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def next_iteration_worthwhile(iteration_times: list[float], elapsed: float, budget: float) -> bool:
    """Whether to start another iteration `elapsed` seconds into a search of `budget` seconds.

    A fixed budget is the time to spend: an iteration the deadline cuts short still searches the best move
    first and can prove a better one (played), so it is only skipped when it clearly cannot finish, that is
    when the last iteration's time times the growth of the last GROWTH_SPAN (their geometric mean, bounded)
ends past HOPELESS budgets: with a table kept from the last move the first iterations are nearly free and
one ratio alone can jump tenfold.
    The old rule (stop after 60% of the budget) left 10-40% of it unused (bench/time_use.py).
    """
    if elapsed >= budget:
        return False
    recent = iteration_times[-1 - GROWTH_SPAN:]
    if len(recent) < 2 or recent[0] <= 0:
        return True
    growth = (recent[-1] / recent[0]) ** (1 / (len(recent) - 1))   # geometric mean of the last ratios
    growth = min(GROWTH_MAX, max(GROWTH_MIN, growth))
    return elapsed + growth * iteration_times[-1] <= HOPELESS * budget


class Searcher:
    """Alpha-beta searcher for one variant; keeps its transposition table between searches."""

    def __init__(
        self, evaluator: Evaluator, tt_entries: int = 400_000, extend_single_replies: bool = True
    ) -> None:
        self.evaluator = evaluator
        self.variant = evaluator.variant
        # forced captures are searched past the depth, unless every move is one (Konane: Evaluator.quiescence)
        self.quiescence_plies = QUIESCENCE_PLIES if evaluator.quiescence else 0
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}
        self.tt_entries = tt_entries
        self.extend_single_replies = extend_single_replies
        self.history: dict[tuple[int, int], int] = {}
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self._deadline = float("inf")
        self._node_limit: int | None = None
        self._stop: threading.Event | None = None
        self._path: list[int] = []
        self._extension_plies = 8
        self._partial: tuple[int, Move, tuple[Move, ...]] | None = None
        self._history_keys: set[int] = set()
        self._quiet = 0                          # plies without capture or man move, game and path
        self._quiet_limit: int | None = None     # the variant's no-progress draw in plies, when in reach
        self._draw = 0                           # a draw by rule, scored for the side to move at the root
        self.endgames: EndgameTables | None = None   # endgame tables probed below the root
        self._endgame_pieces = 0

    def __repr__(self) -> str:
        return f"Searcher({self.variant.id}, tt={len(self.tt)})"

    def set_endgames(self, tables: EndgameTables | None) -> None:
        """Probe these endgame tables below the root (None: none); a won ending scores TABLE_WIN plus the
        evaluation (within TABLE_SPAN), a drawn one a draw. The tables ignore the move counters, which the
        search applies first."""
        self.endgames = tables
        self._endgame_pieces = tables.max_pieces if tables is not None else 0

    def _table_score(self, board: Board, ply: int) -> int | None:
        """The endgame tables' score of `board` for the side to move, or None when they do not hold it."""
        tables = self.endgames
        if tables is None:
            return None
        w, b, k = board.bitboards()
        if (w | b).bit_count() > self._endgame_pieces:
            return None
        value = tables.probe(w, b, k, board.turn)
        if not value:
            return None
        if value == DRAW:
            return self._draw_score(ply)
        e = max(-TABLE_SPAN, min(TABLE_SPAN, self.evaluator.evaluate(board)))
        return TABLE_WIN + e if value == WIN else -TABLE_WIN + e

    def clear(self) -> None:
        """Forget the transposition table and ordering statistics (new game)."""
        self.tt.clear()
        self.history.clear()
        self.killers = [[None, None] for _ in range(MAX_PLY + 2)]

    # -- driver -------------------------------------------------------------------------------------
    def search(
        self,
        board: Board,
        limits: SearchLimits | None = None,
        on_progress: Callable[[SearchProgress], None] | None = None,
        stop_event: threading.Event | None = None,
        root_moves: list[Move] | None = None,
    ) -> SearchResult:
        """Search `board` (left unchanged) within `limits`; report each finished depth to `on_progress`."""
        limits = limits or SearchLimits(depth=4)
        board = board.copy()
        start = time.perf_counter()
        self._begin(board, start + limits.time if limits.time else None, limits.nodes, stop_event)
        self._path = []
        if len(self.tt) > self.tt_entries:
            self.tt.clear()
        moves = root_moves if root_moves is not None else list(board.legal_moves)
        if not moves:
            score = -MATE if self.variant.no_move_loses else MATE
            return SearchResult(None, score, (), 0, 0, time.perf_counter() - start)
        best = SearchResult(moves[0], 0, (moves[0],), 0, 0, 0.0, (board.move_text(moves[0]),))
        max_depth = limits.depth or MAX_PLY - 4
        if len(moves) == 1 and limits.depth is None:
            max_depth = min(max_depth, 2)  # one legal move: a short look for the score, then play it
        score_guess = 0
        iteration_times: list[float] = []
        for depth in range(1, max_depth + 1):
            self._extension_plies = 2 * depth
            if depth > 1 and stop_event is not None and stop_event.is_set():
                break
            self._partial = None
            try:
                score, move, pv = self._root(board, moves, depth, score_guess)
            except SearchAborted:
                if self._partial is not None:  # a new best move was proven before time ran out: play it
                    score, move, pv = self._partial
                    best = SearchResult(
                        move,
                        score,
                        pv,
                        depth,
                        self.nodes,
                        time.perf_counter() - start,
                        self._pv_text(board, pv),
                    )
                break
            score_guess = score
            elapsed = time.perf_counter() - start
            pv_text = self._pv_text(board, pv)
            best = SearchResult(move, score, pv, depth, self.nodes, elapsed, pv_text)
            if on_progress is not None:
                on_progress(SearchProgress(depth, score, pv, pv_text, self.nodes, elapsed))
            if abs(score) >= MATE_BOUND and depth > MATE - abs(score):
                break
            iteration_times.append(elapsed - sum(iteration_times))
            if limits.time and not next_iteration_worthwhile(iteration_times, elapsed, limits.time):
                break
        return dataclasses.replace(best, nodes=self.nodes, seconds=time.perf_counter() - start)

    def score_moves(
        self,
        board: Board,
        depth: int,
        deadline: float | None = None,
        window: int = 300,
        stop_event: threading.Event | None = None,
    ) -> list[tuple[Move, int]]:
        """Score of every legal move at `depth`, best first: exact within `window` of the best."""
        board = board.copy()
        self._begin(board, deadline, None, stop_event)
        self._path = [board.key()]
        self._extension_plies = 2 * depth
        scored: list[tuple[Move, int]] = []
        best = -INFINITY
        for move in self._order(list(board.legal_moves), None, 0):
            saved = self._push(board, move)
            try:
                # Moves far below the best only need a bound: they are never candidates.
                floor = max(-INFINITY, best - window) if best > -INFINITY else -INFINITY
                score = -self._negamax(board, depth - 1, -INFINITY, -floor, 1)
                best = max(best, score)
            finally:
                self._pop(board, saved)
            scored.append((move, score))
        scored.sort(key=lambda ms: -ms[1])
        return scored

    def table_line(self, board: Board, first: Move, length: int) -> tuple[Move, ...]:
        """`first`, then the best replies the transposition table remembers (up to `length` moves in all).

        Read-only: it changes neither the table nor `board`; it stops at a missing, illegal or repeated entry.
        """
        line = [first]
        copy = board.copy()
        copy.push(first)
        seen = {board.key(), copy.key()}
        while len(line) < length:
            move = self._hash_move(copy)
            if move is None or move not in copy.legal_moves:
                break
            copy.push(move)
            if copy.key() in seen:
                break
            seen.add(copy.key())
            line.append(move)
        return tuple(line)

    def _begin(
        self, board: Board, deadline: float | None, node_limit: int | None, stop_event: threading.Event | None
    ) -> None:
        """Set up one search of `board`: limits, and the game's history for the draw rules."""
        self.nodes = 0
        self._deadline = deadline or float("inf")
        self._node_limit = node_limit
        self._stop = stop_event
        self._history_keys = self._game_keys(board)
        self._quiet, self._quiet_limit = self._no_progress(board)
        self._draw = self.draw_value(board)

    def draw_value(self, board: Board) -> int:
        """What a draw by rule is worth to the side to move in `board`, the root of a search.

        Nothing, unless it stands better: then a repetition or a counted draw costs it a share of its lead
        (contempt), so it looks for the win rather than repeating. Behind, a draw stays worth 0.
        """
        lead = self.evaluator.evaluate(board)
        return -min(CONTEMPT_MAX, lead // CONTEMPT_SHARE) if lead > 0 else 0

    def _draw_score(self, ply: int) -> int:
        """A draw `ply` plies below the root, for the side to move there."""
        return self._draw if ply % 2 == 0 else -self._draw

    def _hash_move(self, board: Board) -> Move | None:
        """The best move the transposition table remembers for `board`, if any."""
        entry = self.tt.get(board.key())
        return entry[3] if entry is not None else None

    def _game_keys(self, board: Board) -> set[int]:
        """Keys of the positions of the game so far (for repetition draws inside the tree)."""
        keys: set[int] = set()
        copy = board.copy()
        for _ in range(min(len(copy.move_stack), 60)):
            move = copy.pop()
            if move.captures:
                break
            keys.add(copy.key())
        return keys

    def _no_progress(self, board: Board) -> tuple[int, int | None]:
        """(plies since the last capture or man move in the game, the no-progress draw in plies or None).

        None when the variant has no such rule or the draw lies beyond any search: the count then costs
        nothing. Claimed or automatic, the engine scores reaching it as a draw, as it does repetition.
        """
        moves = self.variant.no_progress_moves
        if moves is None:
            return 0, None
        quiet = 0
        copy = board.copy()
        while copy.move_stack and quiet < 2 * moves:
            move = copy.pop()
            piece = copy.piece_at(move.from_square)
            if move.captures or piece is None or not piece.king:
                break
            quiet += 1
        limit = 2 * moves
        return quiet, (limit if limit - quiet <= MAX_PLY else None)

    def _push(self, board: Board, move: Move) -> int:
        """Play ``move`` in the tree and keep the no-progress count; returns the count to restore."""
        saved = self._quiet
        board.push(move)
        if self._quiet_limit is not None:
            king_moved = board.bitboards()[2] >> move.to_square & 1 and not move.promotion
            self._quiet = saved + 1 if king_moved and not move.captures else 0
        return saved

    def _pop(self, board: Board, saved: int) -> None:
        board.pop()
        self._quiet = saved

    def _counted_draw(self) -> bool:
        """The no-progress rule has drawn the game on this path."""
        return self._quiet_limit is not None and self._quiet >= self._quiet_limit

    def _pv_text(self, board: Board, pv: tuple[Move, ...]) -> tuple[str, ...]:
        texts = []
        copy = board.copy()
        for move in pv:
            texts.append(copy.move_text(move))
            copy.push(move)
        return tuple(texts)

    def _root(self, board: Board, moves: list[Move], depth: int, guess: int) -> tuple[int, Move, tuple]:
        entry = self.tt.get(board.key())
        hash_move = entry[3] if entry else None
        ordered = self._order(moves, hash_move, 0)
        self._path = [board.key()]
        alpha, beta = -INFINITY, INFINITY
        best_move = ordered[0]
        best_pv: tuple[Move, ...] = (best_move,)
        for index, move in enumerate(ordered):
            saved = self._push(board, move)
            try:
                if index == 0:
                    score, child_pv = self._pvs(board, depth - 1, -beta, -alpha, 1)
                else:
                    score, child_pv = self._pvs(board, depth - 1, -alpha - 1, -alpha, 1)
                    if -score > alpha:
                        score, child_pv = self._pvs(board, depth - 1, -beta, -alpha, 1)
            finally:
                self._pop(board, saved)
            score = -score
            if score > alpha:
                alpha = score
                best_move = move
                best_pv = (move, *child_pv)
                if index > 0:
                    self._partial = (alpha, best_move, best_pv)
        self.tt[board.key()] = (depth, EXACT, alpha, best_move)
        return alpha, best_move, best_pv

    # -- tree -----------------------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            if time.perf_counter() > self._deadline:
                raise SearchAborted
            if self._stop is not None and self._stop.is_set():
                raise SearchAborted
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise SearchAborted

    def _pvs(self, board: Board, depth: int, alpha: int, beta: int, ply: int) -> tuple[int, tuple[Move, ...]]:
        """Principal-variation search returning (score, pv) for PV nodes."""
        self._tick()
        key = board.key()
        if key in self._history_keys or key in self._path or self._counted_draw():
            return self._draw_score(ply), ()
        if self._endgame_pieces:
            table = self._table_score(board, ply)
            if table is not None:
                return table, ()
        moves = list(board.legal_moves)
        if not moves:
            return (-MATE + ply if self.variant.no_move_loses else MATE - ply), ()
        if depth <= 0 and (not moves[0].captures or depth <= -self.quiescence_plies):
            return self.evaluator.evaluate(board), ()
        if ply >= MAX_PLY:
            return self.evaluator.evaluate(board), ()
        entry = self.tt.get(key)
        hash_move = entry[3] if entry else None
        ordered = self._order(moves, hash_move, ply)
        best = -INFINITY
        best_pv: tuple[Move, ...] = ()
        best_move = ordered[0]
        orig_alpha = alpha
        self._path.append(key)
        next_depth = self._next_depth(depth, len(moves), ply)
        try:
            for index, move in enumerate(ordered):
                saved = self._push(board, move)
                try:
                    if index == 0:
                        score, child_pv = self._pvs(board, next_depth, -beta, -alpha, ply + 1)
                        score = -score
                    else:
                        score = -self._negamax(board, next_depth, -alpha - 1, -alpha, ply + 1)
                        child_pv = ()
                        if alpha < score < beta:
                            score, child_pv = self._pvs(board, next_depth, -beta, -alpha, ply + 1)
                            score = -score
                finally:
                    self._pop(board, saved)
                if score > best:
                    best, best_move, best_pv = score, move, (move, *child_pv)
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            self._note_cutoff(move, ply, depth)
                            break
        finally:
            self._path.pop()
        flag = EXACT if orig_alpha < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, flag, _to_tt(best, ply), best_move)
        return best, best_pv

    def _negamax(self, board: Board, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Null-window / non-PV alpha-beta with transposition-table cutoffs."""
        self._tick()
        key = board.key()
        if key in self._history_keys or key in self._path or self._counted_draw():
            return self._draw_score(ply)
        if self._endgame_pieces:
            table = self._table_score(board, ply)
            if table is not None:
                return table
        entry = self.tt.get(key)
        if entry is not None and entry[0] >= depth:
            tt_score = _from_tt(entry[2], ply)
            flag = entry[1]
            if flag == EXACT or (flag == LOWER and tt_score >= beta) or (flag == UPPER and tt_score <= alpha):
                return tt_score
        moves = list(board.legal_moves)
        if not moves:
            return -MATE + ply if self.variant.no_move_loses else MATE - ply
        captures = bool(moves[0].captures)
        if depth <= 0 and (not captures or depth <= -self.quiescence_plies):
            return self.evaluator.evaluate(board)
        if ply >= MAX_PLY:
            return self.evaluator.evaluate(board)
        next_depth = self._next_depth(depth, len(moves), ply)
        hash_move = entry[3] if entry else None
        ordered = self._order(moves, hash_move, ply) if len(moves) > 1 else moves
        best = -INFINITY
        best_move = ordered[0]
        orig_alpha = alpha
        self._path.append(key)
        try:
            for move in ordered:
                saved = self._push(board, move)
                try:
                    score = -self._negamax(board, next_depth, -beta, -alpha, ply + 1)
                finally:
                    self._pop(board, saved)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not captures:
                                self._note_cutoff(move, ply, depth)
                            break
        finally:
            self._path.pop()
        flag = EXACT if orig_alpha < best < beta else (LOWER if best >= beta else UPPER)
        if entry is None or depth >= entry[0] or flag == EXACT:
            self.tt[key] = (depth, flag, _to_tt(best, ply), best_move)
        return best

    def _next_depth(self, depth: int, count: int, ply: int) -> int:
        """Depth for the children: a forced single reply is extended, within a bounded number of plies."""
        if depth <= 0:
            return depth - 1  # quiescence over forced captures, bounded by QUIESCENCE_PLIES
        if count == 1 and self.extend_single_replies and ply < self._extension_plies:
            return depth
        return depth - 1

    # -- ordering -------------------------------------------------------------------------------------
    def _note_cutoff(self, move: Move, ply: int, depth: int) -> None:
        if move.captures:
            return
        slot = self.killers[ply]
        if slot[0] != move:
            slot[1] = slot[0]
            slot[0] = move
        hkey = (move.from_square, move.to_square)
        self.history[hkey] = self.history.get(hkey, 0) + depth * depth

    def _order(self, moves: list[Move], hash_move: Move | None, ply: int) -> list[Move]:
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history = self.history

        def rank(move: Move) -> int:
            if move == hash_move:
                return 1 << 30
            r = len(move.captures) * 1_000_000 + (500_000 if move.promotion else 0)
            if move == killers[0]:
                r += 400_000
            elif move == killers[1]:
                r += 300_000
            return r + min(history.get((move.from_square, move.to_square), 0), 200_000)

        return sorted(moves, key=rank, reverse=True)
