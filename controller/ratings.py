"""The person's rating as the board shows it, and its update when a game against the built-in engine ends.

Ratings are Glicko-2, one per player and variant, against the level's fixed rating, kept in
``<data dir>/ratings.sqlite3`` (the file ``dboard ratings`` reads: controller/ratings_cli.py). The database is
read and written on a worker thread (the Table's ``run_in_background``); a file that cannot be read or
written is a warning, never a stop.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.glicko2 import DEFAULT_RD, Rating
from engine.ratings import RATINGS_FILE, RatingStore, UnknownPlayerError, level_rating

from .ports import Background, Report, StopFlag
from .settings import GameSettings

log = logging.getLogger(__name__)

Say = Callable[[str, str], None]


@dataclass(frozen=True)
class _Read:
    """The rating found for ``key`` (player, variant, level), or why it could not be read."""

    key: tuple[str, str, int]
    rating: Rating | None
    error: str | None = None


@dataclass(frozen=True)
class _Recorded:
    """A rated game stored: the rating before and after it, or why it could not be stored."""

    player: str
    variant: str
    old: Rating | None
    new: Rating | None
    error: str | None = None


class PersonRating:
    """The rating shown beside the game (``to_json``) and the update after each rated game (``game_over``),
    kept in ``data_dir`` (None: no data directory, so no ratings)."""

    def __init__(self, data_dir: Path | None, background: Background, say: Say) -> None:
        self.path = data_dir / RATINGS_FILE if data_dir is not None else None
        """The ratings database, ``ratings.sqlite3`` in the data directory."""
        self._background = background
        self._say = say
        self._shown: dict[str, Any] | None = None
        self._key: tuple[str, str, int] | None = None
        self._rated_game: object = None

    def refresh(self, settings: GameSettings) -> None:
        """Read the person's rating again when the player, the variant or the level changed."""
        key = (settings.player, settings.variant.id, settings.level)
        if key == self._key or self.path is None:
            return
        self._key = key
        path = self.path

        def work(report: Report[_Read], stop: StopFlag) -> None:
            try:
                report(_Read(key, stored_rating(path, *key)))
            except (sqlite3.Error, OSError, ValueError) as exc:
                report(_Read(key, None, str(exc)))

        self._background(work, self._read)

    def _read(self, found: _Read) -> None:
        if found.rating is None:
            log.warning("cannot read the ratings in %s: %s", self.path, found.error)
            return
        self._show(found.key[0], found.key[1], found.rating)

    def _show(self, player: str, variant: str, rating: Rating) -> None:
        if self._key is not None and (player, variant) == self._key[:2]:
            self._shown = {"player": player, "variant": variant, "rating": round(rating.rating, 1),
                           "rd": round(rating.rd, 1)}

    def game_over(self, settings: GameSettings, result: str, game: object, in_lesson: bool) -> None:
        """A game ended: against the built-in engine, with a side the person's, update the rating once per
        ``game`` (a takeback after the end and a second ending count once; a lesson's game never)."""
        path = self.path
        if (path is None or settings.opponent != "engine" or settings.human_color not in ("white", "black")
                or self._rated_game == game or in_lesson):
            return
        self._rated_game = game
        winner = "white" if result == "1-0" else "black" if result == "0-1" else None
        score = 0.5 if winner is None else 1.0 if winner == settings.human_color else 0.0
        player, variant, level = settings.player, settings.variant.id, settings.level

        def work(report: Report[_Recorded], stop: StopFlag) -> None:
            try:
                report(_Recorded(player, variant, *record_engine_game(path, player, variant, level, score)))
            except (sqlite3.Error, OSError, ValueError) as exc:
                report(_Recorded(player, variant, None, None, str(exc)))

        self._background(work, self._recorded)

    def _recorded(self, done: _Recorded) -> None:
        if done.old is None or done.new is None:
            log.warning("cannot update the rating in %s: %s", self.path, done.error)
            self._say(f"Your rating could not be updated: {done.error}", "warning")
            return
        old, new = done.old, done.new
        self._say(f"Your {done.variant} rating: {old.rating:.0f} -> {new.rating:.0f} "
                  f"(RD {old.rd:.0f} -> {new.rd:.0f})", "info")
        self._show(done.player, done.variant, new)

    def to_json(self) -> dict[str, Any] | None:
        """The rating the page shows: player, variant, rating and RD (None until one is read)."""
        return self._shown

    def __repr__(self) -> str:
        return f"PersonRating({self.path}, shown={self._shown})"


def stored_rating(path: Path, player: str, variant: str, level: int) -> Rating:
    """The player's rating in ``variant``; before their first rated game, the one it will be rated from (the
    level's, with the full uncertainty)."""
    unrated = Rating(level_rating(variant, level).rating, DEFAULT_RD)
    if not path.exists():
        return unrated
    with RatingStore(path) as store:
        try:
            return store.starting_rating(player, variant, level)
        except UnknownPlayerError:
            return unrated


def record_engine_game(path: Path, player: str, variant: str, level: int,
                       score: float) -> tuple[Rating, Rating]:
    """Store a finished game against the engine at ``level``; the rating before and after it."""
    with RatingStore(path) as store:
        store.add_player(player)
        old = store.starting_rating(player, variant, level)
        return old, store.record_engine_game(player, variant, level, score)
