"""The values that describe a game before it starts and a request for the computer's move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import Board, Variant, get_variant
from rules.options import to_json

from .clocks import TimeControl


@dataclass(frozen=True)
class GameSettings:
    """Who plays what: the variant with its options, the person's color, the opponent, engine level, start
    FEN, orientation. A variant given by its id (``GameSettings("thai")``) has its default rules."""

    variant: Variant = field(default_factory=lambda: get_variant("international"))
    human_color: str = "white"
    opponent: str = "engine"
    level: int = 3
    fen: str | None = None
    flipped: bool = False
    time_control: str | None = None
    player: str = "player"
    """The local profile whose rating a game against the built-in engine updates."""

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", get_variant(str(self.variant)))

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object (the journal header; ``from_json`` reads it back): the variant by its
        id and its options."""
        data = dict(self.__dict__)
        data["variant"] = self.variant.id
        data["variant_options"] = to_json(self.variant.option_values())
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        """The settings ``to_json`` wrote (a journal without options: the variant's defaults)."""
        values = dict(data)
        options = values.pop("variant_options", None) or {}
        values["variant"] = get_variant(str(values.get("variant", "international")), **options)
        return cls(**values)

    def check(self) -> None:
        """Raise a ValueError naming the problem (bad FEN or time control, color, level)."""
        variant = self.variant
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
