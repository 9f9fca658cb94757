"""DamExchange (DXP) messages: fixed-width, null-terminated ASCII records for 10x10 draughts over TCP.

Every record we encode is well formed whatever the fields hold (names and chat reduced to printable ASCII,
numbers clamped to their widths); `RecordReader` splits a byte stream into records in linear time and
refuses a record longer than MAX_MESSAGE; `DxpConnection.receive` waits for one record until a deadline.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass

from engine.errors import EngineError

NUL = b"\0"
MAX_MESSAGE = 512
"""Longest record accepted, in bytes (the longest DXP record, a GAMEREQ with a position, has 94)."""
RECV_BYTES = 4096

_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")


class DxpError(EngineError, ValueError):
    """A DXP record that does not follow the fixed layout (the message names the field).

    `kind` is the record's type letter ('R' for a GAMEREQ), so a follower can refuse a bad game request;
    `detail` says what is wrong without quoting the record (short enough for a chat record).
    """

    def __init__(self, message: str, kind: str = "", detail: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.detail = detail or message


class DxpRecordTooLong(DxpError):
    """More than MAX_MESSAGE bytes without a NUL: the peer is not speaking DXP (drop the connection)."""


def _text(value: str, width: int) -> str:
    """`value` as printable ASCII of at most `width` characters (others become '?')."""
    return _UNPRINTABLE.sub("?", value)[:width]


def _number(value: int, digits: int) -> str:
    """`value` clamped to what `digits` decimal digits hold, zero-padded."""
    return f"{min(max(int(value), 0), 10**digits - 1):0{digits}d}"


def _letter(value: str | None, allowed: str, default: str) -> str:
    return value if value is not None and len(value) == 1 and value in allowed else default


@dataclass(frozen=True)
class Chat:
    """C: free text."""

    text: str

    def encode(self) -> str:
        return "C" + _text(self.text, 126)


@dataclass(frozen=True)
class GameReq:
    """R: the initiator asks for a game; `follower_color` is W or Z; position A (start) or B + board."""

    name: str
    follower_color: str
    minutes: int = 0
    moves: int = 0
    side_to_move: str | None = None  # 'W' or 'Z' when a position follows
    position: str | None = None  # 50 letters e/w/z/W/Z

    def encode(self) -> str:
        color = _letter(self.follower_color, "WZ", "W")
        head = f"R01{_text(self.name, 32):<32}{color}{_number(self.minutes, 3)}{_number(self.moves, 3)}"
        if self.position is None:
            return head + "A"
        squares = self.position if len(self.position) == 50 and set(self.position) <= set("ewzWZ") else None
        if squares is None:
            raise DxpError(f"GAMEREQ position {self.position!r}: expected 50 letters e, w, z, W or Z", "R")
        return head + "B" + _letter(self.side_to_move, "WZ", "W") + squares


@dataclass(frozen=True)
class GameAcc:
    """A: the follower answers; code 0 accepts, 1 refuses color/position, 2 the time, 3 refuses."""

    name: str
    code: int

    def encode(self) -> str:
        return f"A{_text(self.name, 32):<32}{_number(self.code, 1)}"


@dataclass(frozen=True)
class MoveMsg:
    """M: a move by numeric squares with its captured squares; time is the seconds that move took (0-9999)."""

    time: int
    origin: int
    dest: int
    captures: tuple[int, ...] = ()

    def encode(self) -> str:
        caps = "".join(_number(c, 2) for c in self.captures[:99])
        return (f"M{_number(self.time, 4)}{_number(self.origin, 2)}{_number(self.dest, 2)}"
                f"{_number(len(self.captures), 2)}{caps}")


@dataclass(frozen=True)
class GameEnd:
    """E: reason 0 unknown, 1 I lose, 2 draw, 3 I win; stop 0 another game welcome, 1 no more games."""

    reason: int
    stop: int = 1

    def encode(self) -> str:
        return f"E{_number(self.reason, 1)}{_number(self.stop, 1)}"


@dataclass(frozen=True)
class BackReq:
    """B: take back to move number `move_number` with `side_to_move` ('W' or 'Z') then to play."""

    move_number: int
    side_to_move: str

    def encode(self) -> str:
        return f"B{_number(self.move_number, 3)}{_letter(self.side_to_move, 'WZ', 'W')}"


@dataclass(frozen=True)
class BackAcc:
    """K: answer to BACKREQ: 0 accepted, 1 not supported, 2 refused."""

    code: int

    def encode(self) -> str:
        return f"K{_number(self.code, 1)}"


DxpMessage = Chat | GameReq | GameAcc | MoveMsg | GameEnd | BackReq | BackAcc


RECORD_NAMES = {"C": "CHAT", "R": "GAMEREQ", "A": "GAMEACC", "M": "MOVE", "E": "GAMEEND", "B": "BACKREQ",
                "K": "BACKACC"}


def _bad(record: str, detail: str) -> DxpError:
    kind = record[:1]
    shown = repr(record if len(record) <= 100 else record[:97] + "...")
    return DxpError(f"DXP {RECORD_NAMES.get(kind, 'record')} {shown}: {detail}", kind, detail)


def _printable(text: str) -> str:
    """A name or chat as a peer sent it, as printable ASCII: a line break or an escape sequence in it would
    forge log lines and notes ('?' stands for each character that is not)."""
    return _UNPRINTABLE.sub("?", text)


def _int(text: str, field_name: str, record: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise _bad(record, f"field {field_name} {text!r} is not a number")
    return int(text)


def parse(record: str) -> DxpMessage:
    """Decode one record (without its NUL terminator); DxpError names what does not fit."""
    if not record:
        raise DxpError("empty DXP record")
    kind = record[0]
    if kind == "C":
        return Chat(_printable(record[1:]))
    if kind == "R":
        if len(record) < 43:
            raise _bad(record, f"{len(record)} characters, at least 43 expected")
        name, color = _printable(record[3:35].rstrip()), record[35]
        if color not in "WZ":
            raise _bad(record, f"follower color {color!r}, expected W or Z")
        minutes, moves = _int(record[36:39], "time", record), _int(record[39:42], "moves", record)
        if record[42] == "A":
            return GameReq(name, color, minutes, moves)
        if record[42] != "B" or len(record) < 94:
            raise _bad(record, "position indicator must be A, or B with 51 letters")
        if record[43] not in "WZ":
            raise _bad(record, f"side to move {record[43]!r}, expected W or Z")
        return GameReq(name, color, minutes, moves, record[43], record[44:94])
    if kind == "A":
        if len(record) < 34:
            raise _bad(record, "34 characters expected")
        return GameAcc(_printable(record[1:33].rstrip()), _int(record[33], "code", record))
    if kind == "M":
        if len(record) < 11:
            raise _bad(record, "at least 11 characters expected")
        count = _int(record[9:11], "number captured", record)
        if len(record) < 11 + 2 * count:
            raise _bad(record, f"{count} captured squares announced, fewer given")
        caps = tuple(_int(record[11 + 2 * i : 13 + 2 * i], "captured", record) for i in range(count))
        return MoveMsg(
            _int(record[1:5], "time", record),
            _int(record[5:7], "from", record),
            _int(record[7:9], "to", record),
            caps,
        )
    if kind == "E":
        if len(record) < 3:
            raise _bad(record, "3 characters expected")
        return GameEnd(_int(record[1], "reason", record), _int(record[2], "stop", record))
    if kind == "B":
        if len(record) < 5:
            raise _bad(record, "5 characters expected")
        if record[4] not in "WZ":
            raise _bad(record, f"side to move {record[4]!r}, expected W or Z")
        return BackReq(_int(record[1:4], "move number", record), record[4])
    if kind == "K":
        if len(record) < 2:
            raise _bad(record, "2 characters expected")
        return BackAcc(_int(record[1], "code", record))
    raise _bad(record, f"unknown type {kind!r} (expected C R A M E B K)")


class RecordReader:
    """Splits a byte stream into NUL-terminated records; each byte is looked at a bounded number of times."""

    def __init__(self, limit: int = MAX_MESSAGE) -> None:
        self.limit = limit
        self._partial = bytearray()
        self.records: deque[bytes] = deque()

    def __repr__(self) -> str:
        return f"RecordReader({len(self.records)} records, {len(self._partial)} bytes pending)"

    def feed(self, chunk: bytes) -> None:
        """Add received bytes; DxpRecordTooLong once a record passes the limit (the stream is useless)."""
        if NUL not in chunk:
            self._partial += chunk
        else:   # the pending part (at most the limit) is copied once, when its record ends
            parts = (bytes(self._partial) + chunk).split(NUL)
            self._partial = bytearray(parts.pop())
            if max(map(len, parts)) > self.limit:
                raise DxpRecordTooLong(f"DXP record longer than {self.limit} bytes")
            self.records.extend(parts)
        if len(self._partial) > self.limit:
            raise DxpRecordTooLong(f"DXP record longer than {self.limit} bytes (no NUL terminator)")


def decode(record: bytes) -> DxpMessage:
    """Parse one raw record: bytes outside ASCII become '?', a trailing CR/LF is ignored."""
    return parse(record.decode("ascii", "replace").replace("\ufffd", "?").strip("\r\n"))


class DxpConnection:
    """A TCP socket carrying NUL-terminated DXP records; close it (or use `with`) when done."""

    def __init__(self, sock: socket.socket, send_timeout: float = 10.0) -> None:
        self.sock = sock
        self.send_timeout = send_timeout
        self.reader = RecordReader()
        self._send_lock = threading.Lock()

    def __repr__(self) -> str:
        try:
            peer = self.sock.getpeername()
        except OSError:
            peer = "closed"
        return f"DxpConnection({peer})"

    def __enter__(self) -> DxpConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: DxpMessage) -> None:
        """Send one record with its NUL terminator (one thread at a time; TimeoutError if the peer does not
        take it within `send_timeout` seconds)."""
        with self._send_lock:
            self.sock.settimeout(self.send_timeout)
            self.sock.sendall(message.encode().encode("ascii", "replace") + NUL)

    def receive(self, deadline: float | None = None) -> DxpMessage:
        """The next record, waiting until `deadline` (time.monotonic; None: for ever).

        TimeoutError when it passes (however the bytes trickle in), ConnectionError when the peer has
        closed, DxpError for a malformed record (it is consumed), DxpRecordTooLong for an endless one.
        """
        while not self.reader.records:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("no DXP record before the deadline")
            self.sock.settimeout(left)
            chunk = self.sock.recv(RECV_BYTES)
            if not chunk:
                raise ConnectionError("DXP peer closed the connection")
            self.reader.feed(chunk)
        return decode(self.reader.records.popleft())

    def close(self) -> None:
        """Shut the socket down (waking a thread blocked in `receive`) and close it; idempotent."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()
