"""The server scaffold the board's panel (web.server) and the tournament hall (hall.server) share: a
listening socket, uvicorn serving an ASGI app in a task of the running loop, and start/stop/wait/``async
with`` around them, so both bind, start and shut down the same way."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from importlib.resources import files
from types import TracebackType
from typing import Any, Self
from urllib.parse import quote

import uvicorn
from starlette.types import ASGIApp

from .access import WebOptions

BACKLOG = 128


def attachment(name: str) -> str:
    """A ``Content-Disposition`` value offering ``name`` as a download, whatever its characters: an ASCII
    ``filename`` (others as ``_``) and the exact name as RFC 6266's ``filename*`` (a header can carry no
    other bytes, and a quote in a name would end the value)."""
    plain = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)
    exact = quote(name.encode("utf-8", "surrogatepass"), safe="")
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{exact}"


def static_dir(package: str) -> str:
    """The directory of a package's page files: its ``static`` package data (HTML, JS, CSS)."""
    return str(files(package) / "static")


def listening_socket(listen: str, port: int, backlog: int = BACKLOG) -> socket.socket:
    """A bound, listening, non-blocking socket on ``listen:port`` (port 0: any free one); an OSError naming
    the address when it is taken or not ours."""
    family = socket.AF_INET6 if ":" in listen else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and without it
    # every keep-alive response waited ~40 ms for the delayed ACK of its head (Nagle)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((listen, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {listen}:{port}: {exc.strerror}") from exc
    sock.listen(backlog)
    sock.setblocking(False)
    return sock


async def serve_in_background(app: ASGIApp, sock: socket.socket, name: str,
                              **options: Any) -> tuple[uvicorn.Server, asyncio.Task[None]]:
    """Serve the ASGI ``app`` on ``sock`` with uvicorn in a task of the running loop, once it has started;
    ``options`` add to (or override) uvicorn's Config."""
    config = uvicorn.Config(app, **{"log_level": "warning", "lifespan": "off", "timeout_graceful_shutdown": 1,
                                    "access_log": False, **options})
    server = uvicorn.Server(config)
    # The CLI owns SIGINT and SIGTERM: uvicorn would otherwise replace their handlers while it serves
    # (signal.signal in the main thread) and re-raise them only once it has shut down.
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
    task = asyncio.create_task(server.serve(sockets=[sock]), name=name)
    for _ in range(500):   # 5 s at least (more on a busy machine: each sleep may last longer)
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    if task.done():
        task.result()
    if not server.started:
        raise OSError(f"{name} on port {sock.getsockname()[1]} did not start within 5 s")
    return server, task


class BackgroundServer:
    """``app`` served on ``options.listen:options.port`` in the background (port 0: any free one, in
    :attr:`port` once started); ``async with`` or start()/stop(). A subclass adds what starts once the
    socket is bound and stops after the server (:meth:`listening`, :meth:`stopped`) and its uvicorn options
    (:meth:`uvicorn_options`)."""

    name = "web-server"
    """The serving task's name (and the server's in the error when it does not start)."""

    def __init__(self, app: ASGIApp, options: WebOptions) -> None:
        self.app = app
        self.options = options
        self.port: int = options.port
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        """The URL to open (with ``?token=`` when control needs the token)."""
        return self.options.url(self.port)

    @property
    def running(self) -> bool:
        return self._server is not None and self._server.started

    def uvicorn_options(self) -> dict[str, Any]:
        """What this server adds to uvicorn's Config (see :func:`serve_in_background`)."""
        return {}

    async def listening(self) -> None:
        """The socket is bound (:attr:`port` is known): start what must run before the first request."""

    async def stopped(self) -> None:
        """The server has stopped and its socket is closed: stop what :meth:`listening` started."""

    async def start(self) -> str:
        """Bind the socket, start serving in the background and return the URL."""
        self._socket = sock = listening_socket(self.options.listen, self.options.port)
        self.port = sock.getsockname()[1]
        await self.listening()
        self._server, self._task = await serve_in_background(self.app, sock, self.name,
                                                             **self.uvicorn_options())
        return self.url

    async def stop(self) -> None:
        """Stop serving and close the socket, then :meth:`stopped`. Safe to call twice."""
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, timeout=5)
        if self._socket is not None:
            self._socket.close()
        self._server = self._task = self._socket = None
        await self.stopped()

    async def wait(self) -> None:
        """Wait until the server stops (or the caller is cancelled)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.stop()
