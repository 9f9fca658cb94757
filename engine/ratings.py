"""Local player profiles and their Glicko-2 ratings per variant, in SQLite; engine levels fixed."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.glicko2 import DEFAULT_RD, DEFAULT_VOLATILITY, Rating, Result, update
from readers import ReadError, check_regular, expect_int, expect_number, expect_str

DEFAULT_DATA_DIR = Path("~/.local/share/draughts-board")
"""The default data directory (the same as `dboard play`'s data_dir setting)."""
RATINGS_FILE = "ratings.sqlite3"
"""The ratings database's file name inside a data directory."""
DEFAULT_DB_PATH = DEFAULT_DATA_DIR / RATINGS_FILE

# Fixed ratings of the built-in engine's ten levels (level 1 first), calibrated from the level matches:
# `python bench/strength.py --ladder --games 20 --time 0.1 --variants international,spanish,english,russian`
# played 720 games on the native core (20 a step, colors swapped); each step is the Elo difference its score
# implies, level 1 anchored at 700. This is the mean of the four variants' ladders, rounded to 10. Their own
# differ: international's is steeper (level 10 at 3004), english's flatter (2285), but at 20 games a step they
# are still noisy (spanish 4 -> 5 came out 47.5%), so one ladder serves every variant until longer runs.
_LEVEL_RATINGS = (700.0, 880.0, 1210.0, 1250.0, 1310.0, 1660.0, 1830.0, 2090.0, 2240.0, 2510.0)
_LEVEL_RD = 50.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    opponent TEXT NOT NULL,
    opponent_rating REAL NOT NULL,
    opponent_rd REAL NOT NULL,
    score REAL NOT NULL,
    played REAL NOT NULL,
    rating_after REAL,
    rd_after REAL
);
"""
# Columns added after the first release: a database made before them gets them (empty for its old games).
_ADDED_COLUMNS = (("games", "rating_after", "REAL"), ("games", "rd_after", "REAL"))
_COLUMNS = {"players": ("id", "name", "created"),
            "ratings": ("player_id", "variant", "rating", "rd", "volatility", "games", "updated"),
            "games": ("id", "player_id", "variant", "opponent", "opponent_rating", "opponent_rd", "score",
                      "played")}
"""The columns each table must have (besides the added ones): a database of another program has others."""

MAX_BYTES = 1024 * 1024 * 1024
"""The largest ratings database opened (a lifetime of games is a few megabytes)."""
RATING_RANGE = (-5000.0, 10000.0)
RD_RANGE = (1e-6, 1000.0)
VOLATILITY_RANGE = (1e-9, 10.0)
"""The values a stored rating may have (Glicko-2 keeps them far inside): text, NaN, 1e308 or a negative RD
in the file made every later rating NaN or raised from the arithmetic."""
MAX_NAME = 200


class UnknownPlayerError(EngineError, ValueError):
    """A profile name that is not in the ratings database."""


class RatingsError(EngineError, ReadError, sqlite3.DatabaseError):
    """A ratings database that cannot be used: not a regular file, not SQLite, damaged, another program's
    tables, or a value no rating has. ``str()`` is one line naming the file and what was expected; it is a
    ``sqlite3.DatabaseError`` too, so whoever copes with a database that fails copes with it."""


def level_rating(variant: str, level: int) -> Rating:
    """The fixed rating of the built-in engine at `level` (1-10) in `variant` (one calibrated ladder for
    every variant for now: see _LEVEL_RATINGS)."""
    if not 1 <= level <= 10:
        raise ValueError(f"engine level must be 1..10, got {level}")
    return Rating(_LEVEL_RATINGS[level - 1], _LEVEL_RD, DEFAULT_VOLATILITY)


@dataclass(frozen=True)
class RatedGame:
    """One point of a rating history: when a game was played, its score and the rating it left."""

    played: float
    opponent: str
    score: float
    rating: float
    rd: float


@dataclass(frozen=True)
class PlayerRating:
    """One row of the ratings list: a profile's rating in one variant."""

    player: str
    variant: str
    rating: Rating
    games: int


class RatingStore:
    """SQLite-backed profiles and ratings; use as a context manager so the connection is closed."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path if path is not None else DEFAULT_DB_PATH).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._check_file()
        self._db = sqlite3.connect(self.path)
        try:
            with self._reading():
                self._db.execute("PRAGMA foreign_keys = ON")
                self._check_schema()
                self._db.executescript(_SCHEMA)
                self._add_missing_columns()
        except BaseException:
            self._db.close()
            raise

    def _check_file(self) -> None:
        """A FIFO would hang SQLite's first read for good, a link to /dev/zero be written to: only a regular
        file (or none yet) is opened."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise RatingsError(self.path, f"cannot read the ratings database: {exc.strerror}") from None
        try:
            check_regular(info, self.path, "ratings database", MAX_BYTES)
        except ReadError as exc:
            raise RatingsError(self.path, exc.reason) from None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """SQLite's errors (not a database, a damaged page) and values of the wrong type as RatingsError."""
        try:
            yield
        except RatingsError:
            raise
        except ReadError as exc:
            raise RatingsError(self.path, f"{exc.where}: {exc.reason}") from None
        except sqlite3.DatabaseError as exc:
            raise RatingsError(self.path, f"not a sound ratings database ({exc})") from None
        except UnicodeDecodeError as exc:   # a name or a schema whose bytes are not UTF-8 (a damaged page)
            raise RatingsError(self.path, f"not a sound ratings database (text that is not UTF-8: "
                                          f"byte 0x{exc.object[exc.start]:02X})") from None

    def _check_schema(self) -> None:
        """Our tables, if the file has any: a database of another program is neither read nor changed."""
        tables = {name: kind for name, kind in self._db.execute("SELECT name, type FROM sqlite_master")}
        ours = [name for name in _COLUMNS if name in tables]
        if tables and not ours:
            raise RatingsError(self.path, f"holds tables {', '.join(sorted(tables)[:5])}, not the ratings "
                                          f"tables {', '.join(_COLUMNS)}")
        for name in ours:
            if tables[name] != "table":
                raise RatingsError(self.path, f"{name} is a {tables[name]}, not a table")
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({name})")}
            missing = [column for column in _COLUMNS[name] if column not in have]
            if missing:
                raise RatingsError(self.path, f"table {name} has no column {', '.join(missing)} (expected "
                                              f"{', '.join(_COLUMNS[name])})")

    def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._reading():
            return self._db.execute(sql, parameters).fetchall()

    def _rating(self, row: tuple[Any, ...], where: str) -> Rating:
        rating, rd, volatility = row
        return Rating(expect_number(rating, f"{where}: rating", *RATING_RANGE),
                      expect_number(rd, f"{where}: rd", *RD_RANGE),
                      expect_number(volatility, f"{where}: volatility", *VOLATILITY_RANGE))

    @staticmethod
    def _name(value: object, where: str) -> str:
        name = expect_str(value, where, MAX_NAME)
        if not name.isprintable() or not name.strip():
            raise ReadError(where, f"expected a printable name, got {name[:40]!r}")
        return name

    def __repr__(self) -> str:
        return f"RatingStore({str(self.path)!r})"

    def __enter__(self) -> RatingStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _add_missing_columns(self) -> None:
        for table, column, kind in _ADDED_COLUMNS:
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                with self._db:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def add_player(self, name: str) -> bool:
        """Create a profile; False (and nothing changed) if it already exists."""
        if not name.strip():
            raise ValueError("a player name must not be empty")
        if not name.isprintable() or len(name) > MAX_NAME:
            raise ValueError(f"a player name is one printable line of at most {MAX_NAME} characters, got "
                             f"{name[:40]!r}")
        with self._reading(), self._db:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO players (name, created) VALUES (?, ?)", (name, time.time())
            )
        return cursor.rowcount == 1

    def players(self) -> list[str]:
        """Every profile name, sorted."""
        with self._reading():
            return [self._name(row[0], f"players row {n}: name")
                    for n, row in enumerate(self._rows("SELECT name FROM players ORDER BY name"), 1)]

    def _player_id(self, name: str) -> int:
        rows = self._rows("SELECT id FROM players WHERE name = ?", (name,))
        if not rows:
            raise UnknownPlayerError(
                f"no player profile named {name!r}; known: {', '.join(self.players()) or '-'}"
            )
        with self._reading():
            return expect_int(rows[0][0], f"players {name!r}: id")

    def rating(self, name: str, variant: str) -> Rating:
        """The player's current rating in `variant` (the Glicko-2 default if they have not played it)."""
        pid = self._player_id(name)
        rows = self._rows("SELECT rating, rd, volatility FROM ratings WHERE player_id = ? AND variant = ?",
                          (pid, variant))
        if not rows:
            return Rating(rd=DEFAULT_RD)
        with self._reading():
            return self._rating(rows[0], f"ratings of {name!r} in {variant}")

    def has_rating(self, name: str, variant: str) -> bool:
        """Whether the player has played a rated game of ``variant``."""
        pid = self._player_id(name)
        return bool(self._rows("SELECT 1 FROM ratings WHERE player_id = ? AND variant = ?", (pid, variant)))

    def starting_rating(self, name: str, variant: str, level: int) -> Rating:
        """The rating a game against the engine at ``level`` is rated from: the player's own, or for their
        first game of the variant the level's rating with the full uncertainty (choosing a level is the best
        guess of one's strength, so one game moves a new player by about 175 points, not 500)."""
        if self.has_rating(name, variant):
            return self.rating(name, variant)
        return Rating(level_rating(variant, level).rating, DEFAULT_RD)

    def record_game(
        self, name: str, variant: str, opponent: str, opponent_rating: Rating, score: float,
        start: Rating | None = None,
    ) -> Rating:
        """Store one finished game and update the player's rating (one game = one rating period), from
        ``start`` when given (else the stored rating)."""
        pid = self._player_id(name)
        new = update(start or self.rating(name, variant), [Result(opponent_rating, score)])
        now = time.time()
        with self._reading(), self._db:
            self._db.execute(
                "INSERT INTO games (player_id, variant, opponent, opponent_rating, opponent_rd, score,"
                " played, rating_after, rd_after)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (pid, variant, opponent, opponent_rating.rating, opponent_rating.rd, score, now, new.rating,
                 new.rd),
            )
            self._db.execute(
                "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, updated)"
                " VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT(player_id, variant) DO UPDATE SET"
                " rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,"
                " games = games + 1, updated = excluded.updated",
                (pid, variant, new.rating, new.rd, new.volatility, now),
            )
        return new

    def record_engine_game(self, name: str, variant: str, level: int, score: float) -> Rating:
        """Update the player's rating after a game against the built-in engine at `level`."""
        return self.record_game(name, variant, f"engine level {level}", level_rating(variant, level), score,
                                self.starting_rating(name, variant, level))

    def table(self) -> list[PlayerRating]:
        """Every stored rating, by player then variant."""
        rows = self._rows(
            "SELECT p.name, r.variant, r.rating, r.rd, r.volatility, r.games FROM ratings r"
            " JOIN players p ON p.id = r.player_id ORDER BY p.name, r.variant"
        )
        out = []
        with self._reading():
            for n, (name, variant, rating, rd, vol, games) in enumerate(rows, 1):
                where = f"ratings row {n}"
                out.append(PlayerRating(self._name(name, f"{where}: player"),
                                        self._name(variant, f"{where}: variant"),
                                        self._rating((rating, rd, vol), where),
                                        expect_int(games, f"{where}: games", 0, 10**9)))
        return out

    def history(self) -> dict[tuple[str, str], list[RatedGame]]:
        """Every rated game, oldest first, by (player, variant): the rating each one left (games stored
        before the database kept it are left out: their ratings are not known)."""
        rows = self._rows(
            "SELECT p.name, g.variant, g.played, g.opponent, g.score, g.rating_after, g.rd_after FROM games g"
            " JOIN players p ON p.id = g.player_id WHERE g.rating_after IS NOT NULL"
            " ORDER BY p.name, g.variant, g.played, g.id"
        )
        out: dict[tuple[str, str], list[RatedGame]] = {}
        with self._reading():
            for n, (name, variant, played, opponent, score, rating, rd) in enumerate(rows, 1):
                where = f"games row {n}"
                game = RatedGame(expect_number(played, f"{where}: played", 0.0, 1e11),
                                 self._name(opponent, f"{where}: opponent"),
                                 expect_number(score, f"{where}: score", 0.0, 1.0),
                                 expect_number(rating, f"{where}: rating_after", *RATING_RANGE),
                                 expect_number(rd, f"{where}: rd_after", *RD_RANGE))
                key = (self._name(name, f"{where}: player"), self._name(variant, f"{where}: variant"))
                out.setdefault(key, []).append(game)
        return out

    def unrated_players(self) -> list[str]:
        """The profiles that have no rating yet (no rated game in any variant), sorted."""
        rows = self._rows(
            "SELECT name FROM players WHERE id NOT IN (SELECT player_id FROM ratings) ORDER BY name"
        )
        with self._reading():
            return [self._name(row[0], f"players row {n}: name") for n, row in enumerate(rows, 1)]
