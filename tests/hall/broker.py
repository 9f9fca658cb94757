"""A real mosquitto for the hall's tests: started on a free loopback port with a generated configuration
(optionally the hall's documented ACL and a password file), killed, restarted and stopped by the test."""

from __future__ import annotations

import contextlib
import getpass
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """One broker process; ``users`` (name -> password) turn authentication and the hall's ACL on, ``extra``
    lines are added to its configuration (a small queue, say)."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "persistence true", f"persistence_location {folder}/",
                 "autosave_interval 1", f"log_dest file {folder}/mosquitto.log", "log_type all",
                 f"user {getpass.getuser()}"]   # started as root, mosquitto would become user mosquitto
        if users:
            passwd = folder / "hall.passwd"
            passwd.write_text("")
            for name, password in users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(passwd), name, password], check=True)
            lines += ["allow_anonymous false", f"password_file {passwd}",
                      f"acl_file {ROOT / 'hardware' / 'hall' / 'hall.acl'}"]
        else:
            lines.append("allow_anonymous true")
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join([*lines, *extra]) + "\n")

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:   # until it accepts connections (or has died)
            if self.process.poll() is not None:
                said = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"mosquitto exited: {said}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return
            time.sleep(0.02)
        raise RuntimeError("mosquitto did not start listening within 10 s")

    def kill(self) -> None:
        """SIGKILL: no goodbye, no last save."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None

    def __repr__(self) -> str:
        return f"Mosquitto(port={self.port}, running={self.process is not None})"
