"""Visitors receiving the parser's events (python-chess style): build PdnGame models, or just scan headers.

The parser checks the grammar; a visitor decides what to keep. `GameBuilder` builds a `PdnGame` (and, when
asked, validates it against the rules); `HeadersVisitor` returns only the tags and skips move text fast.
"""

from __future__ import annotations

import re
from typing import Generic, TypeVar

from rules.pdn.errors import PdnError, PdnGameError, PdnSyntaxError
from rules.pdn.limits import DEFAULT_LIMITS, ReadLimits, excerpt
from rules.pdn.model import GLYPH_NAGS, ClockComment, Line, MoveNode, PdnGame
from rules.pieces import Color
from rules.variants import VARIANTS

T = TypeVar("T")
SKIP = object()  # returned by `end_tags` to skip the move text of the game

_CLOCK = re.compile(r"\[%clock\s+w(\d{1,6}):(\d\d):(\d\d)\s+b(\d{1,6}):(\d\d):(\d\d)\s*\]", re.ASCII)
_WALL = re.compile(r"\[%wall\s+([^\]\s]+)\s*\]")
# GameType numbers whose first player is Black (docs/rules/README.md): English, American pool, Thai, and the
# private numbers of the project's variants that Black starts
_FIRST_BLACK = {"23"} | {v.pdn_gametype.split(",")[0] for v in VARIANTS.values() if v.first == Color.BLACK}


class BaseVisitor(Generic[T]):
    """Receives one game's events in text order; `result()` gives what was built."""

    def begin_game(self, number: int, line: int) -> None:
        """A new game starts (1-based number in the file, at this line)."""

    def visit_tag(self, name: str, value: str) -> None:
        """A tag pair."""

    def visit_tag_at(self, name: str, value: str, line: int, column: int) -> None:
        """A tag pair with its position; by default calls `visit_tag`."""
        self.visit_tag(name, value)

    def visit_result_at(self, result: str, line: int, column: int) -> None:
        """The terminator with its position; by default calls `visit_result`."""
        self.visit_result(result)

    def end_tags(self) -> object | None:
        """The tag section is over; return SKIP to skip the move text."""
        return None

    def visit_number(self, number: int, dots: bool, line: int, column: int) -> None:
        """A move number `12.` (dots False) or `12...` (dots True)."""

    def visit_move(self, text: str, strength: str, line: int, column: int) -> None:
        """A move, with its move-strength indicator ("" if none)."""

    def visit_comment(self, text: str, line: int, column: int) -> None:
        """A `{...}` or `;` comment."""

    def visit_nag(self, nag: int, line: int, column: int) -> None:
        """A numeric annotation glyph `$n`."""

    def begin_variation(self, line: int, column: int) -> None:
        """A `(` opening an alternative to the last move."""

    def end_variation(self) -> None:
        """A `)` closing the current variation."""

    def visit_setup(self, text: str, line: int, column: int) -> None:
        """A PDN 3.0 `/FEN "..."/` set-up command."""

    def visit_result(self, result: str) -> None:
        """The game terminator (a result or `*`)."""

    def handle_error(self, error: PdnError) -> None:
        """A syntax error in this game; the parser then skips to the next game."""
        raise error

    def end_game(self) -> None:
        """The game is over."""

    def result(self) -> T:
        """What this visitor built."""
        raise NotImplementedError


class HeadersVisitor(BaseVisitor[dict[str, str]]):
    """Collects the tags of a game and skips its move text (fast scanning of big files)."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.errors: list[PdnError] = []

    def visit_tag(self, name: str, value: str) -> None:
        self.tags[name] = value

    def end_tags(self) -> object:
        return SKIP

    def handle_error(self, error: PdnError) -> None:
        self.errors.append(error)

    def result(self) -> dict[str, str]:
        return self.tags


def default_start_ply(tags: dict[str, str]) -> int:
    """1 when a FEN gives the move to the player who does not start this variant, else 0."""
    fen = tags.get("FEN", "").strip()
    if not fen or fen[0].upper() not in "WB":
        return 0
    gametype = tags.get("GameType", "20").strip()
    parts = gametype.split(",")
    first = parts[1].strip().upper() if len(parts) > 1 else ("B" if parts[0].strip() in _FIRST_BLACK else "W")
    return 0 if fen[0].upper() == first else 1


class GameBuilder(BaseVisitor[PdnGame]):
    """Builds a `PdnGame`; with `validate=True` checks every move against the rules (rules.pdn.validate)."""

    def __init__(self, *, validate: bool = False, variant: str | None = None,
                 limits: ReadLimits = DEFAULT_LIMITS) -> None:
        self.validate = validate
        self.default_variant = variant
        self.limits = limits
        self.game = PdnGame()
        self._stack: list[tuple[Line, int]] = []  # (line, ply of its next move)
        self._number: tuple[int, bool, int, int] | None = None
        self._numbered = False
        self._unlisted = 0  # warnings past the limit, counted only

    def __repr__(self) -> str:
        return f"<GameBuilder validate={self.validate} variant={self.default_variant!r}>"

    def begin_game(self, number: int, line: int) -> None:
        self.game = PdnGame(number=number, line=line)
        self._stack = [(self.game.mainline, 0)]
        self._number = None
        self._numbered = False
        self._unlisted = 0

    def visit_tag(self, name: str, value: str) -> None:
        self.game.tags[name] = value

    def visit_tag_at(self, name: str, value: str, line: int, column: int) -> None:
        """A tag pair with its position (kept for precise messages about GameType, FEN...)."""
        self.game.tags[name] = value
        self.game.tag_positions[name] = (line, column)

    def end_tags(self) -> None:
        self.game.start_ply = default_start_ply(self.game.tags)
        self._stack = [(self.game.mainline, self.game.start_ply)]
        return None

    def _error(self, cls: type[PdnError], message: str, line: int, column: int) -> None:
        self.game.errors.append(cls(message, line, column, game=self.game.number, label=self.game.label()))

    def _warn(self, message: str, line: int, column: int) -> None:
        if len(self.game.warnings) > self.limits.messages:  # (one more than kept: end_game counts the rest)
            self._unlisted += 1
            return
        self.game.warnings.append(PdnSyntaxError(message, line, column, game=self.game.number,
                                                 label=self.game.label()))

    def visit_number(self, number: int, dots: bool, line: int, column: int) -> None:
        self._number = (number, dots, line, column)

    def visit_move(self, text: str, strength: str, line: int, column: int) -> None:
        current, ply = self._stack[-1]
        if self._number is not None:
            number, dots, nline, ncol = self._number
            self._number = None
            if not self._numbered and len(self._stack) == 1 and not current.moves:
                # the first number of the game fixes the numbering (a game may start at move 25)
                ply = 2 * (number - 1) + (1 if dots else ply % 2)
                self.game.start_ply = ply
            elif number != ply // 2 + 1 or (dots and ply % 2 == 0):
                slot = "second" if ply % 2 else "first"
                want = f"{ply // 2 + 1}{'...' if ply % 2 else '.'}"
                self._warn(f"bad move number {number}{'...' if dots else '.'}: {text} is the "
                            f"{slot} player's move of move {ply // 2 + 1} (expected {want})", nline, ncol)
            self._numbered = True
        node = MoveNode(text, line=line, column=column)
        if strength:
            nag = GLYPH_NAGS.get(strength)
            if nag is None:
                node.strength = strength
            else:
                node.nags.append(nag)
        current.moves.append(node)
        self._stack[-1] = (current, ply + 1)

    def visit_comment(self, text: str, line: int, column: int) -> None:
        current, _ = self._stack[-1] if self._stack else (self.game.mainline, 0)
        if current.moves and current.moves[-1].clock is None and "[%" in text:
            node = current.moves[-1]
            clock = _CLOCK.search(text)
            wall = _WALL.search(text)
            if clock:
                h1, m1, s1, h2, m2, s2 = (int(g) for g in clock.groups())
                node.clock = ClockComment(h1 * 3600 + m1 * 60 + s1, h2 * 3600 + m2 * 60 + s2,
                                   wall.group(1) if wall else None)
                text = _CLOCK.sub("", text, count=1)
                if wall:
                    text = _WALL.sub("", text, count=1)
                text = " ".join(text.split())
                if not text:
                    return
        (current.moves[-1].comments if current.moves else current.comments).append(text)

    def visit_nag(self, nag: int, line: int, column: int) -> None:
        current, _ = self._stack[-1]
        if not current.moves:
            self._error(PdnSyntaxError, f"NAG ${nag} before any move", line, column)
            return
        current.moves[-1].nags.append(nag)

    def begin_variation(self, line: int, column: int) -> None:
        current, ply = self._stack[-1]
        variation = Line()
        current.moves[-1].variations.append(variation)
        self._stack.append((variation, ply - 1))

    def end_variation(self) -> None:
        self._stack.pop()

    def visit_setup(self, text: str, line: int, column: int) -> None:
        shown = excerpt(text, 0)   # a hostile set-up command may be megabytes: the message quotes its start
        self._error(PdnSyntaxError, f"set-up command /{shown}/ inside a game is not supported", line, column)

    def visit_result(self, result: str) -> None:
        self.game.result = result

    def visit_result_at(self, result: str, line: int, column: int) -> None:
        """The terminator with its position."""
        self.game.result = result
        self.game.result_position = (line, column)

    def handle_error(self, error: PdnError) -> None:
        error.game, error.label = self.game.number, self.game.label()
        error.args = (error.describe(),)
        self.game.errors.append(error)

    def end_game(self) -> None:
        if self.validate:
            from rules.pdn.validate import validate_game

            try:
                validate_game(self.game, self.default_variant)
            except PdnError as exc:  # pragma: no cover - validate_game records its errors itself
                self.game.errors.append(exc)
        _keep_first(self.game.errors, self.limits.messages, "errors")
        _keep_first(self.game.warnings, self.limits.messages, "warnings", self._unlisted)

    def result(self) -> PdnGame:
        return self.game


def _keep_first(messages: list[PdnError], limit: int, kind: str, unlisted: int = 0) -> None:
    """Cut `messages` to `limit`, then one message saying how many more there were (and where they start)."""
    if len(messages) <= limit:
        return
    first = messages[limit]
    more = len(messages) - limit + unlisted
    del messages[limit:]
    messages.append(PdnError(f"and {more:,} more {kind} in this game", first.line, first.column,
                             game=first.game, label=first.label))


__all__ = ["SKIP", "BaseVisitor", "GameBuilder", "HeadersVisitor", "PdnGameError", "default_start_ply"]
