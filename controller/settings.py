"""The values that describe a game before it starts and a request for the computer's move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import Board, get_variant

from .clocks import TimeControl


@dataclass(frozen=True)
class GameSettings:
    """Who plays what: variant, the person's color, the opponent, engine level, start FEN, orientation."""

    variant: str = "international"
    human_color: str = "white"
    opponent: str = "engine"
    level: int = 3
    fen: str | None = None
    flipped: bool = False
    time_control: str | None = None
    player: str = "player"
    """The local profile whose rating a game against the built-in engine updates."""

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object (the journal header; ``GameSettings(**data)`` reads it back)."""
        return dict(self.__dict__)

    def check(self) -> None:
        """Raise a ValueError naming the problem (unknown variant, bad FEN or time control, color, level)."""
        variant = get_variant(self.variant)
        if self.human_color not in ("white", "black", "both", "none"):
            raise ValueError(f"human color must be white, black, both or none (a replay), "
                             f"got {self.human_color!r}")
        if not 1 <= self.level <= 10:
            raise ValueError(f"engine level must be 1-10, got {self.level}")
        if self.fen is not None:
            try:
                Board(variant, self.fen)
            except ValueError as exc:
                raise ValueError(f"bad FEN for {variant.name}: {exc}") from None
        if self.time_control is not None:
            TimeControl.parse(self.time_control)
        if not self.player.strip():
            raise ValueError("the player profile name must not be empty")

    def plays(self, color: str) -> str:
        """Who plays ``color``: ``person`` or ``computer``."""
        if self.opponent == "person" or self.human_color in (color, "both"):
            return "person"
        return "computer"


@dataclass(frozen=True)
class EngineJob:
    """A request for the computer's move; the answer must quote ``token`` (stale answers are dropped)."""

    token: int
    board: Board
    level: int
    seconds: float | None = None
    """Thinking time the clocks allow (None: no time control, use the configured engine time)."""
