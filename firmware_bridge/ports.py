"""Finding a serial board again when it comes back under another name (ttyACM0 -> ttyACM1).

A finder lists the serial ports present with their USB identity; ``SerialDevice`` asks it when its own port
is gone and tries the ports that carry the same USB identity (or, before it ever knew one, a known board's
vendor and product id), keeping the one whose firmware answers HELLO with the right size.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)

KNOWN_BOARDS: dict[tuple[int, int], str] = {
    (0x2341, 0x0010): "Arduino Mega 2560",
    (0x2341, 0x0042): "Arduino Mega 2560 R3",
    (0x2A03, 0x0042): "Arduino Mega 2560 R3 (arduino.org)",
    (0x1A86, 0x7523): "CH340 USB serial (Mega 2560 clones)",
}
"""USB vendor/product ids of the boards the firmware runs on (hardware/firmware/README.md)."""


@dataclass(frozen=True)
class PortInfo:
    """A serial port as a finder lists it: its device path and, for USB adapters, its identity."""

    device: str
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None

    @property
    def usb_id(self) -> str:
        """``vvvv:pppp`` (and ``/serial``), or ``""`` for a port that is not USB."""
        if self.vid is None or self.pid is None:
            return ""
        return f"{self.vid:04x}:{self.pid:04x}" + (f"/{self.serial_number}" if self.serial_number else "")

    def same_usb(self, other: PortInfo) -> bool:
        """The same USB device: vendor, product and (when both have one) serial number agree."""
        if self.vid is None or (self.vid, self.pid) != (other.vid, other.pid):
            return False
        return self.serial_number is None or other.serial_number is None \
            or self.serial_number == other.serial_number


PortFinder = Callable[[], Sequence[PortInfo]]


def list_serial_ports() -> list[PortInfo]:
    """The serial ports present (pyserial's list of the system's ports), with their USB identity."""
    from serial.tools import list_ports  # lazy: only the serial backend needs pyserial

    return [PortInfo(p.device, p.vid, p.pid, p.serial_number) for p in list_ports.comports()]


def _same_path(a: str, b: str) -> bool:
    return a == b or os.path.realpath(a) == os.path.realpath(b)


def identify(port: str, found: Sequence[PortInfo]) -> PortInfo | None:
    """The listed port that ``port`` (a path or a symlink to it) is, if the finder lists it."""
    return next((info for info in found if _same_path(info.device, port)), None)


def candidates(port: str, known: PortInfo | None, found: Sequence[PortInfo]) -> list[PortInfo]:
    """The listed ports worth probing for the board last seen as ``known`` (its own first, by serial number),
    never ``port`` itself; without a known identity, ports with a known board's vendor and product id."""
    others = [info for info in found if not _same_path(info.device, port)]
    if known is not None and known.vid is not None:
        same = [info for info in others if known.same_usb(info)]
        return sorted(same, key=lambda info: info.serial_number != known.serial_number)
    return [info for info in others if (info.vid, info.pid) in KNOWN_BOARDS]
