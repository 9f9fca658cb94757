"""What a device offers: a sensor source and an LED output (a ``BoardDevice`` is both), and the ``RPi.GPIO``
API the GPIO device drives.

Devices (simulated, GPIO, serial) implement both; the controller only ever sees these interfaces.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Protocol

from .types import CellChange, LedFrame, LinkStatus, Occupancy

SnapshotListener = Callable[[Occupancy], None]
ChangeListener = Callable[[CellChange], None]


class SensorSource(abc.ABC):
    """Delivers debounced occupancy snapshots and the raw change events behind them.

    Listeners are called from the backend's own thread (or synchronously for the simulated board);
    a listener must be quick and must not block (post into a queue).
    """

    rows: int
    cols: int

    @abc.abstractmethod
    def start(self) -> None:
        """Open the hardware and begin delivering snapshots."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop delivering and release the hardware. Safe to call twice."""

    @abc.abstractmethod
    def snapshot(self) -> Occupancy:
        """The latest debounced occupancy."""

    @abc.abstractmethod
    def on_snapshot(self, listener: SnapshotListener) -> None:
        """Call ``listener`` with every new snapshot (after each debounced change or resync)."""

    @abc.abstractmethod
    def on_change(self, listener: ChangeListener) -> None:
        """Call ``listener`` with every debounced change of one square."""

    def on_link(self, listener: Callable[[bool], None]) -> None:  # noqa: B027 - optional, not abstract
        """Call ``listener(connected)`` when the link to the board drops or comes back. A board wired to the
        host (GPIO, simulated) has no such link and never calls it."""

    def on_status(self, listener: Callable[[LinkStatus], None]) -> None:  # noqa: B027 - optional
        """Call ``listener(status)`` whenever the link's state changes: connecting, connected, not
        responding (a wrong speed, wrong firmware, a hung board), disconnected. Boards wired to the host never
        call it."""

    def __enter__(self) -> SensorSource:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class LedOutput(abc.ABC):
    """Shows whole LED frames. Showing the same frame twice changes nothing."""

    @abc.abstractmethod
    def show(self, frame: LedFrame) -> None:
        """Display ``frame`` (blinking is done by the backend)."""

    @property
    @abc.abstractmethod
    def frame(self) -> LedFrame:
        """The frame last shown."""


class BoardDevice(Protocol):
    """A whole board: occupancy in (``SensorSource``), LED frames out (``LedOutput``), as one object that is
    also a context manager. Every device of ``firmware_bridge`` is one; ``open_device`` returns one."""

    rows: int
    cols: int

    def start(self) -> None: ...
    def close(self) -> None: ...
    def snapshot(self) -> Occupancy: ...
    def on_snapshot(self, listener: SnapshotListener) -> None: ...
    def on_change(self, listener: ChangeListener) -> None: ...
    def on_link(self, listener: Callable[[bool], None]) -> None: ...
    def on_status(self, listener: Callable[[LinkStatus], None]) -> None: ...
    def show(self, frame: LedFrame) -> None: ...
    @property
    def frame(self) -> LedFrame: ...
    def __enter__(self) -> SensorSource: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


class GpioModule(Protocol):
    """The part of the ``RPi.GPIO`` API the matrix scanner uses (the module itself, ``rpi-lgpio`` on a Pi 5,
    or the electrical model ``gpio_model.GPIOModel`` in tests)."""

    BCM: int
    IN: int
    OUT: int
    LOW: int
    HIGH: int
    PUD_UP: int
    PUD_OFF: int

    def setwarnings(self, flag: bool) -> None: ...
    def setmode(self, mode: int) -> None: ...
    def setup(self, channel: int | Sequence[int], direction: int, pull_up_down: int = ...,
              initial: int = ...) -> None: ...
    def output(self, channel: int | Sequence[int], value: int | Sequence[int]) -> None: ...
    def input(self, channel: int) -> int: ...
    def cleanup(self, channel: int | Sequence[int] | None = ...) -> None: ...
