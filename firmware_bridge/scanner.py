"""Matrix scanning logic for the GPIO backend: drive one row low at a time, read the pulled-up columns;
then debounce (a state must hold for the debounce time), spot ghost readings (diodes absent) and stuck or
chattering switches."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from .interfaces import GpioModule
from .types import Cell

log = logging.getLogger(__name__)

IDLE_MODES = ("input", "high")
_EPSILON = 1e-9     # clock times are sums of floats: 0.005 + 0.005 must count as 0.010


class MatrixScanner:
    """One full scan = for each row: drive it low, read every column (pull-ups on), release it.

    ``gpio`` is the ``RPi.GPIO`` module (or any object with its API, such as ``gpio_model.GPIOModel``).
    ``idle``: "input" leaves idle rows high-impedance (needed without diodes), "high" drives them high.
    """

    def __init__(self, gpio: GpioModule | None, row_pins: Sequence[int], col_pins: Sequence[int], *,
                 idle: str = "input") -> None:
        if idle not in IDLE_MODES:
            raise ValueError(f"idle row mode must be one of {IDLE_MODES}, got {idle!r}")
        if set(row_pins) & set(col_pins):
            raise ValueError(f"pins {sorted(set(row_pins) & set(col_pins))} are both row and column pins")
        self.gpio = gpio
        self.row_pins = tuple(row_pins)
        self.col_pins = tuple(col_pins)
        self.idle = idle
        self.ready = False

    def _module(self) -> GpioModule:
        if self.gpio is None:
            raise RuntimeError("the scanner has no GPIO module yet")
        return self.gpio

    def setup(self) -> None:
        g = self._module()
        g.setwarnings(False)
        g.setmode(g.BCM)
        for pin in self.col_pins:
            g.setup(pin, g.IN, pull_up_down=g.PUD_UP)
        for pin in self.row_pins:
            if self.idle == "input":
                g.setup(pin, g.IN, pull_up_down=g.PUD_OFF)
            else:
                g.setup(pin, g.OUT, initial=g.HIGH)
        self.ready = True

    def scan(self) -> list[int]:
        """Raw readings: per row a bitmask of the columns that read low (contact closed)."""
        g = self._module()
        setup, output, read = g.setup, g.output, g.input
        out_mode, in_mode, low, high, pud_off = g.OUT, g.IN, g.LOW, g.HIGH, g.PUD_OFF
        cols = self.col_pins
        masks = []
        for pin in self.row_pins:
            if self.idle == "input":
                setup(pin, out_mode, initial=low)
            else:
                output(pin, low)
            mask = 0
            bit = 1
            for cpin in cols:
                if not read(cpin):
                    mask |= bit
                bit <<= 1
            if self.idle == "input":
                setup(pin, in_mode, pull_up_down=pud_off)
            else:
                output(pin, high)
            masks.append(mask)
        return masks

    def cleanup(self) -> None:
        if self.ready:
            self._module().cleanup(list(self.row_pins) + list(self.col_pins))
            self.ready = False

    def __repr__(self) -> str:
        return f"MatrixScanner(rows={self.row_pins}, cols={self.col_pins}, idle={self.idle!r})"


def naive_scan(gpio: GpioModule, row_pins: Sequence[int], col_pins: Sequence[int]) -> list[int]:
    """The peer for bench/scan.py: set up, drive and release a row separately for every single switch."""
    masks = []
    for pin in row_pins:
        mask = 0
        for c, cpin in enumerate(col_pins):
            gpio.setup(cpin, gpio.IN, pull_up_down=gpio.PUD_UP)
            gpio.setup(pin, gpio.OUT, initial=gpio.LOW)
            if gpio.input(cpin) == gpio.LOW:
                mask |= 1 << c
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_OFF)
        masks.append(mask)
    return masks


def ambiguous(masks: Sequence[int], cols: int) -> set[Cell]:
    """Closed readings that a sneak path through other closed readings could also explain (diodes absent):
    row r and column c stay connected without the (r, c) contact; the smallest case is a rectangle."""
    rows = len(masks)
    closed = [(r, c) for r in range(rows) for c in range(cols) if masks[r] >> c & 1]
    if len(closed) < 3:
        return set()
    out: set[Cell] = set()
    for r, c in closed:
        # BFS from row r to column c over closed contacts other than (r, c)
        seen_rows = {r}
        seen_cols: set[int] = set()
        frontier_rows = [r]
        found = False
        while frontier_rows and not found:
            new_cols = []
            for fr in frontier_rows:
                m = masks[fr]
                for cc in range(cols):
                    if m >> cc & 1 and (fr, cc) != (r, c) and cc not in seen_cols:
                        seen_cols.add(cc)
                        new_cols.append(cc)
            if c in seen_cols:
                found = True
                break
            frontier_rows = []
            for cc in new_cols:
                for rr in range(rows):
                    if rr not in seen_rows and masks[rr] >> cc & 1:
                        seen_rows.add(rr)
                        frontier_rows.append(rr)
        if found:
            out.add((r, c))
    return out


@dataclass
class Diagnostics:
    """Counters of one scanner (mutable; read by `dboard doctor`)."""

    scans: int = 0
    changes: int = 0
    bounces: int = 0
    ghosts: int = 0
    stuck: int = 0
    chatter: int = 0
    bounce_by_square: dict[Cell, int] = field(default_factory=dict)
    ghost_squares: set[Cell] = field(default_factory=set)
    stuck_squares: set[Cell] = field(default_factory=set)


class Debouncer:
    """Accepts a square's new state once it has held for ``debounce`` seconds measured on the clock (seen on
    every scan in between), whatever the scan rhythm: a catch-up burst of scans after a stall counts no more
    than one. Tracks bounces, ghosts and stuck switches. Pure logic: feed it raw masks and the time."""

    def __init__(self, rows: int, cols: int, *, debounce: float = 0.012, diodes: bool = True,
                 stuck_changes: int = 400, chatter_time: float = 1.0) -> None:
        if debounce < 0:
            raise ValueError(f"debounce must be >= 0 seconds, got {debounce}")
        self.rows, self.cols, self.debounce = rows, cols, debounce
        self.diodes = diodes
        self.stuck_changes = stuck_changes
        self.chatter_time = chatter_time
        self.stable = [0] * rows
        self._since: dict[Cell, float] = {}         # square -> when its differing reading was first seen
        self._unsettled: dict[Cell, tuple[float, float]] = {}   # square -> (episode start, last disturbance)
        self._chattering: set[Cell] = set()
        self._closed_since: dict[Cell, int] = {}    # square -> diag.changes when it last closed
        self.diag = Diagnostics()

    def __repr__(self) -> str:
        return (f"Debouncer({self.rows}x{self.cols}, debounce={self.debounce * 1000:g} ms, "
                f"diodes={self.diodes}, scans={self.diag.scans})")

    def feed(self, masks: Sequence[int], now: float, started: float | None = None) -> list[tuple[Cell, bool]]:
        """One scan's raw masks (bit set = closed), read between ``started`` and ``now`` -> the squares whose
        debounced state changed. A reading counts from the end of the scan that first saw it to the start
        of the one that sees it still: a scan held up half-way (a busy CPU) never stretches a flicker."""
        began = now if started is None else started
        d = self.diag
        d.scans += 1
        if not self.diodes:
            masks = self._hold_ghosts(masks)
        changes: list[tuple[Cell, bool]] = []
        since = self._since
        for r in range(self.rows):
            diff = masks[r] ^ self.stable[r]
            if not diff and not since:
                continue
            for c in range(self.cols):
                sq = (r, c)
                if diff >> c & 1:
                    first = since.setdefault(sq, now)
                    if began - first >= self.debounce - _EPSILON:
                        del since[sq]
                        self._settled(sq)
                        self.stable[r] ^= 1 << c
                        changes.append((sq, bool(self.stable[r] >> c & 1)))
                    else:
                        self._check_chatter(sq, now)
                elif sq in since:
                    del since[sq]                 # went back before holding for the debounce time: a bounce
                    d.bounces += 1
                    d.bounce_by_square[sq] = d.bounce_by_square.get(sq, 0) + 1
        if changes:
            self._track_stuck(changes)
        return changes

    def _settled(self, sq: Cell) -> None:
        self._unsettled.pop(sq, None)
        self._chattering.discard(sq)

    def _check_chatter(self, sq: Cell, now: float) -> None:
        """A square disturbed again and again, never quiet for ``chatter_time``, counts once per episode."""
        start, last = self._unsettled.get(sq, (now, now))
        if now - last > self.chatter_time:
            start = now                        # quiet long enough since the last disturbance: a new episode
            self._chattering.discard(sq)
        self._unsettled[sq] = (start, now)
        if now - start >= self.chatter_time and sq not in self._chattering:
            self._chattering.add(sq)
            self.diag.chatter += 1
            log.warning("square %r chatters for %.1f s without settling (loose reed or magnet at the edge?)",
                        sq, now - start)

    def _hold_ghosts(self, masks: Sequence[int]) -> list[int]:
        """Without diodes, newly closed readings a sneak path could explain are held at their stable state."""
        masks = list(masks)
        suspects = [sq for sq in ambiguous(masks, self.cols) if not self.stable[sq[0]] >> sq[1] & 1]
        for r, c in suspects:
            masks[r] &= ~(1 << c)
            if (r, c) not in self.diag.ghost_squares:
                log.warning("square %r reads closed only through a sneak path (possible ghost; fit diodes)",
                            (r, c))
                self.diag.ghost_squares.add((r, c))
        if suspects:
            self.diag.ghosts += 1
        return masks

    def _track_stuck(self, changes: list[tuple[Cell, bool]]) -> None:
        d = self.diag
        for sq, closed in changes:
            d.changes += 1
            if closed:
                self._closed_since[sq] = d.changes
            else:
                self._closed_since.pop(sq, None)
                d.stuck_squares.discard(sq)
        for sq, since in self._closed_since.items():
            if d.changes - since >= self.stuck_changes and sq not in d.stuck_squares:
                d.stuck_squares.add(sq)
                d.stuck += 1
                log.warning("square %r has stayed closed through %d changes elsewhere: stuck reed?", sq,
                            d.changes - since)

    def closed(self) -> frozenset[Cell]:
        return frozenset((r, c) for r in range(self.rows) for c in range(self.cols)
                         if self.stable[r] >> c & 1)
