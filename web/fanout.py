"""The websocket clients' side of the controller's event stream: one subscription for all of them, every event
serialised once per language the clients read (its phrases rendered in it), at most one state broadcast per
tick, and for each client a bounded outbox in which states coalesce (only the newest waits) while moves,
messages and replies are kept in order - a client that falls further behind than the bound is told to reload
rather than grow the server's memory."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from controller.events import Event
from i18n import translator

from .messages import event_message, redact
from .seam import BoardSession

log = logging.getLogger(__name__)

TICK_SECONDS = 0.02
"""At most one state broadcast per tick (the controller's own tick)."""


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text sent to clients, with no server path in it. A lone surrogate (which no
    UTF-8 frame can carry, and would end the client's outbox) is sent escaped, as ``\\udXXX``."""
    text = redact(json.dumps(message, separators=(",", ":"), ensure_ascii=False))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = redact(json.dumps(message, separators=(",", ":")))
    return text


def encode_in(message: dict[str, Any], language: str) -> str:
    """A message as the JSON text sent to a client reading `language`: its phrases rendered in it."""
    return encode(message if language == "en" else translator(language).render_tree(message))  # type: ignore[arg-type]


TOO_SLOW = (1013, "too far behind: reload the page")


class Outbox:
    """What one client has yet to receive, at most ``cap`` items; a newer state replaces the one waiting.
    ``closing`` is the close code and reason to end with once what is queued is sent."""

    def __init__(self, cap: int, language: str = "en") -> None:
        self.cap = cap
        self.language = language
        """The language the client reads: every text it is sent is rendered in it."""
        self.items: deque[str] = deque()
        self._state: str | None = None
        self._ready = asyncio.Event()
        self.overflowed = False
        self.closing: tuple[int, str] | None = None
        self.high_water = 0

    def finish(self, code: int, reason: str) -> None:
        """Send what is queued, then close with ``code``; nothing more is queued."""
        if self.closing is None:
            self.closing = (code, reason)
        self._ready.set()

    def put(self, text: str, *, state: bool = False) -> None:
        """Queue ``text``; a state replaces the state still waiting. Past ``cap`` the outbox overflows: it is
        emptied and the client is closed with 1013 (the page reconnects and reloads the whole state)."""
        if self.closing is not None:
            return
        if state:
            if self._state is not None:
                with contextlib.suppress(ValueError):
                    self.items.remove(self._state)
            self._state = text
        self.items.append(text)
        self.high_water = max(self.high_water, len(self.items))
        if len(self.items) > self.cap:
            self.overflowed = True
            self.items.clear()
            self._state = None
            self.finish(*TOO_SLOW)
        self._ready.set()

    async def get(self) -> str | None:
        """The next text to send, in order; None when the client is to be closed (see ``closing``)."""
        while not self.items and self.closing is None:
            self._ready.clear()
            await self._ready.wait()
        if not self.items:
            return None
        text = self.items.popleft()
        if text is self._state:
            self._state = None
        return text

    def __len__(self) -> int:
        return len(self.items)

    def __repr__(self) -> str:
        return f"Outbox({len(self.items)}/{self.cap}, overflowed={self.overflowed}, closing={self.closing})"


class Fanout:
    """Fans the Session's events out to the clients' outboxes. Subscribed to the Session only while there are
    clients (an idle Session then computes no states for nobody)."""

    def __init__(self, session: BoardSession, outbox_cap: int, tick: float = TICK_SECONDS) -> None:
        self.session = session
        self.outbox_cap = outbox_cap
        self.tick = tick
        self.outboxes: set[Outbox] = set()
        self._task: asyncio.Task[None] | None = None
        self._pending_state: dict[str, Any] | None = None
        self._flush: asyncio.TimerHandle | None = None
        self._last_state_at = -tick
        self.states_sent = 0

    def join(self, language: str = "en") -> Outbox:
        """A new client's outbox, for a client reading `language` (the hub starts listening with the first
        one)."""
        outbox = Outbox(self.outbox_cap, language)
        self.outboxes.add(outbox)
        if self._task is None:
            queue = self.session.subscribe()
            self._task = asyncio.get_running_loop().create_task(self._run(queue), name="web-hub")
        return outbox

    def leave(self, outbox: Outbox) -> None:
        """The client is gone (the hub stops listening with the last one)."""
        self.outboxes.discard(outbox)
        if not self.outboxes and self._task is not None:
            self._task.cancel()
            self._task = None
            if self._flush is not None:
                self._flush.cancel()
                self._flush = None
            self._pending_state = None

    def send_to_all(self, message: dict[str, Any], *, state: bool = False) -> None:
        """Queue `message` for every client, serialised once for each language they read."""
        texts: dict[str, str] = {}
        for outbox in self.outboxes:
            if (text := texts.get(outbox.language)) is None:
                text = texts[outbox.language] = encode_in(message, outbox.language)
            outbox.put(text, state=state)

    async def _run(self, queue: asyncio.Queue[Event]) -> None:
        try:
            while True:
                event = await queue.get()
                try:
                    message = event_message(event)
                    encode(message)
                except Exception:
                    log.exception("cannot serialise event %r", event)
                    continue
                if message["type"] == "state":
                    self._state(message)
                else:
                    self.send_to_all(message)
        finally:
            self.session.unsubscribe(queue)

    def _state(self, message: dict[str, Any]) -> None:
        self._pending_state = message
        if self._flush is not None:
            return
        wait = self._last_state_at + self.tick - time.monotonic()
        if wait <= 0:
            self._send_state()
        else:
            self._flush = asyncio.get_running_loop().call_later(wait, self._send_state)

    def _send_state(self) -> None:
        self._flush = None
        message, self._pending_state = self._pending_state, None
        if message is not None:
            self._last_state_at = time.monotonic()
            self.states_sent += 1
            self.send_to_all(message, state=True)

    def __repr__(self) -> str:
        return f"Fanout(clients={len(self.outboxes)}, states_sent={self.states_sent})"


class TokenBucket:
    """``rate`` messages a second after a burst of ``burst``: :meth:`take` waits until one may pass, so a
    flooding client is slowed down at the socket (its further messages stay unread) instead of served."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.sleep = sleep
        self.tokens = float(burst)
        self._at = clock()
        self.waited = 0

    async def take(self) -> None:
        """Wait until a message may pass, and count it."""
        wait = self.try_take()
        if wait:
            await self.sleep(wait)
            self.tokens, self._at = 0.0, self.clock()   # the token that came meanwhile is this message's

    def try_take(self) -> float:
        """Take a message's token if there is one (0.0); else the seconds until there will be, taking none."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._at) * self.rate)
        self._at = now
        if self.tokens < 1:
            self.waited += 1
            return (1 - self.tokens) / self.rate
        self.tokens -= 1
        return 0.0

    def __repr__(self) -> str:
        return f"TokenBucket({self.rate:g}/s, burst {self.burst}, tokens={self.tokens:.1f})"


class AddressRates:
    """One TokenBucket per client address for HTTP commands (each request may come on a new connection),
    the ``size`` most recently seen addresses kept."""

    def __init__(self, rate: float, burst: int, size: int = 1024,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def wait_for(self, address: str) -> float:
        """0.0 when a command from ``address`` may pass now (and count it), else the seconds to wait."""
        bucket = self._buckets.pop(address, None) or TokenBucket(self.rate, self.burst, self.clock)
        self._buckets[address] = bucket
        if len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return bucket.try_take()

    def __repr__(self) -> str:
        return f"AddressRates({self.rate:g}/s, burst {self.burst}, addresses={len(self._buckets)})"
