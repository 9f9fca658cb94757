"""Clocks the backends read time from: the real monotonic clock, or a manual one tests move by hand."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Anything with ``now() -> float`` in seconds (monotonic)."""

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock: ``time.monotonic()``."""

    def now(self) -> float:
        return time.monotonic()

    def __repr__(self) -> str:
        return "MonotonicClock()"


class ManualClock:
    """A clock that only moves when told to, so simulated debouncing is deterministic in tests."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds`` (never backwards) and return the new time."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go backwards (advance by {seconds})")
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, when: float) -> None:
        """Jump forward to ``when``."""
        with self._lock:
            if when < self._now:
                raise ValueError(f"a clock cannot go backwards (from {self._now} to {when})")
            self._now = when

    def __repr__(self) -> str:
        return f"ManualClock(now={self._now:.6f})"
