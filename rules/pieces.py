"""Colors and pieces: the two small value types every other module uses."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Color(enum.IntEnum):
    """Side of a piece or side to move (WHITE = 0, BLACK = 1)."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Color:
        """The other color."""
        return Color(1 - self.value)

    def __invert__(self) -> Color:
        return Color(1 - self.value)

    @property
    def letter(self) -> str:
        """'W' or 'B' as used by FEN and PDN."""
        return "W" if self is Color.WHITE else "B"


@dataclass(frozen=True)
class Piece:
    """A man or a king of one color."""

    color: Color
    king: bool = False

    def symbol(self) -> str:
        """One letter: w/b for men, W/B for kings."""
        s = self.color.letter
        return s if self.king else s.lower()

    def __repr__(self) -> str:
        return f"Piece({self.color.name}, {'king' if self.king else 'man'})"
