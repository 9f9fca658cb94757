"""Perft: count the leaves of the legal-move tree (for testing the move generator and measuring speed)."""

from __future__ import annotations

from rules.board import Board
from rules.move import Move
from rules.movegen import MoveGen


def _perft(gen: MoveGen, own: int, opp: int, kings: int, color: int, depth: int, keep: bool) -> int:
    """Copy-make perft on raw bitboards (side to move first); no hashing, no Move objects."""
    if depth == 1:
        return gen.count_legal(own, opp, kings, color, keep)
    moves = gen.captures(own, opp, kings, color, keep) or gen.quiet_moves(own, opp, kings, color)
    total = 0
    nxt = 1 - color
    depth -= 1
    for frm, to, cap, promo, _path, _caps, _move in moves:
        fb = 1 << frm
        tb = 1 << to
        if kings & fb:
            nk = (kings ^ fb ^ tb) & ~cap
        elif promo:
            nk = (kings | tb) & ~cap
        else:
            nk = kings & ~cap
        # own & ~cap: a removal (from == to, its square captured) takes the mover's piece off
        total += _perft(gen, opp & ~cap, (own & ~cap) ^ fb ^ tb, nk, nxt, depth, keep)
    return total


def perft(board: Board, depth: int, keep_duplicates: bool = False) -> int:
    """Leaf nodes at exactly `depth` plies (no draw rules); keep_duplicates counts every capture path."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    if depth == 0:
        return 1
    own, opp = board._own_opp()
    if not isinstance(board._gen, MoveGen):  # the compiled generator counts in C
        return board._gen.perft(own, opp, board._k, board.turn, depth, keep_duplicates)
    return _perft(board._gen, own, opp, board._k, int(board.turn), depth, keep_duplicates)


def divide(board: Board, depth: int, keep_duplicates: bool = False) -> dict[Move, int]:
    """perft(depth - 1) below each legal root move (each capture path when keep_duplicates)."""
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, not {depth}")
    own, opp = board._own_opp()
    raws = board._gen.legal(own, opp, board._k, board.turn, keep_duplicates)
    out: dict[Move, int] = {}
    for r in raws:
        board._push_raw(r)
        out[Board._wrap(r)] = perft(board, depth - 1, keep_duplicates)
        board._pop_raw()
    return out
