"""The ten playing levels: depth caps and seeded randomness that make the low levels err like people do."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """How one level plays: search depth, how far below the best a chosen move may score, and blunder odds.

    `margin` (hundredths of a man): moves within it of the best are candidates, weighted by
    exp(-(best - score) / temperature). `blunder`: chance to pick among the better half of all moves
    instead (a plausible but unsound move). Level 10 searches by time alone and never randomises.
    """

    number: int
    depth: int | None
    margin: int
    temperature: float
    blunder: float
    default_time: float

    @property
    def randomised(self) -> bool:
        """Whether this level draws its move at random among candidates."""
        return self.margin > 0 or self.blunder > 0


LEVELS: tuple[Level, ...] = (
    Level(1, 1, 150, 80.0, 0.40, 0.5),
    Level(2, 1, 100, 50.0, 0.25, 0.5),
    Level(3, 2, 70, 35.0, 0.15, 0.5),
    Level(4, 2, 55, 28.0, 0.11, 0.7),
    Level(5, 2, 40, 20.0, 0.08, 1.0),
    Level(6, 3, 20, 10.0, 0.04, 1.0),
    Level(7, 4, 12, 6.0, 0.02, 1.5),
    Level(8, 5, 6, 3.0, 0.01, 2.0),
    Level(9, 6, 0, 1.0, 0.0, 3.0),
    Level(10, None, 0, 1.0, 0.0, 5.0),
)


def get_level(number: int) -> Level:
    """The Level with this number (1-10)."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"engine level must be 1..{len(LEVELS)}, got {number}")
    return LEVELS[number - 1]
