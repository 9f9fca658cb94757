"""Mapping the rules core's squares to physical (row, col) cells, with the board's orientation.

Occupancy cannot tell on which side White sits, so the orientation comes from the board profile or the
new-game choice: ``flipped`` means White sits at the far edge (physical row ``rows - 1``).
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.types import Cell
from rules import Variant


@dataclass(frozen=True)
class BoardMap:
    """Rules squares <-> physical cells for one variant and orientation."""

    variant: Variant
    flipped: bool = False

    @property
    def rows(self) -> int:
        """The board's number of rows (the variant's height)."""
        return self.variant.height

    @property
    def cols(self) -> int:
        """The board's number of columns (the variant's width)."""
        return self.variant.width

    def rc(self, sq: int) -> Cell:
        """The physical cell of rules square ``sq``."""
        row, col = self.variant.geometry.rc(sq)
        if self.flipped:
            return (self.rows - 1 - row, self.cols - 1 - col)
        return (row, col)

    def square(self, cell: Cell) -> int | None:
        """The rules square on a physical cell (None for a cell that is not played on)."""
        row, col = cell
        if self.flipped:
            row, col = self.rows - 1 - row, self.cols - 1 - col
        return self.variant.geometry.square_at(row, col)

    def name(self, cell: Cell) -> str:
        """The cell's name in the variant's notation (``r3c4`` for a cell that is not played on)."""
        sq = self.square(cell)
        return self.variant.geometry.name(sq) if sq is not None else f"r{cell[0]}c{cell[1]}"

    def cell_of(self, text: str) -> Cell:
        """The physical cell of the square named ``text`` in the variant's notation (``32``, ``c3``); raises
        ``InvalidSquareError`` (a ValueError) naming the text for one that is not a playing square."""
        return self.rc(self.variant.geometry.parse_square(text))

    def playing(self) -> frozenset[Cell]:
        """Every physical cell that is played on."""
        return frozenset(self.rc(sq) for sq in self.variant.geometry.squares)
