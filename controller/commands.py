"""Commands the outside world sends to the controller through one queue (see controller/README.md).

``Command.from_json(data)`` validates untrusted input (the web page, the command line) and raises
``CommandError`` (a ValueError) naming the field and what was expected.
Additions to the contract: ``ChooseMove(text)`` picks one of several candidate moves the board could not
tell apart; ``Tick()`` only advances the controller's timers; ``SavePdn()`` writes the game in progress to its
PDN file (the game library's directory). ``NewGame.time_control`` is ``"minutes+increment"`` e.g. ``"5+3"``;
``NewGame.player`` names the local profile whose rating a game against the built-in engine updates.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .clocks import TimeControl


class CommandError(ValueError):
    """A command whose JSON form is malformed; the message names the field and what was expected."""


_COLORS = ("white", "black")


@dataclass(frozen=True)
class Command:
    """Base of every command; ``kind`` is the JSON discriminator."""

    kind: ClassVar[str] = "command"

    @staticmethod
    def from_json(data: Any) -> Command:
        """Build and validate a command from a JSON dict such as ``{"kind": "takeback", "plies": 2}``."""
        if not isinstance(data, dict):
            raise CommandError(f"a command is a JSON object, got {type(data).__name__}")
        kind = data.get("kind")
        cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
        if cls is None:
            known = ", ".join(sorted(_BY_KIND))
            raise CommandError(f"unknown command kind {kind!r}; expected one of {known}")
        names = {f.name for f in fields(cls)}
        extra = set(data) - names - {"kind"}
        if extra:
            raise CommandError(f"{kind}: unexpected field(s) {', '.join(sorted(extra))}")
        values = {}
        for f in fields(cls):
            if f.name in data:
                values[f.name] = data[f.name]
        try:
            return cls(**values)
        except TypeError as exc:
            raise CommandError(f"{kind}: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        """The JSON form ``from_json`` reads back."""
        return {"kind": self.kind, **self.__dict__}


def _check_type(kind: str, name: str, value: Any, types: type | tuple[type, ...]) -> None:
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise CommandError(f"{kind}: field {name!r} expects {types}, got a boolean")
    if not isinstance(value, types):
        raise CommandError(f"{kind}: field {name!r} has the wrong type {type(value).__name__} ({value!r})")


def _check_choice(kind: str, name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise CommandError(f"{kind}: field {name!r} must be one of {', '.join(choices)}, got {value!r}")


@dataclass(frozen=True)
class NewGame(Command):
    """Start a new game (the controller then waits for the start position on the board)."""

    kind: ClassVar[str] = "new_game"
    variant: str = "international"
    human_color: str = "white"
    opponent: str = "engine"
    level: int = 3
    time_control: str | None = None
    fen: str | None = None
    player: str | None = None
    """The local profile whose rating this game updates (None: keep the current one)."""

    def __post_init__(self) -> None:
        _check_type(self.kind, "variant", self.variant, str)
        _check_choice(self.kind, "human_color", self.human_color, ("white", "black", "both"))
        _check_choice(self.kind, "opponent", self.opponent, ("person", "engine", "external"))
        _check_type(self.kind, "level", self.level, int)
        if not 1 <= self.level <= 10:
            raise CommandError(f"{self.kind}: field 'level' must be 1-10, got {self.level}")
        if self.time_control is not None:
            _check_type(self.kind, "time_control", self.time_control, str)
            try:
                TimeControl.parse(self.time_control)
            except ValueError as exc:
                raise CommandError(f"{self.kind}: field 'time_control': {exc}") from None
        if self.fen is not None:
            _check_type(self.kind, "fen", self.fen, str)
        if self.player is not None:
            _check_type(self.kind, "player", self.player, str)
            if not self.player.strip():
                raise CommandError(f"{self.kind}: field 'player' must not be empty")


@dataclass(frozen=True)
class Takeback(Command):
    """Take back ``plies`` moves; the LEDs then guide the pieces back."""

    kind: ClassVar[str] = "takeback"
    plies: int = 1

    def __post_init__(self) -> None:
        _check_type(self.kind, "plies", self.plies, int)
        if not 1 <= self.plies <= 1000:
            raise CommandError(f"{self.kind}: field 'plies' must be 1-1000, got {self.plies}")


@dataclass(frozen=True)
class _ColorCommand(Command):
    color: str = "white"

    def __post_init__(self) -> None:
        _check_choice(self.kind, "color", self.color, _COLORS)


@dataclass(frozen=True)
class Resign(_ColorCommand):
    """``color`` resigns."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True)
class OfferDraw(_ColorCommand):
    """``color`` offers a draw."""

    kind: ClassVar[str] = "offer_draw"


@dataclass(frozen=True)
class AcceptDraw(_ColorCommand):
    """``color`` accepts the draw on offer."""

    kind: ClassVar[str] = "accept_draw"


@dataclass(frozen=True)
class DeclineDraw(_ColorCommand):
    """``color`` declines the draw on offer."""

    kind: ClassVar[str] = "decline_draw"


@dataclass(frozen=True)
class ClaimDraw(_ColorCommand):
    """``color`` claims the draw a claim rule allows now (English repetition or 40 moves, ...)."""

    kind: ClassVar[str] = "claim_draw"


@dataclass(frozen=True)
class Hint(Command):
    """Show the legal moves (or the computer's suggestion) on the LEDs."""

    kind: ClassVar[str] = "hint"


@dataclass(frozen=True)
class SetTeaching(Command):
    """Turn teaching mode on or off."""

    kind: ClassVar[str] = "set_teaching"
    on: bool = True

    def __post_init__(self) -> None:
        _check_type(self.kind, "on", self.on, bool)


@dataclass(frozen=True)
class MissedCaptureChoice(Command):
    """The opponent's answer to a missed capture: retract, accept or huff."""

    kind: ClassVar[str] = "missed_capture_choice"
    choice: str = "retract"

    def __post_init__(self) -> None:
        _check_choice(self.kind, "choice", self.choice, ("retract", "accept", "huff"))


@dataclass(frozen=True)
class SetupPosition(Command):
    """Start a game from a FEN position (the board must then be set up to match)."""

    kind: ClassVar[str] = "setup_position"
    fen: str = ""

    def __post_init__(self) -> None:
        _check_type(self.kind, "fen", self.fen, str)
        if not self.fen.strip():
            raise CommandError(f"{self.kind}: field 'fen' must not be empty")


@dataclass(frozen=True)
class ChooseMove(Command):
    """Pick, by its text, one of the candidate moves the board could not tell apart."""

    kind: ClassVar[str] = "choose_move"
    text: str = ""

    def __post_init__(self) -> None:
        _check_type(self.kind, "text", self.text, str)


@dataclass(frozen=True)
class SavePdn(Command):
    """Write the game so far (finished or not) to its PDN file under the data directory's ``games/``."""

    kind: ClassVar[str] = "save_pdn"


@dataclass(frozen=True)
class _SquareCommand(Command):
    row: int = 0
    col: int = 0

    def __post_init__(self) -> None:
        for name in ("row", "col"):
            value = getattr(self, name)
            _check_type(self.kind, name, value, int)
            if not 0 <= value < 16:
                raise CommandError(f"{self.kind}: field {name!r} must be 0-15, got {value}")


@dataclass(frozen=True)
class Lift(_SquareCommand):
    """Virtual board: lift the piece on (row, col) (only with a SimulatedDevice)."""

    kind: ClassVar[str] = "lift"


@dataclass(frozen=True)
class Place(_SquareCommand):
    """Virtual board: put a piece on (row, col) (only with a SimulatedDevice)."""

    kind: ClassVar[str] = "place"


_BY_KIND: dict[str, type[Command]] = {
    cls.kind: cls for cls in (NewGame, Takeback, Resign, OfferDraw, AcceptDraw, DeclineDraw, ClaimDraw, Hint,
                              SetTeaching, MissedCaptureChoice, SetupPosition, ChooseMove, SavePdn, Lift,
                              Place)
}
