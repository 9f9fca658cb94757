"""A running board's game, shipped to the hall's MQTT broker: every journal line as it is written, the whole
game retained, and the board's liveness.

The journal is the source: after every event of the Session the publisher reads the lines added since
(``JournalTail``) and publishes each with its line number as sequence number, then the retained game. paho
keeps what it could not deliver and sends it, in order, when the connection is back; after a restart the
publisher reads the journal from its first line and publishes it all again (readers drop the numbers they
have). The board never waits for the network: publishing only queues.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from .. import events as ev
from ..config import Config
from ..journal import JOURNAL_NAME
from ..states import OUT_OF_SYNC, top
from .client import BrokerSettings, connect, make_client, reason_text
from .place import BroadcastPlace
from .tail import JournalTail
from .wire import VERSION, BoardTopic, encode

log = logging.getLogger(__name__)

QOS = 1


@dataclass(frozen=True)
class BroadcastSettings:
    """What a board needs to publish: the broker, its place in the hall and the players' names."""

    broker: BrokerSettings
    topic: BoardTopic
    white: str = ""
    black: str = ""
    site: str = ""
    heartbeat: float = 10.0

    @classmethod
    def from_config(cls, config: Config, place: BroadcastPlace | None = None) -> BroadcastSettings:
        """The ``broadcast_*`` keys of the config (a ValueError names a bad one), the board standing at
        ``place`` when it is given (set from the page) rather than the config's."""
        broker = config.broker_settings()
        place = place or BroadcastPlace.from_config(config)
        return cls(broker, place.topic(config.broadcast_prefix), place.white, place.black,
                   config.broadcast_site, config.broadcast_heartbeat)

    def moved(self, place: BroadcastPlace) -> BroadcastSettings:
        """The same broker and prefix, the board at ``place``."""
        return dataclasses.replace(self, topic=place.topic(self.topic.prefix), white=place.white,
                                   black=place.black)

    @property
    def headers(self) -> dict[str, str]:
        t = self.topic
        return {"event": t.event, "round": t.round, "board": t.board, "white": self.white,
                "black": self.black, "site": self.site}


class Broadcasting(Protocol):
    """What the publisher needs of the Session it publishes: its journal, its place, its events and state."""

    @property
    def journal_dir(self) -> Path | None: ...
    @property
    def broadcast_place(self) -> BroadcastPlace | None: ...
    def subscribe(self) -> asyncio.Queue[ev.Event]: ...
    def unsubscribe(self, queue: asyncio.Queue[ev.Event]) -> None: ...
    def view(self) -> dict[str, Any]: ...


class Publisher:
    """Publishes one Session's journal under ``settings.topic``; ``start()`` / ``stop()`` on its loop."""

    def __init__(self, session: Broadcasting, settings: BroadcastSettings, journal_path: Path) -> None:
        self.session = session
        self.settings = settings
        self.tail = JournalTail(journal_path)
        self.connected = False
        self.refused: str | None = None
        """Why the broker refused the board (bad password, not authorized), until it accepts it."""
        self.client = make_client(settings.broker, "dboard-" + settings.topic.base.replace("/", "-"))
        self._set_will()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._status: dict[str, Any] = {}
        self._stopping = False
        self._connected_event = asyncio.Event()

    @classmethod
    def for_session(cls, session: Broadcasting, config: Config) -> Publisher:
        """The publisher of a Session whose journal is in its data directory."""
        if session.journal_dir is None:
            raise ValueError("broadcast: the game is published from its journal; run without --no-journal")
        settings = BroadcastSettings.from_config(config, session.broadcast_place)
        return cls(session, settings, session.journal_dir / JOURNAL_NAME)

    def _set_will(self) -> None:
        """What the broker says when the board's connection dies: offline, at the board's place."""
        self.client.will_set(self.settings.topic.topic("status"), encode({"v": VERSION, "online": False}),
                             qos=QOS, retain=True)

    # --- lifecycle ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect in the background and follow the session (never waits for the broker)."""
        self._loop = asyncio.get_running_loop()
        queue = self.session.subscribe()
        self._sync()
        connect(self.client, self.settings.broker)
        self._tasks = [asyncio.create_task(self._follow(queue), name="broadcast"),
                       asyncio.create_task(self._heartbeat(), name="broadcast-heartbeat")]
        log.info("broadcasting to %s under %s", self.settings.broker, self.settings.topic)

    async def stop(self, timeout: float = 2.0) -> None:
        """Say the board is going offline, give queued messages ``timeout`` seconds to leave, disconnect."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        self._stopping = True
        await self._deliver([(self.settings.topic.topic("status"), encode({"v": VERSION, "online": False}))],
                            timeout)
        await self._disconnect()

    async def _deliver(self, retained: list[tuple[str, bytes]], timeout: float) -> None:
        """Publish retained messages and, while connected, give them ``timeout`` seconds each to leave."""
        sent = [self.client.publish(topic, payload, qos=QOS, retain=True) for topic, payload in retained]
        if self.connected:
            for info in sent:
                with contextlib.suppress(RuntimeError, ValueError):
                    await asyncio.to_thread(info.wait_for_publish, timeout)

    async def _disconnect(self) -> None:
        self.client.disconnect()
        await asyncio.to_thread(self.client.loop_stop)

    async def wait_connected(self) -> None:
        """Wait until the broker has accepted the board (for tests and scripts)."""
        await self._connected_event.wait()

    async def _follow(self, queue: asyncio.Queue[ev.Event]) -> None:
        try:
            while True:
                event = await queue.get()
                if isinstance(event, ev.BroadcastMoved):
                    await self._move(BroadcastPlace.from_json(event.place))
                elif isinstance(event, ev.MoveCommitted | ev.GameOver | ev.ViewChanged):
                    self._sync()
        finally:
            self.session.unsubscribe(queue)

    async def _move(self, place: BroadcastPlace, timeout: float = 2.0) -> None:
        """Stand at another place: the old place's retained game and status are cleared (the hall empties
        it), the connection is made again with the new place's will, and the game is retained there."""
        old = self.settings.topic
        await self._deliver([(old.topic("game"), b""), (old.topic("status"), b"")], timeout)
        self.settings = self.settings.moved(place)
        self._stopping = True   # a deliberate disconnect: no warning, no reconnect by the old loop
        await self._disconnect()
        self._stopping = False
        self.connected = False
        self._connected_event.clear()
        self._set_will()
        connect(self.client, self.settings.broker)
        self._publish_game()
        self._publish_status(force=True)
        log.info("broadcasting under %s (was %s)", self.settings.topic, old)

    async def _heartbeat(self) -> None:
        """The board's status every heartbeat, so that the hall can tell a silent board."""
        while True:
            await asyncio.sleep(self.settings.heartbeat)
            self._publish_status(force=True)

    # --- publishing --------------------------------------------------------------------------------
    def _sync(self) -> None:
        """Publish the journal lines written since the last call (all of them for a new game)."""
        restarted, new = self.tail.read()
        entries = self.tail.entries
        game = self.tail.game
        if game is not None and (new or restarted):
            first = len(entries) - len(new) + 1
            for seq, entry in enumerate(new, first):
                self._send("stream", {"v": VERSION, "game": game, "seq": seq, "entry": entry})
            self._publish_game()
        self._publish_status()

    def _publish_game(self) -> None:
        game = self.tail.game
        if game is not None:
            self._send("game", {"v": VERSION, "game": game, "seq": len(self.tail.entries),
                                "headers": self.settings.headers, "entries": self.tail.entries}, retain=True)

    def _publish_status(self, force: bool = False) -> None:
        state = self.session.view()
        status = {"v": VERSION, "online": True, "state": state["state"],
                  "board_connected": state["board_connected"],
                  "out_of_sync": top(state["state"]) == OUT_OF_SYNC,
                  "game": self.tail.game, "seq": len(self.tail.entries), "heartbeat": self.settings.heartbeat}
        if status != self._status or force:
            self._status = status
            self._send("status", status | {"clocks": state["clocks"],
                                           "time": datetime.now().isoformat(timespec="seconds")}, retain=True)

    def _send(self, kind: str, payload: dict[str, Any], retain: bool = False) -> None:
        """Hand a message to paho: sent now, or kept and sent in order once connected."""
        self.client.publish(self.settings.topic.topic(kind), encode(payload), qos=QOS, retain=retain)

    # --- paho's thread ------------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            if self.refused is None:
                log.warning("the broker %s refused the board: %s", self.settings.broker, reason_text(reason))
            self.refused = reason_text(reason)
            return
        self.refused = None
        self.connected = True
        log.info("connected to %s", self.settings.broker)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._on_connected)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if self.refused is None:
            log.warning("cannot reach the broker %s: the game goes on and is sent when it answers",
                        self.settings.broker)
        self.refused = "unreachable"

    def _on_connected(self) -> None:
        """(Re)connected: the retained game and status again, in case the broker lost them."""
        self._publish_game()
        self._publish_status(force=True)
        self._connected_event.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        if self.connected and not self._stopping:
            log.warning("lost the broker %s (%s): the game goes on and is sent when it is back",
                        self.settings.broker, reason_text(reason))
        self.connected = False
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._connected_event.clear)

    def __repr__(self) -> str:
        return (f"Publisher({self.settings.topic}, broker={self.settings.broker}, "
                f"connected={self.connected}, seq={len(self.tail.entries)})")
