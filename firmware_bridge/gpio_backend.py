"""GPIO backend: the Raspberry Pi scans the reed-switch matrix itself and drives WS2812 LEDs over SPI.

``RPi.GPIO`` and ``spidev`` are imported only when no stand-in is injected, so this module loads anywhere.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from .base import Listeners, OccupancyTracker, TrackedSensorSource, check_frame
from .clock import Clock, MonotonicClock
from .errors import BridgeError
from .interfaces import GpioModule, LedOutput
from .scanner import Debouncer, Diagnostics, MatrixScanner
from .types import CellChange, LedFrame
from .ws2812 import SPI_HZ, chain_order, encode_spi, render

log = logging.getLogger(__name__)

POLARITIES = ("closed-occupied", "open-occupied")


class BackendUnavailable(BridgeError, ValueError):
    """A hardware library the chosen backend needs is not installed."""


def import_rpi_gpio() -> GpioModule:
    """The real ``RPi.GPIO`` module, or a clear error saying what to install."""
    try:
        import RPi.GPIO as GPIO
    except ImportError as exc:
        raise BackendUnavailable("the gpio backend needs RPi.GPIO: pip install 'draughts-board[pi]' "
                                 "(on a Raspberry Pi 5 install rpi-lgpio)") from exc
    return GPIO


def open_spidev(bus: int, device: int) -> Any:
    """An opened ``spidev.SpiDev`` on /dev/spidev{bus}.{device}."""
    try:
        import spidev
    except ImportError as exc:
        raise BackendUnavailable("the gpio backend's LEDs need spidev: "
                                 "pip install 'draughts-board[pi]'") from exc
    spi = spidev.SpiDev()
    spi.open(bus, device)
    return spi


class GpioDevice(TrackedSensorSource, LedOutput):
    """A matrix wired straight to the Pi's header: scanned by a thread at ``rate`` full scans per second.

    ``gpio``: the RPi.GPIO module or a stand-in; ``spi``: an spidev-like object (None = open SPI ``spi_bus``
    /``spi_device``; False = no LEDs). Use ``scan_once()`` without ``start()`` for step-by-step tests.
    """

    def __init__(self, rows: int, cols: int, row_pins: Sequence[int], col_pins: Sequence[int], *,
                 gpio: GpioModule | None = None, spi: Any = None, spi_bus: int = 0, spi_device: int = 0,
                 rate: float = 200.0,
                 debounce: float = 0.012, diodes: bool = True, idle_rows: str = "input",
                 polarity: str = "closed-occupied", chain: str = "serpentine", brightness: int = 64,
                 stuck_changes: int = 400, clock: Clock | None = None) -> None:
        if len(row_pins) != rows or len(col_pins) != cols:
            raise ValueError(f"{len(row_pins)} row pins and {len(col_pins)} column pins "
                             f"for a {rows}x{cols} board")
        if polarity not in POLARITIES:
            raise ValueError(f"sensor polarity must be one of {POLARITIES}, got {polarity!r}")
        if rate <= 0:
            raise ValueError(f"scan rate must be > 0 scans/s, got {rate}")
        if not 0 <= brightness <= 255:
            raise ValueError(f"brightness must be 0-255, got {brightness}")
        self.rows, self.cols = rows, cols
        self.rate = rate
        self.polarity = polarity
        self.brightness = brightness
        self.clock = clock or MonotonicClock()
        self._gpio = gpio
        self._spi = spi
        self._spi_where = (spi_bus, spi_device)
        self.scanner = MatrixScanner(gpio, row_pins, col_pins, idle=idle_rows)
        self.debouncer = Debouncer(rows, cols, debounce=debounce, diodes=diodes, stuck_changes=stuck_changes)
        self.chain = chain_order(rows, cols, chain)
        self._listeners = Listeners()
        self._tracker = OccupancyTracker(rows, cols, self._listeners, self.clock.now())
        self._frame = LedFrame(rows, cols)
        self._sent: list[tuple[int, int, int]] | None = None
        self._lock = threading.Lock()
        self._running = False
        self._thread: threading.Thread | None = None
        self.scans_per_second = 0.0

    @property
    def diagnostics(self) -> Diagnostics:
        return self.debouncer.diag

    # --- life cycle ---------------------------------------------------------------------------------
    def open(self) -> None:
        """Set up the pins and SPI (idempotent); ``start()`` calls it."""
        if self.scanner.ready:
            return
        if self._gpio is None:
            self._gpio = import_rpi_gpio()
        self.scanner.gpio = self._gpio
        self.scanner.setup()
        if self._spi is None:
            self._spi = open_spidev(*self._spi_where)
        if self._spi:
            self._spi.max_speed_hz = SPI_HZ
            self._spi.mode = 0
        self._sent = None

    def start(self) -> None:
        self.open()
        self._tracker.publish()
        if self._running:
            return
        self._running = True
        self._thread = threading.Thread(target=self._run, name="gpio-scan", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._running = False
        if self._thread:
            self._thread.join(timeout=2)
            self._thread = None
        if self._spi:
            try:
                self._spi.writebytes2(encode_spi([(0, 0, 0)] * len(self.chain)))
                self._spi.close()
            except OSError:
                log.debug("closing SPI failed", exc_info=True)
        self.scanner.cleanup()

    # --- scanning -----------------------------------------------------------------------------------
    def scan_once(self) -> list[CellChange]:
        """One full scan: read, debounce, emit changes (and a snapshot after each), refresh LEDs."""
        started = self.clock.now()
        masks = self.scanner.scan()
        if self.polarity == "open-occupied":
            full = (1 << self.cols) - 1
            masks = [~m & full for m in masks]
        now = self.clock.now()
        out = []
        for square, occupied in self.debouncer.feed(masks, now, started):
            change = self._tracker.apply(square, occupied, now)
            if change:
                out.append(change)
        self.refresh_leds(now)
        return out

    def _run(self) -> None:
        period = 1.0 / self.rate
        wait = threading.Event()
        next_at = self.clock.now()
        window_start, window_scans = next_at, 0
        while self._running:
            try:
                self.scan_once()
            except Exception:
                log.exception("scan failed")
            window_scans += 1
            now = self.clock.now()
            if now - window_start >= 1.0:
                self.scans_per_second = window_scans / (now - window_start)
                window_start, window_scans = now, 0
            next_at += period
            if next_at < now:                    # fell behind (a busy CPU): skip, never scan in a burst (a
                next_at = now + period           # scan straight after a late one would read the same instant)
            wait.wait(max(0.0, next_at - now))

    # --- SensorSource / LedOutput -------------------------------------------------------------------
    def show(self, frame: LedFrame) -> None:
        check_frame(frame, self.rows, self.cols)
        with self._lock:
            self._frame = frame

    @property
    def frame(self) -> LedFrame:
        return self._frame

    def refresh_leds(self, t: float | None = None) -> bool:
        """Push the LED chain if the frame or a blink phase changed at time ``t``; True when it wrote."""
        if not self._spi:
            return False
        colors = render(self._frame, self.chain, self.clock.now() if t is None else t, self.brightness)
        if colors == self._sent:
            return False
        self._spi.writebytes2(encode_spi(colors))
        self._sent = colors
        return True

    def __repr__(self) -> str:
        return (f"GpioDevice({self.rows}x{self.cols}, rate={self.rate}, scans={self.diagnostics.scans}, "
                f"occupied={len(self._tracker.squares)})")
