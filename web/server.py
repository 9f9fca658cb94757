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
import dataclasses
import logging
from collections.abc import Callable
from typing import Any, Unpack

from controller.config import Config

from .access import Overrides, WebOptions
from .app import create_app
from .connections import AcceptErrors, ConnectionGuard, protocol_classes
from .limits import ThrottledLog, WebLimits, connection_cap, raise_descriptor_limit
from .seam import BoardSession
from .serve import BACKLOG, BackgroundServer

log = logging.getLogger(__name__)


class WebServer(BackgroundServer):
    """The web front end of one Session, listening on ``options.listen:options.port`` (port 0 = any free
    port; the chosen one is in :attr:`port` after :meth:`start`). Use ``async with`` or start()/stop().

    At the start the soft descriptor limit is raised and the connection cap sized from it (``limits``
    override the defaults, e.g. in tests).
    """

    def __init__(self, session: BoardSession, config: Config | None = None, *,
                 options: WebOptions | None = None, limits: WebLimits | None = None,
                 **overrides: Unpack[Overrides]) -> None:
        options = options or WebOptions.from_config(config, **overrides)
        limits = limits or WebLimits()
        if limits.max_connections is None:
            limits = dataclasses.replace(limits, max_connections=connection_cap(raise_descriptor_limit()))
        self.limits = limits
        super().__init__(create_app(session, options=options, limits=limits), options)
        self.throttled = ThrottledLog(log)
        assert limits.max_connections is not None
        self.max_connections: int = limits.max_connections
        self.guard = ConnectionGuard(limits, self.max_connections, self.throttled)
        self._accept_errors: AcceptErrors | None = None

    def uvicorn_options(self) -> dict[str, Any]:
        """The guarded protocols and the limits of :class:`WebLimits`.

        No per-message deflate: it compressed each state once per client, ~50 KB of zlib state per client
        (101 -> 54 KB a client with 1,000 of them) and slower fan-out. log_config=None: uvicorn's lines go
        through the application's logging (one format, one place; the tests can read them)."""
        limits = self.limits
        http, ws = protocol_classes(self.guard, limits, self.throttled)
        return {"log_config": None, "http": http, "ws": ws, "ws_max_size": limits.max_message,
                "ws_per_message_deflate": False, "ws_ping_interval": 20, "ws_ping_timeout": 20,
                "backlog": BACKLOG, "limit_concurrency": self.max_connections + 1,
                "timeout_keep_alive": limits.keep_alive,
                "h11_max_incomplete_event_size": limits.max_header_bytes}

    async def listening(self) -> None:
        """While it serves, "socket.accept() out of system resource" is one throttled line (AcceptErrors)."""
        self._accept_errors = AcceptErrors(asyncio.get_running_loop(), self.throttled)
        self._accept_errors.install()

    async def start(self) -> str:
        url = await super().start()
        log.info("web server listening on %s:%d (at most %d connections)", self.options.listen, self.port,
                 self.max_connections)
        return url

    async def stopped(self) -> None:
        if self._accept_errors is not None:
            self._accept_errors.uninstall()
        self._accept_errors = None

    def __repr__(self) -> str:
        return f"WebServer({self.options!r}, port={self.port}, running={self.running})"


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
