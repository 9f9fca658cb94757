"""Serial protocol v1 codec: COBS framing, CRC-16/CCITT-FALSE and every message (see hardware/protocol.md)."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from enum import IntEnum

from .errors import BridgeError
from .types import Cell

VERSION = 0x01
MAX_PAYLOAD = 512
MIN_PAYLOAD = 6
PATTERN_NAMES = ("off", "on", "slow", "fast")


class MsgType(IntEnum):
    """Message type byte: host->MCU 0x0_, MCU->host 0x8_."""

    HELLO = 0x01
    HELLO_REPLY = 0x81
    SNAPSHOT_REQUEST = 0x02
    SNAPSHOT = 0x82
    CHANGE = 0x83
    LED_FRAME = 0x04
    HEARTBEAT = 0x05
    HEARTBEAT_REPLY = 0x85
    ACK = 0x86
    ERROR = 0x87


class ErrorCode(IntEnum):
    """Codes of the ERROR message (and of the host's own drop counters)."""

    BAD_CRC = 1
    UNKNOWN_TYPE = 2
    BAD_LENGTH = 3
    BAD_VERSION = 4
    BAD_SIZE = 5
    BAD_COBS = 6   # host-side counter only; never sent


class ProtocolError(BridgeError, ValueError):
    """A frame that cannot be accepted; ``code`` says why (an ErrorCode)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- CRC and COBS ------------------------------------------------------------------------------------

def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0 (``b"123456789"`` -> 0x29B1)."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no 0x00 byte."""
    out = bytearray()
    code_index = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_index] = code
            code_index = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_index] = code
                code_index = len(out)
                out.append(0)
                code = 1
    out[code_index] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo COBS; raises ProtocolError(BAD_COBS) on a zero byte or a block running past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError(ErrorCode.BAD_COBS, f"COBS: zero byte at offset {i}")
        end = i + code
        if end > n:
            raise ProtocolError(ErrorCode.BAD_COBS, f"COBS: block at offset {i} runs past the end")
        block = data[i + 1:end]
        if 0 in block:
            raise ProtocolError(ErrorCode.BAD_COBS, f"COBS: zero byte inside block at offset {i}")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- messages ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """Host asks the MCU who it is (answered by HelloReply)."""

    TYPE = MsgType.HELLO

    def body(self) -> bytes:
        return b""


@dataclass(frozen=True)
class HelloReply:
    """MCU identity: firmware version, matrix size, boot_id (new at every reset), scan rate."""

    fw_major: int
    fw_minor: int
    rows: int
    cols: int
    boot_id: int
    scan_hz: int
    TYPE = MsgType.HELLO_REPLY

    def body(self) -> bytes:
        return struct.pack("<BBBBHH", self.fw_major, self.fw_minor, self.rows, self.cols, self.boot_id,
                           self.scan_hz)


@dataclass(frozen=True)
class SnapshotRequest:
    """Host asks for the whole debounced occupancy."""

    TYPE = MsgType.SNAPSHOT_REQUEST

    def body(self) -> bytes:
        return b""


def bitmap_size(rows: int, cols: int) -> int:
    """Bytes of a SNAPSHOT occupancy bitmap: one bit per square, row-major, rounded up to whole bytes."""
    return (rows * cols + 7) // 8


@dataclass(frozen=True)
class Snapshot:
    """The MCU's debounced occupancy, including every change up to ``event_seq``."""

    event_seq: int
    rows: int
    cols: int
    squares: frozenset[Cell] = field(default=frozenset())
    TYPE = MsgType.SNAPSHOT

    def body(self) -> bytes:
        bitmap = bytearray(bitmap_size(self.rows, self.cols))
        for row, col in self.squares:
            i = row * self.cols + col
            bitmap[i // 8] |= 1 << (i % 8)
        return struct.pack("<IBB", self.event_seq, self.rows, self.cols) + bytes(bitmap)


@dataclass(frozen=True)
class Change:
    """One debounced change of one square on the MCU (event_seq 1 for the first change after boot)."""

    event_seq: int
    row: int
    col: int
    occupied: bool
    time_ms: int
    TYPE = MsgType.CHANGE

    def body(self) -> bytes:
        return struct.pack("<IBBBI", self.event_seq, self.row, self.col, int(self.occupied), self.time_ms)


@dataclass(frozen=True)
class LedCell:
    """One square's LED in an LED_FRAME: color and pattern (0 off, 1 on, 2 slow blink, 3 fast blink)."""

    r: int = 0
    g: int = 0
    b: int = 0
    pattern: int = 0


@dataclass(frozen=True)
class LedFrameMsg:
    """A whole LED frame, every square in row-major order; the MCU does the blinking."""

    rows: int
    cols: int
    brightness: int
    cells: tuple[LedCell, ...]
    TYPE = MsgType.LED_FRAME

    def body(self) -> bytes:
        out = bytearray(struct.pack("<BBB", self.rows, self.cols, self.brightness))
        for cell in self.cells:
            out += bytes((cell.r, cell.g, cell.b, cell.pattern))
        return bytes(out)


@dataclass(frozen=True)
class Heartbeat:
    """Host keep-alive (every 0.5 s); answered by HeartbeatReply."""

    TYPE = MsgType.HEARTBEAT

    def body(self) -> bytes:
        return b""


@dataclass(frozen=True)
class HeartbeatReply:
    """MCU uptime and the seq of its latest change (lets the host spot a lost trailing CHANGE)."""

    uptime_ms: int
    event_seq: int
    TYPE = MsgType.HEARTBEAT_REPLY

    def body(self) -> bytes:
        return struct.pack("<II", self.uptime_ms, self.event_seq)


@dataclass(frozen=True)
class Ack:
    """MCU acknowledges a frame (sent for LED_FRAME)."""

    acked_type: int
    acked_frame_seq: int
    TYPE = MsgType.ACK

    def body(self) -> bytes:
        return struct.pack("<BH", self.acked_type, self.acked_frame_seq)


@dataclass(frozen=True)
class Error:
    """MCU reports a frame it dropped: code (ErrorCode) and a detail byte."""

    code: int
    detail: int
    TYPE = MsgType.ERROR

    def body(self) -> bytes:
        return struct.pack("<BB", self.code, self.detail)


Message = (Hello | HelloReply | SnapshotRequest | Snapshot | Change | LedFrameMsg | Heartbeat
           | HeartbeatReply | Ack | Error)


def _need(body: bytes, size: int, name: str) -> None:
    if len(body) != size:
        raise ProtocolError(ErrorCode.BAD_LENGTH, f"{name} body is {len(body)} bytes, expected {size}")


def parse_body(mtype: int, body: bytes) -> Message:
    """Decode one message body of type ``mtype``; ProtocolError names the message and what was wrong."""
    if mtype == MsgType.HELLO:
        _need(body, 0, "HELLO")
        return Hello()
    if mtype == MsgType.HELLO_REPLY:
        _need(body, 8, "HELLO_REPLY")
        return HelloReply(*struct.unpack("<BBBBHH", body))
    if mtype == MsgType.SNAPSHOT_REQUEST:
        _need(body, 0, "SNAPSHOT_REQUEST")
        return SnapshotRequest()
    if mtype == MsgType.SNAPSHOT:
        if len(body) < 6:
            raise ProtocolError(ErrorCode.BAD_LENGTH, f"SNAPSHOT body is {len(body)} bytes, expected >= 6")
        seq, rows, cols = struct.unpack_from("<IBB", body)
        _need(body, 6 + bitmap_size(rows, cols), f"SNAPSHOT {rows}x{cols}")
        bitmap = body[6:]
        squares = frozenset((i // cols, i % cols) for i in range(rows * cols)
                            if bitmap[i // 8] >> (i % 8) & 1)
        return Snapshot(seq, rows, cols, squares)
    if mtype == MsgType.CHANGE:
        _need(body, 11, "CHANGE")
        seq, row, col, occ, ms = struct.unpack("<IBBBI", body)
        return Change(seq, row, col, bool(occ), ms)
    if mtype == MsgType.LED_FRAME:
        if len(body) < 3:
            raise ProtocolError(ErrorCode.BAD_LENGTH, f"LED_FRAME body is {len(body)} bytes, expected >= 3")
        rows, cols, brightness = body[0], body[1], body[2]
        _need(body, 3 + 4 * rows * cols, f"LED_FRAME {rows}x{cols}")
        cells = tuple(LedCell(*body[3 + 4 * i:7 + 4 * i]) for i in range(rows * cols))
        return LedFrameMsg(rows, cols, brightness, cells)
    if mtype == MsgType.HEARTBEAT:
        _need(body, 0, "HEARTBEAT")
        return Heartbeat()
    if mtype == MsgType.HEARTBEAT_REPLY:
        _need(body, 8, "HEARTBEAT_REPLY")
        return HeartbeatReply(*struct.unpack("<II", body))
    if mtype == MsgType.ACK:
        _need(body, 3, "ACK")
        return Ack(*struct.unpack("<BH", body))
    if mtype == MsgType.ERROR:
        _need(body, 2, "ERROR")
        return Error(*struct.unpack("<BB", body))
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type 0x{mtype:02X}")


def payload(msg: Message, frame_seq: int) -> bytes:
    """The un-stuffed payload: version, type, frame_seq, body, CRC."""
    head = struct.pack("<BBH", VERSION, msg.TYPE, frame_seq & 0xFFFF) + msg.body()
    if len(head) + 2 > MAX_PAYLOAD:
        raise ProtocolError(ErrorCode.BAD_SIZE, f"{msg.TYPE.name} payload of {len(head) + 2} bytes exceeds "
                                                f"{MAX_PAYLOAD}")
    return head + struct.pack("<H", crc16_ccitt_false(head))


def encode(msg: Message, frame_seq: int) -> bytes:
    """A complete frame on the wire: COBS(payload) + 0x00."""
    return cobs_encode(payload(msg, frame_seq)) + b"\x00"


def decode_payload(data: bytes) -> tuple[int, Message]:
    """Check and decode one un-stuffed payload into (frame_seq, message)."""
    if len(data) < MIN_PAYLOAD:
        raise ProtocolError(ErrorCode.BAD_LENGTH, f"frame of {len(data)} bytes is shorter than {MIN_PAYLOAD}")
    if len(data) > MAX_PAYLOAD:
        raise ProtocolError(ErrorCode.BAD_SIZE, f"frame of {len(data)} bytes exceeds {MAX_PAYLOAD}")
    want = crc16_ccitt_false(data[:-2])
    got = data[-2] | data[-1] << 8
    if want != got:
        raise ProtocolError(ErrorCode.BAD_CRC, f"CRC 0x{got:04X} != computed 0x{want:04X}")
    if data[0] != VERSION:
        raise ProtocolError(ErrorCode.BAD_VERSION, f"version {data[0]} is not {VERSION}")
    mtype = data[1]
    frame_seq = data[2] | data[3] << 8
    return frame_seq, parse_body(mtype, data[4:-2])


class FrameReader:
    """Splits a byte stream at 0x00 and decodes frames, counting (never raising on) bad ones."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.errors: dict[ErrorCode, int] = dict.fromkeys(ErrorCode, 0)
        self.frames = 0
        self.last_error: ProtocolError | None = None

    def feed(self, data: bytes) -> list[tuple[int, Message]]:
        """Add bytes; return every complete good frame as (frame_seq, message)."""
        out: list[tuple[int, Message]] = []
        self._buf += data
        while True:
            end = self._buf.find(0)
            if end < 0:
                if len(self._buf) > 2 * MAX_PAYLOAD:     # runaway garbage without delimiters
                    self._buf.clear()
                    self.errors[ErrorCode.BAD_SIZE] += 1
                return out
            raw = bytes(self._buf[:end])
            del self._buf[:end + 1]
            if not raw:
                continue
            try:
                out.append(decode_payload(cobs_decode(raw)))
                self.frames += 1
            except ProtocolError as exc:
                self.errors[exc.code] += 1
                self.last_error = exc

    def reset(self) -> None:
        """Forget a partial frame (after reconnecting)."""
        self._buf.clear()

    @property
    def dropped(self) -> int:
        return sum(self.errors.values())

    def __repr__(self) -> str:
        return f"FrameReader(frames={self.frames}, dropped={self.dropped})"
