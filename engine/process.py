"""An engine in a child process of its own process group, read line by line against deadlines.

Nothing the engine does can stall its reader: lines are capped (longer ones are skipped and counted),
decoded with replacement, and queued in a bounded queue in which `info` lines coalesce (only the newest
matters). The whole group (a wrapper script and its helpers too) is killed and the child reaped on every
path; the last lines of its stderr are kept for the failure message.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import BinaryIO

from engine.errors import EngineError
from readers import shown

STDERR_LINES = 20
"""How many of the engine's last stderr lines a failure message quotes."""
QUEUE_LINES = 256
"""Lines waiting to be read; the reader (and so the engine's output pipe) waits when this many are queued."""
POLL = 0.05
"""Longest wait between two checks that the child is still running (and that nobody closed us)."""
EXIT_DRAIN = 0.3
"""After the child exits, how long its helpers may keep the output open before we stop waiting for lines."""


class ExternalEngineError(EngineError, ValueError):
    """An external engine failed: it died, timed out, broke the protocol or sent an illegal move."""


class EngineTimeout(ExternalEngineError):
    """No answer before the deadline."""


class EngineGone(ExternalEngineError):
    """The engine's output ended (it exited or closed it), or the process was closed by us."""


class LineQueue:
    """A bounded FIFO of lines; a line marked `coalesce` replaces the one such line still waiting."""

    def __init__(self, capacity: int = QUEUE_LINES) -> None:
        self.capacity = capacity
        self._items: deque[list[str]] = deque()
        self._cond = threading.Condition()
        self._coalescing: list[str] | None = None
        self._ended = False
        self._closed = False

    def __repr__(self) -> str:
        return f"LineQueue({len(self._items)}/{self.capacity}, ended={self._ended}, closed={self._closed})"

    def __len__(self) -> int:
        return len(self._items)

    def put(self, line: str, coalesce: bool = False) -> bool:
        """Queue `line`, waiting while the queue is full; False once the queue is closed (stop reading)."""
        with self._cond:
            if coalesce and self._coalescing is not None:
                self._coalescing[0] = line
                return not self._closed
            self._cond.wait_for(lambda: len(self._items) < self.capacity or self._closed)
            if self._closed:
                return False
            cell = [line]
            self._items.append(cell)
            if coalesce:
                self._coalescing = cell
            self._cond.notify_all()
            return True

    def end(self) -> None:
        """The writer has no more lines."""
        with self._cond:
            self._ended = True
            self._cond.notify_all()

    def close(self) -> None:
        """Wake every waiter: readers get EngineGone, the writer stops."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def get(self, timeout: float) -> str | None:
        """The next line; None once the writer ended or the queue closed; EngineTimeout after `timeout`."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._items or self._ended or self._closed, max(0.0, timeout)):
                raise EngineTimeout("no line")
            if self._closed or not self._items:
                return None
            cell = self._items.popleft()
            if cell is self._coalescing:
                self._coalescing = None
            self._cond.notify_all()
            return cell[0]

    def clear(self) -> int:
        """Drop the waiting lines (stale answers); how many there were."""
        with self._cond:
            count = len(self._items)
            self._items.clear()
            self._coalescing = None
            self._cond.notify_all()
            return count


def iter_capped_lines(stream: BinaryIO, cap: int) -> Iterator[bytes | None]:
    """Yield each line (without its newline) of at most `cap` bytes; None for each longer line, skipped.

    `readline(cap + 1)` never holds more than `cap + 1` bytes, so a 200 MB line costs time, not memory.
    """
    while True:
        line = stream.readline(cap + 1)
        if not line:
            return
        if len(line) > cap and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(cap + 1)
            yield None
            continue
        yield line.rstrip(b"\r\n")


class EngineProcess:
    """`command` running in a new session (its own process group); lines from its stdout via `receive`."""

    def __init__(self, command: Sequence[str], cap: int, coalesce: str = "info") -> None:
        self.command = list(command)
        self.cap = cap
        self.coalesce = coalesce
        self.skipped = 0
        self.lines = LineQueue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._closed = False
        self._write_lock = threading.Lock()
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except (OSError, ValueError) as exc:
            raise ExternalEngineError(getattr(exc, "strerror", None) or str(exc)) from None
        assert self.process.stdin is not None and self.process.stdout is not None
        os.set_blocking(self.process.stdin.fileno(), False)
        self._reader = threading.Thread(target=self._read, daemon=True, name="engine-stdout")
        self._errors = threading.Thread(target=self._read_stderr, daemon=True, name="engine-stderr")
        self._reader.start()
        self._errors.start()

    def __repr__(self) -> str:
        return f"EngineProcess({self.command[0]!r}, pid={self.pid}, code={self.process.poll()})"

    @property
    def lines_closed(self) -> bool:
        """Whether `kill` (or `close`) ended this process on our side."""
        return self._closed

    @property
    def pid(self) -> int:
        """The child's pid, which is also its process group id."""
        return self.process.pid

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            for raw in iter_capped_lines(stream, self.cap):  # type: ignore[arg-type]
                if raw is None:
                    self.skipped += 1
                    continue
                line = raw.decode("utf-8", "replace").strip()
                if line and not self.lines.put(line, coalesce=self._coalesces(line)):
                    break
        except (OSError, ValueError):
            pass
        finally:
            self.lines.end()
            with contextlib.suppress(OSError):
                stream.close()

    def _coalesces(self, line: str) -> bool:
        word = self.coalesce
        return line.startswith(word) and (len(line) == len(word) or line[len(word)].isspace())

    def _read_stderr(self) -> None:
        """Keep the start (300 characters) of each of the last STDERR_LINES lines."""
        stream = self.process.stderr
        assert stream is not None
        starts_line = True
        try:
            for raw in iter(lambda: stream.readline(4096), b""):
                text = raw.decode("utf-8", "replace").rstrip()
                if starts_line and text:   # quoted in failure messages: printable, and short
                    self._stderr.append(shown(text, 300))
                starts_line = raw.endswith(b"\n")
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def send(self, line: str, deadline: float, wait_turn: bool = True) -> None:
        """Write one line before `deadline` (time.monotonic); EngineGone if it cannot be written.

        Without `wait_turn`, give up at once (EngineGone) while another thread is writing.
        """
        data = (line + "\n").encode("utf-8", "replace")
        if not self._write_lock.acquire(blocking=wait_turn):
            raise EngineGone("busy writing")
        try:
            stdin = self.process.stdin
            if self._closed or stdin is None or stdin.closed:
                raise EngineGone("closed")
            fd = stdin.fileno()
            while data:
                try:
                    written = os.write(fd, data)
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise EngineTimeout("did not read its input") from None
                    select.select([], [fd], [], min(left, POLL))
                    if self._closed:
                        raise EngineGone("closed") from None
                    continue
                except OSError as exc:
                    raise EngineGone(f"its input is closed ({exc.strerror})") from None
                data = data[written:]
        finally:
            self._write_lock.release()

    def receive(self, deadline: float) -> str:
        """The next line before `deadline`; EngineTimeout when it passes, EngineGone when output ends."""
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise EngineTimeout("deadline passed")
            try:
                line = self.lines.get(min(deadline - now, POLL))
            except EngineTimeout:
                if self.process.poll() is not None:
                    exited_at = exited_at or now
                    if now - exited_at >= EXIT_DRAIN:   # a helper still holds the output open
                        raise EngineGone("exited") from None
                continue
            if line is None:
                raise EngineGone("closed" if self._closed else "output ended")
            return line

    def exit_code(self, wait: float = 0.0) -> int | None:
        """The child's exit code (waiting up to `wait` seconds), None while it runs."""
        try:
            return self.process.wait(timeout=wait) if wait > 0 else self.process.poll()
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, wait: float = 0.5) -> list[str]:
        """The last lines the engine wrote to stderr (after giving a dead engine's last words `wait` s)."""
        if self.process.poll() is not None:
            self._errors.join(wait)
        return list(self._stderr)

    def kill(self) -> None:
        """Kill the whole process group, reap the child and wake every reader; safe to call again."""
        self._closed = True
        self.lines.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()   # a child that left its group
        self.process.wait()
        with self._write_lock, contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()

    def close(self, quit_line: str | None, grace: float) -> None:
        """Send `quit_line`, give the engine `grace` seconds to exit, then kill the group whatever it did."""
        if quit_line is not None and not self._closed and self.process.poll() is None:
            with contextlib.suppress(ExternalEngineError):
                self.send(quit_line, time.monotonic() + min(grace, 0.2), wait_turn=False)
                self.exit_code(wait=grace)
        self.kill()
