"""The players' rating histories per variant, read from a data directory's ratings database for the statistics
page and `dboard stats` (nothing is created when the database is missing)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from engine.ratings import RATINGS_FILE, RatingsError, RatingStore

from .errors import ControllerError

__all__ = ["RATINGS_FILE", "RatingHistoryError", "rating_history"]


class RatingHistoryError(ControllerError, ValueError):
    """A ratings database that cannot be read; the message names the file and the reason."""


def rating_history(path: Path) -> dict[str, list[dict[str, Any]]]:
    """``{variant: [{"player", "points": [{"played", "rating", "rd", "score", "opponent"}, ...]}, ...]}``,
    the rated games oldest first, from the ratings database at ``path`` (``RATINGS_FILE`` in a data
    directory); empty when there is none."""
    path = Path(path).expanduser()
    if not path.is_file():
        return {}
    try:
        with RatingStore(path) as store:
            history = store.history()
    except RatingsError as exc:   # its reason without the directories: the page shows the file's name only
        raise RatingHistoryError(f"{path.name}: cannot read the ratings: {exc.reason}") from None
    except (sqlite3.Error, OSError) as exc:
        raise RatingHistoryError(f"{path.name}: cannot read the ratings: {exc}") from None
    out: dict[str, list[dict[str, Any]]] = {}
    for (player, variant), games in sorted(history.items(), key=lambda item: (item[0][1], item[0][0])):
        points = [{"played": g.played, "rating": round(g.rating, 1), "rd": round(g.rd, 1), "score": g.score,
                   "opponent": g.opponent} for g in games]
        out.setdefault(variant, []).append({"player": player, "points": points})
    return out
