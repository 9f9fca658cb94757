"""Where a board stands in the hall (event, round, board number) and who plays at it.

The config's ``broadcast_*`` keys give the first values; the arbiter or the players may change them from the
web page between rounds (issue 17). A change is kept in the data directory (``broadcast.json``, written
durably), so a board switched off at the wall comes back publishing under the place it was given last.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from readers import loads, read_text

from ..durable import durable_replace
from .wire import BoardTopic, check_level

log = logging.getLogger(__name__)

PLACE_FILE = "broadcast.json"
"""The place set from the page, in the data directory."""
MAX_NAME = 80


def check_name(name: str, value: str) -> str:
    """A player's name for the broadcast: at most MAX_NAME characters, printable (no control characters, no
    lone surrogate, which no UTF-8 message can carry)."""
    if len(value) > MAX_NAME:
        raise ValueError(f"{name}: at most {MAX_NAME} characters, got {len(value)}")
    if not value.isprintable():
        raise ValueError(f"{name}: {value!r} has control characters or characters that cannot be shown")
    return value


@dataclass(frozen=True)
class BroadcastPlace:
    """A board's event, round and number (each a topic level) and its players' names (may be empty)."""

    event: str
    round: str
    board: str
    white: str = ""
    black: str = ""

    def __post_init__(self) -> None:
        for name in ("event", "round", "board"):
            check_level(name, getattr(self, name))
        for name in ("white", "black"):
            check_name(name, getattr(self, name))

    @classmethod
    def from_config(cls, config: Any) -> BroadcastPlace:
        """The place the config's ``broadcast_*`` keys give."""
        return cls(config.broadcast_event, config.broadcast_round, config.broadcast_board,
                   config.broadcast_white, config.broadcast_black)

    @classmethod
    def from_json(cls, data: Any) -> BroadcastPlace:
        """A place from its JSON form (ValueError naming what is wrong)."""
        if (not isinstance(data, dict) or set(data) - {"event", "round", "board", "white", "black"}
                or not {"event", "round", "board"} <= set(data)):
            raise ValueError("expected an object with event, round, board, white and black")
        if not all(isinstance(v, str) for v in data.values()):
            raise ValueError("every field must be text")
        return cls(**data)

    def to_json(self) -> dict[str, str]:
        return asdict(self)

    def topic(self, prefix: str) -> BoardTopic:
        """Where a board at this place publishes, under ``prefix``."""
        return BoardTopic(prefix, self.event, self.round, self.board)


def load_place(data_dir: Path | None, config: Any) -> BroadcastPlace:
    """The place set from the page last (kept in ``data_dir``), else the config's."""
    configured = BroadcastPlace.from_config(config)
    if data_dir is None:
        return configured
    path = data_dir / PLACE_FILE
    if not path.exists() and not path.is_symlink():
        return configured
    try:
        place = BroadcastPlace.from_json(loads(read_text(path, what="broadcast place", limit=64 * 1024),
                                               str(path), max_depth=2))
    except ValueError as exc:   # a torn or edited file (ReadError too): the config's place, and say so
        log.warning("%s cannot be read (%s); broadcasting under the config's place", path, exc)
        return configured
    if place != configured:
        log.info("broadcasting under the place set from the page (%s), not the config's", path)
    return place


def save_place(data_dir: Path | None, place: BroadcastPlace) -> None:
    """Keep ``place`` in ``data_dir`` (durably: a power cut leaves the old or the new file whole)."""
    if data_dir is not None:
        durable_replace(data_dir / PLACE_FILE, json.dumps(place.to_json(), ensure_ascii=False) + "\n")
