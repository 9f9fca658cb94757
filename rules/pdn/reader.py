"""The PDN reader: a streaming parser that checks the grammar and reports each game to a visitor.

Games are read one at a time from a text stream (any iterable of lines), so memory stays flat however
long the file. Grammar (PDN 3.0 reading grammar): tag pairs, then move text (move numbers `1.`/`1...`,
moves in numeric or algebraic notation with `-`, `x` or `:` separators and optional strength `!?`,
comments `{...}` and `;...`, NAGs `$n`, nested variations `(...)`), then a terminator: a result
(1-0, 0-1, 1/2-1/2, 2-0, 1-1, 0-2, 0-0) or `*`. A game at the end of the input may omit it.
On a syntax error the visitor's `handle_error` is called and the parser skips to the next game.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from rules.pdn import tokens as tk
from rules.pdn.errors import PdnSyntaxError
from rules.pdn.limits import DEFAULT_LIMITS, ReadLimits, excerpt
from rules.pdn.model import PdnGame
from rules.pdn.visitors import SKIP, BaseVisitor, GameBuilder, HeadersVisitor

T = TypeVar("T")
_SCORE = re.compile(r"^\d-\d$")


class PdnReader:
    """Reads games one by one from lines of text: `for game in PdnReader(stream): ...`."""

    def __init__(self, lines: Iterable[str], *, validate: bool = False, variant: str | None = None,
                 limits: ReadLimits = DEFAULT_LIMITS) -> None:
        self._tokens = tk.Tokenizer(lines, limits)
        self._peeked: tk.Token | None = None
        self.games_read = 0
        self.validate = validate
        self.variant = variant
        self.limits = limits

    def __repr__(self) -> str:
        return f"<PdnReader games_read={self.games_read} {self._tokens!r}>"

    def __iter__(self) -> Iterator[PdnGame]:
        while (game := self.read_game()) is not None:
            yield game

    def read_game(self) -> PdnGame | None:
        """The next game as a `PdnGame` (validated if the reader was made with validate=True), or None."""
        return self.read(GameBuilder(validate=self.validate, variant=self.variant, limits=self.limits))

    def read_headers(self) -> dict[str, str] | None:
        """The next game's tags only, skipping its move text quickly, or None at the end."""
        return self.read(HeadersVisitor())

    def _next(self) -> tk.Token | None:
        if self._peeked is not None:
            token, self._peeked = self._peeked, None
            return token
        return self._tokens.next()

    def read(self, visitor: BaseVisitor[T]) -> T | None:
        """Feed the next game to `visitor` and return `visitor.result()`, or None when no game is left."""
        start = self._tokens.chars_read
        token = self._next()
        leading: list[tk.Token] = []
        while token is not None and token.kind == tk.COMMENT and len(leading) < self.limits.game_items:
            leading.append(token)
            token = self._next()
        if token is None:
            return None  # only comments left: they belong to no game
        self.games_read += 1
        visitor.begin_game(self.games_read, (leading[0] if leading else token).line)
        for comment in leading:
            visitor.visit_comment(str(comment.value), comment.line, comment.column)
        self._game(visitor, token, _Budget(self.limits, start, len(leading)))
        visitor.end_game()
        return visitor.result()

    def _fail(self, visitor: BaseVisitor[T], message: str, token: tk.Token) -> None:
        visitor.handle_error(PdnSyntaxError(message, token.line, token.column, game=self.games_read))
        # resynchronise: skip to the next line starting with a tag pair
        self._peeked = None
        self._tokens.skip_game()

    def _game(self, visitor: BaseVisitor[T], token: tk.Token | None, budget: _Budget) -> None:
        in_tags = True
        seen: set[str] = set()
        last_move: tk.Token | None = None
        skipping = False
        has_body = False
        number: tk.Token | None = None
        soft = False  # `12. ...`: the number may be followed by comments (no move known)
        opened: list[tk.Token] = []  # open '(' tokens
        line_has_move = [False]
        while token is not None:
            kind = token.kind
            if kind in _STORED and (too_big := budget.spend(self._tokens.chars_read)):
                self._fail(visitor, too_big, token)
                return
            if kind == tk.TAG:
                if not in_tags:
                    if has_body or number is not None:
                        self._peeked = token
                        what = (f"move number {number.value!r} without a move" if number
                                else "no result or '*'")
                        hint = ""
                        if last_move is not None and _SCORE.match(str(last_move.value)):
                            hint = (f" (its last move {last_move.value!r} looks like a score; results are "
                                    "1-0, 0-1, 1/2-1/2, 2-0, 1-1, 0-2 or *)")
                        self._fail_at_boundary(visitor, f"game ends with {what} before the tag pair "
                                               f"at line {token.line}, column {token.column}{hint}",
                                               number or token)
                        return
                    self._peeked = token  # a game of comments only: start again at the tags
                    return
                name, value = typing.cast(tuple[str, str], token.value)
                if name in seen:  # a second header: the previous game (tags only) lacked its terminator
                    self._peeked = token
                    self._fail_at_boundary(visitor, f"game has only tags and no result or '*' before the "
                                           f"repeated tag pair [{name}] at line {token.line}, column "
                                           f"{token.column}", token)
                    return
                seen.add(name)
                visitor.visit_tag_at(name, value, token.line, token.column)
                token = self._next()
                continue
            if kind == tk.ERROR:
                self._fail(visitor, str(token.value), token)
                return
            if in_tags and kind == tk.COMMENT:
                visitor.visit_comment(str(token.value), token.line, token.column)
                token = self._next()
                continue
            if in_tags:
                in_tags = False
                if visitor.end_tags() is SKIP:
                    skipping = True
            if kind == tk.RESULT:
                if opened:
                    self._fail(visitor, f"result {token.value} inside the variation opened at line "
                               f"{opened[-1].line}, column {opened[-1].column}", token)
                    return
                if not skipping:
                    visitor.visit_result_at(str(token.value), token.line, token.column)
                return
            if skipping:
                self._tokens.skip_game()
                token = self._next()
                if token is not None and token.kind != tk.TAG:
                    # the skip stopped inside a line; keep scanning tokens
                    continue
                if token is not None:
                    self._peeked = token
                return
            has_body = True
            if number is not None and kind not in (tk.MOVE, tk.ELLIPSIS) and not (
                    soft and kind in (tk.COMMENT, tk.NAG)):
                self._fail(visitor, f"move number {number.value!r} is not followed by a move "
                           f"(found {_describe(token)})", token)
                return
            if kind == tk.MOVE:
                if number is not None:
                    text = str(number.value)
                    visitor.visit_number(int(text.rstrip(".")), text.endswith("..."), number.line,
                                         number.column)
                    number = None
                visitor.visit_move(str(token.value), token.extra, token.line, token.column)
                last_move = token
                line_has_move[-1] = True
            elif kind == tk.NUMBER:
                number, soft = token, False
            elif kind == tk.ELLIPSIS:
                if number is not None and not str(number.value).endswith("..."):
                    number = number._replace(value=f"{number.value}..")
                soft = True
            elif kind == tk.COMMENT:
                visitor.visit_comment(str(token.value), token.line, token.column)
            elif kind == tk.NAG:
                visitor.visit_nag(int(token.value), token.line, token.column)  # type: ignore[call-overload]
            elif kind == tk.LPAREN:
                if not line_has_move[-1]:
                    self._fail(visitor, "'(' opens a variation before any move it could replace", token)
                    return
                if len(opened) >= self.limits.depth:
                    self._fail(visitor, f"variation nested more than {self.limits.depth} deep (the outermost "
                               f"opened at line {opened[0].line}, column {opened[0].column})", token)
                    return
                opened.append(token)
                line_has_move.append(False)
                visitor.begin_variation(token.line, token.column)
            elif kind == tk.RPAREN:
                if not opened:
                    self._fail(visitor, "')' without an open variation", token)
                    return
                if not line_has_move[-1]:
                    self._fail(visitor, "empty variation '()'", token)
                    return
                opened.pop()
                line_has_move.pop()
                visitor.end_variation()
            elif kind == tk.SETUP:
                visitor.visit_setup(str(token.value), token.line, token.column)
            token = self._next()
        # end of input
        if in_tags:
            visitor.end_tags()
        if opened:
            visitor.handle_error(PdnSyntaxError(
                f"variation opened at line {opened[-1].line}, column {opened[-1].column} is never closed",
                opened[-1].line, opened[-1].column, game=self.games_read))
        elif number is not None and not soft:
            shown = excerpt(str(number.value), 0)
            message = f"move number '{shown}' without a move at the end of the input"
            visitor.handle_error(PdnSyntaxError(message, number.line, number.column, game=self.games_read))

    def _fail_at_boundary(self, visitor: BaseVisitor[T], message: str, token: tk.Token) -> None:
        visitor.handle_error(PdnSyntaxError(message, token.line, token.column, game=self.games_read))


_STORED = frozenset({tk.TAG, tk.MOVE, tk.LPAREN, tk.COMMENT, tk.NAG})  # what a game model keeps


class _Budget:
    """What one game may hold: at most `limits.game_items` stored items and `limits.game_chars` characters."""

    def __init__(self, limits: ReadLimits, start: int, used: int = 0) -> None:
        self.limits, self.start, self.used = limits, start, used

    def __repr__(self) -> str:
        return f"<_Budget used={self.used} of {self.limits.game_items}>"

    def spend(self, chars_read: int) -> str | None:
        """Take one item; the reason the game is too big, or None while it is not."""
        self.used += 1
        if self.used > self.limits.game_items:
            return (f"game holds more than the {self.limits.game_items:,} tags, moves, variations, comments "
                    "and NAGs allowed; the rest of it is skipped")
        if chars_read - self.start > self.limits.game_chars:
            return (f"game longer than the {self.limits.game_chars:,} characters allowed; the rest of it is "
                    "skipped")
        return None


def _describe(token: tk.Token) -> str:
    if token.kind == tk.TAG:
        return "a tag pair"
    if token.kind == tk.COMMENT:
        return "a comment"
    return repr(str(token.value))


def iter_games(lines: Iterable[str], *, validate: bool = False,
               variant: str | None = None) -> Iterator[PdnGame]:
    """Every game of a text stream, one at a time."""
    return iter(PdnReader(lines, validate=validate, variant=variant))


def read_game(lines: Iterable[str], *, validate: bool = False, variant: str | None = None) -> PdnGame | None:
    """The first game of a stream (use `PdnReader` to read several from the same stream)."""
    return PdnReader(lines, validate=validate, variant=variant).read_game()


def read_games(text: str, *, validate: bool = False, variant: str | None = None) -> list[PdnGame]:
    """All games of a PDN string."""
    return list(PdnReader(text_lines(text), validate=validate, variant=variant))


def text_lines(text: str) -> Iterator[str]:
    """The lines of a string, one at a time (the reader splits them again at lone CRs)."""
    start = 0
    while (end := text.find("\n", start)) != -1:
        yield text[start:end]
        start = end + 1
    if start < len(text):
        yield text[start:]


def scan(lines: Iterable[str],
         visitor_factory: Callable[[], BaseVisitor[Any]] = HeadersVisitor) -> Iterator[Any]:
    """Run a fresh visitor over every game (e.g. `HeadersVisitor` for a fast index of a big file)."""
    reader = PdnReader(lines)
    while (result := reader.read(visitor_factory())) is not None:
        yield result
