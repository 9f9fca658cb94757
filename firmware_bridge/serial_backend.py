"""Serial backend: a microcontroller scans the matrix and drives the LEDs; we speak protocol v1 over pyserial.

One reader thread owns the port: it reconnects while the device is absent (and finds it again under another
name), sends heartbeats, calls a board that sends no valid frame "not responding", and resynchronises from a
SNAPSHOT after connect, reset, or a gap, so no change is lost or counted twice. One writer thread does every
write, with a timeout, so no caller ever waits on the port: ``show()`` only keeps the newest LED frame, and a
write that does not complete in time is a link fault (reconnect, then resend the LEDs).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import protocol as p
from .base import Listeners, OccupancyTracker, TrackedSensorSource, check_frame
from .clock import Clock, MonotonicClock
from .interfaces import LedOutput
from .ports import PortFinder, PortInfo, candidates, identify
from .types import LedFrame, LinkStatus

log = logging.getLogger(__name__)

SerialFactory = Callable[..., Any]
IDENTIFY_AFTER = 2.0
"""Seconds after the board answers that its USB identity is looked up: listing the ports takes a while, so not
while everything starts; a board gone before is still found by the known boards' ids."""


@dataclass
class LinkStats:
    """Diagnostics counters of a serial link (mutable, owned by one SerialDevice)."""

    connects: int = 0
    disconnects: int = 0
    silences: int = 0
    not_responding: int = 0
    write_timeouts: int = 0
    renames: int = 0
    resyncs: int = 0
    resets: int = 0
    gaps: int = 0
    duplicates: int = 0
    frames_in: int = 0
    frames_out: int = 0
    mcu_errors: int = 0
    led_resends: int = 0
    bad_frames: dict[str, int] = field(default_factory=dict)


def _pyserial(port: str, baudrate: int, timeout: float, write_timeout: float) -> Any:
    import serial  # lazy: only the serial backend needs pyserial

    return serial.Serial(port, baudrate=baudrate, timeout=timeout, write_timeout=write_timeout,
                         exclusive=True)


def _timed_out(exc: BaseException) -> bool:
    """A write that did not complete in time (pyserial's SerialTimeoutException, or the OS's own timeout)."""
    return isinstance(exc, TimeoutError) or type(exc).__name__ == "SerialTimeoutException"


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
    """A board behind a serial port (``port`` may be a udev symlink that comes and goes).

    ``write_timeout``: seconds a write may take before the board counts as not responding. ``answer``:
    seconds a newly opened board has to send its first valid frame (a Mega resets when the port opens and
    its bootloader waits about 1.5 s); ``silence``: the same once it has answered; ``bad_run``: bad frames in
    a row that make it "not responding" at once (a wrong baud rate turns every byte into garbage).
    ``finder`` lists the ports present with their USB identity, to find the board again when its port is
    gone (ttyACM0 -> ttyACM1); ``search``: seconds between two such searches.
    """

    def __init__(self, port: str, *, rows: int = 8, cols: int = 8, baud: int = 115200, brightness: int = 64,
                 heartbeat: float = 0.5, silence: float = 1.5, retry: float = 0.2, ack_timeout: float = 0.25,
                 write_timeout: float = 1.0, answer: float = 3.0, bad_run: int = 20, search: float = 1.0,
                 finder: PortFinder | None = None, clock: Clock | None = None,
                 serial_factory: SerialFactory | None = None) -> None:
        self.port = port
        self.rows, self.cols = rows, cols
        self.baud = baud
        self.brightness = brightness
        self.heartbeat, self.silence, self.retry, self.ack_timeout = heartbeat, silence, retry, ack_timeout
        self.write_timeout, self.answer, self.bad_run, self.search = write_timeout, answer, bad_run, search
        self.clock = clock or MonotonicClock()
        self._factory = serial_factory or _pyserial
        self._finder = finder
        self.usb: PortInfo | None = None     # the board's USB identity, learned when it answers
        self._listeners = Listeners()
        self._tracker = OccupancyTracker(rows, cols, self._listeners, self.clock.now())
        # shared with the writer thread, under _cv
        self._cv = threading.Condition()
        self._ser: Any = None
        self._gen = 0                        # bumped when the port changes: stale write errors are ignored
        self._out: deque[p.Message] = deque()
        self._frame = LedFrame(rows, cols)
        self._led_dirty = True
        self._led_seq: int | None = None     # frame_seq of the LED_FRAME awaiting ACK
        self._led_sent_at = 0.0
        self._fault: tuple[str, str] | None = None
        self._frame_seq = 0
        # the reader thread's own
        self._reader = p.FrameReader()
        self.boot_id: int | None = None
        self.hello: p.HelloReply | None = None
        self._last_seq = 0
        self._awaiting = False
        self._requested_at = 0.0
        self._buffer: list[p.Change] = []
        self._opened_at = 0.0
        self._last_valid: float | None = None
        self._bad_run = 0
        self._last_hb = 0.0
        self._last_search = float("-inf")
        self._identify_at: float | None = None   # when to learn the board's USB identity
        self._open_errors: dict[str, str] = {}
        self.stats = LinkStats()
        self._running = False
        self._threads: list[threading.Thread] = []
        self._synced = threading.Event()
        self._link_listeners: list[Callable[[bool], None]] = []
        self._status_listeners: list[Callable[[LinkStatus], None]] = []
        self._status = LinkStatus("connecting", port, "looking for the board")

    # --- SensorSource / LedOutput -------------------------------------------------------------------
    def start(self) -> None:
        if self._running:
            return
        self._running = True
        self._tell_status()
        self._threads = [
            threading.Thread(target=self._run, name=f"serial-board {self.port}", daemon=True),
            threading.Thread(target=self._write_loop, name=f"serial-write {self.port}", daemon=True)]
        for thread in self._threads:
            thread.start()

    def close(self) -> None:
        self._running = False
        with self._cv:
            self._cv.notify_all()
        for thread in self._threads:
            thread.join(timeout=2 + self.write_timeout)
        self._threads = []
        self._drop_port()

    def show(self, frame: LedFrame) -> None:
        """Keep ``frame`` as the one to show; the writer thread sends it (only the newest ever waits)."""
        check_frame(frame, self.rows, self.cols)
        with self._cv:
            if frame == self._frame and not self._led_dirty:
                return
            self._frame = frame
            self._led_dirty = True
            self._cv.notify()

    @property
    def frame(self) -> LedFrame:
        return self._frame

    @property
    def connected(self) -> bool:
        """The board answers: its state has been read since the port was (re)opened."""
        return self._synced.is_set()

    @property
    def status(self) -> LinkStatus:
        return self._status

    def on_link(self, listener: Callable[[bool], None]) -> None:
        """``listener(True)`` when the board answers after (re)connecting, ``listener(False)`` on a drop."""
        self._link_listeners.append(listener)

    def on_status(self, listener: Callable[[LinkStatus], None]) -> None:
        """``listener(status)`` whenever the link's state changes (see LinkStatus), once at start."""
        self._status_listeners.append(listener)

    def _tell_link(self, connected: bool) -> None:
        for listener in list(self._link_listeners):
            try:
                listener(connected)
            except Exception:
                log.exception("link listener %r failed", listener)

    def _set_status(self, state: str, reason: str) -> None:
        if (state, reason) == (self._status.state, self._status.reason) and self.port == self._status.port:
            return
        self._status = LinkStatus(state, self.port, reason)
        self._tell_status()

    def _tell_status(self) -> None:
        for listener in list(self._status_listeners):
            try:
                listener(self._status)
            except Exception:
                log.exception("status listener %r failed", listener)

    def wait_synced(self, timeout: float) -> bool:
        """Block until the first snapshot after (re)connecting has been applied; False on timeout."""
        return self._synced.wait(timeout)

    # --- the reader thread --------------------------------------------------------------------------
    def _run(self) -> None:
        while self._running:
            if self._ser is None and not self._connect():
                self._sleep(self.retry)
                continue
            with self._cv:
                fault, self._fault = self._fault, None
            if fault is not None:
                self._lost(*fault)
                continue
            try:
                data = self._ser.read(max(1, self._ser.in_waiting))
                if data and self._ser.in_waiting:      # the rest of a frame that arrived meanwhile
                    data += self._ser.read(self._ser.in_waiting)
            except Exception as exc:      # pyserial raises SerialException/OSError when the device vanishes
                self._lost("disconnected", f"read failed ({exc})")
                continue
            now = self.clock.now()
            if data:
                dropped = self._reader.dropped
                frames = self._reader.feed(data)
                self.stats.bad_frames = {code.name: n for code, n in self._reader.errors.items() if n}
                self._bad_run = 0 if frames else self._bad_run + self._reader.dropped - dropped
                for frame_seq, msg in frames:
                    self.stats.frames_in += 1
                    self._last_valid = now
                    self._handle(frame_seq, msg, now)
            self._housekeeping(now)

    def _sleep(self, seconds: float) -> None:
        threading.Event().wait(seconds)

    def _open_port(self, port: str) -> Any:
        """The opened port, or None (said at info level once per port and distinct reason)."""
        try:
            ser = self._factory(port, self.baud, 0.02, self.write_timeout)
        except Exception as exc:     # absent device (FileNotFoundError), busy port, permissions, ...
            reason = str(exc) or type(exc).__name__
            if self._open_errors.get(port) != reason:
                log.info("serial %s: cannot open (%s); trying again every %g s", port, reason, self.retry)
                self._open_errors[port] = reason
            return None
        self._open_errors.pop(port, None)
        return ser

    def _connect(self) -> bool:
        """Open our port, or find the board under another name; True when a port is open."""
        ser = self._open_port(self.port)
        if ser is None:
            if self._status.state == "connected":
                self._set_status("disconnected", f"{self.port} is gone")
            ser = self._search()
            if ser is None:
                return False
        self._reader.reset()
        self.stats.connects += 1
        now = self.clock.now()
        self._opened_at = self._last_hb = self._requested_at = now
        self._last_valid = None
        self._bad_run = 0
        self._awaiting = True
        with self._cv:                  # HELLO and the snapshot request go out first, then the LEDs
            self._ser = ser
            self._gen += 1
            self._out.clear()
            self._out.extend([p.Hello(), p.SnapshotRequest()])
            self._fault = None
            self._led_dirty = True
            self._led_seq = None
            self._cv.notify()
        log.debug("serial %s: port open, waiting for the board to answer", self.port)
        return True

    def _search(self) -> Any:
        """Our port is gone: probe the listed ports with the board's USB identity; adopt one whose firmware
        answers HELLO with our size. Returns the open port or None."""
        now = self.clock.now()
        if self._finder is None or now - self._last_search < self.search:
            return None
        self._last_search = now
        try:
            found = list(self._finder())
        except Exception as exc:
            log.info("serial: cannot list the serial ports (%s)", exc)
            return None
        for info in candidates(self.port, self.usb, found):
            ser = self._open_port(info.device)
            if ser is None:
                continue
            if self._probe(ser):
                log.warning("serial: the board answers on %s now (it was %s)", info.device, self.port)
                self.stats.renames += 1
                self.port = info.device
                self.usb = info if info.vid is not None else self.usb
                return ser
            try:
                ser.close()
            except Exception:
                log.debug("serial %s: close failed", info.device, exc_info=True)
        return None

    def _probe(self, ser: Any) -> bool:
        """Whether the board on ``ser`` runs our firmware at our size (HELLO answered within ``answer`` s)."""
        reader = p.FrameReader()
        try:
            ser.write(p.encode(p.Hello(), 0))
            deadline = self.clock.now() + self.answer
            while self._running and self.clock.now() < deadline:
                for _, msg in reader.feed(ser.read(max(1, ser.in_waiting))):
                    if isinstance(msg, p.HelloReply):
                        return (msg.rows, msg.cols) == (self.rows, self.cols)
        except Exception as exc:
            log.debug("serial: probing failed (%s)", exc)
        return False

    def _lost(self, state: str, reason: str) -> None:
        """The link failed (``state`` is "not responding" or "disconnected"): say so once, then reconnect."""
        if self._status.state != state:
            log.warning("serial %s: %s: %s; reconnecting", self.port, state, reason)
        if state == "not responding":
            self.stats.not_responding += 1
        self._set_status(state, reason)
        self._drop_port()

    def _drop_port(self) -> None:
        with self._cv:
            ser, self._ser = self._ser, None
            self._gen += 1
            self._out.clear()
            self._led_dirty = True
            self._led_seq = None
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
        last = self._last_valid
        heard = last is not None
        quiet = now - (last if last is not None else self._opened_at)
        if self._bad_run >= self.bad_run:
            self._lost("not responding", f"{self._bad_run} bad frames in a row at {self.baud} baud "
                                         f"(wrong speed or firmware?)")
            return
        if not heard and quiet > self.answer:
            self._lost("not responding", f"no valid answer in {self.answer:g} s at {self.baud} baud "
                                         f"(wrong speed or firmware?)")
            return
        if heard and quiet > self.silence:
            self.stats.silences += 1
            self._lost("not responding", f"silent for {quiet:.1f} s")
            return
        if now - self._last_hb >= self.heartbeat:
            self._last_hb = now
            self._send(p.Heartbeat())
        if self._identify_at is not None and now >= self._identify_at:
            self._identify_at = None
            self._learn_identity()
        if self._awaiting and now - self._requested_at > max(self.heartbeat, 0.2):
            self._request_snapshot(now)       # the SNAPSHOT (or our request) was lost
        with self._cv:
            if self._led_seq is not None and now - self._led_sent_at > self.ack_timeout:
                self.stats.led_resends += 1
                self._led_seq = None
                self._led_dirty = True
                self._cv.notify()

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
            with self._cv:
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
            with self._cv:
                self._led_dirty = True
                self._cv.notify()

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
        first = not self._synced.is_set()
        if first:                          # said before the state it brings, so no reading outruns it
            log.info("serial %s: connected (boot 0x%04X)", self.port, self.boot_id or 0)
            self._set_status("connected", "")
        self._tracker.resync(msg.squares, now)
        self._last_seq = msg.event_seq
        pending, self._buffer = sorted(self._buffer, key=lambda c: c.event_seq), []
        for change in pending:
            if change.event_seq > self._last_seq:
                self._on_change(change, now)
        if first:
            self._synced.set()
            self._tell_link(True)
            self._identify_at = now + IDENTIFY_AFTER

    def _learn_identity(self) -> None:
        """Remember the board's USB identity (to find it again under another name)."""
        if self._finder is None:
            return
        try:
            info = identify(self.port, list(self._finder()))
        except Exception as exc:
            log.debug("serial: cannot list the serial ports (%s)", exc)
            return
        if info is not None and info.vid is not None:
            self.usb = info

    def _request_snapshot(self, now: float) -> None:
        self._awaiting = True
        self._requested_at = now
        self._send(p.SnapshotRequest())

    # --- writing (the writer thread) ----------------------------------------------------------------
    def _send(self, msg: p.Message) -> None:
        """Queue ``msg`` for the writer thread (dropped when no port is open)."""
        with self._cv:
            if self._ser is not None:
                self._out.append(msg)
                self._cv.notify()

    def _has_work(self) -> bool:
        return not self._running or (self._ser is not None and self._fault is None
                                     and bool(self._out or self._led_dirty))

    def _write_loop(self) -> None:
        while self._running:
            with self._cv:
                self._cv.wait_for(self._has_work, timeout=0.5)
                if not self._running or not self._has_work():
                    continue
                ser, gen = self._ser, self._gen
                batch: list[p.Message] = list(self._out)
                self._out.clear()
                led = led_message(self._frame, self.brightness) if self._led_dirty else None
                self._led_dirty = False
            if led is not None:
                batch.append(led)
            for msg in batch:
                seq = self._frame_seq
                self._frame_seq = (seq + 1) & 0xFFFF
                if msg is led:          # awaited before it is written: its ACK may come back at once
                    with self._cv:
                        self._led_seq, self._led_sent_at = seq, self.clock.now()
                try:
                    ser.write(p.encode(msg, seq))
                except Exception as exc:
                    self._write_failed(gen, exc, led is not None)
                    break
                self.stats.frames_out += 1

    def _write_failed(self, gen: int, exc: Exception, had_led: bool) -> None:
        """A write failed or did not complete in time: a link fault for the reader thread to act on."""
        with self._cv:
            if had_led:
                self._led_dirty = True
            if gen != self._gen or self._fault is not None:
                return                               # the port was already dropped: not news
            if _timed_out(exc):
                self.stats.write_timeouts += 1
                self._fault = ("not responding", f"a write did not complete in {self.write_timeout:g} s")
            else:
                self._fault = ("disconnected", f"write failed ({exc})")

    def __repr__(self) -> str:
        return (f"SerialDevice(port={self.port!r}, {self.rows}x{self.cols}, {self._status.state}, "
                f"boot_id={self.boot_id}, last_seq={self._last_seq})")
