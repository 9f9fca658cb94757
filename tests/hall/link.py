"""A network between one board and the broker that the test can take away: while it is down every byte is
swallowed both ways, as on a dead network (the board's messages are lost, not delayed); when it comes back
the dead connections end (as TCP finally notices) and new ones are relayed."""

from __future__ import annotations

import asyncio
import contextlib


class Link:
    """A TCP relay from a local port to ``target_port``; ``cut()`` and ``restore()`` the network."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.down = False
        self.port = 0
        self.swallowed = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cut(self) -> None:
        self.down = True

    def restore(self) -> None:
        self.down = False
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()

    async def stop(self) -> None:
        self.restore()
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers.add(up_writer)
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                if self.down:
                    self.swallowed += len(data)
                    continue
                sink.write(data)
                await sink.drain()
        sink.close()
