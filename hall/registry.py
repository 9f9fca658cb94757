"""Every board the hall has heard of, by event, round and board: their games, liveness and problems, and
the change counters that the live PDN (ETag, Last-Modified) and the page's long poll wait on.

``receive(topic, payload)`` takes one MQTT message; it never raises: a forged, oversized or inconsistent
message is logged, counted and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.broadcast.wire import BoardTopic, WireError, decode

from .model import GameStream, StreamError

log = logging.getLogger(__name__)

SILENT_HEARTBEATS = 3
"""A board not heard for this many of its heartbeats is flagged silent."""
LAG_SECONDS = 5.0
"""A board whose status announces entries the hall has not applied for this long is flagged out of sync."""

RoundKey = tuple[str, str]
BoardKey = tuple[str, str, str]


@dataclass
class BoardFeed:
    """One board of one round: its newest game, the board's headers and status, and what went wrong."""

    topic: BoardTopic
    headers: dict[str, str] = field(default_factory=dict)
    game: GameStream | None = None
    status: dict[str, Any] = field(default_factory=dict)
    heard: float = 0.0
    """When the board was last heard (monotonic seconds)."""
    problem: str | None = None
    """The last message the hall had to drop, in words (cleared when the game is whole again)."""
    behind_since: float | None = None
    version: int = 0
    """The registry's change count at the board's last change: it never repeats, even for a new game at a
    place another board left, so the hall's PDN of a place is made again after every change."""

    @property
    def key(self) -> BoardKey:
        return (self.topic.event, self.topic.round, self.topic.board)

    def flags(self, now: float) -> list[str]:
        """What the arbiter should look at: disconnected, silent, out of sync, board link lost, problem."""
        flags = []
        status = self.status
        if status and not status.get("online", False):
            flags.append("disconnected")
        elif status and now - self.heard > SILENT_HEARTBEATS * float(status.get("heartbeat") or 10):
            flags.append("silent")
        lagging = self.behind_since is not None and now - self.behind_since > LAG_SECONDS
        if status.get("out_of_sync") or lagging:
            flags.append("out of sync")
        if status.get("board_connected") is False:
            flags.append("board link lost")
        if self.problem is not None:
            flags.append("stream problem")
        return flags


class Registry:
    """The hall's view of every board; ``on_change(key)`` is called after every change of a board."""

    def __init__(self, prefix: str, *, on_finished: Callable[[BoardFeed], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.prefix = prefix
        self.boards: dict[BoardKey, BoardFeed] = {}
        self.versions: dict[RoundKey, int] = {}
        self.changed_at: dict[RoundKey, float] = {}
        """Wall time of each round's last change (for Last-Modified)."""
        self.board_changed_at: dict[BoardKey, float] = {}
        self.changes = 0
        """Every board's changes, counted together (each BoardFeed.version is one of these counts)."""
        self.dropped = 0
        self.duplicates = 0
        self.applied = 0
        self._clock = clock
        self._on_finished = on_finished
        self._changed = asyncio.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- messages ------------------------------------------------------------------------------------
    def receive(self, topic: str, payload: bytes) -> None:
        """Apply one message (on the hall's loop); a bad one is logged and dropped."""
        try:
            board, kind = BoardTopic.parse(self.prefix, topic)
            if not payload and kind in ("game", "status"):   # the retained message cleared: the board moved
                self._left(board, kind)
                return
            data = decode(topic, kind, payload)
        except WireError as exc:
            self.dropped += 1
            log.warning("dropped a message: %s", exc)
            return
        feed = self.boards.get((board.event, board.round, board.board))
        if feed is None:
            feed = self.boards[(board.event, board.round, board.board)] = BoardFeed(board)
        feed.heard = self._clock()
        try:
            if kind == "status":
                changed = self._status(feed, data)
            elif kind == "stream":
                changed = self._stream(feed, data)
            else:
                changed = self._game(feed, data)
        except StreamError as exc:
            self.dropped += 1
            feed.problem = f"{topic}: {exc}"
            log.warning("dropped a message of board %s: %s", board, feed.problem)
            changed = True
        except Exception:   # a message nobody foresaw: the hall goes on, the arbiter sees the board flagged
            self.dropped += 1
            feed.problem = f"{topic}: a message the hall could not read"
            log.exception("dropped a message of board %s", board)
            changed = True
        if changed:
            self._touch(feed)

    def _status(self, feed: BoardFeed, data: dict[str, Any]) -> bool:
        old = feed.status
        feed.status = data
        self._check_lag(feed)
        keys = ("online", "state", "out_of_sync", "board_connected", "clocks")
        return any(old.get(k) != data.get(k) for k in keys)

    def _check_lag(self, feed: BoardFeed) -> None:
        """Note since when the board is ahead of the hall: its status names entries the hall has not
        applied, or entries wait for a gap in the stream to be filled."""
        status, game = feed.status, feed.game
        seq = status.get("seq")
        announced = status.get("online") and isinstance(seq, int) and (
            game is None or status.get("game") != game.game or game.seq < seq)
        behind = announced or (game is not None and bool(game.held))
        if not behind:
            feed.behind_since = None
        elif feed.behind_since is None:
            feed.behind_since = self._clock()

    def _game_for(self, feed: BoardFeed, game_id: str, started: str | None) -> GameStream | None:
        """The board's game ``game_id``: its current one, a new one (a game started later), or None for an
        older game's late message."""
        game = feed.game
        if game is not None and game.game == game_id:
            return game
        if game is not None and game.started and (not isinstance(started, str) or started < game.started):
            return None   # a game that started earlier, or cannot say when: a late message of an old game
        self._archive_if_finished(feed)
        feed.game = GameStream(game_id)
        feed.problem = None
        return feed.game

    def _stream(self, feed: BoardFeed, data: dict[str, Any]) -> bool:
        entry = data["entry"]
        current = feed.game
        if (current is None or current.game != data["game"]) and entry["type"] != "start":
            return False   # the middle of a game not seen to start: its retained record (after every entry)
        game = self._game_for(feed, data["game"], entry.get("started") if entry["type"] == "start" else None)
        if game is None:
            return False
        applied = game.offer(data["seq"], entry)
        return self._applied(feed, game, applied)

    def _game(self, feed: BoardFeed, data: dict[str, Any]) -> bool:
        headers = {k: v for k, v in data["headers"].items() if isinstance(v, str)}
        changed = headers != feed.headers
        feed.headers = headers
        entries = data["entries"]
        started = entries[0].get("started") if entries and entries[0].get("type") == "start" else None
        game = self._game_for(feed, data["game"], started)
        if game is None:
            return changed
        if game.seq >= data["seq"]:
            self.duplicates += 1
            return changed
        try:
            applied = game.catch_up(entries)
        except StreamError:
            if game.seq == 0 or feed.problem is None:
                raise
            # the stream went wrong before: the retained game is the board's whole record, start over from it
            feed.game = game = GameStream(data["game"])
            applied = game.catch_up(entries)
        return self._applied(feed, game, applied) or changed

    def _applied(self, feed: BoardFeed, game: GameStream, applied: int) -> bool:
        if not applied:
            self.duplicates += 1
            self._check_lag(feed)   # an entry held for a gap: the hall is behind
            return False
        self.applied += applied
        if not game.held:
            feed.problem = None
        self._check_lag(feed)
        if game.result is not None and game.entries[-1]["type"] == "end" and self._on_finished is not None:
            self._on_finished(feed)
        return True

    def _left(self, board: BoardTopic, kind: str) -> None:
        """A board left this place (another event, round or board number): its game there is archived if it
        ended, and the place is empty again."""
        key = (board.event, board.round, board.board)
        feed = self.boards.get(key)
        if feed is None or kind != "game":
            return
        self._archive_if_finished(feed)
        del self.boards[key]
        self.touch_round(board.event, board.round)
        log.info("board %s left its place", board)

    def _archive_if_finished(self, feed: BoardFeed) -> None:
        """A board's game is leaving the hall's view: keep it if it ended."""
        if feed.game is not None and feed.game.result is not None and self._on_finished is not None:
            self._on_finished(feed)

    # --- changes -------------------------------------------------------------------------------------
    def _touch(self, feed: BoardFeed) -> None:
        self.changes += 1
        feed.version = self.changes
        round_key = (feed.topic.event, feed.topic.round)
        self.versions[round_key] = self.versions.get(round_key, 0) + 1
        now = time.time()
        self.changed_at[round_key] = now
        self.board_changed_at[feed.key] = now
        self._notify()

    def touch_round(self, event: str, round_: str) -> None:
        """Something the arbiter entered changed the round (a corrected result, the pairings)."""
        for feed in self.round(event, round_):
            self._touch(feed)
            return
        key = (event, round_)
        self.versions[key] = self.versions.get(key, 0) + 1
        self.changed_at[key] = time.time()
        self._notify()

    def _notify(self) -> None:
        async def wake() -> None:
            async with self._changed:
                self._changed.notify_all()
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(wake())

    async def wait_change(self, key: RoundKey, version: int, timeout: float) -> None:
        """Wait until round ``key`` is past ``version`` (or ``timeout`` seconds passed)."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait_for(lambda: self.versions.get(key, 0) != version),
                                       timeout)

    def lagging(self, since: float) -> list[BoardFeed]:
        """The boards the hall has been behind since before ``since`` (monotonic seconds): a broker that
        dropped their messages, to be asked for their retained state again."""
        return [f for f in self.boards.values() if f.behind_since is not None and f.behind_since <= since]

    # --- queries -------------------------------------------------------------------------------------
    def round(self, event: str, round_: str) -> list[BoardFeed]:
        """The boards of a round, in board order (numbers numerically)."""
        feeds = [f for (e, r, _), f in self.boards.items() if (e, r) == (event, round_)]
        return sorted(feeds, key=lambda f: board_order(f.topic.board))

    def rounds(self) -> list[RoundKey]:
        return sorted({(e, r) for e, r, _ in self.boards}, key=lambda k: (k[0], board_order(k[1])))

    def now(self) -> float:
        return self._clock()

    def __repr__(self) -> str:
        return (f"Registry({self.prefix!r}, boards={len(self.boards)}, applied={self.applied}, "
                f"duplicates={self.duplicates}, dropped={self.dropped})")


def board_order(name: str) -> tuple[int, int | str]:
    """Sort key: numbers in numeric order first, then names (``²`` is a digit to Python, not a number)."""
    return (0, int(name)) if name.isascii() and name.isdigit() else (1, name)
