"""Opening a board from a profile: pick the backend, wire in orientation and sensor mask.

``open_device("8x8")`` returns one object that is both the SensorSource and the LedOutput; use it as a
context manager (``with open_device(p) as board:``) so the hardware is released.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import Listeners, OccupancyTracker, TrackedSensorSource, check_frame
from .faults import WireMap
from .gpio_backend import GpioDevice
from .interfaces import BoardDevice, LedOutput
from .orientation import Orientation
from .ports import list_serial_ports
from .profile import Profile, load_profile
from .serial_backend import SerialDevice
from .simulated import SimulatedDevice
from .types import Cell, CellChange, LedFrame, LinkStatus, Occupancy

log = logging.getLogger(__name__)


class MappedDevice(TrackedSensorSource, LedOutput):
    """Presents a backend in logical squares (White's view) and hides squares that carry no sensor."""

    def __init__(self, inner: BoardDevice, orientation: Orientation, sensor_squares: frozenset[Cell]) -> None:
        self.inner = inner
        self.orientation = orientation
        self.sensor_squares = sensor_squares
        self.rows, self.cols = inner.rows, inner.cols
        self._listeners = Listeners()
        self._tracker = OccupancyTracker(self.rows, self.cols, self._listeners)
        self._inner_seq = -1
        inner.on_change(self._on_change)
        inner.on_snapshot(self._on_snapshot)
        self._on_snapshot(inner.snapshot(), publish=False)

    def _logical(self, squares: frozenset[Cell]) -> frozenset[Cell]:
        mapped = (self.orientation.to_logical(sq) for sq in squares)
        return frozenset(sq for sq in mapped if sq in self.sensor_squares)

    def _on_change(self, change: CellChange) -> None:
        pass          # changes are derived from snapshots so a masked or mapped square is handled once

    def _on_snapshot(self, snap: Occupancy, publish: bool = True) -> None:
        target = self._logical(snap.squares)
        current = self._tracker.squares
        for sq in sorted(current - target):
            self._tracker.apply(sq, False, snap.time, publish=False)
        for sq in sorted(target - current):
            self._tracker.apply(sq, True, snap.time, publish=False)
        republish = snap.seq == self._inner_seq        # the backend re-sent its state (start, resync)
        self._inner_seq = snap.seq
        if publish and (target != current or republish):
            self._tracker.publish_at(snap.time)

    def on_link(self, listener: Callable[[bool], None]) -> None:
        self.inner.on_link(listener)

    def on_status(self, listener: Callable[[LinkStatus], None]) -> None:
        self.inner.on_status(listener)

    def start(self) -> None:
        self.inner.start()

    def close(self) -> None:
        self.inner.close()

    def show(self, frame: LedFrame) -> None:
        check_frame(frame, self.rows, self.cols)
        to_wiring = self.orientation.to_wiring
        self.inner.show(LedFrame(self.rows, self.cols,
                                 tuple(sorted((to_wiring(sq), light) for sq, light in frame.lights))))
        self._frame = frame

    _frame: LedFrame | None = None

    @property
    def frame(self) -> LedFrame:
        return self._frame or LedFrame(self.rows, self.cols)

    def __repr__(self) -> str:
        return f"MappedDevice({self.inner!r}, {self.orientation!r}, sensors={len(self.sensor_squares)})"


def build_backend(profile: Profile, *, port: str | None = None, **overrides: Any) -> BoardDevice:
    """The raw backend for ``profile`` (wiring coordinates); ``port`` replaces a serial profile's device
    (boards wired to the host have none and ignore it); ``overrides`` reach the backend's constructor
    (e.g. ``gpio=``/``spi=`` stand-ins, ``clock=``)."""
    if profile.backend == "simulated":
        kw: dict[str, Any] = {"debounce": profile.simulated.debounce}
        kw.update(overrides)
        return SimulatedDevice(profile.rows, profile.cols, **kw)
    if profile.backend == "gpio":
        s, le = profile.sensors, profile.leds
        kw = dict(rate=s.scan_hz, debounce=s.debounce_ms / 1000, diodes=s.diodes, idle_rows=s.idle_rows,
                  polarity=s.polarity, chain=le.chain, brightness=le.brightness, spi_bus=le.spi_bus,
                  spi_device=le.spi_device, stuck_changes=s.stuck_changes)
        if not le.enabled:
            kw["spi"] = False
        kw.update(overrides)
        return GpioDevice(profile.rows, profile.cols, profile.gpio.row_pins, profile.gpio.col_pins, **kw)
    se = profile.serial
    kw = dict(baud=se.baud, brightness=profile.leds.brightness, heartbeat=se.heartbeat, silence=se.silence,
              retry=se.retry, finder=list_serial_ports)
    kw.update(overrides)
    return SerialDevice(port or se.port, rows=profile.rows, cols=profile.cols, **kw)


def open_device(profile: Profile | str | Path, *, port: str | None = None,
                **overrides: Any) -> BoardDevice:
    """The board described by ``profile`` (a Profile, a name such as ``"8x8-gpio"`` or a path), ready for
    ``start()``; ``port`` and ``overrides`` as for ``build_backend``. Returns the backend itself when no
    mapping is needed, else a MappedDevice around it."""
    if not isinstance(profile, Profile):
        profile = load_profile(profile)
    backend = build_backend(profile, port=port, **overrides)
    orientation = Orientation(profile.rows, profile.cols, profile.white_side)
    sensors = profile.sensor_squares()
    if orientation.identity and len(sensors) == profile.rows * profile.cols:
        return backend
    log.debug("board %s: mapping %s, %d sensor squares", profile.name, orientation, len(sensors))
    return MappedDevice(backend, orientation, sensors)


def serial_link(board: BoardDevice) -> SerialDevice | None:
    """The serial link behind ``board`` (through its mapping), or None for a board wired to the host."""
    inner = getattr(board, "inner", board)
    return inner if isinstance(inner, SerialDevice) else None


def wire_map(board: Any) -> WireMap:
    """Which wires each logical square's sensor sits on, named as hardware/wiring.md and the firmware's pin
    map name them: ``R4 (GPIO 13)`` on a Pi, ``R4 (Mega D26)`` on the serial board, ``R4`` otherwise."""
    inner = getattr(board, "inner", board)
    rows, cols = inner.rows, inner.cols
    if isinstance(inner, GpioDevice):
        row_names = tuple(f"R{i} (GPIO {pin})" for i, pin in enumerate(inner.scanner.row_pins))
        col_names = tuple(f"C{j} (GPIO {pin})" for j, pin in enumerate(inner.scanner.col_pins))
    elif isinstance(inner, SerialDevice):      # hardware/firmware/src/pins.h: rows D22.., columns D40..
        row_names = tuple(f"R{i} (Mega D{22 + i})" for i in range(rows))
        col_names = tuple(f"C{j} (Mega D{40 + j})" for j in range(cols))
    else:
        row_names, col_names = (), ()
    orientation = getattr(board, "orientation", None)
    if orientation is None:
        return WireMap(rows, cols, row_names, col_names)
    return WireMap(rows, cols, row_names, col_names, orientation.to_wiring, orientation.to_logical)
