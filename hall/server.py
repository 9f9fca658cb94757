"""The hall running: subscription and web server in one asyncio loop (``HallServer``), as ``dboard hall``
and the tests start it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from types import TracebackType

import uvicorn

from web.access import WebOptions

from .app import create_app
from .config import HallConfig
from .service import Hall

log = logging.getLogger(__name__)


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
        family = socket.AF_INET6 if ":" in self.config.listen else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.config.listen, self.config.port))
        except OSError as exc:
            sock.close()
            where = f"{self.config.listen}:{self.config.port}"
            raise OSError(f"cannot listen on {where}: {exc.strerror}") from exc
        sock.listen(128)
        sock.setblocking(False)
        self._socket, self.port = sock, sock.getsockname()[1]
        await self.hall.start()
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", access_log=False,
                                timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="hall-web")
        while not self._server.started and not self._task.done():
            await asyncio.sleep(0.01)
        if self._task.done():
            self._task.result()
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
