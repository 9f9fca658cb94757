"""A real panel in its own process for the attack tests and bench/web_attacks.py: a Session (person against
person on the simulated board, the start position set up) and the WebServer on a free loopback port.

    python tests/web/attack_server.py DATA_DIR [--token T] [--descriptors N] [--limits JSON]

Prints ``Open URL`` then serves until stdin closes. ``--descriptors`` sets the process's open-file limit
(soft and hard) before anything starts; ``--limits`` overrides fields of web.limits.WebLimits. SIGUSR1 takes
every free descriptor (as a leak elsewhere would), SIGUSR2 gives them back; each prints a line when done.
:class:`PanelProcess` starts it and watches its output and memory; ``raw_websocket`` is a client that never
reads.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from controller.config import Config
from controller.session import Session
from firmware_bridge.simulated import SimulatedDevice
from web.access import WebOptions
from web.server import WebServer


def address(url: str) -> tuple[str, int]:
    """The host and port of an ``http://host:port/...`` URL."""
    host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
    return host, int(port)


def ws_url(url: str) -> str:
    """The page's websocket URL for its ``http://`` URL (a ``?token=`` dropped)."""
    return url.split("?")[0].replace("http://", "ws://") + "ws"


def raw_websocket(url: str, rcvbuf: int | None = None) -> socket.socket:
    """A websocket handshake on a raw socket, for a client that then never reads (``rcvbuf``: its receive
    buffer, small to fill it soon)."""
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(address(url))
    host, port = address(url)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"websocket handshake refused: {head[:100]!r}")
    return sock


class Hog:
    """Holds every free descriptor while on (stands for a leak elsewhere in the process)."""

    def __init__(self) -> None:
        self.held: list[int] = []

    def take(self) -> None:
        while True:
            try:
                self.held.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
        print(f"hogging {len(self.held)} descriptors", flush=True)

    def release(self) -> None:
        for fd in self.held:
            os.close(fd)
        print(f"released {len(self.held)} descriptors", flush=True)
        self.held = []


async def serve(args: argparse.Namespace) -> None:
    data = Path(args.data_dir)
    config = Config(variant="international", human_color="both", opponent="person", data_dir=str(data),
                    settle_ms=0)
    board = SimulatedDevice(10, 10, debounce=0.0)
    options = WebOptions(listen="127.0.0.1", port=0, data_dir=data, token=args.token or None)
    extra = {}
    if args.limits:
        from web.limits import WebLimits

        extra["limits"] = WebLimits(**json.loads(args.limits))
    async with Session(config, board, board, journal_dir=data / "journal") as session:
        board.set_occupancy(session.controller.exp.base)
        await session.idle()
        server = WebServer(session, options=options, **extra)
        url = await server.start()
        hog = Hog()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, hog.take)
        loop.add_signal_handler(signal.SIGUSR2, hog.release)
        print(f"Open {url}", flush=True)
        await loop.run_in_executor(None, sys.stdin.read)
        hog.release()
        await server.stop()


class PanelProcess:
    """The panel of this script in a child process: its URL, its output lines as they come, its memory."""

    def __init__(self, data_dir: Path, *, token: str | None = None, descriptors: int | None = None,
                 limits: dict[str, Any] | None = None) -> None:
        self.argv = [sys.executable, str(Path(__file__).resolve()), str(data_dir)]
        if token:
            self.argv += ["--token", token]
        if descriptors:
            self.argv += ["--descriptors", str(descriptors)]
        if limits:
            self.argv += ["--limits", json.dumps(limits)]
        self.lines: dict[str, list[str]] = {"stdout": [], "stderr": []}
        self._changed = threading.Condition()
        self.process: subprocess.Popen[str] | None = None
        self.url = ""

    def __enter__(self) -> PanelProcess:
        self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        for name in ("stdout", "stderr"):
            threading.Thread(target=self._read, args=(name,), daemon=True).start()
        self.url = self.wait_line(r"Open (http://\S+)", 30).group(1)
        return self

    def _read(self, name: str) -> None:
        assert self.process is not None
        for line in getattr(self.process, name):
            with self._changed:
                self.lines[name].append(line.rstrip("\n"))
                self._changed.notify_all()

    def wait_line(self, pattern: str, timeout: float, stream: str = "stdout",
                  start: int = 0) -> re.Match[str]:
        """The first line of ``stream`` from index ``start`` on that matches ``pattern`` (waits for it)."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self.lines[stream][start:]:
                    if match := regex.search(line):
                        return match
                left = deadline - time.monotonic()
                if left <= 0 or (self.process is not None and self.process.poll() is not None):
                    raise AssertionError(f"no line matching {pattern!r} on {stream} within {timeout} s: "
                                         f"{self.lines[stream][-20:]} (stderr {self.lines['stderr'][-20:]})")
                self._changed.wait(min(left, 0.5))

    def memory_kb(self, field: str = "VmRSS") -> int:
        """A memory figure of the process from /proc (VmRSS now, VmHWM the peak), in kB."""
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise AssertionError(f"no {field} in /proc/{self.process.pid}/status")

    def cpu_seconds(self) -> float:
        """The CPU time the process has used so far (user and system, from /proc)."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir")
    parser.add_argument("--token")
    parser.add_argument("--descriptors", type=int)
    parser.add_argument("--limits")
    args = parser.parse_args()
    if args.descriptors:
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.descriptors, args.descriptors))
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("transitions").setLevel(logging.WARNING)
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
