"""Commands the outside world sends to the controller through one queue (see controller/README.md).

``Command.from_json(data)`` validates untrusted input (the web page, the command line) and raises
``CommandError`` (a ValueError) naming the field and what was expected.
Additions to the contract: ``ChooseMove(text)`` picks one of several candidate moves the board could not
tell apart; ``Tick()`` only advances the controller's timers; ``SavePdn()`` writes the game in progress to its
PDN file (the game library's directory); ``SetBroadcast`` moves a broadcasting board to another event, round,
board number or players; ``MaskSquares(cells, masked)`` stops (or resumes) believing the sensors of broken
squares; ``ConfirmMove(text)`` commits a move the board cannot show; ``BoardTest(action, text)`` starts,
answers or stops the board's guided self-test.
``NewGame.time_control`` is ``"minutes+increment"`` e.g. ``"5+3"``;
``NewGame.player`` names the local profile whose rating a game against the built-in engine updates.
``CommandOutcome`` is what became of a command once the Session handled it: done, refused (``Refused``, the
person's mistake, with its message) or failed (any other error, with its reason).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from readers import shown

from .broadcast.place import BroadcastPlace
from .broadcast.wire import check_level
from .clocks import TimeControl
from .errors import Refused


class CommandError(Refused):
    """A command whose JSON form is malformed; the message names the command and the field in a player's words
    (``New game: the engine level must be 1 to 10, got 11``) and what was expected."""


_COLORS = ("white", "black")


@dataclass(frozen=True)
class Command:
    """Base of every command; ``kind`` is the JSON discriminator."""

    kind: ClassVar[str] = "command"
    title: ClassVar[str] = "Command"
    """What a player calls the command (the page's button): error messages start with it."""
    labels: ClassVar[dict[str, str]] = {}
    """The fields in a player's words (error messages name these, not the JSON keys)."""
    multiline: ClassVar[tuple[str, ...]] = ()
    """The text fields that may hold line breaks and tabs (a PDN); every other text is one line."""

    @staticmethod
    def from_json(data: Any) -> Command:
        """Build and validate a command from a JSON dict such as ``{"kind": "takeback", "plies": 2}``."""
        if not isinstance(data, dict):
            raise CommandError(f"a command is a JSON object, got {type(data).__name__}")
        kind = data.get("kind")
        cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
        if cls is None:
            known = ", ".join(sorted(_BY_KIND))
            raise CommandError(f"unknown command kind {_shown(kind)}; expected one of {known}")
        names = {f.name for f in fields(cls)}
        extra = set(data) - names - {"kind"}
        if extra:
            given = ", ".join(_shown(key) for key in sorted(extra)[:5])
            raise CommandError(f"{cls.title}: unexpected field(s) {given}; expected {_field_list(cls)}")
        values = {}
        for f in fields(cls):
            if f.name in data:
                values[f.name] = data[f.name]
        try:
            return cls(**values)
        except TypeError as exc:
            raise CommandError(f"{cls.title}: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        """The JSON form ``from_json`` reads back."""
        return {"kind": self.kind, **self.__dict__}

    def _refuse(self, name: str, expected: str) -> CommandError:
        """The error for field ``name``: the command and the field in a player's words, what was expected
        and what was given."""
        label = self.labels.get(name, name)
        given = _shown(getattr(self, name))
        return CommandError(f"{self.title}: the {label} must be {expected}, got {given}")

    def _check_type(self, name: str, kind: type) -> None:
        value = getattr(self, name)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise self._refuse(name, _KIND_WORDS[kind])
        if isinstance(value, str) and not _is_text(value, name in self.multiline):
            lines = "" if name in self.multiline else ", on one line"
            raise self._refuse(name, f"text (no NUL or control characters{lines}, no lone surrogate)")

    def _check_choice(self, name: str, choices: tuple[str, ...]) -> None:
        if getattr(self, name) not in choices:
            raise self._refuse(name, f"{', '.join(choices[:-1])} or {choices[-1]}")

    def _check_range(self, name: str, low: int, high: int) -> None:
        self._check_type(name, int)
        if not low <= getattr(self, name) <= high:
            raise self._refuse(name, f"{low} to {high}")


def _shown(value: object) -> str:
    """A value a client sent, quoted short and printable whatever it is (70,000 characters, a lone
    surrogate, a line break)."""
    return shown(repr(value), 60)


def _is_text(value: str, multiline: bool) -> bool:
    """Whether `value` is text the board can keep: no lone surrogate (JSON's ``"\\ud800"``: no file or
    socket takes it), no NUL, and no control character but, in a multi-line text, tab and line breaks."""
    allowed = "\t\n\r" if multiline else ""
    if any((ord(c) < 32 and c not in allowed) or ord(c) == 127 for c in value):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _field_list(cls: type[Command]) -> str:
    names = [f.name for f in fields(cls)]
    return ", ".join(names) if names else "no fields"


_KIND_WORDS: dict[type, str] = {int: "a whole number", str: "text", bool: "true or false",
                                dict: "an object of option names and values"}


@dataclass(frozen=True)
class NewGame(Command):
    """Start a new game (the controller then waits for the start position on the board)."""

    kind: ClassVar[str] = "new_game"
    title: ClassVar[str] = "New game"
    labels: ClassVar[dict[str, str]] = {
        "human_color": "color you play", "level": "engine level", "time_control": "time control",
        "fen": "start position (FEN)", "player": "player name", "variant_options": "variant's options"}
    variant: str = "international"
    human_color: str = "white"
    opponent: str = "engine"
    level: int = 3
    time_control: str | None = None
    fen: str | None = None
    player: str | None = None
    """The local profile whose rating this game updates (None: keep the current one)."""
    variant_options: dict[str, Any] | None = None
    """The variant's options by name, values as JSON has them (``{"first": "white"}``); None: its defaults."""

    def __post_init__(self) -> None:
        self._check_type("variant", str)
        if self.variant_options is not None:
            self._check_type("variant_options", dict)
        self._check_choice("human_color", ("white", "black", "both"))
        self._check_choice("opponent", ("person", "engine", "external", "dxp"))
        self._check_range("level", 1, 10)
        if self.time_control is not None:
            self._check_type("time_control", str)
            try:
                TimeControl.parse(self.time_control)
            except ValueError as exc:
                raise CommandError(f"{self.title}: {exc}") from None
        if self.fen is not None:
            self._check_type("fen", str)
        if self.player is not None:
            self._check_type("player", str)
            if not self.player.strip():
                raise self._refuse("player", "a name, not blank")


@dataclass(frozen=True)
class Takeback(Command):
    """Take back ``plies`` moves; the LEDs then guide the pieces back."""

    kind: ClassVar[str] = "takeback"
    title: ClassVar[str] = "Take back"
    labels: ClassVar[dict[str, str]] = {"plies": "number of plies"}
    plies: int = 1

    def __post_init__(self) -> None:
        self._check_range("plies", 1, 1000)


@dataclass(frozen=True)
class _ColorCommand(Command):
    color: str = "white"

    def __post_init__(self) -> None:
        self._check_choice("color", _COLORS)


@dataclass(frozen=True)
class Resign(_ColorCommand):
    """``color`` resigns."""

    kind: ClassVar[str] = "resign"
    title: ClassVar[str] = "Resign"


@dataclass(frozen=True)
class OfferDraw(_ColorCommand):
    """``color`` offers a draw."""

    kind: ClassVar[str] = "offer_draw"
    title: ClassVar[str] = "Offer draw"


@dataclass(frozen=True)
class AcceptDraw(_ColorCommand):
    """``color`` accepts the draw on offer."""

    kind: ClassVar[str] = "accept_draw"
    title: ClassVar[str] = "Accept draw"


@dataclass(frozen=True)
class DeclineDraw(_ColorCommand):
    """``color`` declines the draw on offer."""

    kind: ClassVar[str] = "decline_draw"
    title: ClassVar[str] = "Decline draw"


@dataclass(frozen=True)
class ClaimDraw(_ColorCommand):
    """``color`` claims the draw a claim rule allows now (English repetition or 40 moves, ...)."""

    kind: ClassVar[str] = "claim_draw"
    title: ClassVar[str] = "Claim draw"


@dataclass(frozen=True)
class Hint(Command):
    """Show the legal moves (or the computer's suggestion) on the LEDs."""

    kind: ClassVar[str] = "hint"
    title: ClassVar[str] = "Hint"


@dataclass(frozen=True)
class SetAutoComputer(Command):
    """On the simulated board, let the computer's moves play themselves (or be made by hand)."""

    kind: ClassVar[str] = "set_auto_computer"
    title: ClassVar[str] = "Computer moves itself"
    labels: ClassVar[dict[str, str]] = {"on": "on/off setting"}
    on: bool = True

    def __post_init__(self) -> None:
        self._check_type("on", bool)


@dataclass(frozen=True)
class SetTeaching(Command):
    """Turn teaching mode on or off."""

    kind: ClassVar[str] = "set_teaching"
    title: ClassVar[str] = "Teaching mode"
    labels: ClassVar[dict[str, str]] = {"on": "on/off setting"}
    on: bool = True

    def __post_init__(self) -> None:
        self._check_type("on", bool)


@dataclass(frozen=True)
class MissedCaptureChoice(Command):
    """The opponent's answer to a missed capture: retract, accept or huff."""

    kind: ClassVar[str] = "missed_capture_choice"
    title: ClassVar[str] = "Missed capture"
    choice: str = "retract"

    def __post_init__(self) -> None:
        self._check_choice("choice", ("retract", "accept", "huff"))


@dataclass(frozen=True)
class StartPositionChoice(Command):
    """The answer when the start position is set up early in a game: a new game, or back to the start."""

    kind: ClassVar[str] = "start_position_choice"
    title: ClassVar[str] = "Start position"
    choice: str = "new_game"

    def __post_init__(self) -> None:
        self._check_choice("choice", ("new_game", "takeback"))


@dataclass(frozen=True)
class SetupPosition(Command):
    """Start a game from a FEN position (the board must then be set up to match)."""

    kind: ClassVar[str] = "setup_position"
    title: ClassVar[str] = "Set up a position"
    labels: ClassVar[dict[str, str]] = {"fen": "position (FEN)"}
    fen: str = ""

    def __post_init__(self) -> None:
        self._check_type("fen", str)
        if not self.fen.strip():
            raise self._refuse("fen", "a FEN such as W:W31,32:B1,2, not blank")


@dataclass(frozen=True)
class ChooseMove(Command):
    """Pick, by its text, one of the candidate moves the board could not tell apart."""

    kind: ClassVar[str] = "choose_move"
    title: ClassVar[str] = "Choose move"
    labels: ClassVar[dict[str, str]] = {"text": "move"}
    text: str = ""

    def __post_init__(self) -> None:
        self._check_type("text", str)


@dataclass(frozen=True)
class SetBroadcast(Command):
    """Where the board stands in the hall and who plays at it (when the board broadcasts its games)."""

    kind: ClassVar[str] = "set_broadcast"
    title: ClassVar[str] = "Broadcast"
    labels: ClassVar[dict[str, str]] = {"event": "event", "round": "round", "board": "board number",
                                        "white": "White's name", "black": "Black's name"}
    event: str = ""
    round: str = ""
    board: str = ""
    white: str = ""
    black: str = ""

    def __post_init__(self) -> None:
        for name in self.labels:
            self._check_type(name, str)
        try:
            for name in ("event", "round", "board"):   # a level given is named before one left out
                if getattr(self, name).strip():
                    check_level(name, getattr(self, name).strip())
            self.place()
        except ValueError as exc:
            raise CommandError(f"{self.title}: {exc}") from None

    def place(self) -> BroadcastPlace:
        """The place this command sets."""
        return BroadcastPlace(self.event.strip(), self.round.strip(), self.board.strip(), self.white.strip(),
                              self.black.strip())


@dataclass(frozen=True)
class MaskSquares(Command):
    """Stop believing the sensors of ``cells`` (``[[row, col], ...]``): the game is trusted for them;
    ``masked=False`` believes them again."""

    kind: ClassVar[str] = "mask_squares"
    title: ClassVar[str] = "Mask"
    labels: ClassVar[dict[str, str]] = {"cells": "squares", "masked": "masked flag"}
    cells: tuple[tuple[int, int], ...] = ()
    masked: bool = True

    def __post_init__(self) -> None:
        self._check_type("masked", bool)
        cells = self.cells
        if not isinstance(cells, list | tuple) or not cells or len(cells) > 256:
            raise self._refuse("cells", "a list of [row, col] (1 to 256 of them)")
        for cell in cells:
            if not (isinstance(cell, list | tuple) and len(cell) == 2
                    and all(type(v) is int and 0 <= v < 16 for v in cell)):
                raise CommandError(f"{self.title}: each of the squares must be [row, col] of 0-15, got "
                                   f"{_shown(cell)}")
        object.__setattr__(self, "cells", tuple((cell[0], cell[1]) for cell in cells))


@dataclass(frozen=True)
class ConfirmMove(Command):
    """Commit the legal move ``text`` that the board cannot show (a masked or broken square)."""

    kind: ClassVar[str] = "confirm_move"
    title: ClassVar[str] = "Confirm move"
    labels: ClassVar[dict[str, str]] = {"text": "move"}
    text: str = ""

    def __post_init__(self) -> None:
        self._check_type("text", str)
        if not self.text.strip():
            raise self._refuse("text", "a move such as 22-18")


@dataclass(frozen=True)
class BoardTest(Command):
    """The board's guided self-test: ``start`` it (the game waits), ``answer`` its question (``text``: the
    LEDs that stayed dark, or nothing to go on), ``stop`` it (its report so far is kept)."""

    kind: ClassVar[str] = "board_test"
    title: ClassVar[str] = "Board test"
    labels: ClassVar[dict[str, str]] = {"action": "action", "text": "answer"}
    action: str = "start"
    text: str = ""

    def __post_init__(self) -> None:
        self._check_choice("action", ("start", "answer", "stop"))
        self._check_type("text", str)
        if len(self.text) > 200:
            raise self._refuse("text", "at most 200 characters")


@dataclass(frozen=True)
class SavePdn(Command):
    """Write the game so far (finished or not) to its PDN file under the data directory's ``games/``."""

    kind: ClassVar[str] = "save_pdn"
    title: ClassVar[str] = "Save PDN"


@dataclass(frozen=True)
class _SquareCommand(Command):
    labels: ClassVar[dict[str, str]] = {"col": "column"}
    row: int = 0
    col: int = 0

    def __post_init__(self) -> None:
        for name in ("row", "col"):
            self._check_range(name, 0, 15)


@dataclass(frozen=True)
class Lift(_SquareCommand):
    """Virtual board: lift the piece on (row, col) (only with a SimulatedDevice)."""

    kind: ClassVar[str] = "lift"
    title: ClassVar[str] = "Lift a piece"


@dataclass(frozen=True)
class Place(_SquareCommand):
    """Virtual board: put a piece on (row, col) (only with a SimulatedDevice)."""

    kind: ClassVar[str] = "place"
    title: ClassVar[str] = "Place a piece"


@dataclass(frozen=True)
class StartExercise(Command):
    """Set up an exercise of the collection (``exercise`` empty: the player's next unsolved one)."""

    kind: ClassVar[str] = "start_exercise"
    title: ClassVar[str] = "Exercise"
    labels: ClassVar[dict[str, str]] = {"exercise": "exercise"}
    variant: str = "international"
    exercise: str = ""

    def __post_init__(self) -> None:
        self._check_type("variant", str)
        self._check_type("exercise", str)


@dataclass(frozen=True)
class StartReplay(Command):
    """Replay on the board game ``game`` (1 = the first) of PDN text ``pdn`` (a file, a game of the library);
    ``variant`` for records without a GameType tag (PDN's default: international)."""

    kind: ClassVar[str] = "start_replay"
    title: ClassVar[str] = "Replay"
    labels: ClassVar[dict[str, str]] = {"game": "game number", "pdn": "PDN text"}
    multiline: ClassVar[tuple[str, ...]] = ("pdn",)
    pdn: str = ""
    game: int = 1
    variant: str = ""

    def __post_init__(self) -> None:
        self._check_type("pdn", str)
        self._check_type("variant", str)
        self._check_range("game", 1, 100_000)
        if not self.pdn.strip():
            raise self._refuse("pdn", "a game in PDN, not blank")


@dataclass(frozen=True)
class LessonStep(Command):
    """In a lesson: ``forward`` / ``back`` one move of a replay, ``hint`` or ``next`` (the next exercise of
    the variant) for an exercise, ``stop`` (the position stays for free play)."""

    kind: ClassVar[str] = "lesson_step"
    title: ClassVar[str] = "Lesson"
    labels: ClassVar[dict[str, str]] = {"step": "step"}
    step: str = "forward"

    STEPS: ClassVar[tuple[str, ...]] = ("forward", "back", "hint", "next", "stop")

    def __post_init__(self) -> None:
        self._check_choice("step", self.STEPS)


@dataclass(frozen=True)
class CommandOutcome:
    """What became of one handled command: ``done``, ``refused`` (the person's mistake: the reason is the
    ``Refused`` error's message) or ``failed`` (ours: the reason names the error, e.g. "Too many open
    files")."""

    status: str
    reason: str = ""

    STATUSES: ClassVar[tuple[str, ...]] = ("done", "refused", "failed")

    def __post_init__(self) -> None:
        if self.status not in self.STATUSES:
            raise ValueError(f"outcome: the status must be done, refused or failed, got {self.status!r}")

    @classmethod
    def of(cls, exc: BaseException | None) -> CommandOutcome:
        """The outcome of handling that raised ``exc`` (None: done). An OSError gives its reason without the
        file name, which is a path of the server."""
        if exc is None:
            return cls("done")
        if isinstance(exc, Refused):
            return cls("refused", str(exc))
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return cls("failed", reason or type(exc).__name__)


_BY_KIND: dict[str, type[Command]] = {
    cls.kind: cls for cls in (NewGame, Takeback, Resign, OfferDraw, AcceptDraw, DeclineDraw, ClaimDraw, Hint,
                              SetTeaching, SetAutoComputer, MissedCaptureChoice, StartPositionChoice,
                              SetupPosition, ChooseMove, SetBroadcast, SavePdn, Lift, Place, MaskSquares,
                              ConfirmMove, BoardTest, StartExercise, StartReplay, LessonStep)
}
