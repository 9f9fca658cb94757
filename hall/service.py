"""The hall at work: the MQTT subscription feeding the Registry on the asyncio loop, the archive of finished
games on disk, and each event's arbiter book."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.broadcast.client import connect, make_client, reason_text
from controller.broadcast.wire import BoardTopic, check_level

from .book import EventBook
from .config import HallConfig
from .model import GameStream
from .registry import BoardFeed, Registry, board_order

log = logging.getLogger(__name__)

RECOVER_AFTER = 2.0
"""A board the hall is behind for this long is asked for its retained game and status again."""
RECOVER_BACKOFF = (2.0, 4.0, 8.0, 16.0, 30.0)
"""The waits between the asks for one board while it stays behind (the last one repeats)."""
RECOVER_BATCH = 8
"""The most boards asked for at once: what they send back must fit a broker's queue, or it is dropped too."""


class Hall:
    """Subscribes to every board under the prefix and keeps the registry, archive and books."""

    def __init__(self, config: HallConfig) -> None:
        self.config = config
        self.registry = Registry(config.prefix, on_finished=self._archive)
        self.books: dict[str, EventBook] = {}
        self.connected = asyncio.Event()
        self.refused: str | None = None
        self.client = make_client(config.broker_settings(), config.client_id, persistent=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_connect_fail = self._on_connect_fail
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._asked: dict[tuple[str, str, str], tuple[float, int]] = {}
        """Each lagging board: when its retained state was last asked for, and how many times."""
        self.recoveries = 0
        """How many times a board's retained state was asked for again (the broker had dropped messages)."""
        self._recovery: asyncio.Task[None] | None = None

    @property
    def archive_dir(self) -> Path:
        return self.config.data_path / "archive"

    async def start(self) -> None:
        """Connect (in the background; paho reconnects after every loss)."""
        self._loop = asyncio.get_running_loop()
        connect(self.client, self.config.broker_settings(), persistent=True)
        self._recovery = asyncio.create_task(self._recover_gaps(), name="hall gap recovery")

    async def stop(self) -> None:
        self._stopping = True
        if self._recovery is not None:
            self._recovery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._recovery
        self.client.disconnect()
        await asyncio.to_thread(self.client.loop_stop)

    # --- paho's thread --------------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: mqtt.ConnectFlags, reason: ReasonCode,
                    properties: Properties | None) -> None:
        if reason.is_failure:
            self.refused = reason_text(reason)
            log.warning("the broker %s refused the hall: %s", self.config.broker, self.refused)
            return
        self.refused = None
        client.subscribe(f"{self.config.prefix}/+/+/+/+", qos=1)
        log.info("hall connected to %s", self.config.broker)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.connected.set)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if self.refused is None:
            log.warning("cannot reach the broker %s; trying again", self.config.broker)
        self.refused = "unreachable"

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: mqtt.DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        if not self._stopping:
            log.warning("hall lost the broker %s (%s); reconnecting", self.config.broker, reason_text(reason))
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.connected.clear)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.registry.receive, message.topic, bytes(message.payload))

    # --- gaps ------------------------------------------------------------------------------------------
    async def _recover_gaps(self) -> None:
        """Whatever the broker's queue limits: a board the hall stays behind is subscribed to again on its own
        topics, so that the broker sends its retained game (every entry) and status once more."""
        while True:
            await asyncio.sleep(RECOVER_AFTER / 2)
            if self.connected.is_set():
                self.ask_again(self.registry.now())

    def ask_again(self, now: float) -> list[BoardTopic]:
        """Ask the broker again for the retained state of each board behind since ``RECOVER_AFTER``, each at
        most once per its backoff; returns the boards asked for."""
        lagging = {feed.key: feed for feed in self.registry.lagging(now - RECOVER_AFTER)}
        self._asked = {key: asked for key, asked in self._asked.items() if key in lagging}
        asked_now: list[BoardTopic] = []
        for key, feed in lagging.items():
            last, times = self._asked.get(key, (float("-inf"), 0))
            if now - last < RECOVER_BACKOFF[min(times, len(RECOVER_BACKOFF) - 1)]:
                continue
            if len(asked_now) == RECOVER_BATCH:
                break
            self._asked[key] = (now, times + 1)
            topic = f"{feed.topic.base}/+"
            self.client.subscribe(topic, qos=1)   # a new subscription: the broker sends what it retains
            if self._loop is not None:
                self._loop.call_later(RECOVER_AFTER, self.client.unsubscribe, topic)
            self.recoveries += 1
            asked_now.append(feed.topic)
            log.info("hall is behind board %s: asked the broker for its retained state again", feed.topic)
        return asked_now

    # --- the arbiter's books ---------------------------------------------------------------------------
    def book(self, event: str) -> EventBook:
        """The event's arbiter data (loaded from disk on first use)."""
        book = self.books.get(event)
        if book is None:
            path = self.config.data_path / "events" / f"{check_level('event', event)}.json"
            book = self.books[event] = EventBook.load(path)
        return book

    def results(self, event: str) -> dict[tuple[str, str], str]:
        """Every finished game's result of the event by (round, board): the arbiter's, else the board's."""
        book = self.book(event)
        found: dict[tuple[str, str], str] = {}
        for (e, round_, board), feed in self.registry.boards.items():
            if e == event and feed.game is not None and feed.game.result is not None:
                found[(round_, board)] = feed.game.result[0]
        for round_ in self._archived_rounds(event):
            for feed in self.archived(event, round_):
                if feed.game is not None and feed.game.result is not None:
                    found.setdefault((round_, feed.topic.board), feed.game.result[0])
        for round_, corrections in book.corrections.items():
            for board, correction in corrections.items():
                found[(round_, board)] = correction.result
        return found

    # --- the archive ----------------------------------------------------------------------------------
    def _archive(self, feed: BoardFeed) -> None:
        """Keep a finished game on disk (its entries: the PDN is made with the arbiter's current data)."""
        game = feed.game
        if game is None or game.result is None:
            return
        t = feed.topic
        folder = self.archive_dir / t.event / t.round
        path = folder / f"{t.board}--{game.game}.json"
        data = json.dumps({"board": t.board, "headers": feed.headers, "game": game.game,
                           "entries": game.entries})
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(data, encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            log.error("cannot archive %s's game in %s: %s", t, path, exc)

    def _archived_rounds(self, event: str) -> list[str]:
        folder = self.archive_dir / event
        return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []

    def archived(self, event: str, round_: str) -> list[BoardFeed]:
        """The finished games of a round kept on disk, in board order, as feeds to render."""
        folder = self.archive_dir / check_level("event", event) / check_level("round", round_)
        feeds = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
                data = json.loads(path.read_text(encoding="utf-8"))
                feed = BoardFeed(BoardTopic(self.config.prefix, event, round_, data["board"]),
                                 headers=data["headers"])
                feed.game = GameStream(data["game"])
                feed.game.catch_up(data["entries"])
                feeds.append(feed)
        return sorted(feeds, key=lambda f: (board_order(f.topic.board), f.game.started if f.game else ""))

    def __repr__(self) -> str:
        return f"Hall({self.config.broker}, prefix={self.config.prefix!r}, {self.registry!r})"
