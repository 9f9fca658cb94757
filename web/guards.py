"""ASGI guards in front of the panel's routes: only this machine's Host names are served (DNS rebinding),
every response carries the security headers, and request bodies are bounded before a byte of them is read."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import WebError

CLOSE = {"Connection": "close"}


class BodyError(WebError, ValueError):
    """A request body refused: its HTTP status and what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def host_literal(host_header: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address a Host header names (``192.168.1.5:8080``, ``[::1]:8080``), None for a name."""
    host = host_header.strip()
    if host.startswith("["):
        host = host[1:host.find("]")] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


class HostGuard:
    """Serve a request only when its Host is this machine's: a loopback address, the address the client
    connected to, or one of ``names`` (loopback names, the machine's names, ``allowed_hosts``). Anything else
    (a rebound attacker's domain) gets 400 from Starlette's TrustedHostMiddleware and reaches no route."""

    def __init__(self, app: ASGIApp, names: Iterable[str]) -> None:
        self.app = app
        self.names = tuple(sorted({name.lower() for name in names}))
        self.trusted = TrustedHostMiddleware(app, allowed_hosts=list(self.names), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self._our_address(scope):
            await self.app(scope, receive, send)
        else:
            await self.trusted(scope, receive, send)

    @staticmethod
    def _our_address(scope: Scope) -> bool:
        address = host_literal(Headers(scope=scope).get("host", ""))
        if address is None:
            return False
        if address.is_loopback:
            return True
        server = scope.get("server")
        if not server:
            return False
        try:
            local = ipaddress.ip_address(server[0])
        except ValueError:
            return False
        mapped = getattr(local, "ipv4_mapped", None)
        return address in (local, mapped)

    def __repr__(self) -> str:
        return f"HostGuard(names={list(self.names)})"


class SecurityHeaders:
    """Add to every HTTP response: no framing by other sites, no MIME sniffing, no referrer, and a content
    security policy that lets the page load only its own scripts, styles and websocket."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in security_headers(host).items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def security_headers(host: str) -> dict[str, str]:
    """The headers :class:`SecurityHeaders` adds (``host`` is the validated Host, for the websocket's URL)."""
    ws = f" ws://{host} wss://{host}" if host and all(c not in host for c in " ;,'\"") else ""
    policy = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
              f"connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'")
    return {"X-Frame-Options": "DENY", "Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "Cross-Origin-Opener-Policy": "same-origin",
            "Cross-Origin-Resource-Policy": "same-origin"}


class BodyLimit:
    """Refuse with 413, and close the connection, any request whose Content-Length is over ``max_body``:
    nothing of it is read, whatever route it is for."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                declared_length(Headers(scope=scope), self.max_body)
            except BodyError as exc:
                response = PlainTextResponse(f"{exc}\n", status_code=exc.status, headers=CLOSE)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def declared_length(headers: Headers, limit: int) -> int | None:
    """The body length a request declares (None when chunked or absent); BodyError when over ``limit``."""
    value = headers.get("content-length")
    if value is None:
        return None
    if not value.isdigit():
        raise BodyError(400, "Content-Length must be a number")
    length = int(value)
    if length > limit:
        raise BodyError(413, f"request body larger than {limit} bytes")
    return length


async def read_body(request: Request, limit: int, timeout: float) -> bytes:
    """The request's body, read only up to ``limit`` bytes (a chunked body is cut off there) and within
    ``timeout`` seconds; BodyError (413 or 408) otherwise."""
    declared_length(request.headers, limit)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise BodyError(413, f"request body larger than {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise BodyError(408, f"request body not received within {timeout:g} s") from None
    return b"".join(chunks)


def refusal(exc: BodyError) -> JSONResponse:
    """The JSON response for a refused body; the connection is closed so that the rest is never read."""
    return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=CLOSE)
