"""Ports for the drivers of a Table that have no engine, no loop and no board of their own: a sensor log's
replay, the storm's hands, tests. What leaves the Table is kept (frames and events, with the clock's time);
engine requests are kept for the driver to answer; background work and consultations are not run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from firmware_bridge.clock import Clock
from firmware_bridge.interfaces import BoardDevice
from firmware_bridge.types import LedFrame
from rules import Board

from . import events as ev
from .ports import Flag, StopFlag, Work
from .settings import EngineJob

if TYPE_CHECKING:
    from engine.worker import WorkerResult

T = TypeVar("T")


@dataclass
class OfflinePorts:
    """Keeps what a Table sends out; ``on_event`` sees each event as it leaves."""

    clock: Clock
    device: BoardDevice | None = None
    on_event: Callable[[ev.Event], None] | None = None
    frames: list[tuple[float, LedFrame]] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)
    jobs: list[EngineJob] = field(default_factory=list)

    def show(self, frame: LedFrame) -> None:
        self.frames.append((self.clock.now(), frame))

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def request_engine(self, job: EngineJob) -> None:
        self.jobs.append(job)

    def consult(self, board: Board, level: int, seconds: float,
                then: Callable[[WorkerResult | None], None]) -> None:
        """No engine here: nobody answers (a hint asked in a replayed log lights nothing)."""

    def run_in_background(self, work: Work[T], then: Callable[[T], None]) -> StopFlag:
        """No background here: the work is not run (a replay's review, a rating)."""
        return Flag()

    def fresh_engine(self) -> None:
        """No engine to start afresh."""
