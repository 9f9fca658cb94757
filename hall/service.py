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

from controller.broadcast.client import connect, make_client, reason_text
from controller.broadcast.wire import BoardTopic, check_level

from .book import EventBook
from .config import HallConfig
from .model import GameStream
from .registry import BoardFeed, Registry, board_order

log = logging.getLogger(__name__)


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

    @property
    def archive_dir(self) -> Path:
        return self.config.data_path / "archive"

    async def start(self) -> None:
        """Connect (in the background; paho reconnects after every loss)."""
        self._loop = asyncio.get_running_loop()
        connect(self.client, self.config.broker_settings(), persistent=True)

    async def stop(self) -> None:
        self._stopping = True
        self.client.disconnect()
        await asyncio.to_thread(self.client.loop_stop)

    # --- paho's thread --------------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
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

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        if not self._stopping:
            log.warning("hall lost the broker %s (%s); reconnecting", self.config.broker, reason_text(reason))
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.connected.clear)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.registry.receive, message.topic, bytes(message.payload))

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
