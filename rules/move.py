"""The Move value type."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """One move: the landing squares from start to end, captured squares in capture order, crowning flag.

    Squares are the opaque ints of the variant's Geometry (cells of its padded grid, not square numbers): a
    Move does not know its variant, so ``Board.move_text(move)`` / ``Board.describe(move)`` name it.
    """

    from_square: int
    to_square: int
    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    promotion: bool = False

    @property
    def is_capture(self) -> bool:
        """True when the move captures at least one piece (an enemy's: a removal is not a capture)."""
        return bool(self.captures) and not self.is_removal

    @property
    def is_removal(self) -> bool:
        """True for a piece its owner takes off the board (Konane's opening): from == to, capturing itself."""
        return self.captures == (self.from_square,) and self.to_square == self.from_square

    @property
    def identity(self) -> tuple[int, int, frozenset[int]]:
        """(from, to, captured set): what identifies the move on a physical board."""
        return (self.from_square, self.to_square, frozenset(self.captures))

    @classmethod
    def simple(cls, from_square: int, to_square: int, promotion: bool = False) -> Move:
        """A non-capturing move."""
        return cls(from_square, to_square, (from_square, to_square), (), promotion)

    def __repr__(self) -> str:
        caps = f", captures={self.captures}" if self.captures else ""
        promo = ", promotion=True" if self.promotion else ""
        return f"Move(grid {self.from_square}->{self.to_square}, path={self.path}{caps}{promo})"
