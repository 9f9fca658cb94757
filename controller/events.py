"""Typed events the controller sends to the outside world (web page, broadcast, recorder, tests).

Each event is a frozen dataclass with a ``kind`` string and ``to_json()`` giving a JSON-ready dict.
The events: ``ViewChanged``, ``MoveCommitted``, ``ComputerMoveShown``, ``PiecesTouched``, ``FrameShown``,
``Refusal``, ``OutOfSync``, ``EngineProgress``, ``GameOver``, ``BroadcastMoved`` and ``Message``; what they
mean for a page is in controller/README.md ("Events, clocks, games on disk"). Changes are additive only: the
web page and the tests read these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from firmware_bridge.types import Cell, LedFrame, Pattern
from i18n import Phrase

_PATTERNS = {Pattern.ON: "on", Pattern.SLOW_BLINK: "slow", Pattern.FAST_BLINK: "fast", Pattern.OFF: "off"}


def frame_to_json(frame: LedFrame) -> list[dict[str, Any]]:
    """An LED frame as a list of lit squares: row, col, color [r, g, b] and pattern name."""
    return [{"row": r, "col": c, "rgb": [light.rgb.r, light.rgb.g, light.rgb.b],
             "pattern": _PATTERNS[light.pattern]} for (r, c), light in frame.lights]


@dataclass(frozen=True)
class Event:
    """Base of every controller event."""

    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-serialisable dict with its ``kind``."""
        data = {"kind": self.kind}
        data.update(self._payload())
        return data

    def _payload(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class ViewChanged(Event):
    """Anything visible changed: ``view`` is the same dict ``Session.view()`` returns (the wire's ``state``,
    which the page reads)."""

    kind: ClassVar[str] = "state"
    view: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def _payload(self) -> dict[str, Any]:
        return {"state": self.view}


@dataclass(frozen=True)
class MoveCommitted(Event):
    """A move was committed (journaled and flushed before the LEDs confirmed it). For a legal move (not a
    forced ply) ``origin`` and ``target`` name its squares in the variant's notation, ``captures`` counts the
    pieces it took and ``crowned`` says it crowned (what the voice says of it)."""

    kind: ClassVar[str] = "move"
    ply: int
    text: str
    by: str
    fen: str
    origin: str = ""
    target: str = ""
    captures: int = 0
    crowned: bool = False


@dataclass(frozen=True)
class ComputerMoveShown(Event):
    """The computer chose its move: shown on the LEDs for the person to carry out (or, on the virtual board,
    made at once). Its squares by name, the pieces it takes and whether it crowns, as in ``MoveCommitted``."""

    kind: ClassVar[str] = "computer_move"
    text: str
    origin: str
    target: str
    captures: int = 0
    crowned: bool = False


@dataclass(frozen=True)
class PiecesTouched(Event):
    """Pieces were lifted from, or put on, played squares (one occupancy reading), named in the variant's
    notation: what a blind player hears as it happens ("32 up", "28 down")."""

    kind: ClassVar[str] = "touched"
    lifted: tuple[str, ...] = ()
    placed: tuple[str, ...] = ()

    def _payload(self) -> dict[str, Any]:
        return {"lifted": list(self.lifted), "placed": list(self.placed)}


@dataclass(frozen=True)
class FrameShown(Event):
    """The LED frame on the board now (the page mirrors it). Its wire kind stays ``hint``, which the page
    reads, though it carries every frame, not only the engine's suggestion (``Hint``)."""

    kind: ClassVar[str] = "hint"
    frame: LedFrame

    def _payload(self) -> dict[str, Any]:
        return {"rows": self.frame.rows, "cols": self.frame.cols, "frame": frame_to_json(self.frame)}


@dataclass(frozen=True)
class Asked(Event):
    """A question put to the board with its tap gesture (controller/gestures.py) answered in words: what is on
    a square and where it may go (``topic`` "piece"), or the whole position ("position")."""

    kind: ClassVar[str] = "asked"
    text: Phrase
    topic: str = "piece"


@dataclass(frozen=True)
class Refusal(Event):
    """What is on the board is not a legal move; ``rule`` names the rule that refused it and ``section`` the
    page and section of the rules documentation that explains it (``docs/rules/english.md#capturing``)."""

    kind: ClassVar[str] = "refusal"
    message: str
    rule: str
    section: str = ""


@dataclass(frozen=True)
class OutOfSync(Event):
    """The board disagrees with the game: squares to empty, and squares to fill with color and king flag."""

    kind: ClassVar[str] = "out_of_sync"
    to_empty: tuple[Cell, ...]
    to_fill: tuple[tuple[Cell, str, bool], ...]

    def _payload(self) -> dict[str, Any]:
        return {"to_empty": [list(sq) for sq in self.to_empty],
                "to_fill": [{"rc": list(sq), "color": color, "king": king}
                            for sq, color, king in self.to_fill]}


@dataclass(frozen=True)
class EngineProgress(Event):
    """The engine's current search depth, score and principal variation."""

    kind: ClassVar[str] = "engine"
    depth: int
    score: float
    pv: tuple[str, ...] = ()

    def _payload(self) -> dict[str, Any]:
        return {"depth": self.depth, "score": self.score, "pv": list(self.pv)}


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended."""

    kind: ClassVar[str] = "game_over"
    result: str
    reason: str


@dataclass(frozen=True)
class BroadcastMoved(Event):
    """The board was given another place in the hall or other players (``SetBroadcast``); the publisher
    follows it."""

    kind: ClassVar[str] = "broadcast"
    place: dict[str, str] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Message(Event):
    """A sentence for the person (console, web page); level is info, warning or error."""

    kind: ClassVar[str] = "message"
    text: str
    level: str = "info"
    topic: str = ""
    """What it is about where a reader acts on it ("draw": the page's draw line shows it)."""
