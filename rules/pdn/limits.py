"""How much of one line, token and game the PDN reader accepts, so hostile input cannot exhaust memory.

Real files stay far below every limit (the longest line of the PDN 3.0 test corpus has 500 characters,
its largest game a few hundred moves); past a limit the reader reports one precise error and skips the
rest of that game, keeping memory bounded and time linear whatever the input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadLimits:
    """The reader's caps; `PdnReader(lines, limits=ReadLimits(...))` changes them (tests use small ones)."""

    line: int = 100_000
    """Characters in one line of text (a longer line is never read whole into memory)."""
    tag_value: int = 10_000
    """Characters in one tag value (a FEN of a 12x12 board needs a few hundred)."""
    comment: int = 100_000
    """Characters in one comment, over all its lines."""
    game_items: int = 100_000
    """Tags, moves, variations, comments and NAGs in one game."""
    game_chars: int = 10_000_000
    """Characters of one game's text (with the comments before it)."""
    depth: int = 100
    """Variations nested inside variations."""
    messages: int = 100
    """Errors, and warnings, kept per game; the rest are counted in one last message."""


DEFAULT_LIMITS = ReadLimits()
MAX_DIGITS = 5
"""Digits of a move number or a NAG (`$902` is in use; 99999 moves is no game)."""


class OverlongLine(str):
    """The start of a line that was longer than the line limit; the rest of it was never read."""


def excerpt(text: str, start: int, end: int | None = None, width: int = 40) -> str:
    """`text[start:end]` (to the end by default) as messages quote it (like `rules.errors.shorten`), copying
    no more of the text than is shown."""
    end = len(text) if end is None else end
    if end - start <= width:
        return text[start:end]
    return f"{text[start:start + width]}... ({end - start:,} characters)"
