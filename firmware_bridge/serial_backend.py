"""Serial backend: a microcontroller scans the matrix and drives the LEDs; we speak protocol v1 over pyserial.

One reader thread owns the port: it reconnects while the device is absent, sends heartbeats, detects silence,
and resynchronises from a SNAPSHOT after connect, reset, or a gap, so no change is lost or counted twice.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import protocol as p
from .base import Listeners, OccupancyTracker, TrackedSensorSource, check_frame
from .clock import Clock, MonotonicClock
from .interfaces import LedOutput
from .types import LedFrame

log = logging.getLogger(__name__)

SerialFactory = Callable[..., Any]


@dataclass
class LinkStats:
    """Diagnostics counters of a serial link (mutable, owned by one SerialDevice)."""

    connects: int = 0
    disconnects: int = 0
    silences: int = 0
    resyncs: int = 0
    resets: int = 0
    gaps: int = 0
    duplicates: int = 0
    frames_in: int = 0
    frames_out: int = 0
    mcu_errors: int = 0
    led_resends: int = 0
    bad_frames: dict[str, int] = field(default_factory=dict)


def _pyserial(port: str, baudrate: int, timeout: float) -> Any:
    import serial  # lazy: only the serial backend needs pyserial

    return serial.Serial(port, baudrate=baudrate, timeout=timeout, exclusive=True)


def led_message(frame: LedFrame, brightness: int) -> p.LedFrameMsg:
    """The LED_FRAME for ``frame``: every square in row-major order."""
    lights = frame.as_dict()
    cells = []
    for row in range(frame.rows):
        for col in range(frame.cols):
            light = lights.get((row, col))
            if light is None:
                cells.append(p.LedCell())
            else:
                c = light.rgb
                cells.append(p.LedCell(c.r, c.g, c.b, light.pattern.value))
    return p.LedFrameMsg(frame.rows, frame.cols, brightness, tuple(cells))


class SerialDevice(TrackedSensorSource, LedOutput):
    """A board behind a serial port (``port`` may be a udev symlink that comes and goes)."""

    def __init__(self, port: str, *, rows: int = 8, cols: int = 8, baud: int = 115200, brightness: int = 64,
                 heartbeat: float = 0.5, silence: float = 1.5, retry: float = 0.2, ack_timeout: float = 0.25,
                 clock: Clock | None = None, serial_factory: SerialFactory | None = None) -> None:
        self.port = port
        self.rows, self.cols = rows, cols
        self.baud = baud
        self.brightness = brightness
        self.heartbeat, self.silence, self.retry, self.ack_timeout = heartbeat, silence, retry, ack_timeout
        self.clock = clock or MonotonicClock()
        self._factory = serial_factory or _pyserial
        self._listeners = Listeners()
        self._tracker = OccupancyTracker(rows, cols, self._listeners, self.clock.now())
        self._frame = LedFrame(rows, cols)
        self._led_seq: int | None = None     # frame_seq of the LED_FRAME awaiting ACK
        self._led_sent_at = 0.0
        self._led_dirty = True
        self._ser: Any = None
        self._reader = p.FrameReader()
        self._frame_seq = 0
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self.boot_id: int | None = None
        self.hello: p.HelloReply | None = None
        self._last_seq = 0
        self._awaiting = False
        self._requested_at = 0.0
        self._buffer: list[p.Change] = []
        self._last_rx = 0.0
        self._last_hb = 0.0
        self.stats = LinkStats()
        self._running = False
        self._thread: threading.Thread | None = None
        self._synced = threading.Event()
        self._link_listeners: list[Callable[[bool], None]] = []
        self._open_error = ""

    # --- SensorSource / LedOutput -------------------------------------------------------------------
    def start(self) -> None:
        if self._running:
            return
        self._running = True
        self._thread = threading.Thread(target=self._run, name=f"serial-board {self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._running = False
        if self._thread:
            self._thread.join(timeout=2)
            self._thread = None
        self._drop_port()

    def show(self, frame: LedFrame) -> None:
        check_frame(frame, self.rows, self.cols)
        with self._state_lock:
            if frame == self._frame and not self._led_dirty:
                return
            self._frame = frame
            self._led_dirty = True
        self._send_leds()

    @property
    def frame(self) -> LedFrame:
        return self._frame

    @property
    def connected(self) -> bool:
        return self._ser is not None

    def on_link(self, listener: Callable[[bool], None]) -> None:
        """``listener(True)`` when the board answers after (re)connecting, ``listener(False)`` on a drop."""
        self._link_listeners.append(listener)

    def _tell_link(self, connected: bool) -> None:
        for listener in list(self._link_listeners):
            try:
                listener(connected)
            except Exception:
                log.exception("link listener %r failed", listener)

    def wait_synced(self, timeout: float) -> bool:
        """Block until the first snapshot after (re)connecting has been applied; False on timeout."""
        return self._synced.wait(timeout)

    # --- the reader thread --------------------------------------------------------------------------
    def _run(self) -> None:
        while self._running:
            if self._ser is None and not self._open():
                self._sleep(self.retry)
                continue
            try:
                data = self._ser.read(max(1, self._ser.in_waiting))
                if data and self._ser.in_waiting:      # the rest of a frame that arrived meanwhile
                    data += self._ser.read(self._ser.in_waiting)
            except Exception as exc:      # pyserial raises SerialException/OSError when the device vanishes
                log.warning("serial %s: read failed (%s); reconnecting", self.port, exc)
                self._drop_port()
                continue
            now = self.clock.now()
            if data:
                self._last_rx = now
                frames = self._reader.feed(data)
                self.stats.bad_frames = {code.name: n for code, n in self._reader.errors.items() if n}
                for frame_seq, msg in frames:
                    self.stats.frames_in += 1
                    self._handle(frame_seq, msg, now)
            self._housekeeping(now)

    def _sleep(self, seconds: float) -> None:
        threading.Event().wait(seconds)

    def _open(self) -> bool:
        try:
            ser = self._factory(self.port, self.baud, 0.02)
        except OSError as exc:                 # absent device (FileNotFoundError) or busy port
            log.debug("serial %s: cannot open (%s)", self.port, exc)
            return False
        except Exception as exc:               # pyserial's SerialException is an OSError; anything else
            if str(exc) != self._open_error:   # is a real problem: say so (once per distinct message)
                log.warning("serial %s: cannot open: %r", self.port, exc)
            self._open_error = str(exc)
            return False
        self._ser = ser
        self._reader.reset()
        self.stats.connects += 1
        now = self.clock.now()
        self._last_rx = self._last_hb = now
        log.info("serial %s: connected", self.port)
        self._send(p.Hello())
        self._request_snapshot(now)
        self._led_dirty = True
        self._send_leds()
        return True

    def _drop_port(self) -> None:
        ser, self._ser = self._ser, None
        was_synced = self._synced.is_set()
        self._synced.clear()
        if was_synced and self._running:
            self._tell_link(False)
        if ser is not None:
            self.stats.disconnects += 1
            try:
                ser.close()
            except Exception:
                log.debug("serial %s: close failed", self.port, exc_info=True)

    def _housekeeping(self, now: float) -> None:
        if self._ser is None:
            return
        if now - self._last_rx > self.silence:
            log.warning("serial %s: silent for %.2f s; reconnecting", self.port, now - self._last_rx)
            self.stats.silences += 1
            self._drop_port()
            return
        if now - self._last_hb >= self.heartbeat:
            self._last_hb = now
            self._send(p.Heartbeat())
        if self._awaiting and now - self._requested_at > max(self.heartbeat, 0.2):
            self._request_snapshot(now)       # the SNAPSHOT (or our request) was lost
        if self._led_seq is not None and now - self._led_sent_at > self.ack_timeout:
            self.stats.led_resends += 1
            self._led_dirty = True
            self._send_leds()

    # --- messages -----------------------------------------------------------------------------------
    def _handle(self, frame_seq: int, msg: p.Message, now: float) -> None:
        if isinstance(msg, p.Change):
            self._on_change(msg, now)
        elif isinstance(msg, p.Snapshot):
            self._on_snapshot(msg, now)
        elif isinstance(msg, p.HelloReply):
            self._on_hello(msg, now)
        elif isinstance(msg, p.HeartbeatReply):
            if not self._awaiting and msg.event_seq != self._last_seq:
                log.info("serial %s: heartbeat seq %d != last %d; resync", self.port, msg.event_seq,
                         self._last_seq)
                if msg.event_seq < self._last_seq:
                    self._send(p.Hello())             # a reset whose HELLO_REPLY we missed
                self._request_snapshot(now)
        elif isinstance(msg, p.Ack):
            if msg.acked_type == p.MsgType.LED_FRAME and msg.acked_frame_seq == self._led_seq:
                self._led_seq = None
        elif isinstance(msg, p.Error):
            self.stats.mcu_errors += 1
            log.debug("serial %s: MCU reports error %d (detail %d)", self.port, msg.code, msg.detail)

    def _on_hello(self, msg: p.HelloReply, now: float) -> None:
        if (msg.rows, msg.cols) != (self.rows, self.cols):
            log.error("serial %s: device is %dx%d, profile says %dx%d", self.port, msg.rows, msg.cols,
                      self.rows, self.cols)
        self.hello = msg
        if msg.boot_id != self.boot_id:
            if self.boot_id is not None:
                log.info("serial %s: MCU reset (boot_id 0x%04X -> 0x%04X)", self.port, self.boot_id,
                         msg.boot_id)
                self.stats.resets += 1
            self.boot_id = msg.boot_id
            self._buffer.clear()               # changes of the previous boot: the next SNAPSHOT covers them
            if not self._awaiting:             # a request already in flight is answered after the reset
                self._request_snapshot(now)
            self._led_dirty = True
            self._send_leds()

    def _on_change(self, msg: p.Change, now: float) -> None:
        if self._awaiting:
            self._buffer.append(msg)
        elif msg.event_seq == self._last_seq + 1:
            self._apply(msg, now)
        elif msg.event_seq <= self._last_seq:
            self.stats.duplicates += 1
        else:
            log.info("serial %s: gap in event_seq (%d after %d); resync", self.port, msg.event_seq,
                     self._last_seq)
            self.stats.gaps += 1
            self._buffer.append(msg)
            self._request_snapshot(now)

    def _apply(self, msg: p.Change, now: float) -> None:
        self._last_seq = msg.event_seq
        if 0 <= msg.row < self.rows and 0 <= msg.col < self.cols:
            self._tracker.apply((msg.row, msg.col), msg.occupied, now)
        else:
            log.warning("serial %s: CHANGE for square %r outside %dx%d", self.port, (msg.row, msg.col),
                        self.rows, self.cols)

    def _on_snapshot(self, msg: p.Snapshot, now: float) -> None:
        if (msg.rows, msg.cols) != (self.rows, self.cols):
            log.error("serial %s: SNAPSHOT is %dx%d, expected %dx%d", self.port, msg.rows, msg.cols,
                      self.rows, self.cols)
            return
        self.stats.resyncs += 1
        self._awaiting = False
        self._tracker.resync(msg.squares, now)
        self._last_seq = msg.event_seq
        pending, self._buffer = sorted(self._buffer, key=lambda c: c.event_seq), []
        for change in pending:
            if change.event_seq > self._last_seq:
                self._on_change(change, now)
        if not self._synced.is_set():
            self._synced.set()
            self._tell_link(True)

    def _request_snapshot(self, now: float) -> None:
        self._awaiting = True
        self._requested_at = now
        self._send(p.SnapshotRequest())

    # --- writing ------------------------------------------------------------------------------------
    def _send(self, msg: p.Message) -> int | None:
        with self._write_lock:
            ser = self._ser
            if ser is None:
                return None
            seq = self._frame_seq
            self._frame_seq = (seq + 1) & 0xFFFF
            try:
                ser.write(p.encode(msg, seq))
            except Exception as exc:
                log.warning("serial %s: write failed (%s)", self.port, exc)
                return None
            self.stats.frames_out += 1
            return seq

    def _send_leds(self) -> None:
        with self._state_lock:
            if not self._led_dirty:
                return
            msg = led_message(self._frame, self.brightness)
            seq = self._send(msg)
            if seq is not None:
                self._led_dirty = False
                self._led_seq = seq
                self._led_sent_at = self.clock.now()

    def __repr__(self) -> str:
        return (f"SerialDevice(port={self.port!r}, {self.rows}x{self.cols}, connected={self.connected}, "
                f"boot_id={self.boot_id}, last_seq={self._last_seq})")
