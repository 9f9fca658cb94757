"""A stand-in for the ``RPi.GPIO`` module wired to an electrical model of a reed-switch matrix.

Like gpiozero's mock pin factory, but one level lower: the scanner under test calls ``setup``/``output``/
``input`` exactly as on a Raspberry Pi, and each column's level is computed from which pins are driven and
which contacts are closed: through a diode per switch, or (``diodes=False``) through every sneak path,
which is where ghost squares come from. Contacts bounce for a few samples after a change.

Faults, each modelled electrically: a reed stuck closed or dead (``stick``), a missing or shorted diode
(``remove_diode``: current flows both ways through that switch, so ghosts appear across rectangles), a
broken wire (``open_row``/``open_col``: the pin no longer reaches the board), two wires touching
(``short_rows``/``short_cols``: one net, so their readings merge) and two wires on each other's pins
(``cross_rows``/``cross_cols``). ``SwitchMatrix.reading()`` is what one full scan reads, for the other
simulated boards (the simulated device, the emulated MCU).
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
    Squares are physical (where the magnets are); readings are per pin (row pin, column pin), which differ
    only when wires are crossed.
    """

    def __init__(self, rows: int, cols: int, *, diodes: bool = True, bounce_samples: int = 0) -> None:
        self.rows, self.cols = rows, cols
        self.diodes = diodes
        self.bounce_samples = bounce_samples
        self._closed: set[Cell] = set()
        self._stuck: dict[Cell, bool] = {}
        self._bouncing: dict[Cell, int] = {}
        self._no_diode: set[Cell] = set()
        self._open_rows: set[int] = set()
        self._open_cols: set[int] = set()
        self._shorts: set[tuple[int, int]] = set()           # node pairs (rows 0.., columns rows..)
        self._row_wire = list(range(rows))                   # row pin i reaches physical row _row_wire[i]
        self._col_wire = list(range(cols))
        self.contention = 0     # a column joined to both a low and a high driver (a short), per solution
        self.version = 0        # counts every change of magnets or faults (a full reading may differ)

    def __repr__(self) -> str:
        return (f"SwitchMatrix({self.rows}x{self.cols}, diodes={self.diodes}, closed={len(self._closed)}, "
                f"faults={self.faults() or 'none'})")

    # --- magnets ----------------------------------------------------------------------------------------
    def place(self, square: Cell, *, bounce: int | None = None) -> None:
        """A magnet arrives: the reed closes (after bouncing)."""
        self._set(square, True, bounce)

    def lift(self, square: Cell, *, bounce: int | None = None) -> None:
        """The magnet leaves: the reed opens (after bouncing)."""
        self._set(square, False, bounce)

    def set_occupancy(self, squares: Iterable[Cell]) -> None:
        """Close exactly ``squares`` at once (no bounce)."""
        self.version += 1
        self._closed = {self._check(sq) for sq in squares}
        self._bouncing.clear()

    @property
    def magnets(self) -> frozenset[Cell]:
        """Squares with a magnet over them (what the board should report)."""
        return frozenset(self._closed)

    # --- faults -------------------------------------------------------------------------------------------
    def stick(self, square: Cell, closed: bool = True) -> None:
        """A welded (``closed``) or dead (not closed) reed: ignores magnets from now on."""
        self.version += 1
        self._stuck[self._check(square)] = closed

    def unstick(self, square: Cell) -> None:
        """The reed at ``square`` follows magnets again."""
        self.version += 1
        self._stuck.pop(square, None)

    def remove_diode(self, square: Cell) -> None:
        """The diode of ``square``'s switch is missing or shorted: a closed switch conducts both ways."""
        self.version += 1
        self._no_diode.add(self._check(square))

    def open_row(self, row: int) -> None:
        """Row wire ``row`` is broken between its pin and the board: it is never driven."""
        self.version += 1
        self._open_rows.add(self._line(row, self.rows, "row"))

    def open_col(self, col: int) -> None:
        """Column wire ``col`` is broken: its pin reads only its own pull-up."""
        self.version += 1
        self._open_cols.add(self._line(col, self.cols, "column"))

    def short_rows(self, a: int, b: int) -> None:
        """Row wires ``a`` and ``b`` touch (a solder bridge): one net, so their readings merge."""
        self.version += 1
        self._shorts.add((self._line(a, self.rows, "row"), self._line(b, self.rows, "row")))

    def short_cols(self, a: int, b: int) -> None:
        """Column wires ``a`` and ``b`` touch."""
        self.version += 1
        r = self.rows
        self._shorts.add((r + self._line(a, self.cols, "column"), r + self._line(b, self.cols, "column")))

    def cross_rows(self, a: int, b: int) -> None:
        """Row wires ``a`` and ``b`` are on each other's pins."""
        self.version += 1
        w = self._row_wire
        w[self._line(a, self.rows, "row")], w[self._line(b, self.rows, "row")] = w[b], w[a]

    def cross_cols(self, a: int, b: int) -> None:
        """Column wires ``a`` and ``b`` are on each other's pins."""
        self.version += 1
        w = self._col_wire
        w[self._line(a, self.cols, "column")], w[self._line(b, self.cols, "column")] = w[b], w[a]

    def faults(self) -> list[str]:
        """The planted faults, in words (for reprs and test messages)."""
        out = [f"{'stuck' if closed else 'dead'} {sq}" for sq, closed in sorted(self._stuck.items())]
        out += [f"no diode {sq}" for sq in sorted(self._no_diode)]
        out += [f"open row {r}" for r in sorted(self._open_rows)]
        out += [f"open column {c}" for c in sorted(self._open_cols)]
        out += [f"short {self._node_name(a)}-{self._node_name(b)}" for a, b in sorted(self._shorts)]
        out += [f"row pin {i} on row {w}" for i, w in enumerate(self._row_wire) if i != w]
        out += [f"column pin {j} on column {w}" for j, w in enumerate(self._col_wire) if j != w]
        return out

    def _node_name(self, node: int) -> str:
        return f"row {node}" if node < self.rows else f"column {node - self.rows}"

    def _line(self, index: int, count: int, what: str) -> int:
        if not 0 <= index < count:
            raise ValueError(f"{what} {index} is outside the {self.rows}x{self.cols} switch matrix")
        return index

    def _check(self, square: Cell) -> Cell:
        row, col = square
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"square {square!r} is outside the {self.rows}x{self.cols} switch matrix")
        return (row, col)

    def _set(self, square: Cell, closed: bool, bounce: int | None) -> None:
        sq = self._check(square)
        if (sq in self._closed) == closed:
            return
        self.version += 1
        (self._closed.add if closed else self._closed.discard)(sq)
        n = self.bounce_samples if bounce is None else bounce
        if n:
            self._bouncing[sq] = n

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

    # --- the electrical solution ------------------------------------------------------------------------
    @property
    def _plain(self) -> bool:
        """Diodes everywhere and every wire sound: each column is low exactly through its own switches."""
        return (self.diodes and not self._no_diode and not self._open_rows and not self._open_cols
                and not self._shorts and self._row_wire == sorted(self._row_wire)
                and self._col_wire == sorted(self._col_wire))

    def levels(self, drive: Sequence[int]) -> list[int]:
        """Per column pin: LOW or HIGH when a driver reaches it, -1 when only its pull decides. ``drive`` is
        per row pin: LOW, HIGH or -1 (high impedance). Samples (advances) the bounce of driven-low rows."""
        rows = [-1] * self.rows                       # per physical row wire: its driven level
        for pin, level in enumerate(drive):
            wire = self._row_wire[pin]
            if level != -1 and wire not in self._open_rows:
                rows[wire] = level
        contacts = {(r, c) for r in range(self.rows) for c in range(self.cols)
                    if self.contact((r, c), sample=rows[r] == LOW)}
        if self._plain:
            pulled = {c for r, c in contacts if rows[r] == LOW}
            return [LOW if c in pulled else -1 for c in range(self.cols)]
        flow = self._flow(contacts)
        r0 = self.rows
        out = []
        for pin in range(self.cols):
            wire = self._col_wire[pin]
            if wire in self._open_cols:
                out.append(-1)
                continue
            node = r0 + wire
            low = any(rows[n] == LOW for n in _reach(flow, node) if n < r0)
            high = any(rows[n] == HIGH for n in _reach(_reverse(flow), node) if n < r0)
            if low and high:
                self.contention += 1
            out.append(LOW if low else HIGH if high else -1)
        return out

    def _flow(self, contacts: set[Cell]) -> dict[int, set[int]]:
        """Which way current can flow between wires (nodes: rows 0.., columns rows..): column -> row through
        a diode, both ways through a switch without one and through a short."""
        r0 = self.rows
        flow: dict[int, set[int]] = {}
        for r, c in contacts:
            flow.setdefault(r0 + c, set()).add(r)
            if not self.diodes or (r, c) in self._no_diode:
                flow.setdefault(r, set()).add(r0 + c)
        for a, b in self._shorts:
            flow.setdefault(a, set()).add(b)
            flow.setdefault(b, set()).add(a)
        return flow

    def reading(self) -> frozenset[Cell]:
        """What one full scan reads: row pin i driven low (the others high impedance), the column pins that
        read low give (i, j). Without faults, exactly the closed contacts."""
        out = set()
        for pin in range(self.rows):
            drive = [-1] * self.rows
            drive[pin] = LOW
            out |= {(pin, j) for j, level in enumerate(self.levels(drive)) if level == LOW}
        return frozenset(out)


def _reach(flow: dict[int, set[int]], start: int) -> set[int]:
    """Every node current can reach from ``start``."""
    seen, todo = {start}, [start]
    while todo:
        for nxt in flow.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _reverse(flow: dict[int, set[int]]) -> dict[int, set[int]]:
    back: dict[int, set[int]] = {}
    for a, targets in flow.items():
        for b in targets:
            back.setdefault(b, set()).add(a)
    return back


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
        """Level of every column pin: LOW/HIGH when connected to a driver, -1 when only its pull decides."""
        before = self.matrix.contention
        levels = self.matrix.levels(self._driven())
        self.contention += self.matrix.contention - before
        return levels

    def __repr__(self) -> str:
        return (f"GPIOModel({self.matrix.rows}x{self.matrix.cols}, diodes={self.matrix.diodes}, "
                f"magnets={len(self.matrix.magnets)}, calls={self.calls})")


def _channels(channel: int | Sequence[int]) -> list[int]:
    return [channel] if isinstance(channel, int) else list(channel)
