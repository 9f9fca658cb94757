"""Sensor faults: what a board's readings say about its sensors and wires, and the faults they point to.

Rules-free: the caller (the controller) says which occupancies the game allows; ``explain`` finds the simplest
set of faults that turns one of them into what the board reads (broken, shorted or crossed lines first, then a
ghost through a missing diode, then single sensors), in wiring coordinates, so each fault names its wires.
``SensorHistory`` keeps each square's history: when it last changed, and whether it chatters (keeps flipping
back within a moment), and holds a chattering square at its settled reading.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from .types import Cell


class FaultKind(Enum):
    """What is wrong, as a builder would say it."""

    STUCK = "stuck"                      # a reed that reads closed with no piece on it
    DEAD = "dead"                        # a reed that never reads the piece on it
    CHATTER = "chatter"                  # a reed that keeps flipping back and forth
    GHOST = "ghost"                      # a square read closed through a switch without a working diode
    OPEN_ROW = "open row"                # a row wire that no longer reaches the board
    OPEN_COLUMN = "open column"
    SHORTED_ROWS = "shorted rows"        # two row wires touching: their readings merge
    SHORTED_COLUMNS = "shorted columns"
    CROSSED_ROWS = "crossed rows"        # two row wires on each other's pins
    CROSSED_COLUMNS = "crossed columns"


@dataclass(frozen=True)
class WireMap:
    """Which row and column wire each square's sensor sits on, and what the builder calls them.

    ``to_wiring`` turns a logical square (White's view) into its wiring square; ``row_names``/``col_names``
    name each wire as the wiring tables do (``R4 (GPIO 13)``).
    """

    rows: int
    cols: int
    row_names: tuple[str, ...] = ()
    col_names: tuple[str, ...] = ()
    to_wiring: Callable[[Cell], Cell] = field(default=lambda cell: cell, compare=False)
    to_logical: Callable[[Cell], Cell] = field(default=lambda cell: cell, compare=False)

    def row(self, index: int) -> str:
        """The name of row wire ``index``."""
        return self.row_names[index] if index < len(self.row_names) else f"R{index}"

    def col(self, index: int) -> str:
        """The name of column wire ``index``."""
        return self.col_names[index] if index < len(self.col_names) else f"C{index}"

    def wires(self, cell: Cell) -> str:
        """``row R4 (GPIO 13) and column C3 (GPIO 18)``: the two wires of a logical square's sensor."""
        r, c = self.to_wiring(cell)
        return f"row {self.row(r)} and column {self.col(c)}"


@dataclass(frozen=True)
class SensorFault:
    """One suspected fault: the squares that read wrongly because of it and the wires concerned.

    ``cells`` are logical squares; ``rows``/``cols`` are wiring line numbers; ``vias`` (a ghost) are the
    squares one of whose switches seems to have lost its diode.
    """

    kind: FaultKind
    cells: tuple[Cell, ...]
    rows: tuple[int, ...] = ()
    cols: tuple[int, ...] = ()
    vias: tuple[Cell, ...] = ()

    def describe(self, name: Callable[[Cell], str], wires: WireMap) -> str:
        """The fault in plain words, with ``name(cell)`` for squares (the controller's notation)."""
        k, cells = self.kind, self.cells
        names = ", ".join(name(c) for c in cells)
        if k is FaultKind.STUCK:
            return (f"The sensor under {names} seems stuck closed: it reads a piece where there is none. "
                    f"Check its reed switch and {wires.wires(cells[0])}.")
        if k is FaultKind.DEAD:
            return (f"The sensor under {names} seems dead: it reads no piece where one stands. "
                    f"Check its reed switch and diode, and {wires.wires(cells[0])}.")
        if k is FaultKind.CHATTER:
            return (f"The sensor under {names} chatters: it keeps flipping between empty and occupied. "
                    f"Check its reed switch (loose?) and {wires.wires(cells[0])}; the board waits for it "
                    f"to settle before believing it.")
        if k is FaultKind.GHOST:
            first, *others = self.vias
            under = name(first) + (f" (or {_words([name(v) for v in others], 'or')})" if others else "")
            reads = "reads" if len(cells) == 1 else "read"
            return (f"{names} {reads} a piece that is not there, through the switches around it: the diode "
                    f"under {under} seems missing, shorted or reversed. Check it ({wires.wires(first)}).")
        lines = _words([(wires.row if k.value.endswith(("row", "rows")) else wires.col)(i)
                        for i in (self.rows or self.cols)])
        if k in (FaultKind.OPEN_ROW, FaultKind.OPEN_COLUMN):
            what = "row" if k is FaultKind.OPEN_ROW else "column"
            return (f"No sensor on {what} wire {lines} reads anything although pieces stand on {names}: "
                    f"the wire seems broken or unplugged. Check {what} wire {lines} and its solder joints.")
        if k in (FaultKind.SHORTED_ROWS, FaultKind.SHORTED_COLUMNS):
            what = "row" if k is FaultKind.SHORTED_ROWS else "column"
            which = "they seem" if len(self.rows or self.cols) == 2 else "two of them seem"
            return (f"The {what} wires {lines} read alike where they should not, so {names} read pieces "
                    f"that are not there: {which} to touch. Check them for a solder bridge.")
        what = "row" if k is FaultKind.CROSSED_ROWS else "column"
        return (f"The {what} wires {lines} seem to be on each other's pins: pieces on {names} read on the "
                f"other line. Swap them back.")

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind.value, "cells": [list(c) for c in self.cells], "rows": list(self.rows),
                "cols": list(self.cols), "vias": [list(v) for v in self.vias]}


def _words(items: Sequence[str], last: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def _line(cells: Iterable[Cell], index: int, axis: int) -> frozenset[int]:
    """The other coordinate of the cells on line ``index`` (axis 0: a row, 1: a column)."""
    return frozenset(cell[1 - axis] for cell in cells if cell[axis] == index)


def _at(index: int, other: int, axis: int) -> Cell:
    return (index, other) if axis == 0 else (other, index)


def explain(reading: Collection[Cell], expected: Collection[Cell], wires: WireMap, *,
            frozen: Collection[Cell]) -> list[SensorFault] | None:
    """The faults that would make a board holding ``expected`` read ``reading`` (logical squares), or None
    when the difference is not a fault's: a square that read wrongly but changed since the caller's epoch
    (``frozen`` are the squares that did not) is a person's doing. Line faults explain several squares at
    once; a ghost needs three closed corners of a rectangle; single sensors must be frozen."""
    if set(reading) == set(expected):
        return []
    to_w, to_l = wires.to_wiring, wires.to_logical
    got = {to_w(c) for c in reading}
    want = {to_w(c) for c in expected}
    still = {to_w(c) for c in frozen}
    faults: list[SensorFault] = []
    seen_extra: set[Cell] = set()
    seen_missing: set[Cell] = set()
    sizes = (wires.rows, wires.cols)
    for axis in (0, 1):
        kinds = ((FaultKind.OPEN_ROW, FaultKind.SHORTED_ROWS, FaultKind.CROSSED_ROWS) if axis == 0 else
                 (FaultKind.OPEN_COLUMN, FaultKind.SHORTED_COLUMNS, FaultKind.CROSSED_COLUMNS))
        count = sizes[axis]
        g = [_line(got, i, axis) for i in range(count)]
        w = [_line(want, i, axis) for i in range(count)]
        for i in range(count):                                    # a broken wire reads nothing at all
            if len(w[i]) >= 2 and not g[i]:
                lost = sorted(_at(i, o, axis) for o in w[i])
                seen_missing.update(lost)
                faults.append(_fault(kinds[0], lost, axis, (i,), to_l))
        for a in range(count):
            for b in range(a + 1, count):
                if w[a] == w[b]:
                    continue
                # two squares at least: a single one is better told as that square's own sensor
                if g[a] == g[b] == w[a] | w[b] and len(w[a] ^ w[b]) >= 2:     # touching: both read the OR
                    extra = sorted({_at(a, o, axis) for o in w[b] - w[a]}
                                   | {_at(b, o, axis) for o in w[a] - w[b]})
                    if seen_extra.issuperset(extra):      # lines alike in the game: any of them could touch
                        faults = [_widen(f, extra, axis, (a, b)) for f in faults]
                        continue
                    seen_extra.update(extra)
                    faults.append(_fault(kinds[1], extra, axis, (a, b), to_l))
                elif g[a] == w[b] and g[b] == w[a] and len(w[a] ^ w[b]) >= 2:  # on each other's pins
                    wrong = sorted(_at(i, o, axis) for i in (a, b) for o in w[a] ^ w[b])
                    seen_extra.update(c for c in wrong if c in got)
                    seen_missing.update(c for c in wrong if c in want)
                    faults.append(_fault(kinds[2], [c for c in wrong if c in want], axis, (a, b), to_l))
    extra = sorted(got - want - seen_extra)
    missing = sorted(want - got - seen_missing)
    ghosts: dict[tuple[Cell, ...], list[Cell]] = {}
    for cell in extra:
        vias = _vias(cell, got, want)
        if cell in still and len(vias) != 1:     # never changed, no one diode to blame: its own reed
            faults.append(SensorFault(FaultKind.STUCK, (to_l(cell),), (cell[0],), (cell[1],)))
        elif vias:
            ghosts.setdefault(vias, []).append(cell)
        else:
            return None
    for vias, cells in ghosts.items():
        faults.append(SensorFault(FaultKind.GHOST, tuple(sorted(to_l(c) for c in cells)),
                                  tuple(sorted({c[0] for c in cells} | {v[0] for v in vias})),
                                  tuple(sorted({c[1] for c in cells} | {v[1] for v in vias})),
                                  tuple(to_l(v) for v in vias)))
    for cell in missing:
        if cell not in still:
            return None
        faults.append(SensorFault(FaultKind.DEAD, (to_l(cell),), (cell[0],), (cell[1],)))
    return faults


def _fault(kind: FaultKind, cells: Sequence[Cell], axis: int, lines: tuple[int, ...],
           to_l: Callable[[Cell], Cell]) -> SensorFault:
    logical = tuple(sorted(to_l(c) for c in cells))
    return SensorFault(kind, logical, lines if axis == 0 else (), lines if axis == 1 else ())


def _widen(fault: SensorFault, extra: Sequence[Cell], axis: int, lines: tuple[int, ...]) -> SensorFault:
    """A short whose wrong squares another pair of lines explains as well: name every candidate line."""
    shorts = (FaultKind.SHORTED_ROWS, FaultKind.SHORTED_COLUMNS)
    if fault.kind not in shorts or not set(extra) & set(fault.cells):
        return fault
    if axis == 0:
        return SensorFault(fault.kind, fault.cells, tuple(sorted({*fault.rows, *lines})), fault.cols)
    return SensorFault(fault.kind, fault.cells, fault.rows, tuple(sorted({*fault.cols, *lines})))


def _vias(cell: Cell, got: set[Cell], want: set[Cell]) -> tuple[Cell, ...]:
    """The switches whose missing diode would make ``cell`` read closed: (r, c) reads closed through (r, c2),
    (r2, c2) and (r2, c) when (r2, c2), diagonally across, conducts backwards; all three must hold pieces
    (expected, and read)."""
    r, c = cell
    pieces = want & got
    return tuple(sorted((r2, c2) for r2, c2 in pieces
                        if r2 != r and c2 != c and (r, c2) in pieces and (r2, c) in pieces))


@dataclass
class _History:
    held: bool                       # its settled reading: where flickers return to, or what held ``hold`` s
    changed: float = float("-inf")   # its last change
    before: float = float("-inf")    # the change before that
    flips: deque[float] = field(default_factory=lambda: deque(maxlen=16))   # times of quick returns


class SensorHistory:
    """Each square's history, from the board's successive readings (any board type).

    ``blip``: a change undone within this many seconds, after the square had been calm for ``calm`` seconds
    and with no move made meanwhile (``moved``), is a flip (a person moving pieces is never that regular);
    ``flips`` flips within ``window`` seconds make a square chatter; a chattering square's reading is believed
    only once it holds ``hold`` seconds.
    """

    def __init__(self, *, blip: float = 0.25, calm: float = 0.3, flips: int = 3, window: float = 5.0,
                 hold: float = 0.6) -> None:
        self.blip, self.calm, self.flips, self.window, self.hold = blip, calm, flips, window, hold
        self._last: frozenset[Cell] = frozenset()
        self._moved = float("-inf")
        self._history: dict[Cell, _History] = {}
        self.chattering: set[Cell] = set()
        self.chatter_count = 0

    def __repr__(self) -> str:
        return f"SensorHistory(squares={len(self._history)}, chattering={sorted(self.chattering)})"

    def note(self, reading: frozenset[Cell], now: float) -> list[Cell]:
        """Record a new reading; returns the squares that just started to chatter."""
        started = []
        for cell in reading ^ self._last:
            h = self._history.setdefault(cell, _History(cell in self._last))
            if now - h.changed >= self.hold:
                h.held = cell in self._last          # the reading that ends now had held long enough
            if now - h.changed <= self.blip and h.changed - h.before >= self.calm and self._moved < h.changed:
                h.flips.append(now)                  # back within a blip, from a calm state, no move: a flip
                h.held = cell in reading             # ... back to where it had been calm
            h.before, h.changed = h.changed, now
            recent = [t for t in h.flips if now - t <= self.window]
            if len(recent) >= self.flips and cell not in self.chattering:
                self.chattering.add(cell)
                self.chatter_count += 1
                started.append(cell)
        self._last = reading
        return started

    def moved(self, now: float) -> None:
        """A move was made at ``now``: a square left by it and filled by the next is play, not a flicker."""
        self._moved = now

    def unchanged_since(self, when: float, cells: Iterable[Cell]) -> frozenset[Cell]:
        """The squares among ``cells`` whose reading has not changed since time ``when``."""
        return frozenset(c for c in cells if c not in self._history or self._history[c].changed < when)

    def steady(self, reading: frozenset[Cell], now: float) -> frozenset[Cell]:
        """``reading`` with each chattering square held at its settled state until a new state has held for
        ``hold`` seconds (its flips never reach the game)."""
        out = set(reading)
        for cell in self.chattering:
            h = self._history[cell]
            if now - h.changed >= self.hold:
                h.held = cell in reading
            (out.add if h.held else out.discard)(cell)
        return frozenset(out)

    def next_deadline(self, reading: frozenset[Cell]) -> float | None:
        """When a chattering square's new reading will have held long enough to be believed."""
        due = [self._history[c].changed + self.hold for c in self.chattering
               if (c in reading) != self._history[c].held]
        return min(due) if due else None
