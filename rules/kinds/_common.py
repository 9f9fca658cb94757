"""What the move-kind generators share: walking the bits of a bitboard and merging duplicate captures."""

from __future__ import annotations

from collections.abc import Iterator

from rules.movegen import RawMove


def bits(x: int) -> Iterator[int]:
    """The squares set in a bitboard, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def merge_duplicates(moves: list[RawMove]) -> list[RawMove]:
    """One capture per (from, to, captured set, promotion): other paths are the same move on the board."""
    seen: set[tuple[int, int, int, bool]] = set()
    out = []
    for m in moves:
        key = (m[0], m[1], m[2], m[3])
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out
