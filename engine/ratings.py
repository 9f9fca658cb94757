"""Local player profiles and their Glicko-2 ratings per variant, in SQLite; engine levels fixed."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from engine.glicko2 import DEFAULT_RD, DEFAULT_VOLATILITY, Rating, Result, update

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


class UnknownPlayerError(ValueError):
    """A profile name that is not in the ratings database."""


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
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.executescript(_SCHEMA)
        self._add_missing_columns()

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
        with self._db:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO players (name, created) VALUES (?, ?)", (name, time.time())
            )
        return cursor.rowcount == 1

    def players(self) -> list[str]:
        """Every profile name, sorted."""
        return [row[0] for row in self._db.execute("SELECT name FROM players ORDER BY name")]

    def _player_id(self, name: str) -> int:
        row = self._db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise UnknownPlayerError(
                f"no player profile named {name!r}; known: {', '.join(self.players()) or '-'}"
            )
        return int(row[0])

    def rating(self, name: str, variant: str) -> Rating:
        """The player's current rating in `variant` (the Glicko-2 default if they have not played it)."""
        pid = self._player_id(name)
        row = self._db.execute(
            "SELECT rating, rd, volatility FROM ratings WHERE player_id = ? AND variant = ?", (pid, variant)
        ).fetchone()
        return Rating(*row) if row else Rating(rd=DEFAULT_RD)

    def has_rating(self, name: str, variant: str) -> bool:
        """Whether the player has played a rated game of ``variant``."""
        pid = self._player_id(name)
        return self._db.execute("SELECT 1 FROM ratings WHERE player_id = ? AND variant = ?",
                                (pid, variant)).fetchone() is not None

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
        with self._db:
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
        rows = self._db.execute(
            "SELECT p.name, r.variant, r.rating, r.rd, r.volatility, r.games FROM ratings r"
            " JOIN players p ON p.id = r.player_id ORDER BY p.name, r.variant"
        )
        return [PlayerRating(n, v, Rating(r, rd, vol), g) for n, v, r, rd, vol, g in rows]

    def history(self) -> dict[tuple[str, str], list[RatedGame]]:
        """Every rated game, oldest first, by (player, variant): the rating each one left (games stored
        before the database kept it are left out: their ratings are not known)."""
        rows = self._db.execute(
            "SELECT p.name, g.variant, g.played, g.opponent, g.score, g.rating_after, g.rd_after FROM games g"
            " JOIN players p ON p.id = g.player_id WHERE g.rating_after IS NOT NULL"
            " ORDER BY p.name, g.variant, g.played, g.id"
        )
        out: dict[tuple[str, str], list[RatedGame]] = {}
        for name, variant, played, opponent, score, rating, rd in rows:
            out.setdefault((name, variant), []).append(RatedGame(played, opponent, score, rating, rd))
        return out

    def unrated_players(self) -> list[str]:
        """The profiles that have no rating yet (no rated game in any variant), sorted."""
        rows = self._db.execute(
            "SELECT name FROM players WHERE id NOT IN (SELECT player_id FROM ratings) ORDER BY name"
        )
        return [row[0] for row in rows]
