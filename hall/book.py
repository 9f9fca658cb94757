"""What the arbiter enters, kept on disk per event: the system (round robin or Swiss), the points, each
round's pairings by board, and corrected results with their notes."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from controller.broadcast.wire import RESULTS, check_level
from controller.durable import set_aside_said
from readers import at, expect_dict, loads, read_text

from .errors import HallError

log = logging.getLogger(__name__)

SYSTEMS = ("round-robin", "swiss")
MAX_BOOK_BYTES = 8 * 1024 * 1024
"""An event of a thousand boards over twenty rounds has a book of a few megabytes at most."""
MAX_NAME = 80


class BookError(HallError, ValueError):
    """Arbiter input that cannot be taken: names the field and what was expected."""


@dataclass(frozen=True)
class Pairing:
    """Who plays on a board in a round (``black`` empty: a bye for ``white``)."""

    board: str
    white: str
    black: str


@dataclass(frozen=True)
class Correction:
    """A result set by the arbiter, with the reason."""

    result: str
    note: str = ""


@dataclass
class EventBook:
    """One event's arbiter data; ``save()`` writes it atomically to ``path``."""

    path: Path
    system: str = "swiss"
    win: float = 2.0
    draw: float = 1.0
    pairings: dict[str, dict[str, Pairing]] = field(default_factory=dict)
    corrections: dict[str, dict[str, Correction]] = field(default_factory=dict)
    revision: int = 0
    """Counts the changes (what the hall made from the book before is made again after one)."""

    @classmethod
    def load(cls, path: Path) -> EventBook:
        """The book in ``path`` (an empty one when there is none yet). A damaged book is moved aside under a
        free name (``NAME.damaged-<UTC time>``, for the arbiter to look at) and the event starts afresh: it
        never takes the event's pages down."""
        if not path.exists() and not path.is_symlink():
            return cls(path)
        try:
            return cls._read(path)
        except ValueError as exc:   # ReadError and BookError are ValueErrors too
            log.warning("the arbiter's data %s cannot be read (%s); %s, the event starts afresh", path, exc,
                        set_aside_said(path))
            return cls(path)

    @classmethod
    def _read(cls, path: Path) -> EventBook:
        """The book the file holds, checked whole (ValueError naming what is wrong)."""
        where = str(path)
        data = expect_dict(loads(read_text(path, what="arbiter's data", limit=MAX_BOOK_BYTES), where,
                                 max_depth=5), where)
        book = cls(path)
        book.set_system(data.get("system", "swiss"), data.get("win", 2.0), data.get("draw", 1.0))
        for round_, pairs in expect_dict(data.get("pairings", {}), at(where, "pairings", ": ")).items():
            book.set_pairings(round_, pairs)
        corrections = at(where, "corrections", ": ")
        for round_, boards in expect_dict(data.get("corrections", {}), corrections).items():
            for board, c in expect_dict(boards, at(corrections, round_)).items():
                c = expect_dict(c, at(at(corrections, round_), board))
                book.correct(round_, board, c.get("result"), c.get("note", ""))
        return book

    def save(self) -> None:
        data = {"system": self.system, "win": self.win, "draw": self.draw,
                "pairings": {r: [asdict(p) for p in ps.values()] for r, ps in self.pairings.items()},
                "corrections": {r: {b: asdict(c) for b, c in cs.items()}
                                for r, cs in self.corrections.items()}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def set_system(self, system: Any, win: Any = 2.0, draw: Any = 1.0) -> None:
        if system not in SYSTEMS:
            raise BookError(f"system: expected {' or '.join(SYSTEMS)}, got {system!r}")
        for name, value in (("win", win), ("draw", draw)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10:
                raise BookError(f"{name}: points must be a number 0-10, got {value!r}")
        self.system, self.win, self.draw = system, float(win), float(draw)
        self.revision += 1

    def set_pairings(self, round_: Any, pairs: Any) -> None:
        """A round's pairings: a list of ``{"board", "white", "black"}`` (replaces the round's)."""
        round_ = _level("round", round_)
        if not isinstance(pairs, list) or len(pairs) > 1000:
            raise BookError("pairings: expected a list of {board, white, black}")
        table: dict[str, Pairing] = {}
        for number, pair in enumerate(pairs, 1):
            if not isinstance(pair, dict):
                raise BookError(f"pairing {number}: expected an object with board, white and black")
            board = _level(f"pairing {number}: board", pair.get("board"))
            white, black = (_name(f"pairing {number}: {side}", pair.get(side, ""))
                            for side in ("white", "black"))
            if not white:
                raise BookError(f"pairing {number}: white's name is missing")
            if board in table:
                raise BookError(f"pairing {number}: board {board} is paired twice")
            table[board] = Pairing(board, white, black)
        self.pairings[round_] = table
        self.revision += 1

    def correct(self, round_: Any, board: Any, result: Any, note: Any = "") -> None:
        """Set (or with an empty result, withdraw) the arbiter's result of a board's game."""
        round_, board = _level("round", round_), _level("board", board)
        self.revision += 1
        if result in ("", None):
            self.corrections.get(round_, {}).pop(board, None)
            return
        if result not in RESULTS:
            raise BookError(f"result: expected one of {', '.join(RESULTS)}, got {result!r}")
        self.corrections.setdefault(round_, {})[board] = Correction(result, _name("note", note, 300))

    def pairing(self, round_: str, board: str) -> Pairing | None:
        return self.pairings.get(round_, {}).get(board)

    def correction(self, round_: str, board: str) -> Correction | None:
        return self.corrections.get(round_, {}).get(board)

    def __repr__(self) -> str:
        return f"EventBook({str(self.path)!r}, {self.system}, rounds={sorted(self.pairings)})"


def _level(name: str, value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise BookError(f"{name}: expected a text, got {value!r}")
    try:
        return check_level(name, value)
    except ValueError as exc:
        raise BookError(str(exc)) from None


def _name(name: str, value: object, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or len(value) > limit or any(ord(c) < 32 for c in value):
        raise BookError(f"{name}: expected a text of at most {limit} characters")
    return value.strip()
