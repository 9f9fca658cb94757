"""The connections uvicorn holds for the panel, kept within the descriptors there are.

uvicorn's own protocols with what they lack for a server left running for weeks: a cap on connections (a new
one pushes out the oldest that has not sent a request yet, so idle connections cannot lock clients out), a
time limit on reading a request head, websocket clients that stop reading dropped with ``transport.abort()``
(a close would wait for a buffer that never drains), invalid UTF-8 closed with 1007 in one log line, and
"socket.accept() out of system resource" logged once a second instead of with a traceback per attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Sized
from typing import Any, ClassVar

import h11
from starlette.requests import HTTPConnection
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import ThrottledLog, WebLimits

log = logging.getLogger(__name__)


def peer(transport: asyncio.BaseTransport | None) -> str:
    """The client's ``address:port`` for a log line."""
    address = transport.get_extra_info("peername") if transport is not None else None
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return "unknown client"


def peer_of(connection: HTTPConnection) -> str:
    """The client's ``address:port`` of a Starlette Request or WebSocket, for a log line."""
    client = connection.client
    return f"{client[0]}:{client[1]}" if client else "unknown client"


class ConnectionGuard:
    """Shared by the protocols of one server: the connection cap and the connections waiting for a request
    head, oldest first, each with the timer that closes it when the head is late."""

    def __init__(self, limits: WebLimits, cap: int, throttled: ThrottledLog) -> None:
        self.limits = limits
        self.cap = cap
        self.throttled = throttled
        self._waiting: dict[GuardedH11Protocol, asyncio.TimerHandle] = {}
        self.evicted = 0
        self.refused = 0
        self.timed_out = 0

    def admit(self, protocol: GuardedH11Protocol, connections: Sized) -> bool:
        """Whether a new connection may stay: under the cap, or after the oldest idle one is pushed out."""
        if len(connections) <= self.cap:
            return True
        if self._waiting:
            oldest = next(iter(self._waiting))
            self.forget(oldest)
            oldest.transport.abort()
            self.evicted += 1
            self.throttled.warning("evict", "%d connections (the cap): closed the oldest idle one, %s",
                                   self.cap, peer(oldest.transport))
            return True
        self.refused += 1
        self.throttled.warning("refuse", "%d connections (the cap), none idle: refused %s", self.cap,
                               peer(protocol.transport))
        return False

    def waiting(self, protocol: GuardedH11Protocol, loop: asyncio.AbstractEventLoop) -> None:
        """``protocol`` now waits for a request head: (re)start its timer, and make it the newest idle one."""
        self.forget(protocol)
        self._waiting[protocol] = loop.call_later(self.limits.header_timeout, self._late, protocol)

    def busy(self, protocol: GuardedH11Protocol) -> None:
        """A request head arrived (or the connection became a websocket)."""
        self.forget(protocol)

    def forget(self, protocol: GuardedH11Protocol) -> None:
        timer = self._waiting.pop(protocol, None)
        if timer is not None:
            timer.cancel()

    def _late(self, protocol: GuardedH11Protocol) -> None:
        self._waiting.pop(protocol, None)
        self.timed_out += 1
        protocol.transport.close()

    def __repr__(self) -> str:
        return (f"ConnectionGuard(cap={self.cap}, waiting={len(self._waiting)}, evicted={self.evicted}, "
                f"refused={self.refused}, timed_out={self.timed_out})")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol under a :class:`ConnectionGuard` (subclassed per server by
    :func:`protocol_classes`)."""

    guard: ClassVar[ConnectionGuard]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(self, self.connections):
            transport.abort()
            return
        self.guard.waiting(self, self.loop)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:   # a whole request head was read (or a protocol error)
            self.guard.busy(self)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self.guard.busy(self)
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.guard.waiting(self, self.loop)

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.forget(self)
        super().connection_lost(exc)


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol that drops a client which stops reading, and closes invalid UTF-8 with
    1007 in one log line (no traceback)."""

    limits: ClassVar[WebLimits]
    throttled: ClassVar[ThrottledLog]
    _stuck_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stuck_timer is None:
            self._stuck_timer = self.loop.call_later(self.limits.stuck_seconds, self.drop,
                                                     "stopped reading what is sent to it")

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_stuck()

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()   # closes, which waits for the buffer to drain: abort if it does not
        if self._stuck_timer is None and not self.disconnected:
            self._stuck_timer = self.loop.call_later(self.limits.stuck_seconds, self.drop,
                                                     "did not answer the keepalive ping")

    def drop(self, why: str) -> None:
        """Abort the connection now (nothing more is written or waited for) with one log line."""
        self._stuck_timer = None
        if not self.disconnected:
            self.throttled.warning("stuck", "dropped websocket client %s: it %s", peer(self.transport), why)
            self.transport.abort()

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text":
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                self.throttled.warning("utf8", "websocket client %s sent invalid UTF-8: closed (1007)",
                                       peer(self.transport))
                self.conn.fail(1007, "invalid UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body", False):
            # A handshake refused with an HTTP response (400 for a foreign Host, 503 when full) is complete:
            # without this uvicorn logs "ASGI callable returned without completing handshake" for each one.
            self.handshake_complete = True

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_stuck()
        super().connection_lost(exc)

    def _cancel_stuck(self) -> None:
        if self._stuck_timer is not None:
            self._stuck_timer.cancel()
            self._stuck_timer = None


def protocol_classes(guard: ConnectionGuard, limits: WebLimits,
                     throttled: ThrottledLog) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """The HTTP and websocket protocol classes for one server, bound to its guard and limits."""
    http = type("GuardedH11Protocol", (GuardedH11Protocol,), {"guard": guard})
    ws = type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,),
              {"limits": limits, "throttled": throttled})
    return http, ws


class AcceptErrors:
    """The loop's exception handler while the server runs: "socket.accept() out of system resource" (no
    descriptor left) becomes one line a second at most, without a traceback; anything else goes on to the
    handler that was there before."""

    MESSAGE = "socket.accept() out of system resource"

    def __init__(self, loop: asyncio.AbstractEventLoop, throttled: ThrottledLog) -> None:
        self.loop = loop
        self.throttled = throttled
        self.previous: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object] | None = None
        self.count = 0

    def install(self) -> None:
        self.previous = self.loop.get_exception_handler()
        self.loop.set_exception_handler(self)

    def uninstall(self) -> None:
        if self.loop.get_exception_handler() is self:
            self.loop.set_exception_handler(self.previous)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == self.MESSAGE:
            self.count += 1
            exc = context.get("exception")
            self.throttled.warning("accept", "cannot accept a connection: %s (new clients wait)",
                                   getattr(exc, "strerror", None) or exc)
            return
        if self.previous is not None:
            self.previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def __repr__(self) -> str:
        return f"AcceptErrors(count={self.count})"
