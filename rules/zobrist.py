"""Zobrist keys: the random numbers a position's hash is made of, shared by the Board and the compiled core.

A module of its own so that rules.native (which hands the keys to C) need not import the Board.
"""

from __future__ import annotations

import random
from functools import cache


@cache
def zobrist_table(size: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Deterministic 64-bit keys: table[color*2 + is_king][square], plus the side-to-move key."""
    rng = random.Random(0xD7A6_5EED + size)
    table = tuple(tuple(rng.getrandbits(64) for _ in range(size)) for _ in range(4))
    return table, rng.getrandbits(64)
