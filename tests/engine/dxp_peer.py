"""Raw DXP peers for the tests: a socket that sends and reads records, checking each one we are sent."""

from __future__ import annotations

import re
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.dxp_protocol import NUL, DxpMessage, GameAcc, MoveMsg, RecordReader, decode

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0   # seconds: the bound on anything these tests wait for

WELL_FORMED = re.compile(
    r"C[\x20-\x7e]{0,126}"
    r"|R01[\x20-\x7e]{32}[WZ]\d{6}(A|B[WZ][ewzWZ]{50})"
    r"|A[\x20-\x7e]{32}\d"
    r"|M\d{10}(\d\d)*"
    r"|E\d\d|B\d{3}[WZ]|K\d"
)
"""Every DXP record type's layout: what a peer may send."""


def game_request(follower: str = "W", position: str = "A", name: str = "test peer") -> str:
    """A GAMEREQ record: the follower plays `follower`; position "A" (start) or "B" + side + 50 letters."""
    return f"R01{name:<32}{follower}000000{position}"


class Peer:
    """One TCP connection to a DXP program, speaking raw records."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.sock = socket.create_connection((host, port), timeout=WAIT)
        self.reader = RecordReader()

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()

    def send(self, *records: str | bytes) -> None:
        for record in records:
            self.sock.sendall((record.encode() if isinstance(record, str) else record) + NUL)

    def receive(self) -> DxpMessage:
        """The next record, which must be well formed."""
        while not self.reader.records:
            chunk = self.sock.recv(4096)
            assert chunk, "the peer closed the connection"
            self.reader.feed(chunk)
        raw = self.reader.records.popleft().decode("ascii")
        assert WELL_FORMED.fullmatch(raw), f"malformed record sent to us: {raw!r}"
        return decode(raw.encode())

    def closed_by_peer(self) -> bool:
        """Wait (bounded) until the other side closes the connection; False if it is still open."""
        try:
            while self.sock.recv(4096):
                pass
        except (ConnectionResetError, TimeoutError):
            return False
        return True

    def reset(self) -> None:
        """Close with a TCP reset (as a crashed program's connection ends)."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


class FollowerProcess:
    """`dboard dxp --listen 0` in a subprocess; `stop()` ends it and returns what it logged."""

    def __init__(self, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "dxp", "--listen", "0", "--level", "1", "--time", "0.05",
             *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("DXP listening on 127.0.0.1:"), line
        self.port = int(line.rsplit(":", 1)[1])
        self.log: list[str] = []   # its stderr, read as it comes so a busy log never blocks it
        self._reader = threading.Thread(target=lambda: self.log.extend(self.proc.stderr), daemon=True)  # type: ignore[arg-type]
        self._reader.start()

    def __enter__(self) -> FollowerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def peer(self) -> Peer:
        return Peer(self.port)

    def assert_plays(self) -> None:
        """A normal peer still gets its game accepted and a first move from the follower."""
        with self.peer() as peer:
            peer.send(game_request("W"))
            answer = peer.receive()
            assert isinstance(answer, GameAcc) and answer.code == 0, answer
            assert isinstance(peer.receive(), MoveMsg)
            peer.send("E01")
            assert peer.receive().encode() == "E01"

    def stop(self) -> str:
        """Terminate it; its whole log (stderr)."""
        assert self.proc.poll() is None, "the follower died"
        self.proc.terminate()
        self.proc.wait(timeout=WAIT)
        self._reader.join(WAIT)
        return "".join(self.log)


def wait_closed(peer: Peer, seconds: float = WAIT) -> float:
    """Seconds until the other side closed `peer`'s connection (fails if it did not within `seconds`)."""
    started = time.monotonic()
    peer.sock.settimeout(seconds)
    assert peer.closed_by_peer(), "the connection was not closed"
    return time.monotonic() - started
