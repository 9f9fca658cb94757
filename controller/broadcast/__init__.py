"""Broadcasting a board's game to a tournament hall over MQTT (issue 17).

``wire`` is the contract between a board and any reader (topics, payloads, their checks), ``tail`` reads the
journal line by line (a line's number is its sequence number), ``client`` makes the paho-mqtt client both
sides use, and ``publisher`` ships the journal of a running Session to the broker. ``dboard hall`` (the
``hall`` package) is the reader.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .publisher import Publisher


@contextlib.asynccontextmanager
async def broadcasting(session: Any, config: Any) -> AsyncIterator[Publisher | None]:
    """Publish a started Session's game while the block runs, when the config's ``broadcast`` is on (None
    otherwise: paho-mqtt is then not even imported)."""
    if not config.broadcast:
        yield None
        return
    from .publisher import Publisher

    publisher = Publisher.for_session(session, config)
    await publisher.start()
    print(f"Broadcasting to {publisher.settings.broker} as {publisher.settings.topic}.", flush=True)
    try:
        yield publisher
    finally:
        await publisher.stop()
