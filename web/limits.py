"""The web server's limits in one place, the descriptor limit they are sized from, and log lines that a flood
of bad input cannot multiply (one line a second at most per kind, with the count of those left out)."""

from __future__ import annotations

import logging
import os
import resource
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)

WANTED_DESCRIPTORS = 8192
"""The soft descriptor limit raised to at start (never above the hard limit; the systemd unit sets both)."""
RESERVED_DESCRIPTORS = 64
"""Descriptors kept free of connections: the journal, PDN files, the engine's pipes, the serial port."""
MAX_CONNECTIONS = 4096


@dataclass(frozen=True)
class WebLimits:
    """What one client may cost the server. Times in seconds; ``max_connections`` None = sized from the
    descriptor limit at start (:func:`connection_cap`)."""

    max_connections: int | None = None
    header_timeout: float = 10.0
    """A connection must send a complete request head this soon after connecting or after its last reply."""
    body_timeout: float = 10.0
    keep_alive: float = 5.0
    max_header_bytes: int = 16 * 1024
    max_body: int = 64 * 1024
    max_message: int = 64 * 1024
    """The largest websocket message; a larger one closes the connection with 1009."""
    stuck_seconds: float = 10.0
    """A websocket client that has not taken what was sent to it for this long is dropped."""
    send_buffer: int = 128 * 1024
    """The kernel's send buffer of a websocket (bounds what a client that stops reading holds there)."""
    outbox_events: int = 256
    """Events (moves, messages, replies) waiting for one websocket client; more and it is told to reload."""
    command_rate: float = 20.0
    """Websocket messages a second, per connection, and HTTP commands a second, per client address (a board
    game needs a handful) ..."""
    command_burst: int = 40
    """... after a burst of this many."""
    wrong_tokens: int = 5
    """Wrong access tokens one connection may send before it is closed."""
    command_timeout: float = 10.0
    """A command not handled by the controller this soon is reported as failed."""

    def __post_init__(self) -> None:
        for name in ("header_timeout", "body_timeout", "keep_alive", "stuck_seconds", "command_rate",
                     "command_timeout"):
            if not getattr(self, name) > 0:
                raise ValueError(f"web limits: {name} must be positive, got {getattr(self, name)!r}")
        for name in ("max_header_bytes", "max_body", "max_message", "send_buffer", "outbox_events",
                     "command_burst", "wrong_tokens"):
            if not getattr(self, name) >= 1:
                raise ValueError(f"web limits: {name} must be at least 1, got {getattr(self, name)!r}")
        if self.max_connections is not None and self.max_connections < 2:
            raise ValueError(f"web limits: max_connections must be at least 2, got {self.max_connections}")


def raise_descriptor_limit(wanted: int = WANTED_DESCRIPTORS) -> int:
    """Raise the soft limit on open descriptors towards ``wanted`` (up to the hard limit); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the open-file limit from %d to %d: %s", soft, target, exc)
    return soft if soft != resource.RLIM_INFINITY else wanted


def open_descriptors() -> int:
    """How many descriptors this process has open now (Linux: /proc/self/fd; elsewhere a guess)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return RESERVED_DESCRIPTORS


def connection_cap(soft_limit: int) -> int:
    """How many connections fit in ``soft_limit`` descriptors beside those open now and the reserve."""
    return max(16, min(MAX_CONNECTIONS, soft_limit - open_descriptors() - RESERVED_DESCRIPTORS))


class ThrottledLog:
    """One log line a second at most per kind of trouble, naming how many were left out since the last."""

    def __init__(self, logger: logging.Logger, interval: float = 1.0) -> None:
        self.logger = logger
        self.interval = interval
        self._last: dict[str, float] = {}
        self._skipped: dict[str, int] = {}

    def warning(self, kind: str, message: str, *args: object) -> bool:
        """Log ``message % args`` unless a line of this ``kind`` went out under ``interval`` ago; whether it
        was logged."""
        now = time.monotonic()
        if now - self._last.get(kind, -self.interval) < self.interval:
            self._skipped[kind] = self._skipped.get(kind, 0) + 1
            return False
        self._last[kind] = now
        skipped = self._skipped.pop(kind, 0)
        suffix = f" ({skipped} more like it not logged)" if skipped else ""
        self.logger.warning(message + suffix, *args)
        return True

    def __repr__(self) -> str:
        return f"ThrottledLog({self.logger.name!r}, every {self.interval:g} s, kinds={sorted(self._last)})"
