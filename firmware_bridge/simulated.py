"""A virtual board for tests, the demo and the web page: move pieces by calling methods, get debounced events.

Quick use::

    board = SimulatedDevice(8, 8)                 # own ManualClock, 30 ms debounce, auto-settling actions
    board.on_snapshot(print)
    board.set_occupancy({(0, 0), (2, 2)})        # set up: one change per square, then one snapshot
    board.place((3, 3))                          # -> change + snapshot, delivered before place() returns
    board.slide([(2, 2), (3, 3), (4, 4)])        # lift at (2,2), brief touch of (3,3) (filtered), place (4,4)
    board.knock((0, 0))                          # lift + replace shorter than the debounce: no event
    board.noise((5, 5), edges=3)                 # spurious contact chatter: no event, counted in .bounces

With ``matrix=SwitchMatrix(...)`` the contacts are what a scan of that electrical model reads, so faults
planted in it (a dead reed, a broken or shorted wire, a missing diode) read as on a real board; the board
re-reads the matrix whenever time passes.

Every action is a physical gesture made at the board's clock time. With ``auto_settle=True`` (the default)
each action then advances the board's ManualClock past the debounce interval, so its debounced events are
delivered synchronously inside the call. With ``auto_settle=False`` actions only change the raw contacts and
the test moves time itself with ``board.advance(seconds)``, which is when debounced events fire.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .base import Listeners, OccupancyTracker, TrackedSensorSource, check_frame, check_square
from .clock import ManualClock
from .gpio_model import SwitchMatrix
from .interfaces import LedOutput
from .types import Cell, LedFrame, Pattern

log = logging.getLogger(__name__)

FrameListener = Callable[[LedFrame], None]


@dataclass(frozen=True)
class RawEdge:
    """One raw contact change (before debouncing), kept in the board's log for diagnostics and tests."""

    square: Cell
    closed: bool
    time: float


class SimulatedDevice(TrackedSensorSource, LedOutput):
    """A rows x cols board with a reed switch and an LED under every square, driven by method calls.

    ``debounce``: seconds a contact must stay unchanged before it counts (0 = every raw edge counts).
    ``bounce``: extra open/close chatter edges added to every place/lift (deterministic, 1 ms apart).
    ``clock``: the ManualClock the board reads and (when auto-settling) advances; a new one at 0.0 if None.
    ``matrix``: an electrical model the pieces act on; the contacts are then what it reads (faults included).
    """

    def __init__(self, rows: int = 8, cols: int = 8, *, debounce: float = 0.03, bounce: int = 0,
                 clock: ManualClock | None = None, auto_settle: bool = True,
                 matrix: SwitchMatrix | None = None) -> None:
        if rows < 1 or cols < 1:
            raise ValueError(f"a board needs at least one row and one column, got {rows}x{cols}")
        if debounce < 0:
            raise ValueError(f"debounce must be >= 0 seconds, got {debounce}")
        if bounce < 0:
            raise ValueError(f"bounce must be >= 0 edges, got {bounce}")
        if matrix is not None and (matrix.rows, matrix.cols) != (rows, cols):
            raise ValueError(f"a {matrix.rows}x{matrix.cols} switch matrix for a {rows}x{cols} board")
        self.rows = rows
        self.cols = cols
        self.matrix = matrix
        self._matrix_version = -1
        self.debounce = debounce
        self.bounce = bounce
        self.auto_settle = auto_settle
        self.clock = clock if clock is not None else ManualClock()
        self._listeners = Listeners()
        self._tracker = OccupancyTracker(rows, cols, self._listeners, self.clock.now())
        self._raw: dict[Cell, bool] = {}
        self._since: dict[Cell, float] = {}   # square -> time of its last raw edge while pending
        self._lock = threading.RLock()
        self._frame = LedFrame(rows, cols)
        self._frame_listeners: list[FrameListener] = []
        self.raw_log: list[RawEdge] = []
        self.bounces = 0          # raw edges that never became a debounced change
        self.started = False
        self.closed = False

    def resize(self, rows: int, cols: int) -> None:
        """Become an empty ``rows`` x ``cols`` board (a virtual board follows the variant; a real one cannot):
        every piece is taken off, the LEDs go dark, and listeners get the empty snapshot. A switch matrix is
        replaced by a sound one of the new size (its faults belonged to the old board)."""
        if rows < 1 or cols < 1:
            raise ValueError(f"a board needs at least one row and one column, got {rows}x{cols}")
        with self._lock:
            if self.matrix is not None and (self.matrix.rows, self.matrix.cols) != (rows, cols):
                self.matrix, self._matrix_version = SwitchMatrix(rows, cols), -1
            self.rows, self.cols = rows, cols
            self._raw.clear()
            self._since.clear()
            self._frame = LedFrame(rows, cols)
            self._tracker = OccupancyTracker(rows, cols, self._listeners, self.clock.now())
        if self.started:
            self._tracker.publish()

    # --- SensorSource -------------------------------------------------------------------------------
    def start(self) -> None:
        """Mark the board started and send the current snapshot to snapshot listeners."""
        self.started = True
        self.closed = False
        self._tracker.publish()

    def close(self) -> None:
        self.closed = True
        self.started = False

    # --- LedOutput ----------------------------------------------------------------------------------
    def show(self, frame: LedFrame) -> None:
        check_frame(frame, self.rows, self.cols)
        with self._lock:
            same = frame == self._frame
            self._frame = frame
        if not same:
            for listener in list(self._frame_listeners):
                try:
                    listener(frame)
                except Exception:
                    log.exception("frame listener %r failed", listener)

    @property
    def frame(self) -> LedFrame:
        return self._frame

    def on_frame(self, listener: FrameListener) -> None:
        """Call ``listener`` whenever a different LED frame is shown (for the web page's virtual board)."""
        self._frame_listeners.append(listener)

    # --- gestures -----------------------------------------------------------------------------------
    @property
    def occupied(self) -> frozenset[Cell]:
        """The debounced occupied squares (same as ``snapshot().squares``)."""
        return self._tracker.squares

    def raw_closed(self, square: Cell) -> bool:
        """Whether the square's contact is closed right now (before debouncing)."""
        return self._raw.get(check_square(square, self.rows, self.cols), False)

    def place(self, square: Cell, *, bounce: int | None = None) -> None:
        """Put a piece on ``square`` (its contact closes, with optional chatter first)."""
        self._gesture(square, True, bounce)
        self._settle()

    def lift(self, square: Cell, *, bounce: int | None = None) -> None:
        """Take the piece off ``square``."""
        self._gesture(square, False, bounce)
        self._settle()

    def knock(self, square: Cell, *, duration: float | None = None) -> None:
        """Briefly disturb ``square`` (lift and replace, or touch an empty one) for less than the debounce."""
        sq = check_square(square, self.rows, self.cols)
        duration = self.debounce / 2 if duration is None else duration
        state = self._magnet(sq)
        self._edge(sq, not state)
        self.advance(duration)
        self._edge(sq, state)
        self._settle()

    def noise(self, square: Cell, *, edges: int = 4) -> None:
        """A burst of ``edges`` pairs of spurious contact edges on ``square`` (1 ms apart), ending where it
        started: electrical noise the debounce must swallow."""
        sq = check_square(square, self.rows, self.cols)
        state = self._magnet(sq)
        step = min(0.001, self.debounce / 4) if self.debounce else 0.0
        for _ in range(edges):
            self._edge(sq, not state)
            self.advance(step)
            self._edge(sq, state)
            self.advance(step)
        self._settle()

    def slide(self, path: Sequence[Cell], *, dwell: float | None = None) -> None:
        """Slide a piece along ``path``: lift at the start, touch each intermediate square for ``dwell``
        seconds (default half the debounce, so it is filtered out), place at the end."""
        if len(path) < 2:
            raise ValueError(f"a slide needs at least two squares, got {list(path)!r}")
        squares = [check_square(sq, self.rows, self.cols) for sq in path]
        dwell = self.debounce / 2 if dwell is None else dwell
        self._gesture(squares[0], False, None)
        self._settle()
        for sq in squares[1:-1]:
            self._edge(sq, True)
            self.advance(dwell)
            self._edge(sq, False)
            self.advance(dwell)
        self._gesture(squares[-1], True, None)
        self._settle()

    def set_occupancy(self, squares: Iterable[Cell]) -> None:
        """Set up the board at once: raw and debounced state become ``squares``; one change per differing
        square (each with its own seq), then a single snapshot."""
        target = {check_square(sq, self.rows, self.cols) for sq in squares}
        if self.matrix is not None:
            self.matrix.set_occupancy(target)
            self._matrix_version = self.matrix.version
            target = set(self.matrix.reading())
        with self._lock:
            self._raw = dict.fromkeys(target, True)
            self._since.clear()
            now = self.clock.now()
        self._tracker.resync(target, now)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass on the board clock, firing every debounced change that falls due, in order."""
        target = self.clock.now() + seconds
        self._read_matrix()
        while True:
            with self._lock:
                due = [(since + self.debounce, sq) for sq, since in self._since.items()
                       if since + self.debounce <= target]
                if not due:
                    break
                when, sq = min(due)
                del self._since[sq]
                closed = self._raw.get(sq, False)
                if when > self.clock.now():
                    self.clock.set(when)
            self._tracker.apply(sq, closed, when)
        if target > self.clock.now():
            self.clock.set(target)

    # --- internals ----------------------------------------------------------------------------------
    def _gesture(self, square: Cell, closed: bool, bounce: int | None) -> None:
        sq = check_square(square, self.rows, self.cols)
        chatter = self.bounce if bounce is None else bounce
        step = min(0.001, self.debounce / (2 * chatter + 2)) if chatter else 0.0
        for _ in range(chatter):
            self._edge(sq, closed)
            self.advance(step)
            self._edge(sq, not closed)
            self.advance(step)
        self._edge(sq, closed)

    def _magnet(self, sq: Cell) -> bool:
        """Whether a piece stands on ``sq`` (with a matrix, what its contact reads may differ)."""
        return sq in self.matrix.magnets if self.matrix is not None else self._raw.get(sq, False)

    def _edge(self, sq: Cell, closed: bool) -> None:
        """The magnet over ``sq`` arrives or leaves: its contact follows (or, with a matrix, the whole
        reading does)."""
        if self.matrix is None:
            self._contact(sq, closed)
            return
        (self.matrix.place if closed else self.matrix.lift)(sq, bounce=0)
        self._read_matrix()

    def _read_matrix(self) -> None:
        """Apply what a scan of the matrix reads now, one raw edge per contact that differs."""
        if self.matrix is None or self.matrix.version == self._matrix_version:
            return
        self._matrix_version = self.matrix.version
        reading = self.matrix.reading()
        for sq in sorted({*reading, *(sq for sq, closed in self._raw.items() if closed)}):
            self._contact(sq, sq in reading)

    def _contact(self, sq: Cell, closed: bool) -> None:
        with self._lock:
            now = self.clock.now()
            if self._raw.get(sq, False) == closed:
                return
            self._raw[sq] = closed
            self.raw_log.append(RawEdge(sq, closed, now))
            debounced = sq in self._tracker.squares
            if closed == debounced:
                self._since.pop(sq, None)   # back to the debounced state: the excursion was a bounce
                self.bounces += 1
            else:
                self._since[sq] = now
        if self.debounce == 0:
            self.advance(0.0)

    def _settle(self) -> None:
        if self.auto_settle:
            self.advance(self.debounce + 0.001)

    def render(self) -> str:
        """The board as text, row 0 at the bottom: ``●`` occupied, ``·`` empty; lit squares in brackets."""
        lines = []
        occupied = self.occupied
        lights = self._frame.as_dict()
        for row in reversed(range(self.rows)):
            cells = []
            for col in range(self.cols):
                mark = "●" if (row, col) in occupied else "·"
                lit = lights.get((row, col))
                cells.append(f"[{mark}]" if lit and lit.pattern is not Pattern.OFF else f" {mark} ")
            lines.append(f"{row:2d} " + "".join(cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        planted = self.matrix.faults() if self.matrix is not None else []
        faults = f", faults={planted}" if planted else ""
        return (f"SimulatedDevice(rows={self.rows}, cols={self.cols}, debounce={self.debounce}, "
                f"occupied={len(self.occupied)}, seq={self._tracker.seq}, clock={self.clock!r}{faults})")
