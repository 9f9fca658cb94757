"""One websocket client of the panel: its hello, its outbox sent in order, its messages taken at a bounded
rate and answered; binary frames, too many wrong tokens and falling too far behind close it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .access import AccessDenied, WrongTokens
from .connections import peer_of
from .fanout import Fanout, Outbox, TokenBucket, encode_in
from .limits import ThrottledLog, WebLimits
from .messages import Dispatcher, error_reply

log = logging.getLogger(__name__)

POLICY = 1008
UNSUPPORTED = 1003


class WebSocketClient:
    """Serves one accepted websocket until either side closes it."""

    def __init__(self, ws: WebSocket, fanout: Fanout, dispatcher: Dispatcher, tokens: WrongTokens,
                 limits: WebLimits,
                 throttled: ThrottledLog) -> None:
        self.ws = ws
        self.fanout = fanout
        self.dispatcher = dispatcher
        self.tokens = tokens
        self.limits = limits
        self.throttled = throttled
        self.bucket = TokenBucket(limits.command_rate, limits.command_burst)
        self.outbox: Outbox | None = None

    async def serve(self, hello: dict[str, Any], language: str = "en") -> None:
        """Send ``hello`` (with the state), then the events, while answering the client's messages; every
        text in `language`."""
        self.outbox = outbox = self.fanout.join(language)
        outbox.put(encode_in(hello, language))
        pump = asyncio.create_task(self._pump(outbox), name="web-client-pump")
        try:
            while outbox.closing is None:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    self.throttled.warning("binary", "websocket client %s sent a binary frame: closed (1003)",
                                           peer_of(self.ws))
                    pump.cancel()
                    await self.ws.close(UNSUPPORTED, "binary frames are not accepted")
                    break
                await self.bucket.take()
                await self._answer(text, outbox)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if outbox.closing is not None and not pump.done():   # the reply that closes it goes out first
                with contextlib.suppress(asyncio.TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(pump), self.limits.stuck_seconds)
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
            self.fanout.leave(outbox)
            self.tokens.forget(self.ws.client)

    async def _answer(self, text: str, outbox: Outbox) -> None:
        try:
            reply = await self.dispatcher.handle_raw(text)
        except AccessDenied as exc:   # a wrong token: counted, and the last one allowed closes the connection
            outbox.put(encode_in(error_reply(exc.request_id, "forbidden", str(exc)), outbox.language))
            if self.tokens.wrong(self.ws.client):
                outbox.finish(POLICY, "too many wrong access tokens")
            return
        outbox.put(encode_in(reply, outbox.language))

    async def _pump(self, outbox: Outbox) -> None:
        """Send the outbox in order; close as it says once it is done (overflowed, or finished)."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                text = await outbox.get()
                if text is None:
                    code, reason = outbox.closing or (1000, "")
                    await self.ws.close(code, reason)
                    return
                await self.ws.send_text(text)

    def __repr__(self) -> str:
        return f"WebSocketClient({peer_of(self.ws)}, {self.outbox!r}, {self.bucket!r})"
