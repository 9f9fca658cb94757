"""Statistics of the game library, as BrainKing shows them under every rules page: games, wins for White and
Black, draws and their percentages by variant and by player, the average length, the most common openings,
the results against each engine level and every player's results over time; as JSON for the page and CSV."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.rating_history import RatingHistoryError, rating_history

from .errors import WebError
from .library import GameLibrary, LibraryError, LibraryGame

OPENING_PLIES = 3
"""An opening is the first three moves of the game, counted as in the checkers players' "three-move ballot"
(Black's, White's, Black's: plies)."""
TOP_OPENINGS = 5
WINNER = {"1-0": "white", "2-0": "white", "0-1": "black", "0-2": "black", "1/2-1/2": "draw", "1-1": "draw"}
LEVEL_RE = re.compile(r"\blevel\s*(\d{1,2})\b", re.IGNORECASE)
TABLES = ("variants", "players", "levels", "openings")


class StatsError(WebError, ValueError):
    """A statistics table that does not exist (the message lists the ones that do)."""


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


@dataclass
class VariantTally:
    """The games of one variant (or one opening) from the board's side: who won them."""

    games: int = 0
    white: int = 0
    black: int = 0
    draws: int = 0
    plies: int = 0

    @property
    def finished(self) -> int:
        return self.white + self.black + self.draws

    def add(self, winner: str | None, plies: int) -> None:
        self.games += 1
        self.plies += plies
        if winner == "white":
            self.white += 1
        elif winner == "black":
            self.black += 1
        elif winner == "draw":
            self.draws += 1

    def row(self) -> dict[str, Any]:
        """Counts, percentages of the finished games, and the average length in moves."""
        done = self.finished
        return {"games": self.games, "finished": done, "white_wins": self.white, "black_wins": self.black,
                "draws": self.draws, "white_pct": _pct(self.white, done), "black_pct": _pct(self.black, done),
                "draw_pct": _pct(self.draws, done),
                "average_moves": round(self.plies / 2 / self.games, 1) if self.games else 0.0}


@dataclass
class PlayerTally:
    """The games of one player (or of the people against one engine level): their wins, draws and losses."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, outcome: str | None) -> None:
        self.games += 1
        if outcome == "win":
            self.wins += 1
        elif outcome == "draw":
            self.draws += 1
        elif outcome == "loss":
            self.losses += 1

    def row(self) -> dict[str, Any]:
        done = self.wins + self.draws + self.losses
        return {"games": self.games, "finished": done, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "win_pct": _pct(self.wins, done), "draw_pct": _pct(self.draws, done),
                "loss_pct": _pct(self.losses, done),
                "score_pct": _pct(2 * self.wins + self.draws, 2 * done)}


@dataclass(frozen=True)
class GameFacts:
    """What the statistics need of one game: variant, players, who won, length, opening and date."""

    variant: str
    white: str
    black: str
    winner: str | None   # "white", "black", "draw" or None (unfinished)
    plies: int
    opening: str | None  # the first three plies, when the game started from the start position
    date: str            # "2026.11.30 20:30", the time when known

    @classmethod
    def of(cls, record: LibraryGame) -> GameFacts:
        """The facts of a library game; LibraryError naming the file and game when they cannot be read."""
        import rules

        where = f"{record.path.name}, game {record.index + 1}"
        label = record.variant_label()
        try:
            variant = rules.get_variant(label).id
        except ValueError:
            raise LibraryError(f"{where}: {label!r} is not a variant the board plays") from None
        result = record.tag("Result", "*")
        if result != "*" and result not in WINNER:
            raise LibraryError(f"{where}: Result {result!r} is not a PDN result (1-0, 0-1, 1/2-1/2 or *)")
        if not record.moves and not record.tags:
            raise LibraryError(f"{where}: no PDN tags and no moves")
        opening = None
        if len(record.moves) >= OPENING_PLIES and not record.tag("FEN"):
            opening = " ".join(record.moves[:OPENING_PLIES])
        when = record.summary()
        return cls(variant, record.tag("White", "?"), record.tag("Black", "?"), WINNER.get(result),
                   len(record.moves), opening, f"{when['date']} {when['time']}".strip())

    def outcome(self, color: str) -> str | None:
        """"win", "draw" or "loss" for the player of ``color`` (None: unfinished)."""
        if self.winner is None or self.winner == "draw":
            return self.winner
        return "win" if self.winner == color else "loss"


def engine_level(name: str) -> int | None:
    """The built-in engine's level when ``name`` is the engine's ("Computer (level 3)"), else None."""
    m = LEVEL_RE.search(name)
    return int(m.group(1)) if m and 1 <= int(m.group(1)) <= 10 else None


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (=HYPERLINK(...) in a player's name)."""


def inert(value: object) -> object:
    """A text cell a spreadsheet cannot take for a formula: one that starts like one gets a leading ``'``
    (OWASP's advice for CSV injection); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


@dataclass
class LibraryStats:
    """The statistics of a list of games (see :meth:`of`); ``problems`` says which games were left out."""

    variants: dict[str, VariantTally] = field(default_factory=dict)
    players: dict[tuple[str, str], PlayerTally] = field(default_factory=dict)   # (player, variant or "all")
    levels: dict[int, PlayerTally] = field(default_factory=dict)
    openings: dict[str, Counter[str]] = field(default_factory=dict)
    opening_results: dict[tuple[str, str], VariantTally] = field(default_factory=dict)
    timeline: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, records: list[LibraryGame], problems: list[str] | None = None) -> LibraryStats:
        """Count ``records`` in date order; a game whose facts cannot be read is named in ``problems``."""
        stats = cls(problems=list(problems or []))
        facts = []
        for record in records:
            try:
                facts.append(GameFacts.of(record))
            except LibraryError as exc:
                stats.problems.append(str(exc))
        for game in sorted(facts, key=lambda f: f.date):
            stats._add(game)
        return stats

    def _add(self, game: GameFacts) -> None:
        self.variants.setdefault(game.variant, VariantTally()).add(game.winner, game.plies)
        if game.opening is not None:
            self.openings.setdefault(game.variant, Counter())[game.opening] += 1
            self.opening_results.setdefault((game.variant, game.opening), VariantTally()).add(game.winner,
                                                                                              game.plies)
        if game.white == game.black:   # one person playing both sides: no result for a player
            return
        sides = (("white", game.white, "black", game.black), ("black", game.black, "white", game.white))
        for color, name, other_color, other in sides:
            if name == "?":
                continue
            outcome = game.outcome(color)
            level = engine_level(name)
            if level is not None and engine_level(other) is None:   # a person against this level
                self.levels.setdefault(level, PlayerTally()).add(game.outcome(other_color))
            for scope in (game.variant, "all"):
                self.players.setdefault((name, scope), PlayerTally()).add(outcome)
            if outcome is not None and level is None:   # the people's results, not the engine's
                points = self.timeline.setdefault(name, [])
                tally = self.players[(name, "all")].row()
                points.append({"date": game.date, "variant": game.variant, "result": outcome,
                               "score_pct": tally["score_pct"]})

    # --- reading them --------------------------------------------------------------------------------------
    def rows(self, table: str) -> list[dict[str, Any]]:
        """The rows of one table (``variants``, ``players``, ``levels`` or ``openings``), as in the CSV."""
        if table == "variants":
            return [{"variant": v} | t.row() for v, t in sorted(self.variants.items())]
        if table == "players":
            ordered = sorted(self.players, key=lambda pv: (pv[0], pv[1] != "all", pv[1]))
            return [{"player": p, "variant": v} | self.players[(p, v)].row() for p, v in ordered]
        if table == "levels":
            return [{"level": lvl} | t.row() for lvl, t in sorted(self.levels.items())]
        if table == "openings":
            out = []
            for variant, counts in sorted(self.openings.items()):
                for opening, _ in counts.most_common(TOP_OPENINGS):
                    row = self.opening_results[(variant, opening)].row()
                    out.append({"variant": variant, "opening": opening} | row)
            return out
        raise StatsError(f"no statistics table {table!r}; tables: {', '.join(TABLES)}")

    def csv(self, table: str) -> str:
        """One table as CSV (a header line, then one line a row)."""
        rows = self.rows(table)
        out = io.StringIO()
        columns = list(rows[0]) if rows else list(self._empty_columns(table))
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows({key: inert(value) for key, value in row.items()} for row in rows)
        return out.getvalue()

    def _empty_columns(self, table: str) -> list[str]:
        key = {"variants": ["variant"], "players": ["player", "variant"], "levels": ["level"],
               "openings": ["variant", "opening"]}[table]
        players = table in ("players", "levels")
        tally: VariantTally | PlayerTally = PlayerTally() if players else VariantTally()
        return key + list(tally.row())

    def to_json(self) -> dict[str, Any]:
        """Every table, the players' timelines and the problems, for the page."""
        return {table: self.rows(table) for table in TABLES} | {"timeline": self.timeline,
                                                                 "problems": self.problems}

    def __repr__(self) -> str:
        games = sum(t.games for t in self.variants.values())
        return f"LibraryStats({games} games, {len(self.variants)} variants, {len(self.problems)} problems)"


def library_stats(library: GameLibrary) -> LibraryStats:
    """The statistics of every game in ``library`` (unreadable files and games named in ``problems``)."""
    records, problems = library.games_and_problems()
    return LibraryStats.of(records, problems)


def page_json(library: GameLibrary, ratings_path: Path) -> dict[str, Any]:
    """What the statistics page draws: every table, the timelines, the rating histories (from the ratings
    database at ``ratings_path``) and the problems."""
    stats = library_stats(library)
    try:
        ratings = rating_history(ratings_path)
    except RatingHistoryError as exc:
        ratings = {}
        stats.problems.append(str(exc))
    return stats.to_json() | {"ratings": ratings}
