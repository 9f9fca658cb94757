"""Errors of the PDN reader: each names the game, line, column and what was wrong."""

from __future__ import annotations


class PdnError(ValueError):
    """A problem in PDN text, located at a line and column (1-based) of the input."""

    def __init__(self, message: str, line: int, column: int, *, game: int = 0, label: str = "",
                 text: str = "") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.game = game
        self.label = label
        self.text = text
        super().__init__(self.describe())

    def describe(self, filename: str | None = None) -> str:
        """One line: `file:line:column: game N (Event/White/Black): message`."""
        where = f"{filename}:" if filename else ""
        where += f"{self.line}:{self.column}: "
        who = f"game {self.game}" if self.game else ""
        if who and self.label:
            who += f" ({self.label})"
        return f"{where}{who + ': ' if who else ''}{self.message}"

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"{name}({self.message!r}, line={self.line}, column={self.column}, game={self.game})"


class PdnSyntaxError(PdnError):
    """Text that does not follow the PDN grammar (unexpected character, missing terminator, ...)."""


class PdnMoveError(PdnError):
    """A well-formed move that is illegal (or unreadable) in the game's position under its variant's rules."""


class PdnGameError(PdnError):
    """A game-level problem: unknown GameType or variant, bad FEN, inconsistent move numbers or result."""
