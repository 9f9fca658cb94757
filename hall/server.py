"""The hall running: subscription and web server in one asyncio loop (``HallServer``), as ``dboard hall``
and the tests start it."""

from __future__ import annotations

import logging

from web.access import WebOptions
from web.serve import BackgroundServer

from .app import create_app
from .config import HallConfig
from .service import Hall

log = logging.getLogger(__name__)


class HallServer(BackgroundServer):
    """The Hall and its pages on ``config.listen:config.port`` (0: any free port, in :attr:`port`)."""

    name = "hall-web"

    def __init__(self, config: HallConfig) -> None:
        self.config = config
        self.hall = Hall(config)
        options = WebOptions.from_config(None, listen=config.listen, port=config.port,
                                         token=config.token or None, public_view=True,
                                         data_dir=str(config.data_path))
        super().__init__(create_app(self.hall, options), options)

    async def listening(self) -> None:
        """Connect to the broker in the background before the first page is served."""
        await self.hall.start()

    async def start(self) -> str:
        """Listen, connect to the broker in the background, serve; the URL to open."""
        url = await super().start()
        log.info("hall listening on %s:%d", self.config.listen, self.port)
        return url

    async def stopped(self) -> None:
        await self.hall.stop()

    def __repr__(self) -> str:
        return f"HallServer({self.config.listen}:{self.port}, {self.hall!r})"
