"""The PDN tokenizer: turns lines of text into (kind, value, line, column) tokens, one line at a time.

It never holds more than the current line (plus the lines of an open comment), so reading is streaming.
Squares are normalised (leading zeros dropped); `%` lines are escapes and skipped as PGN prescribes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

TAG, COMMENT, LPAREN, RPAREN, NAG, RESULT, NUMBER, ELLIPSIS, MOVE, SETUP, ERROR = (
    "tag", "comment", "(", ")", "nag", "result", "number", "...", "move", "setup", "error")

_SQUARE = r"(?:[a-l](?:1[0-2]|[1-9])|\d{1,2})"
_TOKEN = re.compile(
    r"""[ \t\r\n\f\v\u00a0\ufeff]+
    |(?P<tag>\[[ \t]*(?P<tname>[A-Za-z0-9_]+)[ \t]*"(?P<tval>(?:[^"\\]|\\.)*)"[ \t]*\])
    |(?P<lbrace>\{)
    |(?P<semi>;.*)
    |(?P<lpar>\()|(?P<rpar>\))
    |(?P<nag>\$\d+)
    |(?P<result>(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)(?![\w/.:-]))
    |(?P<num>\d+\.(?:\.\.)?)
    |(?P<ellipsis>\.\.\.)
    |(?P<move>(?:SQ(?:[-x:][ \t]?SQ)+|[a-h][1-8][a-h][1-8]))(?P<strength>[!?]+|\([!?]+\))?(?![\w])
    |(?P<setup>/[^/]*/)
    """.replace("SQ", _SQUARE),
    re.VERBOSE,
)
_LEADING_ZERO = re.compile(r"(?<![\da-l])0+(?=\d)")


class Token(NamedTuple):
    """One token: its kind, its value (text, or (name, value) for a tag), and where it starts."""

    kind: str
    value: object
    line: int
    column: int
    extra: str = ""  # a move's strength indicator


def unescape(value: str) -> str:
    """A tag value with PDN's escapes `\\"` and `\\\\` resolved."""
    return value.replace('\\"', '"').replace("\\\\", "\\") if "\\" in value else value


def normalise_comment(text: str) -> str:
    """Comment text with runs of white space made single spaces (line wrapping is not content)."""
    return " ".join(text.split())


class Tokenizer:
    """Reads tokens from an iterable of text lines; `skip_game()` jumps to the next tag line quickly."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines: Iterator[str] = iter(lines)
        self._text = ""
        self._pos = 0
        self.line_no = 0

    def __repr__(self) -> str:
        return f"<Tokenizer at line {self.line_no}, column {self._pos + 1}>"

    def _next_line(self) -> bool:
        """Move to the next line that is not a `%` escape line; at the end, clear the text."""
        while self._next_line_raw():
            if not self._text.startswith("%"):
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
                return Token(MOVE, move, self.line_no, col, m.group("strength") or "")
            if kind == "num":
                return Token(NUMBER, m.group("num"), self.line_no, col)
            if kind == "tag":  # (the enclosing group closes last, so never "tname"/"tval")
                return Token(TAG, (m.group("tname"), unescape(m.group("tval"))), self.line_no, col)
            if kind == "result":
                return Token(RESULT, m.group("result"), self.line_no, col)
            if kind == "lbrace":
                return self._comment(pos)
            if kind == "semi":
                return Token(COMMENT, normalise_comment(m.group("semi")[1:]), self.line_no, col)
            if kind == "lpar":
                return Token(LPAREN, "(", self.line_no, col)
            if kind == "rpar":
                return Token(RPAREN, ")", self.line_no, col)
            if kind == "nag":
                return Token(NAG, int(m.group("nag")[1:]), self.line_no, col)
            if kind == "ellipsis":
                return Token(ELLIPSIS, "...", self.line_no, col)
            return Token(SETUP, m.group("setup")[1:-1], self.line_no, col)

    def _error(self, pos: int) -> Token:
        text = self._text
        col = pos + 1
        self._pos = len(text)  # give up on the rest of the line
        ch = text[pos]
        if ch == "[":
            return Token(ERROR, f"malformed tag pair {text[pos:].strip()!r}: expected [Name \"value\"]",
                         self.line_no, col)
        if ch == "}":
            return Token(ERROR, "'}' without an opening '{'", self.line_no, col)
        word = re.match(r"\S+", text[pos:])
        shown = word.group() if word else ch
        if shown == "-" or shown.startswith("--"):
            why = "an unknown move written '-' is not PDN"
        elif shown[0] == ".":
            why = "a '.' that is not part of a move number"
        elif shown[0].isdigit() or shown[0] in "abcdefghijkl":
            why = "not a move, a move number or a result"
        else:
            why = f"unexpected character {ch!r}"
        return Token(ERROR, f"unexpected {shown!r}: {why}", self.line_no, col)

    def _comment(self, pos: int) -> Token:
        start_line, start_col = self.line_no, pos + 1
        parts: list[str] = []
        text, i = self._text, pos + 1
        while True:
            close = text.find("}", i)
            nested = text.find("{", i)
            if nested != -1 and (close == -1 or nested < close):
                self._pos = len(text)
                return Token(ERROR, f"'{{' inside the comment opened at line {start_line}, column {start_col}"
                             " (comments cannot nest)", self.line_no, nested + 1)
            if close != -1:
                parts.append(text[i:close])
                self._pos = close + 1
                return Token(COMMENT, normalise_comment(" ".join(parts)), start_line, start_col)
            parts.append(text[i:])
            if not self._next_line_raw():
                self._text, self._pos = "", 0
                return Token(ERROR, "comment never closed: '}' expected before the end of the input",
                             start_line, start_col)
            text, i = self._text, 0

    def _next_line_raw(self) -> bool:
        """Move to the next line whatever it holds (inside comments `%` is just text)."""
        for raw in self._lines:
            self.line_no += 1
            self._text = raw.rstrip("\r\n")
            self._pos = 0
            return True
        return False

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
            if pos == 0 and text.lstrip().startswith("["):
                self._pos = 0
                return
            brace = text.find("{", pos)
            semi = text.find(";", pos)
            if brace != -1 and (semi == -1 or brace < semi):
                in_comment, pos = True, brace + 1
                continue
            if not self._next_line_raw():
                self._text, self._pos = "", 0
                return
            text, pos = self._text, 0
