"""What the move-kind generators share: walking the bits of a bitboard."""

from __future__ import annotations

from collections.abc import Iterator


def bits(x: int) -> Iterator[int]:
    """The squares set in a bitboard, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low
