"""A board microcontroller emulated in Python: speaks protocol v1 on a pseudo-terminal, with fault injection.

Run ``python -m firmware_bridge.emulator --pty --link /tmp/dboard-tty`` and point a serial profile at the
link; type ``help`` on stdin for commands (place/lift/unplug/reset/garbage...). Tests drive ``BoardEmulator``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import random
import select
import sys
import termios
import threading
import time
import tty
from collections import Counter
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import TracebackType

from . import protocol as p
from .gpio_model import SwitchMatrix
from .types import Cell

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoggedChange:
    """A physical change as the emulated MCU debounced it (the truth the host's view is checked against)."""

    boot_id: int
    event_seq: int
    square: Cell
    occupied: bool


class BoardEmulator:
    """Emulated MCU with a rows x cols matrix, on a pty (``link`` = stable symlink path) or a given fd.

    Fault injection: ``unplug``/``replug``, ``send_garbage``, ``corrupt_next``, ``truncate_next``, ``reset``,
    ``flood``, ``mute``, ``stop_reading`` (the host's writes then block once the pty's buffer is full). The
    pty starts at ``baud``; a host that opens it at another speed hears garbage and is not understood, as
    with a real UART. With ``matrix`` the pieces act on that electrical model and the MCU reports what it
    reads, so faults planted in it (a dead reed, a shorted wire) reach the host as from a real board.
    ``log`` holds every debounced change; ``leds`` the last accepted LED frame.
    """

    def __init__(self, rows: int = 8, cols: int = 8, *, link: str | None = None, fd: int | None = None,
                 seed: int = 0, scan_hz: int = 500, fw: tuple[int, int] = (1, 0), baud: int = 115200,
                 matrix: SwitchMatrix | None = None) -> None:
        if matrix is not None and (matrix.rows, matrix.cols) != (rows, cols):
            raise ValueError(f"a {matrix.rows}x{matrix.cols} switch matrix for a {rows}x{cols} board")
        self.rows, self.cols = rows, cols
        self.matrix = matrix
        self.baud = baud
        self._speed = getattr(termios, f"B{baud}", None)
        if self._speed is None:
            raise ValueError(f"{baud} is not a standard baud rate")
        self.link = link
        self.scan_hz = scan_hz
        self.fw = fw
        self._rng = random.Random(seed)
        self._given_fd = fd
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_name: str | None = None
        self._lock = threading.RLock()
        self._reader = p.FrameReader()
        self._occupied: set[Cell] = set()
        self.event_seq = 0
        self.boot_id = self._rng.randrange(1, 0x10000)
        self._boot_time = time.monotonic()
        self._frame_seq = 0
        self.log: list[LoggedChange] = []
        self.leds: p.LedFrameMsg | None = None
        self._leds_shown = threading.Event()          # set while `leds` holds a frame (tests wait on it)
        self.received: list[p.Message] = []
        self._corrupt: Counter[type] = Counter()     # message class -> frames of it still to corrupt
        self._truncate: Counter[type] = Counter()
        self._muted_until = 0.0
        self._reading = threading.Event()
        self._reading.set()
        self.sent_frames = 0
        self.dropped_writes = 0
        self._running = False
        self._thread: threading.Thread | None = None

    # --- life cycle ---------------------------------------------------------------------------------
    @property
    def port(self) -> str:
        """The path a host opens: the symlink if given, else the pty's slave name."""
        if self.link:
            return self.link
        if self.slave_name is None:
            raise ValueError("emulator has no pty (started with a fd, or not started)")
        return self.slave_name

    def start(self) -> BoardEmulator:
        """Create the link (pty or fd), send the boot HELLO_REPLY and start answering."""
        self._connect()
        self._running = True
        self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
        self._thread.start()
        self._send(self._hello_reply())
        return self

    def close(self) -> None:
        self._running = False
        if self._thread:
            self._thread.join(timeout=2)
        self._disconnect()

    def __enter__(self) -> BoardEmulator:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _connect(self) -> None:
        with self._lock:
            if self._given_fd is not None:
                self._master = self._given_fd
            else:
                master, slave = os.openpty()
                tty.setraw(slave)              # no echo, no line discipline: bytes pass unchanged
                attrs = termios.tcgetattr(slave)
                attrs[4] = attrs[5] = self._speed    # the MCU's speed, until a host sets its own
                termios.tcsetattr(slave, termios.TCSANOW, attrs)
                os.set_blocking(master, False)
                self._master, self._slave = master, slave
                self.slave_name = os.ttyname(slave)
                if self.link:
                    tmp = f"{self.link}.tmp{os.getpid()}"
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(tmp)
                    os.symlink(self.slave_name, tmp)
                    os.replace(tmp, self.link)
            self._reader.reset()

    def _disconnect(self) -> None:
        with self._lock:
            if self.link:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.link)
            for fd in (self._master, self._slave):
                if fd is not None and fd != self._given_fd:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    # --- the physical board -------------------------------------------------------------------------
    @property
    def occupied(self) -> frozenset[Cell]:
        return frozenset(self._occupied)

    def uptime_ms(self) -> int:
        return int((time.monotonic() - self._boot_time) * 1000) & 0xFFFFFFFF

    def place(self, square: Cell) -> None:
        """A piece arrives on ``square`` (debounced at once): logged and sent as CHANGE."""
        self._magnet(square, True)

    def lift(self, square: Cell) -> None:
        self._magnet(square, False)

    def set_occupancy(self, squares: Iterable[Cell]) -> None:
        """Move to ``squares``, one CHANGE per differing square."""
        target = set(squares)
        if self.matrix is not None:
            self.matrix.set_occupancy(target)
            target = set(self.matrix.reading())
        self._read(target)

    def rescan(self) -> None:
        """Scan the matrix again (after planting a fault in it): a CHANGE per square that reads otherwise."""
        if self.matrix is not None:
            self._read(self.matrix.reading())

    def _magnet(self, square: Cell, present: bool) -> None:
        if self.matrix is None:
            self._change(square, present)
            return
        self._check(square)
        (self.matrix.place if present else self.matrix.lift)(square, bounce=0)
        self.rescan()

    def _read(self, target: Iterable[Cell]) -> None:
        target = set(target)
        for sq in sorted(self._occupied - target):
            self._change(sq, False)
        for sq in sorted(target - self._occupied):
            self._change(sq, True)

    def _check(self, square: Cell) -> None:
        row, col = square
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"square {square!r} is outside the emulated {self.rows}x{self.cols} matrix")

    def _change(self, square: Cell, occupied: bool) -> None:
        self._check(square)
        row, col = square
        with self._lock:
            if (square in self._occupied) == occupied:
                return
            (self._occupied.add if occupied else self._occupied.discard)(square)
            self.event_seq += 1
            self.log.append(LoggedChange(self.boot_id, self.event_seq, square, occupied))
            self._send(p.Change(self.event_seq, row, col, occupied, self.uptime_ms()))

    # --- faults -------------------------------------------------------------------------------------
    def unplug(self) -> None:
        """Pull the cable: the pty and its symlink vanish (the host's reads fail). State is kept."""
        self._disconnect()

    def replug(self, *, reset: bool = False, link: str | None = None) -> None:
        """Plug back in on a new pty behind the same symlink (or ``link``: the board comes back under another
        name, as ttyACM0 -> ttyACM1); with ``reset`` the MCU also reboots."""
        if link is not None:
            self.link = link
        self._connect()
        if reset:
            self.reset()

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def send_garbage(self, count: int = 64, *, with_zeros: bool = True) -> bytes:
        """Write ``count`` random bytes (line noise); returns them."""
        data = bytes(self._rng.randrange(0 if with_zeros else 1, 256) for _ in range(count))
        self._write(data)
        return data

    def corrupt_next(self, count: int = 1, kind: type = p.Change) -> None:
        """Flip a CRC bit in each of the next ``count`` frames of message class ``kind``.

        Faults name the message they hit, so a heartbeat reply sent in between cannot absorb them.
        """
        self._corrupt[kind] += count

    def truncate_next(self, count: int = 1, kind: type = p.Change) -> None:
        """Cut each of the next ``count`` frames of class ``kind`` in half (the delimiter still follows)."""
        self._truncate[kind] += count

    def reset(self) -> None:
        """MCU reset: new boot_id, event_seq 0, LEDs off; the pieces stay; HELLO_REPLY is sent."""
        with self._lock:
            old = self.boot_id
            while self.boot_id == old:
                self.boot_id = self._rng.randrange(1, 0x10000)
            self.event_seq = 0
            self._boot_time = time.monotonic()
            self.leds = None
            self._leds_shown.clear()
            self._send(self._hello_reply())

    def wait_for_leds(self, timeout: float) -> bool:
        """Wait until the host has shown an LED frame (since the start or last reset); False on timeout."""
        return self._leds_shown.wait(timeout)

    def flood(self, count: int, squares: list[Cell] | None = None) -> None:
        """``count`` changes as fast as possible, toggling squares in turn."""
        cells = squares or [(r, c) for r in range(self.rows) for c in range(self.cols)]
        for i in range(count):
            sq = cells[i % len(cells)]
            self._change(sq, sq not in self._occupied)

    def atomic(self) -> AbstractContextManager[bool]:
        """Group actions so that no other frame (a heartbeat reply, say) goes out between their frames."""
        return self._lock

    def mute(self, seconds: float) -> None:
        """Stop sending anything for ``seconds`` (a hung MCU); the host should call it silent."""
        self._muted_until = time.monotonic() + seconds

    def stop_reading(self) -> None:
        """Stop taking bytes from the link (a hung USB stack): the pty fills and the host's writes block.
        Changes are still sent; ``resume_reading`` takes the backlog."""
        self._reading.clear()

    def resume_reading(self) -> None:
        self._reading.set()

    @property
    def reading_stopped(self) -> bool:
        return not self._reading.is_set()

    # --- wire ---------------------------------------------------------------------------------------
    def _hello_reply(self) -> p.HelloReply:
        return p.HelloReply(self.fw[0], self.fw[1], self.rows, self.cols, self.boot_id, self.scan_hz)

    def _send(self, msg: p.Message) -> None:
        with self._lock:
            if time.monotonic() < self._muted_until:
                return
            raw = p.payload(msg, self._frame_seq)
            self._frame_seq = (self._frame_seq + 1) & 0xFFFF
            if self._corrupt[type(msg)]:
                self._corrupt[type(msg)] -= 1
                raw = raw[:-1] + bytes([raw[-1] ^ 0x01])
            wire = p.cobs_encode(raw)
            if self._truncate[type(msg)]:
                self._truncate[type(msg)] -= 1
                wire = wire[: len(wire) // 2]
            self.sent_frames += 1
            self._write(wire + b"\x00")

    def line_matches(self) -> bool:
        """Whether the host set the pty to the MCU's speed (always, on a given fd)."""
        slave = self._slave
        if slave is None:
            return True
        try:
            return termios.tcgetattr(slave)[5] == self._speed
        except termios.error:
            return True

    def _garbled(self, data: bytes) -> bytes:
        """What the other end of a UART at the wrong speed makes of ``data``: as many bytes of noise, with
        the 0x00 bytes that long low stretches read as (framing errors), so the noise splits into frames."""
        rng = self._rng
        return bytes(0 if rng.random() < 0.15 else rng.randrange(1, 256) for _ in data)

    def _write(self, data: bytes) -> None:
        with self._lock:
            if self._master is None:
                return
            if not self.line_matches():
                data = self._garbled(data)
            view = memoryview(data)
            deadline = time.monotonic() + 0.5
            while view:
                try:
                    n = os.write(self._master, view)
                    view = view[n:]
                except BlockingIOError:
                    if time.monotonic() > deadline:          # host not reading: bytes are lost
                        self.dropped_writes += 1
                        return
                    time.sleep(0.001)
                except OSError as exc:
                    if exc.errno in (errno.EIO, errno.EBADF):
                        return
                    raise

    def _run(self) -> None:
        while self._running:
            master = self._master
            if master is None or not self._reading.wait(0.02):
                time.sleep(0.01)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
                if not ready:
                    continue
                data = os.read(master, 4096)
                if not self.line_matches():
                    data = self._garbled(data)
            except (OSError, ValueError):
                time.sleep(0.01)                       # closed under us (unplug) or no host yet
                continue
            for frame_seq, msg in self._reader.feed(data):
                self._handle(frame_seq, msg)
            while self._reader.last_error is not None:
                err = self._reader.last_error
                self._reader.last_error = None
                if err.code != p.ErrorCode.BAD_COBS:
                    self._send(p.Error(int(err.code), 0))

    def _handle(self, frame_seq: int, msg: p.Message) -> None:
        self.received.append(msg)
        if isinstance(msg, p.Hello):
            self._send(self._hello_reply())
        elif isinstance(msg, p.SnapshotRequest):
            with self._lock:
                self._send(p.Snapshot(self.event_seq, self.rows, self.cols, self.occupied))
        elif isinstance(msg, p.Heartbeat):
            with self._lock:
                self._send(p.HeartbeatReply(self.uptime_ms(), self.event_seq))
        elif isinstance(msg, p.LedFrameMsg):
            if (msg.rows, msg.cols) != (self.rows, self.cols):
                self._send(p.Error(int(p.ErrorCode.BAD_SIZE), int(p.MsgType.LED_FRAME)))
                return
            self.leds = msg
            self._leds_shown.set()
            self._send(p.Ack(int(p.MsgType.LED_FRAME), frame_seq))
        else:
            self._send(p.Error(int(p.ErrorCode.UNKNOWN_TYPE), int(msg.TYPE)))

    def __repr__(self) -> str:
        return (f"BoardEmulator({self.rows}x{self.cols}, port={self.link or self.slave_name!r}, "
                f"boot_id=0x{self.boot_id:04X}, event_seq={self.event_seq}, occupied={len(self._occupied)})")


HELP = """commands: place R C | lift R C | show | unplug | replug | reset | garbage N | corrupt [N]
          truncate [N] | flood N | mute SECONDS | quit   (corrupt/truncate hit the next N CHANGE frames)"""


def _command(emu: BoardEmulator, line: str) -> bool:
    words = line.split()
    if not words:
        return True
    cmd, args = words[0], [int(w) for w in words[1:] if w.isdigit()]
    if cmd in ("place", "lift"):
        (emu.place if cmd == "place" else emu.lift)((int(args[0]), int(args[1])))
    elif cmd == "show":
        print(f"{emu!r} occupied={sorted(emu.occupied)}", flush=True)
    elif cmd == "unplug":
        emu.unplug()
    elif cmd == "replug":
        emu.replug()
    elif cmd == "reset":
        emu.reset()
    elif cmd == "garbage":
        emu.send_garbage(int(args[0]) if args else 64)
    elif cmd == "corrupt":
        emu.corrupt_next(int(args[0]) if args else 1)
    elif cmd == "truncate":
        emu.truncate_next(int(args[0]) if args else 1)
    elif cmd == "flood":
        emu.flood(int(args[0]))
    elif cmd == "mute":
        emu.mute(float(words[1]))
    elif cmd == "quit":
        return False
    else:
        print(HELP, flush=True)
    return True


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: emulate a board on a new pty (``--pty``) or on an inherited fd (``--fd N``)."""
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.emulator", description=__doc__)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--pty", action="store_true", help="create a pseudo-terminal and print its path")
    where.add_argument("--fd", type=int, help="speak on this already-open file descriptor")
    parser.add_argument("--link", help="stable symlink to the pty's slave (lets unplug/replug work)")
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--cols", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--occupy", default="", help="initial squares, e.g. '0,0 2,2'")
    args = parser.parse_args(argv)
    emu = BoardEmulator(args.rows, args.cols, link=args.link, fd=args.fd, seed=args.seed)
    emu._occupied = {(int(a), int(b)) for a, b in (w.split(",") for w in args.occupy.split())}
    with emu:
        print(emu.port, flush=True)
        for line in sys.stdin:
            try:
                if not _command(emu, line):
                    break
            except (ValueError, IndexError) as exc:
                print(f"error: {exc}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
