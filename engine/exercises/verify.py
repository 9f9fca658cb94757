"""What makes an exercise sound: the engine, searching every move to the stated depth, confirms the solution.

Common to all kinds: the solution is legal and the engine's best move, every other move scoring at least
`MARGIN` (a man) less. Then, by kind: a *shot* wins a man or more than the position is worth at rest and
starts by giving the opponent a capture; an *only move* keeps the balance (at worst -0.50) while every other
move loses (a man at least on the board); an *ending* (3 to 8 pieces, 10 on 10x10) is won: a forced win
within the depth, or +2 men for the side with more material against an opponent without a king.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Engine
from engine.evaluation import king_value
from engine.exercises.model import Exercise, ExerciseError
from engine.limits import MATE_BOUND, format_score
from rules import Board, Color, Move, RulesError

MARGIN = 100
"""How much worse (hundredths of a man) every other move must score for the solution to be unique."""
SHOT_GAIN = 100
HOLD = -50
WIN = 200


def material(board: Board, color: Color) -> int:
    """Men and kings of `color`, in hundredths of a man (a king at the variant's worth)."""
    return 100 * len(board.men(color)) + king_value(board.variant) * len(board.kings(color))


def ending_pieces(board: Board) -> int:
    """The most pieces an ending may have on this board: 8 on 8x8, 10 on 10x10."""
    return 10 if board.variant.height >= 10 else 8


@dataclass(frozen=True)
class Verdict:
    """The engine's reading of a position at one depth: every move's score, best first, the kinds it fits."""

    depth: int
    scored: tuple[tuple[Move, int], ...]
    static: int
    kinds: tuple[str, ...]

    @property
    def best(self) -> Move:
        return self.scored[0][0]

    def __repr__(self) -> str:
        moves = ", ".join(f"{m}:{s}" for m, s in self.scored[:3])
        return f"Verdict(depth={self.depth}, [{moves}], kinds={self.kinds})"


def judge(board: Board, depth: int, engine: Engine | None = None) -> Verdict:
    """Score every legal move of `board` at `depth` (a fresh table: the answer never depends on history)."""
    engine = engine or Engine(board.variant)
    engine.new_game()
    scored = tuple(engine.searcher.score_moves(board, depth, window=MARGIN * 3))
    static = engine.evaluate(board)
    return Verdict(depth, scored, static, _kinds(board, scored, static))


def _kinds(board: Board, scored: tuple[tuple[Move, int], ...], static: int) -> tuple[str, ...]:
    if len(scored) < 2 or scored[1][1] > scored[0][1] - MARGIN:
        return ()
    (move, score), second = scored[0], scored[1][1]
    kinds = []
    pieces = len(board.occupied())
    after = board.copy()
    after.push(move)
    if not move.captures and after.has_capture() and score >= static + SHOT_GAIN and score >= SHOT_GAIN:
        kinds.append("shot")
    has_men = bool(board.men(Color.WHITE) or board.men(Color.BLACK))
    if score >= HOLD and second < HOLD and pieces >= 4 and has_men:
        kinds.append("only")
    them = board.turn.opponent
    if 3 <= pieces <= ending_pieces(board) and (score >= MATE_BOUND or (
            score >= WIN and material(board, board.turn) > material(board, them) and not board.kings(them))):
        kinds.append("ending")
    return tuple(kinds)


def verify(exercise: Exercise, where: str, engine: Engine | None = None) -> Verdict:
    """The engine's verdict on `exercise` at its depth; ExerciseError (naming `where`) unless it confirms
    the solution."""
    try:
        board = exercise.board()
    except (RulesError, ValueError) as exc:
        raise ExerciseError(f"{where}: bad position {exercise.fen!r}: {exc}") from None
    try:
        move = board.parse_move(exercise.solution)
    except (RulesError, ValueError) as exc:
        legal = ", ".join(sorted(board.move_text(m) for m in board.legal_moves))
        raise ExerciseError(f"{where}: solution {exercise.solution} is not legal here ({exc}); "
                            f"legal moves: {legal}") from None
    verdict = judge(board, exercise.depth, engine)
    best, best_score = verdict.scored[0]
    text = board.move_text
    if best != move:
        played = dict(verdict.scored)[move]
        raise ExerciseError(f"{where}: wrong solution {exercise.solution}: at depth {exercise.depth} the "
                            f"engine plays {text(best)} ({format_score(best_score)}), the stated solution "
                            f"scores {format_score(played)}")
    if exercise.kind not in verdict.kinds:
        other = f"; {text(verdict.scored[1][0])} scores {format_score(verdict.scored[1][1])}" if len(
            verdict.scored) > 1 else "; it is the only legal move"
        raise ExerciseError(f"{where}: {exercise.solution} ({format_score(best_score)}) does not make this a "
                            f"'{exercise.kind}' exercise at depth {exercise.depth}{other}")
    return verdict
