"""Error types of the rules core: every one is a ValueError with a precise message."""

from __future__ import annotations

import enum


class RulesError(ValueError):
    """Base class of every error raised by the rules core."""


class UnknownVariantError(RulesError):
    """A variant id (or option) that the rules core does not know."""


class InvalidSquareError(RulesError):
    """A square name that is not a playing square of the variant."""


class FenError(RulesError):
    """A FEN string that cannot be read; the message names the offending token."""


class InvalidMoveError(RulesError):
    """Move text that is not syntactically a move of the variant's notation."""


class Illegal(enum.Enum):
    """Why a well-formed move is not legal: the rule refusing it, for programs (the message is for people).

    The value is the rule's name as a player says it; the rules pages in docs/rules/ have a section for each.
    """

    NO_PIECE = "no piece to move"
    NOT_YOUR_PIECE = "own pieces only"
    NO_LEGAL_MOVE = "no legal move"
    MUST_CAPTURE = "compulsory capture"
    MUST_TAKE_MAXIMUM = "maximum capture"
    MUST_TAKE_MORE_KINGS = "capture the most kings"
    MUST_CAPTURE_WITH_KING = "capture with the king"
    MUST_TAKE_KINGS_FIRST = "capture kings first"
    INCOMPLETE_CAPTURE = "complete the capture"
    WRONG_CAPTURE_PATH = "capture path"
    PIECE_MOVEMENT = "piece movement"

    @property
    def rule(self) -> str:
        """The rule's name as a player says it (\"compulsory capture\")."""
        return self.value

    @property
    def section(self) -> str:
        """The section of a variant's rules page (docs/rules/<id>.md) that explains this rule."""
        return _SECTIONS[self]


_SECTIONS = {
    Illegal.NO_PIECE: "moving", Illegal.NOT_YOUR_PIECE: "moving", Illegal.PIECE_MOVEMENT: "moving",
    Illegal.MUST_CAPTURE: "capturing", Illegal.INCOMPLETE_CAPTURE: "capturing",
    Illegal.WRONG_CAPTURE_PATH: "capturing", Illegal.MUST_TAKE_MAXIMUM: "capture-precedence",
    Illegal.MUST_TAKE_MORE_KINGS: "capture-precedence", Illegal.MUST_CAPTURE_WITH_KING: "capture-precedence",
    Illegal.MUST_TAKE_KINGS_FIRST: "capture-precedence", Illegal.NO_LEGAL_MOVE: "end-of-the-game",
}


class IllegalMoveError(RulesError):
    """A well-formed move that is not legal in the position; the message says why, ``reason`` which rule."""

    def __init__(self, message: str, reason: Illegal = Illegal.PIECE_MOVEMENT) -> None:
        super().__init__(message)
        self.reason = reason


class AmbiguousMoveError(RulesError):
    """Move text that matches several legal moves; the message lists the candidates."""


class GameOverError(RulesError):
    """A move, or a draw claim, that the game's state refuses: it is over, or no claim rule holds."""


def shorten(text: str, width: int = 30) -> str:
    """`text` as an error message quotes it: at most `width` characters, a cut marked with the full length."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text):,} characters)"
