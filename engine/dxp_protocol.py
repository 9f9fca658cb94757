"""DamExchange (DXP) messages: fixed-width, null-terminated ASCII records for 10x10 draughts over TCP."""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass

NUL = b"\0"
MAX_MESSAGE = 512


class DxpError(ValueError):
    """A DXP record that does not follow the fixed layout (the message names the field)."""


@dataclass(frozen=True)
class Chat:
    """C: free text."""

    text: str

    def encode(self) -> str:
        return "C" + self.text[:126]


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
        head = f"R01{self.name[:32]:<32}{self.follower_color}{self.minutes % 1000:03d}{self.moves % 1000:03d}"
        if self.position is None:
            return head + "A"
        return head + "B" + (self.side_to_move or "W") + self.position


@dataclass(frozen=True)
class GameAcc:
    """A: the follower answers; code 0 accepts, 1 refuses color/position, 2 the time, 3 refuses."""

    name: str
    code: int

    def encode(self) -> str:
        return f"A{self.name[:32]:<32}{self.code}"


@dataclass(frozen=True)
class MoveMsg:
    """M: a move by numeric squares with its captured squares; time is the seconds used so far (0-9999)."""

    time: int
    origin: int
    dest: int
    captures: tuple[int, ...] = ()

    def encode(self) -> str:
        caps = "".join(f"{c:02d}" for c in self.captures)
        return f"M{self.time % 10000:04d}{self.origin:02d}{self.dest:02d}{len(self.captures):02d}{caps}"


@dataclass(frozen=True)
class GameEnd:
    """E: reason 0 unknown, 1 I lose, 2 draw, 3 I win; stop 0 another game welcome, 1 no more games."""

    reason: int
    stop: int = 1

    def encode(self) -> str:
        return f"E{self.reason}{self.stop}"


@dataclass(frozen=True)
class BackReq:
    """B: take back to move number `move_number` with `side_to_move` ('W' or 'Z') then to play."""

    move_number: int
    side_to_move: str

    def encode(self) -> str:
        return f"B{self.move_number % 1000:03d}{self.side_to_move}"


@dataclass(frozen=True)
class BackAcc:
    """K: answer to BACKREQ: 0 accepted, 1 not supported, 2 refused."""

    code: int

    def encode(self) -> str:
        return f"K{self.code}"


DxpMessage = Chat | GameReq | GameAcc | MoveMsg | GameEnd | BackReq | BackAcc


def _int(text: str, field_name: str, record: str) -> int:
    if not text.isdigit():
        raise DxpError(f"DXP {record[:1]} record {record!r}: field {field_name} {text!r} is not a number")
    return int(text)


def parse(record: str) -> DxpMessage:
    """Decode one record (without its NUL terminator)."""
    if not record:
        raise DxpError("empty DXP record")
    kind = record[0]
    if kind == "C":
        return Chat(record[1:])
    if kind == "R":
        if len(record) < 43:
            raise DxpError(f"DXP GAMEREQ {record!r}: {len(record)} characters, at least 43 expected")
        name, color = record[3:35].rstrip(), record[35]
        if color not in "WZ":
            raise DxpError(f"DXP GAMEREQ {record!r}: follower color {color!r}, expected W or Z")
        minutes, moves = _int(record[36:39], "time", record), _int(record[39:42], "moves", record)
        if record[42] == "A":
            return GameReq(name, color, minutes, moves)
        if record[42] != "B" or len(record) < 94:
            raise DxpError(f"DXP GAMEREQ {record!r}: position indicator must be A, or B with 51 letters")
        return GameReq(name, color, minutes, moves, record[43], record[44:94])
    if kind == "A":
        if len(record) < 34:
            raise DxpError(f"DXP GAMEACC {record!r}: 34 characters expected")
        return GameAcc(record[1:33].rstrip(), _int(record[33], "code", record))
    if kind == "M":
        if len(record) < 11:
            raise DxpError(f"DXP MOVE {record!r}: at least 11 characters expected")
        count = _int(record[9:11], "number captured", record)
        if len(record) < 11 + 2 * count:
            raise DxpError(f"DXP MOVE {record!r}: {count} captured squares announced, fewer given")
        caps = tuple(_int(record[11 + 2 * i : 13 + 2 * i], "captured", record) for i in range(count))
        return MoveMsg(
            _int(record[1:5], "time", record),
            _int(record[5:7], "from", record),
            _int(record[7:9], "to", record),
            caps,
        )
    if kind == "E":
        if len(record) < 3:
            raise DxpError(f"DXP GAMEEND {record!r}: 3 characters expected")
        return GameEnd(_int(record[1], "reason", record), _int(record[2], "stop", record))
    if kind == "B":
        if len(record) < 5:
            raise DxpError(f"DXP BACKREQ {record!r}: 5 characters expected")
        return BackReq(_int(record[1:4], "move number", record), record[4])
    if kind == "K":
        if len(record) < 2:
            raise DxpError(f"DXP BACKACC {record!r}: 2 characters expected")
        return BackAcc(_int(record[1], "code", record))
    raise DxpError(f"DXP record {record!r}: unknown type {kind!r} (expected C R A M E B K)")


class DxpConnection:
    """A TCP socket carrying NUL-terminated DXP records; close it (or use `with`) when done."""

    def __init__(self, sock: socket.socket, timeout: float | None = None) -> None:
        self.sock = sock
        self.sock.settimeout(timeout)
        self._buffer = b""

    def __repr__(self) -> str:
        return f"DxpConnection({self.sock.getpeername() if self.sock.fileno() >= 0 else 'closed'})"

    def __enter__(self) -> DxpConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: DxpMessage) -> None:
        """Send one record with its NUL terminator."""
        self.sock.sendall(message.encode().encode("ascii", "replace") + NUL)

    def receive(self) -> DxpMessage:
        """Block until one full record arrives; ConnectionError when the peer has closed."""
        while NUL not in self._buffer:
            chunk = self.sock.recv(1024)
            if not chunk:
                raise ConnectionError("DXP peer closed the connection")
            self._buffer += chunk
            if len(self._buffer) > MAX_MESSAGE and NUL not in self._buffer:
                raise DxpError(f"DXP record longer than {MAX_MESSAGE} bytes without NUL terminator")
        record, _, self._buffer = self._buffer.partition(NUL)
        return parse(record.decode("ascii", "replace").strip("\r\n"))

    def close(self) -> None:
        """Close the socket (idempotent)."""
        with contextlib.suppress(OSError):
            self.sock.close()
