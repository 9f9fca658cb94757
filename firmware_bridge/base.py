"""Shared plumbing for backends: listener lists, snapshot bookkeeping and square checks."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

from .errors import BridgeError
from .interfaces import ChangeListener, SensorSource, SnapshotListener
from .types import Cell, CellChange, LedFrame, Occupancy

log = logging.getLogger(__name__)

_T = TypeVar("_T")


class SquareError(BridgeError, ValueError):
    """A square outside the board (names the square and the board size)."""


class FrameSizeError(BridgeError, ValueError):
    """An LED frame whose size differs from the board's."""


def check_square(square: Cell, rows: int, cols: int) -> Cell:
    """Return ``square`` as a (row, col) tuple, or raise SquareError naming it and the board size."""
    try:
        row, col = square
    except (TypeError, ValueError):
        raise SquareError(f"a square is (row, col), got {square!r}") from None
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < rows and 0 <= col < cols):
        raise SquareError(f"square {square!r} is outside a {rows}x{cols} board")
    return (row, col)


def check_frame(frame: LedFrame, rows: int, cols: int) -> LedFrame:
    """Raise FrameSizeError unless ``frame`` is for a rows x cols board."""
    if (frame.rows, frame.cols) != (rows, cols):
        raise FrameSizeError(f"LED frame is {frame.rows}x{frame.cols}, the board is {rows}x{cols}")
    return frame


class Listeners:
    """The snapshot and change listeners of one sensor source; a failing listener is logged, not fatal."""

    def __init__(self) -> None:
        self._snapshot: list[SnapshotListener] = []
        self._change: list[ChangeListener] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Listeners(snapshot={len(self._snapshot)}, change={len(self._change)})"

    def add_snapshot(self, listener: SnapshotListener) -> None:
        """Register ``listener`` for every new snapshot."""
        with self._lock:
            self._snapshot.append(listener)

    def add_change(self, listener: ChangeListener) -> None:
        """Register ``listener`` for every debounced square change."""
        with self._lock:
            self._change.append(listener)

    def snapshot(self, occupancy: Occupancy) -> None:
        """Call every snapshot listener with ``occupancy``."""
        _notify(self._snapshot, occupancy, "snapshot")

    def change(self, change: CellChange) -> None:
        """Call every change listener with ``change``."""
        _notify(self._change, change, "change")


def _notify(listeners: list[Callable[[_T], None]], value: _T, kind: str) -> None:
    """Call each listener with ``value``; a failing listener is logged and the rest still run."""
    for listener in list(listeners):
        try:
            listener(value)
        except Exception:
            log.exception("%s listener %r failed", kind, listener)


class OccupancyTracker:
    """Keeps the debounced occupancy and its sequence number; turns changes into events and snapshots."""

    def __init__(self, rows: int, cols: int, listeners: Listeners, time: float = 0.0) -> None:
        self.rows = rows
        self.cols = cols
        self.listeners = listeners
        self._squares: set[Cell] = set()
        self._seq = 0
        self._snapshot = Occupancy(frozenset(), 0, time)
        self.lock = threading.RLock()

    def __repr__(self) -> str:
        return f"OccupancyTracker({self.rows}x{self.cols}, occupied={len(self._squares)}, seq={self._seq})"

    @property
    def squares(self) -> frozenset[Cell]:
        return frozenset(self._squares)

    @property
    def seq(self) -> int:
        return self._seq

    def snapshot(self) -> Occupancy:
        return self._snapshot

    def apply(self, square: Cell, occupied: bool, time: float, publish: bool = True) -> CellChange | None:
        """Record one debounced change (ignored if it changes nothing); emit it and, if asked, a snapshot."""
        with self.lock:
            if (square in self._squares) == occupied:
                return None
            if occupied:
                self._squares.add(square)
            else:
                self._squares.discard(square)
            self._seq += 1
            change = CellChange(square, occupied, self._seq, time)
            self._snapshot = Occupancy(frozenset(self._squares), self._seq, time)
            snap = self._snapshot
        self.listeners.change(change)
        if publish:
            self.listeners.snapshot(snap)
        return change

    def resync(self, squares: Iterable[Cell], time: float) -> list[CellChange]:
        """Move to ``squares`` emitting one change per differing square, then a single snapshot."""
        target = frozenset(squares)
        with self.lock:
            gone = sorted(self._squares - target)
            new = sorted(target - self._squares)
        changes = [c for sq in gone if (c := self.apply(sq, False, time, publish=False))]
        changes += [c for sq in new if (c := self.apply(sq, True, time, publish=False))]
        self.publish_at(time)
        return changes

    def publish_at(self, time: float) -> None:
        """Stamp the current state with ``time`` and send it as a snapshot."""
        with self.lock:
            self._snapshot = Occupancy(frozenset(self._squares), self._seq, time)
            snap = self._snapshot
        self.listeners.snapshot(snap)

    def publish(self) -> None:
        """Send the current snapshot again (on start, so a new listener learns the state)."""
        self.listeners.snapshot(self._snapshot)


class TrackedSensorSource(SensorSource):
    """A SensorSource whose snapshots and listeners live in an OccupancyTracker and a Listeners list.

    Backends set ``self._tracker`` and ``self._listeners``; this supplies the query and subscription half.
    """

    _tracker: OccupancyTracker
    _listeners: Listeners

    def snapshot(self) -> Occupancy:
        return self._tracker.snapshot()

    def on_snapshot(self, listener: SnapshotListener) -> None:
        self._listeners.add_snapshot(listener)

    def on_change(self, listener: ChangeListener) -> None:
        self._listeners.add_change(listener)
