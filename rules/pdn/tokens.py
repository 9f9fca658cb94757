"""The PDN tokenizer: turns lines of text into (kind, value, line, column) tokens, one line at a time.

It never holds more than the current line (plus the lines of an open comment), so reading is streaming.
Moves are normalised (leading zeros dropped, a capture's `:` read as PDN 3.0's `x`); `%` lines are escapes
and skipped as PGN prescribes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from rules.errors import shorten
from rules.notation import pdn_text
from rules.pdn.limits import DEFAULT_LIMITS, MAX_DIGITS, OverlongLine, ReadLimits, excerpt

TAG, COMMENT, LPAREN, RPAREN, NAG, RESULT, NUMBER, ELLIPSIS, MOVE, SETUP, ERROR = (
    "tag", "comment", "(", ")", "nag", "result", "number", "...", "move", "setup", "error")

_SQUARE = r"(?:[a-l](?:1[0-2]|[1-9])|[0-9]{1,2})"
# Possessive quantifiers (`*+`) never backtrack: a tag value or a run of digits costs no regex stack.
_TAG_HEAD = r'\[[ \t]*+(?P<tname>[A-Za-z0-9_]++)[ \t]*+"'
_TAG_VALUE = r'(?P<tval>[^"\\]*+(?:\\.[^"\\]*+)*+)'
_TOKEN = re.compile(
    r"""[ \t\r\n\f\v\u00a0\ufeff]++
    |(?P<tag>TAGHEAD TAGVALUE"[ \t]*+\])
    |(?P<lbrace>\{)
    |(?P<semi>;.*)
    |(?P<lpar>\()|(?P<rpar>\))
    |(?P<nag>\$[0-9]++)
    |(?P<result>(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)(?![\w/.:-]))
    |(?P<num>[0-9]++\.(?:\.\.)?)
    |(?P<ellipsis>\.\.\.)
    |(?P<move>(?:SQ(?:[-x:][ \t]?SQ)++|[a-h][1-8][a-h][1-8]))(?P<strength>[!?]++|\([!?]++\))?(?![\w])
    |(?P<setup>/[^/]*+/)
    """.replace("SQ", _SQUARE).replace("TAGHEAD", _TAG_HEAD).replace("TAGVALUE", _TAG_VALUE),
    re.VERBOSE | re.ASCII,
)
_MOVE_TEXT = re.compile(r"SQ(?:[-x:]SQ)++|[a-h][1-8][a-h][1-8]".replace("SQ", _SQUARE), re.ASCII)
_TAG_OPEN = re.compile(_TAG_HEAD + _TAG_VALUE + '(?P<close>"?)', re.ASCII)
_WORD = re.compile(r"\S++")
_TAG_LINE = re.compile(r"[ \t\f\v\u00a0\ufeff]*+\[")
_ESCAPE = re.compile(r'\\([\\"])')  # other backslashes are kept as written
_LEADING_ZERO = re.compile(r"(?<![\da-l])0+(?=\d)", re.ASCII)


class Token(NamedTuple):
    """One token: its kind, its value (text, or (name, value) for a tag), and where it starts."""

    kind: str
    value: object
    line: int
    column: int
    extra: str = ""  # a move's strength indicator


def unescape(value: str) -> str:
    """A tag value with PDN's escapes `\\"` and `\\\\` resolved."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


def normalise_comment(text: str) -> str:
    """Comment text with runs of white space made single spaces (line wrapping is not content)."""
    return " ".join(text.split())


def is_move_text(text: str) -> bool:
    """Whether `text` is one move as PDN writes it (``32-28``, ``19x28x37``, ``d4:f6``): nothing else can
    stand where the writer puts a move without changing what the text means."""
    return _MOVE_TEXT.fullmatch(text) is not None


class Tokenizer:
    """Reads tokens from an iterable of text lines; `skip_game()` jumps to the next tag line quickly.

    Lines end at LF, CR LF or a lone CR whatever the iterable split on. A line, tag value or comment over
    its limit (`ReadLimits`) becomes one ERROR token without being copied; `chars_read` counts the input read.
    """

    def __init__(self, lines: Iterable[str], limits: ReadLimits = DEFAULT_LIMITS) -> None:
        self._lines: Iterator[str] = iter(lines)
        self._split: list[str] = []  # the rest of an input line that held lone CRs, last part first
        self.limits = limits
        self._text = ""
        self._pos = 0
        self._overlong = False
        self.line_no = 0
        self.chars_read = 0

    def __repr__(self) -> str:
        return f"<Tokenizer at line {self.line_no}, column {self._pos + 1}>"

    def _next_line(self) -> bool:
        """Move to the next line that is not a `%` escape line; at the end, clear the text."""
        while self._next_line_raw():
            if self._overlong or not self._text.startswith("%"):
                return True
        self._text = ""
        self._pos = 0
        return False

    def next(self) -> Token | None:
        """The next token, or None at the end of the input."""
        while True:
            text, pos = self._text, self._pos
            if pos >= len(text):
                if not self._next_line():
                    return None
                if self._overlong:
                    return self._overlong_error()
                continue
            m = _TOKEN.match(text, pos)
            if m is None:
                return self._error(pos)
            self._pos = m.end()
            kind = m.lastgroup
            if kind is None:  # white space
                continue
            col = pos + 1
            if kind == "move" or kind == "strength":
                move = m.group("move")
                if " " in move or "\t" in move:
                    move = move.replace(" ", "").replace("\t", "")
                if "0" in move:
                    move = _LEADING_ZERO.sub("", move)
                if ":" in move:
                    move = pdn_text(move)
                return Token(MOVE, move, self.line_no, col, m.group("strength") or "")
            if kind == "num":
                return self._number(NUMBER, m.group("num"), col)
            if kind == "tag":  # (the enclosing group closes last, so never "tname"/"tval")
                return self._tag(m.group("tname"), m.group("tval"), col)
            if kind == "result":
                return Token(RESULT, m.group("result"), self.line_no, col)
            if kind == "lbrace":
                return self._comment(pos)
            if kind == "semi":
                if m.end() - m.start() > self.limits.comment:
                    return Token(ERROR, self._too_long("comment", m.end() - m.start(), self.limits.comment),
                                 self.line_no, col)
                return Token(COMMENT, normalise_comment(m.group("semi")[1:]), self.line_no, col)
            if kind == "lpar":
                return Token(LPAREN, "(", self.line_no, col)
            if kind == "rpar":
                return Token(RPAREN, ")", self.line_no, col)
            if kind == "nag":
                return self._number(NAG, m.group("nag"), col)
            if kind == "ellipsis":
                return Token(ELLIPSIS, "...", self.line_no, col)
            return Token(SETUP, m.group("setup")[1:-1], self.line_no, col)

    @staticmethod
    def _too_long(what: str, length: int, limit: int) -> str:
        return f"{what} of {length:,} characters is longer than the {limit:,} allowed"

    def _number(self, kind: str, text: str, col: int) -> Token:
        """A move number `12.`/`12...` (value: its text) or a NAG `$12` (value: the int), if short enough."""
        digits = text.strip("$.").lstrip("0")
        if len(digits) > MAX_DIGITS:
            what = "NAG" if kind == NAG else "move number"
            return Token(ERROR, f"{what} {shorten(text, 12)!r} is out of range: at most {MAX_DIGITS} digits",
                         self.line_no, col)
        return Token(kind, int(digits or "0") if kind == NAG else text, self.line_no, col)

    def _tag(self, name: str, raw: str, col: int) -> Token:
        if len(raw) > self.limits.tag_value:
            return Token(ERROR, self._too_long(f"value of tag [{name}]", len(raw), self.limits.tag_value),
                         self.line_no, col)
        return Token(TAG, (name, unescape(raw)), self.line_no, col)

    def _overlong_error(self) -> Token:
        shown = shorten(self._text, 20)
        self._text, self._pos = "", 0
        return Token(ERROR, f"line longer than the {self.limits.line:,} characters allowed (it starts "
                     f"{shown!r}); the rest of its game is skipped", self.line_no, 1)

    def _error(self, pos: int) -> Token:
        text = self._text
        col = pos + 1
        self._pos = len(text)  # give up on the rest of the line
        ch = text[pos]
        if ch == "[":
            return Token(ERROR, _tag_problem(text, pos), self.line_no, col)
        if ch == "}":
            return Token(ERROR, "'}' without an opening '{'", self.line_no, col)
        word = _WORD.match(text, pos)
        shown = excerpt(text, pos, word.end() if word else pos + 1)
        odd_digit = next((c for c in shown if c.isdigit() and not c.isascii()), None)
        if odd_digit is not None:
            why = f"{odd_digit!r} is not one of the digits 0-9"
        elif shown == "-" or shown.startswith("--"):
            why = "an unknown move written '-' is not PDN"
        elif shown[0] == ".":
            why = "a '.' that is not part of a move number"
        elif shown[0] == "$":
            why = "a NAG is '$' and digits 0-9"
        elif shown[0].isdigit() or shown[0] in "abcdefghijkl":
            why = "not a move, a move number or a result"
        else:
            why = f"unexpected character {ch!r}"
        return Token(ERROR, f"unexpected {shown!r}: {why}", self.line_no, col)

    def _comment(self, pos: int) -> Token:
        start_line, start_col = self.line_no, pos + 1
        parts: list[str] = []
        size = 0
        text, i = self._text, pos + 1
        while True:
            close = text.find("}", i)
            nested = text.find("{", i)
            if nested != -1 and (close == -1 or nested < close):
                self._pos = len(text)
                return Token(ERROR, f"'{{' inside the comment opened at line {start_line}, column {start_col}"
                             " (comments cannot nest)", self.line_no, nested + 1)
            size += (close if close != -1 else len(text)) - i
            if size > self.limits.comment:
                return self._skip_comment(start_line, start_col, close, text)
            if close != -1:
                parts.append(text[i:close])
                self._pos = close + 1
                return Token(COMMENT, normalise_comment(" ".join(parts)), start_line, start_col)
            parts.append(text[i:])
            if not self._next_line_raw() or self._overlong:
                self._text, self._pos = "", 0
                why = "a line over the limit" if self._overlong else "the end of the input"
                return Token(ERROR, f"comment never closed: '}}' expected before {why}",
                             start_line, start_col)
            text, i = self._text, 0

    def _skip_comment(self, line: int, column: int, close: int, text: str) -> Token:
        """Pass over the rest of a comment that is too long, keeping none of it."""
        message = (f"comment opened at line {line}, column {column} is longer than the "
                   f"{self.limits.comment:,} characters allowed")
        while close == -1:
            if not self._next_line_raw():
                self._text, self._pos = "", 0
                return Token(ERROR, message, line, column)
            text = self._text
            close = -1 if self._overlong else text.find("}")
        self._pos = close + 1
        return Token(ERROR, message, line, column)

    def _next_line_raw(self) -> bool:
        """Move to the next line whatever it holds (inside comments `%` is just text)."""
        self._pos = 0
        if self._split:
            self._set_line(self._split.pop())
            return True
        for raw in self._lines:
            self.chars_read += len(raw)
            if raw.endswith("\n"):
                raw = raw[:-2] if raw.endswith("\r\n") else raw[:-1]
            if "\r" in raw and not isinstance(raw, OverlongLine):
                self._split = raw.split("\r")[::-1]
                raw = self._split.pop()
            self._set_line(raw)
            return True
        return False

    def _set_line(self, text: str) -> None:
        self.line_no += 1
        self._overlong = isinstance(text, OverlongLine) or len(text) > self.limits.line
        self._text = text

    def skip_game(self) -> None:
        """Skip movetext quickly up to the next line starting with '[' outside a comment."""
        text, pos = self._text, self._pos
        in_comment = False
        while True:
            if in_comment:
                close = text.find("}", pos)
                if close == -1:
                    if not self._next_line_raw():
                        self._text, self._pos = "", 0
                        return
                    text, pos = self._text, 0
                    continue
                in_comment, pos = False, close + 1
            # outside a comment: look for '{' on this line
            if pos == 0 and not self._overlong and _TAG_LINE.match(text):
                self._pos = 0
                return
            brace = text.find("{", pos)
            semi = text.find(";", pos)
            if brace != -1 and (semi == -1 or brace < semi) and not self._overlong:
                in_comment, pos = True, brace + 1
                continue
            if not self._next_line_raw():
                self._text, self._pos = "", 0
                return
            text, pos = self._text, 0


def _tag_problem(text: str, pos: int) -> str:
    """Why the text at `pos` (a '[') is not a tag pair, as precisely as can be said."""
    m = _TAG_OPEN.match(text, pos)
    shown = excerpt(text.rstrip(), pos)
    if m is None:
        return f"malformed tag pair {shown!r}: expected [Name \"value\"]"
    if not m.group("close"):
        return (f"malformed tag pair {shown!r}: the value of [{m.group('tname')}] is never closed "
                "('\"' expected before the end of the line)")
    return f"malformed tag pair {shown!r}: ']' expected after the value of [{m.group('tname')}]"
