"""Drives hardware/firmware/build/board_sim: the real AVR firmware on simavr with a simulated board.

The harness prints ``pty PATH`` (the MCU's USART0) and then answers one line per command on stdin.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parents[2]
FIRMWARE_DIR = REPO / "hardware" / "firmware"
BUILD = FIRMWARE_DIR / "build"
HARNESS = BUILD / "board_sim"


class HarnessError(ValueError):
    """The harness answered a command with an error, died, or did not answer in time."""


def build_firmware(timeout: float = 300) -> None:
    """Run the firmware Makefile (incremental: near-instant when everything is up to date)."""
    done = subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), "all"], capture_output=True, text=True,
                          timeout=timeout, check=False)
    if done.returncode != 0:
        raise HarnessError(f"make -C {FIRMWARE_DIR} all failed:\n{done.stdout}\n{done.stderr}")


@dataclass(frozen=True)
class LedCapture:
    """The last WS2812 frame the harness decoded: GRB bytes in chain order, and how many frames so far."""

    frames: int
    grb: bytes

    def rgb(self, index: int) -> tuple[int, int, int]:
        """Rgb of the LED at chain position ``index`` as (r, g, b)."""
        g, r, b = self.grb[3 * index:3 * index + 3]
        return r, g, b

    @property
    def leds(self) -> int:
        return len(self.grb) // 3


def serpentine_index(row: int, col: int, cols: int) -> int:
    """Chain position of a square: row 0 left to right, row 1 right to left, ...
    (hardware/wiring.md#leds-and-power-both-sizes)."""
    return row * cols + (cols - 1 - col if row % 2 else col)


class BoardSim:
    """A running board_sim process; use as a context manager so the process never outlives the test."""

    def __init__(self, elf: Path | None = None, *, rows: int = 10, cols: int = 10, speed: float = 1.0,
                 answer_timeout: float = 10.0) -> None:
        self.elf = elf or BUILD / "firmware.elf"
        self.rows, self.cols, self.speed = rows, cols, speed
        self.answer_timeout = answer_timeout
        self.port = ""
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()

    def start(self) -> BoardSim:
        if not HARNESS.exists() or not self.elf.exists():
            build_firmware()
        self._proc = subprocess.Popen(
            [str(HARNESS), "--rows", str(self.rows), "--cols", str(self.cols), "--speed", str(self.speed),
             str(self.elf)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        threading.Thread(target=self._pump, name="board_sim stdout", daemon=True).start()
        first = self._next_line(self.answer_timeout)
        if not first.startswith("pty "):
            raise HarnessError(f"board_sim started with {first!r}, expected 'pty PATH'")
        self.port = first.split(" ", 1)[1]
        return self

    def _pump(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _next_line(self, timeout: float) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise HarnessError(f"board_sim gave no answer within {timeout} s") from None
        if line is None:
            raise HarnessError("board_sim exited")
        if line.startswith("event "):
            raise HarnessError(f"board_sim reported {line!r}")
        return line

    def command(self, line: str) -> str:
        """Send one command line and return the harness's one-line answer."""
        with self._lock:
            if self._proc is None or self._proc.stdin is None:
                raise HarnessError("board_sim is not running")
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
            answer = self._next_line(self.answer_timeout)
        if answer.startswith("error"):
            raise HarnessError(f"board_sim refused {line!r}: {answer}")
        return answer

    def place(self, row: int, col: int) -> None:
        """Close the reed switch of (row, col), as a piece set down on it does."""
        self.command(f"place {row} {col}")

    def lift(self, row: int, col: int) -> None:
        """Open the reed switch of (row, col)."""
        self.command(f"lift {row} {col}")

    def reset(self) -> None:
        """Reset the MCU (the matrix and EEPROM are kept)."""
        self.command("reset")

    def leds(self) -> LedCapture:
        _, frames, _count, data = self.command("leds?").split(" ")
        return LedCapture(int(frames), b"" if data == "-" else bytes.fromhex(data))

    def stats(self) -> dict[str, float]:
        answer = self.command("stats")
        return {key: float(value) for key, value in (item.split("=") for item in answer.split()[1:])}

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.write("quit\n")
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait(timeout=5)

    def __enter__(self) -> BoardSim:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"BoardSim(elf={self.elf.name!r}, {self.rows}x{self.cols}, port={self.port!r})"
