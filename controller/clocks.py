"""Chess-style game clocks: a time control such as ``5+3`` (minutes + increment seconds) and two clocks.

Driven by the injected clock's readings (``now`` arguments), never by the wall clock, so tests are exact.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .errors import Refused

_TC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$", re.ASCII)   # \d is 0-9 only, not ५
COLORS = ("white", "black")


class TimeControlError(Refused):
    """A time control text that is not ``minutes`` or ``minutes+increment`` (names what was given)."""


@dataclass(frozen=True)
class TimeControl:
    """Base time per side (seconds) and the increment added after each of that side's moves (seconds)."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5+3"`` is 5 minutes each plus 3 seconds a move; ``"10"`` is 10 minutes, no increment."""
        m = _TC.match(text)
        if m is None:
            raise TimeControlError(f"time control {text!r}: expected minutes or minutes+increment, "
                                   f"e.g. '5+3'")
        base = float(m.group(1)) * 60
        increment = float(m.group(2) or 0)
        if base <= 0:
            raise TimeControlError(f"time control {text!r}: the base time must be positive")
        if base > 24 * 3600 or increment > 3600:
            raise TimeControlError(f"time control {text!r}: at most 1440 minutes and 3600 seconds increment")
        return cls(base, increment)

    def __str__(self) -> str:
        return f"{self.base / 60:g}+{self.increment:g}"


class GameClocks:
    """Both sides' remaining time; only the running side's clock goes down."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.remaining: dict[str, float] = dict.fromkeys(COLORS, control.base)
        self.running: str | None = None
        self._since = 0.0

    def start(self, color: str, now: float) -> None:
        """Run ``color``'s clock from ``now`` (stopping the other one without increment)."""
        self.stop(now)
        self.running = color
        self._since = now

    def stop(self, now: float) -> float:
        """Stop the running clock, charging it the time since it started; returns that time."""
        if self.running is None:
            return 0.0
        spent = max(0.0, now - self._since)
        self.remaining[self.running] = max(0.0, self.remaining[self.running] - spent)
        self.running = None
        return spent

    def press(self, now: float, mover: str | None = None) -> float:
        """``mover`` (default: the running side) completed a move: charge its running clock, add the
        increment, start the other side. A clock paused before (the computer chose) is not charged again."""
        mover = mover or self.running
        spent = self.stop(now)
        if mover is not None:
            self.remaining[mover] += self.control.increment
            self.start("black" if mover == "white" else "white", now)
        return spent

    def left(self, color: str, now: float) -> float:
        """Seconds ``color`` has left at ``now``."""
        if color == self.running:
            return max(0.0, self.remaining[color] - (now - self._since))
        return self.remaining[color]

    def flagged(self, now: float) -> str | None:
        """The side whose time ran out (its flag fell), if any."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def next_change(self, now: float) -> float | None:
        """When the running side's display (whole seconds) next changes, or its flag falls."""
        if self.running is None:
            return None
        left = self.left(self.running, now)
        frac = left - math.floor(left)
        return now + (frac if frac > 1e-6 else 1.0) + 1e-4

    def to_json(self, now: float) -> dict[str, Any]:
        """Whole seconds left per side (rounded up: 0 means the flag fell), the running side, the control."""
        return {**{c: math.ceil(self.left(c, now) - 1e-6) for c in COLORS}, "running": self.running,
                "time_control": str(self.control)}

    def __repr__(self) -> str:
        return (f"GameClocks({self.control}, white={self.remaining['white']:.1f}, "
                f"black={self.remaining['black']:.1f}, running={self.running})")
