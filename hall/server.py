"""The hall running: subscription and web server in one asyncio loop (``HallServer``), as ``dboard hall``
and the tests start it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from types import TracebackType
from typing import Any

import uvicorn

from web.access import WebOptions

from .app import create_app
from .config import HallConfig
from .service import Hall

log = logging.getLogger(__name__)


def listening_socket(listen: str, port: int, backlog: int = 64) -> socket.socket:
    """A bound, listening, non-blocking socket on ``listen:port`` (port 0: any free one); an OSError naming
    the address when it is taken or not ours."""
    family = socket.AF_INET6 if ":" in listen else socket.AF_INET
    # IPPROTO_TCP: asyncio sets TCP_NODELAY only on sockets that say they are TCP (no Nagle delay)
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


async def serve_in_background(app: Any, sock: socket.socket, name: str,
                              **options: Any) -> tuple[uvicorn.Server, asyncio.Task[None]]:
    """Serve the ASGI ``app`` on ``sock`` with uvicorn in a task of the running loop, once it has started."""
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1,
                            access_log=False, **options)
    server = uvicorn.Server(config)
    # The CLI owns SIGINT and SIGTERM: uvicorn would otherwise replace their handlers while it serves
    # (signal.signal in the main thread) and re-raise them only once it has shut down.
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
    task = asyncio.create_task(server.serve(sockets=[sock]), name=name)
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    if task.done():
        task.result()
    if not server.started:
        raise OSError(f"{name} on port {sock.getsockname()[1]} did not start within 5 s")
    return server, task


class HallServer:
    """The Hall and its pages on ``config.listen:config.port`` (0: any free port, in :attr:`port`)."""

    def __init__(self, config: HallConfig) -> None:
        self.config = config
        self.hall = Hall(config)
        self.options = WebOptions.from_config(None, listen=config.listen, port=config.port,
                                              token=config.token or None, public_view=True,
                                              data_dir=str(config.data_path))
        self.app = create_app(self.hall, self.options)
        self.port = config.port
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        """The page (with the arbiter's ``?token=`` when control needs it)."""
        return self.options.url(self.port)

    async def start(self) -> str:
        """Listen, connect to the broker in the background, serve; the URL to open."""
        self._socket = sock = listening_socket(self.config.listen, self.config.port, backlog=128)
        self.port = sock.getsockname()[1]
        await self.hall.start()
        self._server, self._task = await serve_in_background(self.app, sock, "hall-web")
        log.info("hall listening on %s:%d", self.config.listen, self.port)
        return self.url

    async def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, timeout=5)
        if self._socket is not None:
            self._socket.close()
        self._server = self._task = self._socket = None
        await self.hall.stop()

    async def wait(self) -> None:
        if self._task is not None:
            await asyncio.shield(self._task)

    async def __aenter__(self) -> HallServer:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.stop()

    def __repr__(self) -> str:
        return f"HallServer({self.config.listen}:{self.port}, {self.hall!r})"
