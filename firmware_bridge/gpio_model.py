"""A stand-in for the ``RPi.GPIO`` module wired to an electrical model of a reed-switch matrix.

Like gpiozero's mock pin factory, but one level lower: the scanner under test calls ``setup``/``output``/
``input`` exactly as on a Raspberry Pi, and each column's level is computed from which pins are driven and
which contacts are closed: through a diode per switch, or (``diodes=False``) through every sneak path,
which is where ghost squares come from. Contacts bounce for a few samples after a change; a switch can
be stuck.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .types import Cell

# RPi.GPIO constants (same values as the real module)
BCM = 11
BOARD = 10
OUT = 0
IN = 1
LOW = 0
HIGH = 1
PUD_OFF = 20
PUD_DOWN = 21
PUD_UP = 22
VERSION = "0.7.1-model"
RPI_INFO = {"P1_REVISION": 3, "TYPE": "model", "PROCESSOR": "none"}


class GPIOModelError(RuntimeError):
    """What real RPi.GPIO raises as RuntimeError: a pin used before setup, or no numbering mode."""


@dataclass
class PinState:
    """One GPIO line: direction, output level, pull resistor."""

    mode: int = IN
    level: int = LOW
    pull: int = PUD_OFF


class SwitchMatrix:
    """Reed switches at the crossings of row wires and column wires, each in series with a diode (or not).

    The diode conducts from the column (pulled up) to the row (driven low) only. ``bounce_samples``: after a
    contact changes, the next that many times its row is driven the contact reads alternately open/closed.
    """

    def __init__(self, rows: int, cols: int, *, diodes: bool = True, bounce_samples: int = 0) -> None:
        self.rows, self.cols = rows, cols
        self.diodes = diodes
        self.bounce_samples = bounce_samples
        self._closed: set[Cell] = set()
        self._stuck: dict[Cell, bool] = {}
        self._bouncing: dict[Cell, int] = {}

    def __repr__(self) -> str:
        return (f"SwitchMatrix({self.rows}x{self.cols}, diodes={self.diodes}, closed={len(self._closed)}, "
                f"stuck={len(self._stuck)})")

    def place(self, square: Cell, *, bounce: int | None = None) -> None:
        """A magnet arrives: the reed closes (after bouncing)."""
        self._set(square, True, bounce)

    def lift(self, square: Cell, *, bounce: int | None = None) -> None:
        """The magnet leaves: the reed opens (after bouncing)."""
        self._set(square, False, bounce)

    def set_occupancy(self, squares: Iterable[Cell]) -> None:
        """Close exactly ``squares`` at once (no bounce)."""
        self._closed = {self._check(sq) for sq in squares}
        self._bouncing.clear()

    def stick(self, square: Cell, closed: bool = True) -> None:
        """A welded (``closed``) or dead (not closed) reed: ignores magnets from now on."""
        self._stuck[self._check(square)] = closed

    def unstick(self, square: Cell) -> None:
        """The reed at ``square`` follows magnets again."""
        self._stuck.pop(square, None)

    def _check(self, square: Cell) -> Cell:
        row, col = square
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"square {square!r} is outside the {self.rows}x{self.cols} switch matrix")
        return (row, col)

    def _set(self, square: Cell, closed: bool, bounce: int | None) -> None:
        sq = self._check(square)
        if (sq in self._closed) == closed:
            return
        (self._closed.add if closed else self._closed.discard)(sq)
        n = self.bounce_samples if bounce is None else bounce
        if n:
            self._bouncing[sq] = n

    @property
    def magnets(self) -> frozenset[Cell]:
        """Squares with a magnet over them (what the board should report)."""
        return frozenset(self._closed)

    def contact(self, square: Cell, sample: bool = False) -> bool:
        """Whether the contact conducts now; ``sample`` consumes one bounce step."""
        if square in self._stuck:
            return self._stuck[square]
        closed = square in self._closed
        left = self._bouncing.get(square)
        if left:
            if sample:
                if left == 1:
                    del self._bouncing[square]
                else:
                    self._bouncing[square] = left - 1
            return closed if left % 2 else not closed
        return closed


class GPIOModel:
    """Module-like object with the ``RPi.GPIO`` API; pass it where the backend expects ``RPi.GPIO``.

    ``row_pins``/``col_pins`` (BCM numbers) say how the matrix is wired to the header.
    """

    BCM, BOARD, OUT, IN, LOW, HIGH = BCM, BOARD, OUT, IN, LOW, HIGH
    PUD_OFF, PUD_DOWN, PUD_UP = PUD_OFF, PUD_DOWN, PUD_UP
    VERSION = VERSION
    RPI_INFO = RPI_INFO

    def __init__(self, matrix: SwitchMatrix, row_pins: Sequence[int], col_pins: Sequence[int],
                 *, seed: int = 0) -> None:
        if len(row_pins) != matrix.rows or len(col_pins) != matrix.cols:
            raise ValueError(f"{len(row_pins)} row pins / {len(col_pins)} column pins for a "
                             f"{matrix.rows}x{matrix.cols} matrix")
        self.matrix = matrix
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self._row_of = {pin: i for i, pin in enumerate(self.row_pins)}
        self._col_of = {pin: i for i, pin in enumerate(self.col_pins)}
        self._pins: dict[int, PinState] = {}
        self._mode: int | None = None
        self._rng = random.Random(seed)
        self._levels: list[int] | None = None     # cached column levels for the current pin state
        self.calls = 0
        self.contention = 0      # a column joined to both a low and a high driver (a short)
        self.floating_reads = 0
        self.warnings = True

    # --- RPi.GPIO API ------------------------------------------------------------------------------
    def setmode(self, mode: int) -> None:
        if mode not in (BCM, BOARD):
            raise ValueError(f"An invalid mode was passed to setmode(): {mode}")
        self._mode = mode

    def getmode(self) -> int | None:
        return self._mode

    def setwarnings(self, flag: bool) -> None:
        self.warnings = bool(flag)

    def setup(self, channel: int | Sequence[int], direction: int, pull_up_down: int = PUD_OFF,
              initial: int = -1) -> None:
        self.calls += 1
        self._need_mode()
        for pin in _channels(channel):
            state = self._pins.setdefault(pin, PinState())
            state.mode = direction
            state.pull = pull_up_down if direction == IN else PUD_OFF
            if direction == OUT and initial != -1:
                state.level = initial
        self._levels = None

    def output(self, channel: int | Sequence[int], value: int | Sequence[int]) -> None:
        self.calls += 1
        pins = _channels(channel)
        values = list(value) if isinstance(value, list | tuple) else [value] * len(pins)
        for pin, level in zip(pins, values, strict=True):
            state = self._pins.get(pin)
            if state is None or state.mode != OUT:
                raise GPIOModelError(f"The GPIO channel has not been set up as an OUTPUT (pin {pin})")
            state.level = HIGH if level else LOW
        self._levels = None

    def input(self, channel: int) -> int:
        self.calls += 1
        state = self._pins.get(channel)
        if state is None:
            raise GPIOModelError(f"You must setup() the GPIO channel first (pin {channel})")
        if state.mode == OUT:
            return state.level
        col = self._col_of.get(channel)
        if col is None:
            return self._float(state)
        if self._levels is None:
            self._levels = self._solve()
        level = self._levels[col]
        return self._float(state) if level < 0 else level

    def cleanup(self, channel: int | Sequence[int] | None = None) -> None:
        if channel is None:
            self._pins.clear()
            self._mode = None
        else:
            for pin in _channels(channel):
                self._pins.pop(pin, None)
        self._levels = None

    # --- the electrical model ----------------------------------------------------------------------
    def _need_mode(self) -> None:
        if self._mode is None:
            raise GPIOModelError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                                 "GPIO.setmode(GPIO.BCM)")

    def _float(self, state: PinState) -> int:
        if state.pull == PUD_UP:
            return HIGH
        if state.pull == PUD_DOWN:
            return LOW
        self.floating_reads += 1
        return self._rng.randrange(2)      # an unterminated input reads noise

    def _driven(self) -> list[int]:
        """Per row wire: LOW/HIGH if driven, -1 if high impedance."""
        out = []
        for pin in self.row_pins:
            state = self._pins.get(pin)
            out.append(state.level if state is not None and state.mode == OUT else -1)
        return out

    def _solve(self) -> list[int]:
        """Level of every column wire: LOW/HIGH when connected to a driver, -1 when only its pull decides."""
        m = self.matrix
        rows = self._driven()
        sampled = [r for r, level in enumerate(rows) if level == LOW]
        contacts = {(r, c) for r in range(m.rows) for c in range(m.cols)
                    if m.contact((r, c), sample=r in sampled)}
        levels: list[int] = []
        if m.diodes:
            # current can only flow column -> diode -> row, so only a LOW row can pull a column down
            for c in range(m.cols):
                low = any(rows[r] == LOW and (r, c) in contacts for r in range(m.rows))
                levels.append(LOW if low else -1)
            return levels
        # no diodes: columns and rows joined by closed contacts form nets (union-find)
        parent = list(range(m.rows + m.cols))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for r, c in contacts:
            parent[find(r)] = find(m.rows + c)
        net_low: set[int] = set()
        net_high: set[int] = set()
        for r, level in enumerate(rows):
            if level == LOW:
                net_low.add(find(r))
            elif level == HIGH:
                net_high.add(find(r))
        for c in range(m.cols):
            net = find(m.rows + c)
            if net in net_low:
                if net in net_high:
                    self.contention += 1
                levels.append(LOW)
            elif net in net_high:
                levels.append(HIGH)
            else:
                levels.append(-1)
        return levels

    def __repr__(self) -> str:
        return (f"GPIOModel({self.matrix.rows}x{self.matrix.cols}, diodes={self.matrix.diodes}, "
                f"magnets={len(self.matrix.magnets)}, calls={self.calls})")


def _channels(channel: int | Sequence[int]) -> list[int]:
    return [channel] if isinstance(channel, int) else list(channel)
