"""Shared helpers for the rules acceptance tests: positions written in algebraic coordinates, random games.

Test positions are reasoned about on the physical board (a1 = White's near left corner) and translated to
each variant's own numbering through `geometry.square_at`, so a numbering bug cannot hide a rules bug.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import rules

MoveKey = tuple[str, str, frozenset[str]]


def alg(geometry: rules.Geometry, sq: int) -> str:
    """Algebraic name ("c3") of a square from its physical (row, col)."""
    row, col = geometry.rc(sq)
    return f"{chr(ord('a') + col)}{row + 1}"


def square(geometry: rules.Geometry, text: str) -> int:
    """Square index of an algebraic name; fails loudly if the cell is not a playing square."""
    col = ord(text[0]) - ord("a")
    row = int(text[1:]) - 1
    sq = geometry.square_at(row, col)
    assert sq is not None, f"{text} is not a playing square of this board"
    return sq


def fen(variant: str | rules.Variant, turn: str, white: Iterable[str], black: Iterable[str]) -> str:
    """A PDN FEN for `variant` from algebraic piece lists; "Kc3" is a king on c3."""
    var = rules.get_variant(variant) if isinstance(variant, str) else variant
    geo = var.geometry

    def block(items: Iterable[str]) -> str:
        parts = []
        for item in items:
            king = item.startswith("K")
            parts.append(("K" if king else "") + geo.name(square(geo, item[1:] if king else item)))
        return ",".join(parts)

    return f"{turn}:W{block(white)}:B{block(black)}"


def board(variant: str, turn: str, white: Iterable[str], black: Iterable[str]) -> rules.Board:
    """A Board of `variant` set up from algebraic piece lists."""
    return rules.Board(variant, fen(variant, turn, white, black))


def key(move: rules.Move, geometry: rules.Geometry) -> MoveKey:
    """Canonical physical identity of a move: (from, to, captured set) in algebraic names."""
    return (alg(geometry, move.from_square), alg(geometry, move.to_square),
            frozenset(alg(geometry, c) for c in move.captures))


def keys(b: rules.Board) -> set[MoveKey]:
    """The legal moves of a board as canonical keys (asserting no two legal moves share a key)."""
    geo = b.variant.geometry
    moves = list(b.legal_moves)
    result = {key(m, geo) for m in moves}
    assert len(result) == len(moves), f"duplicate legal moves (same from, to, captured set): {moves}"
    return result


def k(frm: str, to: str, *captured: str) -> MoveKey:
    """Shorthand for an expected move key."""
    return (frm, to, frozenset(captured))


def find(b: rules.Board, frm: str, to: str, *captured: str) -> rules.Move:
    """The legal move of `b` matching the algebraic key; fails if there is none."""
    want = k(frm, to, *captured)
    geo = b.variant.geometry
    for m in b.legal_moves:
        if key(m, geo) == want:
            return m
    raise AssertionError(f"{want} is not legal; legal: {sorted(keys(b))}")


def playout(variant: str | rules.Variant, plies: int, seed: int | str) -> rules.Board:
    """The board after up to `plies` random moves from the start (fewer when the game ends). The moves are
    drawn from a sorted list, so a seed gives the same game on the native and the pure-Python core."""
    rng = random.Random(seed)
    board = rules.Board(variant)
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda m: (m.from_square, m.to_square, m.captures))
        if not moves:
            break
        board.push(rng.choice(moves))
    return board
