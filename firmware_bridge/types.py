"""Values that cross the bridge: physical squares, occupancy snapshots, change events and LED frames.

A square is ``(row, column)`` seen from White's side, row 0 nearest White, column 0 on White's left.
The bridge never knows which piece stands where: only which squares are occupied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

Cell = tuple[int, int]


@dataclass(frozen=True)
class Occupancy:
    """A debounced snapshot: every occupied square, with a sequence number and a monotonic time."""

    squares: frozenset[Cell]
    seq: int
    time: float


@dataclass(frozen=True)
class CellChange:
    """One debounced change of one square (raw event stream, used to know which piece is handled)."""

    square: Cell
    occupied: bool
    seq: int
    time: float


@dataclass(frozen=True)
class LinkStatus:
    """The link to a board with its own microcontroller (serial), as a person should hear of it.

    ``state``: ``connecting`` (looking for the board or waiting for its first answer), ``connected`` (it
    answers with valid frames), ``not responding`` (a port is open but no valid frame comes, or writes do not
    complete: wrong speed, wrong firmware, a hung board) or ``disconnected`` (the port is gone).
    ``reason`` says what was seen, in plain words.
    """

    state: str
    port: str
    reason: str = ""

    STATES: ClassVar[tuple[str, ...]] = ("connecting", "connected", "not responding", "disconnected")

    def __post_init__(self) -> None:
        if self.state not in self.STATES:
            raise ValueError(f"link state must be one of {', '.join(self.STATES)}, got {self.state!r}")

    @property
    def ok(self) -> bool:
        return self.state == "connected"


class Pattern(Enum):
    """How a lit LED behaves."""

    OFF = 0
    ON = 1
    SLOW_BLINK = 2  # 1 Hz
    FAST_BLINK = 3  # 4 Hz


@dataclass(frozen=True)
class Rgb:
    """An RGB color, each channel 0-255."""

    r: int
    g: int
    b: int

    def __post_init__(self) -> None:
        for channel in (self.r, self.g, self.b):
            if not 0 <= channel <= 255:
                raise ValueError(f"color channel out of range 0-255: {channel}")


BLACK = Rgb(0, 0, 0)
WHITE = Rgb(255, 255, 255)
RED = Rgb(255, 0, 0)
GREEN = Rgb(0, 255, 0)
BLUE = Rgb(0, 0, 255)
YELLOW = Rgb(255, 200, 0)
ORANGE = Rgb(255, 100, 0)
PURPLE = Rgb(160, 0, 255)
CYAN = Rgb(0, 200, 255)


@dataclass(frozen=True)
class Light:
    """What one square's LED shows."""

    rgb: Rgb = BLACK
    pattern: Pattern = Pattern.OFF


DARK = Light()


@dataclass(frozen=True)
class LedFrame:
    """The whole board's LEDs at once: squares not listed are dark. Whole frames, never deltas."""

    rows: int
    cols: int
    lights: tuple[tuple[Cell, Light], ...] = field(default=())

    @classmethod
    def of(cls, rows: int, cols: int, lights: dict[Cell, Light] | None = None) -> LedFrame:
        """Build a frame from a mapping; squares in any order, dark ones dropped, checked against the size."""
        items = []
        for (row, col), light in sorted((lights or {}).items()):
            if not (0 <= row < rows and 0 <= col < cols):
                raise ValueError(f"square {(row, col)} is outside a {rows}x{cols} board")
            if light.pattern is not Pattern.OFF:
                items.append(((row, col), light))
        return cls(rows, cols, tuple(items))

    def light(self, square: Cell) -> Light:
        """What the given square shows (dark when not listed)."""
        for sq, light in self.lights:
            if sq == square:
                return light
        return DARK

    def as_dict(self) -> dict[Cell, Light]:
        return dict(self.lights)

    def dimmed(self, factor: float) -> LedFrame:
        """The same frame with every color scaled by ``factor`` (0.0-1.0): a brightness control."""
        if factor >= 1.0:
            return self

        def scale(c: Rgb) -> Rgb:
            return Rgb(round(c.r * factor), round(c.g * factor), round(c.b * factor))

        return LedFrame(self.rows, self.cols,
                        tuple((sq, Light(scale(light.rgb), light.pattern)) for sq, light in self.lights))
