"""What the Table needs of the world around it: one small Protocol each driver implements.

The Session (asyncio, threads, the engine's process) implements it for a real or virtual board;
``controller.offline.OfflinePorts`` implements it for the drivers that have no engine and no loop (a sensor
log's replay, the storm's hands, tests). The Table reaches the outside through these and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from firmware_bridge.interfaces import BoardDevice
from firmware_bridge.types import Cell, LedFrame
from rules import Board

from . import commands as cmd
from . import events as ev
from .settings import EngineJob

if TYPE_CHECKING:
    from engine.worker import WorkerResult

    from .machine import Controller

T = TypeVar("T")

Report = Callable[[T], None]
"""What background work calls with each value it has (``then`` receives it, in order with the input)."""


class StopFlag(Protocol):
    """Set to ask background work to end early; the work looks at it between its steps."""

    def set(self) -> None: ...
    def is_set(self) -> bool: ...


class Flag:
    """A stop flag for work that never runs on another thread (nothing to synchronise)."""

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set

    def __repr__(self) -> str:
        return f"Flag(set={self._set})"


Work = Callable[[Report[T], StopFlag], None]
"""Background work: it reports each value it has, and ends early once its stop flag is set."""


class Background(Protocol):
    """Runs ``work(report, stop)`` away from the Table and returns its stop flag; each ``report(value)``
    reaches ``then(value)`` later, handed back through ``Table.answered`` in order with the board's input."""

    def __call__(self, work: Work[T], then: Callable[[T], None]) -> StopFlag: ...


class Ports(Protocol):
    """The Table's one way out: the board's LEDs, the listeners, the engine, background work."""

    @property
    def device(self) -> BoardDevice | None:
        """The board (its size; a ``SimulatedDevice`` is the virtual board, whose pieces the Table may move),
        or None when no board is attached (a replay: the board is always the game's size)."""

    def show(self, frame: LedFrame) -> None:
        """Put ``frame`` on the board's LEDs (the same frame the page is sent)."""

    def emit(self, event: ev.Event) -> None:
        """Hand an event to whoever listens (the page, the console, the sensor log)."""

    def request_engine(self, job: EngineJob) -> None:
        """Ask the computer's move; the answer comes back through ``Table.engine_answered``."""

    def consult(self, board: Board, level: int, seconds: float,
                then: Callable[[WorkerResult | None], None]) -> None:
        """Ask the built-in engine about ``board`` for the person (a hint, a draw offer) at ``level``;
        ``then`` gets its result (None when it failed) through ``Table.answered``."""

    def run_in_background(self, work: Work[T], then: Callable[[T], None]) -> StopFlag:
        """Run ``work(report, stop)`` away from the Table (see ``Background``)."""

    def fresh_engine(self) -> None:
        """A new game begins: an external engine that failed gets a fresh try."""


class InputLog(Protocol):
    """Where the Table writes every input it handles, at the time it handles it, and every ply it records
    (``controller.sensorlog.SensorLogWriter``: a log that becomes a test)."""

    def game(self, t: float, ctl: Controller) -> None: ...
    def occupancy(self, t: float, squares: frozenset[Cell]) -> None: ...
    def engine(self, t: float, text: str) -> None: ...
    def command(self, t: float, command: cmd.Command) -> None: ...
    def recorded(self, t: float, ply: int, text: str) -> None: ...
