"""Run the web app with uvicorn inside the controller's asyncio loop and announce the URL to open.

From ``dboard play``::

    async with Session(config, board, board, journal_dir) as session:
        server = await web.server.start_server(session, config)   # prints "Open http://127.0.0.1:8080/"
                                                               # (and the network's URLs on 0.0.0.0)
        ...                                                        # the REPL, or `await server.wait()`
        await server.stop()

or ``await web.server.serve(session, config)`` to serve until cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import socket
from collections.abc import Callable
from types import TracebackType
from typing import Unpack

import uvicorn

from controller.config import Config

from .access import Overrides, WebOptions
from .app import create_app
from .connections import AcceptErrors, ConnectionGuard, protocol_classes
from .limits import Limits, ThrottledLog, connection_cap, raise_descriptor_limit
from .seam import BoardSession

log = logging.getLogger(__name__)

BACKLOG = 128


class WebServer:
    """The web front end of one Session, listening on ``options.listen:options.port`` (port 0 = any free
    port; the chosen one is in :attr:`port` after :meth:`start`). Use ``async with`` or start()/stop().

    At the start the soft descriptor limit is raised and the connection cap sized from it (``limits``
    override the defaults, e.g. in tests).
    """

    def __init__(self, session: BoardSession, config: Config | None = None, *,
                 options: WebOptions | None = None, limits: Limits | None = None,
                 **overrides: Unpack[Overrides]) -> None:
        self.options = options or WebOptions.from_config(config, **overrides)
        limits = limits or Limits()
        if limits.max_connections is None:
            limits = dataclasses.replace(limits, max_connections=connection_cap(raise_descriptor_limit()))
        self.limits = limits
        self.app = create_app(session, options=self.options, limits=limits)
        self.throttled = ThrottledLog(log)
        assert limits.max_connections is not None
        self.guard = ConnectionGuard(limits, limits.max_connections, self.throttled)
        self._accept_errors: AcceptErrors | None = None
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None
        self.port: int = self.options.port

    @property
    def url(self) -> str:
        """The URL to open (with ``?token=`` when control needs the token)."""
        return self.options.url(self.port)

    async def start(self) -> str:
        """Bind the socket, start serving in the background and return the URL."""
        family = socket.AF_INET6 if ":" in self.options.listen else socket.AF_INET
        # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and without it
        # every keep-alive response waited ~40 ms for the delayed ACK of its head (Nagle)
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.options.listen, self.options.port))
        except OSError as exc:
            sock.close()
            where = f"{self.options.listen}:{self.options.port}"
            raise OSError(f"cannot listen on {where}: {exc.strerror}") from exc
        sock.listen(BACKLOG)
        sock.setblocking(False)
        self._socket = sock
        self.port = sock.getsockname()[1]
        limits = self.limits
        assert limits.max_connections is not None
        http, ws = protocol_classes(self.guard, limits, self.throttled)
        # No per-message deflate: it compressed each state once per client, ~50 KB of zlib state per client
        # (101 -> 54 KB a client with 1,000 of them) and slower fan-out. log_config=None: uvicorn's lines go
        # through the application's logging (one format, one place; the tests can read them).
        config = uvicorn.Config(self.app, log_config=None, log_level="warning", access_log=False,
                                lifespan="off", http=http, ws=ws, ws_max_size=limits.max_message,
                                ws_per_message_deflate=False, ws_ping_interval=20, ws_ping_timeout=20,
                                timeout_graceful_shutdown=1, backlog=BACKLOG,
                                limit_concurrency=limits.max_connections + 1,
                                timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
                                h11_max_incomplete_event_size=limits.max_header_bytes)
        self._accept_errors = AcceptErrors(asyncio.get_running_loop(), self.throttled)
        self._accept_errors.install()
        self._server = uvicorn.Server(config)
        # The CLI owns SIGINT and SIGTERM: uvicorn would otherwise replace their handlers while it serves
        # (signal.signal in the main thread) and re-raise them only once it has shut down.
        self._server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="web-server")
        for _ in range(500):
            if self._server.started or self._task.done():
                break
            await asyncio.sleep(0.01)
        if self._task.done():
            self._task.result()
        if not self._server.started:
            raise OSError(f"web server on port {self.port} did not start within 5 s")
        log.info("web server listening on %s:%d (at most %d connections)", self.options.listen, self.port,
                 limits.max_connections)
        return self.url

    async def stop(self) -> None:
        """Stop serving and close the socket. Safe to call twice."""
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, timeout=5)
        if self._socket is not None:
            self._socket.close()
        if self._accept_errors is not None:
            self._accept_errors.uninstall()
        self._server = self._task = self._socket = self._accept_errors = None

    async def wait(self) -> None:
        """Wait until the server stops (or the caller is cancelled)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def __aenter__(self) -> WebServer:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.stop()

    def __repr__(self) -> str:
        running = self._server is not None and self._server.started
        return f"WebServer({self.options!r}, port={self.port}, running={running})"


def _print_now(text: str) -> None:
    print(text, flush=True)


async def start_server(session: BoardSession, config: Config | None = None, *,
                       announce: Callable[[str], None] | None = _print_now,
                       **overrides: Unpack[Overrides]) -> WebServer:
    """Start serving the page for ``session`` in the background and announce "Open URL" (with the token
    when one is needed); returns the running WebServer (``await server.stop()`` to end it).

    ``overrides`` (listen, port, token, public_view, data_dir) win over ``config``'s attributes.
    """
    server = WebServer(session, config, **overrides)
    url = await server.start()
    if announce is not None:
        announce(f"Open {url}")
        for remote in server.options.network_urls(server.port):   # listening on every interface
            announce(f"  from a phone or another machine on the network: {remote}")
    if server.options.token_required:
        log.warning("listening on %s: control actions need the token in the URL above%s",
                    server.options.listen, "; watching is open" if server.options.public_view else "")
    return server


async def serve(session: BoardSession, config: Config | None = None, *,
                announce: Callable[[str], None] | None = _print_now, **overrides: Unpack[Overrides]) -> None:
    """Serve the page for ``session`` until cancelled (see :func:`start_server`)."""
    server = await start_server(session, config, announce=announce, **overrides)
    try:
        await server.wait()
    finally:
        await server.stop()
