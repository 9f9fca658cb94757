"""Error types of the rules core: every one is a ValueError with a precise message."""

from __future__ import annotations


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


class IllegalMoveError(RulesError):
    """A well-formed move that is not legal in the position; the message says why."""


class AmbiguousMoveError(RulesError):
    """Move text that matches several legal moves; the message lists the candidates."""
