"""Maps between wiring coordinates (how the matrix is cabled) and logical squares (White's view).

``white_side`` names the edge of the wiring grid White sits at; logical rows grow away from White and
logical columns to White's right.
"""

from __future__ import annotations

from .types import Cell

# The rotation undoing each side's rotation (west and east need a square board, so they swap cleanly).
_INVERSE = {"south": "south", "north": "north", "west": "east", "east": "west"}


class Orientation:
    """A rotation of the wiring grid; ``to_logical``/``to_wiring`` are inverse bijections."""

    def __init__(self, rows: int, cols: int, white_side: str = "south") -> None:
        if white_side not in ("south", "north", "west", "east"):
            raise ValueError(f"white_side must be south, north, west or east, got {white_side!r}")
        if white_side in ("west", "east") and rows != cols:
            raise ValueError(f"white_side {white_side!r} needs a square board, got {rows}x{cols}")
        self.rows, self.cols, self.white_side = rows, cols, white_side

    @property
    def identity(self) -> bool:
        """True when wiring and logical coordinates coincide (White at the south edge)."""
        return self.white_side == "south"

    def to_logical(self, square: Cell) -> Cell:
        """The logical square (White's view) of wiring square ``square``."""
        return self._turn(square, self.white_side)

    def to_wiring(self, square: Cell) -> Cell:
        """The wiring square of logical square ``square`` (the inverse of ``to_logical``)."""
        return self._turn(square, _INVERSE[self.white_side])

    def _turn(self, square: Cell, side: str) -> Cell:
        """Rotate ``square`` as for White at ``side``; west and east are each other's inverse."""
        r, c = square
        n_r, n_c = self.rows - 1, self.cols - 1
        if side == "south":
            return (r, c)
        if side == "north":
            return (n_r - r, n_c - c)
        if side == "west":
            return (c, n_r - r)
        return (n_c - c, r)              # east

    def __repr__(self) -> str:
        return f"Orientation({self.rows}x{self.cols}, white_side={self.white_side!r})"
