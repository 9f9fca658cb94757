"""A TOML file that may be anything a person or a broken card left there: a regular file of bounded size
(`read_bytes`), UTF-8, arrays and inline tables nested at most `MAX_DEPTH` deep (tomllib recurses once a
level: 100,000 of them were a RecursionError) and numbers int() can read. Every failure is one `ReadError`
naming the file, the line and column, and what was wrong."""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from readers.files import MIB, ReadError, read_bytes

MAX_DEPTH = 100
"""Arrays and inline tables nested deeper are refused (a setting is a plain value)."""


@dataclass(frozen=True)
class TomlFile:
    """A TOML file read: its path, text and table, and where each of its top-level keys is written."""

    path: Path
    text: str
    data: dict[str, Any]

    @cached_property
    def lines(self) -> dict[str, int]:
        """The line (from 1) of each top-level key: ``key = ...`` before any table, or a ``[key]`` table."""
        return key_lines(self.text)

    def where(self, key: str) -> str:
        """``PATH: line L`` of the top-level ``key`` (``PATH`` when it is not written in the file)."""
        line = self.lines.get(key)
        return f"{self.path}: line {line}" if line is not None else str(self.path)


def read_toml(path: Path | str, *, what: str = "file", limit: int = MIB) -> TomlFile:
    """The TOML file `path` (see `read_bytes`); `what` names the file's kind in errors (``config file``)."""
    path = Path(path)
    raw = read_bytes(path, what=what, limit=limit)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start].decode("utf-8")  # (valid up to the bad byte)
        raise ReadError(path, f"{_position(before, len(before))}: byte 0x{raw[exc.start]:02X} is not UTF-8: "
                              f"the {what} must be UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:   # (names the line and column itself)
        raise ReadError(path, str(exc)) from None
    except (RecursionError, ValueError) as exc:  # too deep for tomllib; an integer past int()'s digit limit
        raise ReadError(path, hostile_toml(text) or f"not valid TOML: {str(exc)[:200]}") from None
    return TomlFile(path, text, data)


def hostile_toml(text: str) -> str | None:
    """Where TOML text nests arrays or inline tables past MAX_DEPTH, or writes a number too long for int(),
    outside strings and comments: "line L, column C: what was wrong", or None."""
    max_digits = sys.get_int_max_str_digits() or len(text) + 1
    depth = i = 0
    while i < len(text):
        char, end = text[i], i + 1
        if char == "#":
            end = _line_end(text, i)
        elif char in "\"'":
            end = _string_end(text, i)
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"{_position(text, i)}: arrays and inline tables nested more than {MAX_DEPTH} deep"
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif "0" <= char <= "9":
            while end < len(text) and text[end] in _DIGITS:
                end += 1
            digits = end - i - text.count("_", i, end)
            if digits > max_digits:
                return f"{_position(text, i)}: a number of {digits:,} digits: a setting has at most 19"
        i = end
    return None


_DIGITS = frozenset("0123456789_")
_KEY = re.compile(r"""(?:([A-Za-z0-9_-]+)|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')[ \t]*[=.]""")
"""A key at the start of a line: bare, "basic" or 'literal', then = (or the dot of a dotted key)."""
_TABLE = re.compile(r"""\[\[?[ \t]*(?:([A-Za-z0-9_-]+)|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')""")
"""A table header's first key: [name], [name.sub], [[name]]."""


def key_lines(text: str) -> dict[str, int]:
    """The line (from 1) where each top-level key is first written: ``key = ...`` before the first table
    header, or a table ``[key]`` / ``[key.sub]``. Strings and comments are skipped, in one pass without
    recursion (a hostile text costs no more than its length)."""
    lines: dict[str, int] = {}
    line, depth, i = 1, 0, 0
    line_start = True   # nothing but blanks since the last newline
    in_tables = False   # past the first table header: a key at the start of a line is the table's
    while i < len(text):
        char, end = text[i], i + 1
        if char in " \t\r":
            pass
        elif char == "\n":
            line, line_start = line + 1, True
        elif char == "#":
            end = _line_end(text, i)
        elif line_start and depth == 0 and char == "[":   # a table header (a value never starts a line)
            if found := _TABLE.match(text, i):
                lines.setdefault(_key(found), line)
            in_tables, line_start, end = True, False, _line_end(text, i)
        else:
            if line_start and depth == 0 and not in_tables and (found := _KEY.match(text, i)):
                lines.setdefault(_key(found), line)
            line_start = False
            if char in "\"'":
                end = _string_end(text, i)
                line += text.count("\n", i, end)
            elif char in "[{":
                depth += 1
            elif char in "]}":
                depth = max(depth - 1, 0)
        i = end
    return lines


def _key(found: re.Match[str]) -> str:
    """The key a `_KEY` or `_TABLE` match found (bare, or the text between its quotes)."""
    return next(group for group in found.groups() if group is not None)


def _line_end(text: str, start: int) -> int:
    """The offset of the newline ending the line of `start` (the text's end on the last line)."""
    end = text.find("\n", start)
    return len(text) if end == -1 else end


def _string_end(text: str, start: int) -> int:
    """The offset just past the TOML string starting at `start` (basic or literal, one- or multi-line)."""
    quote = text[start] * 3 if text.startswith(text[start] * 3, start) else text[start]
    i = start + len(quote)
    while (close := text.find(quote, i)) != -1:
        backslashes = 0
        while quote[0] == '"' and text[close - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return close + len(quote)
        i = close + 1
    return len(text)


def _position(text: str, offset: int) -> str:
    """ "line L, column C" of an offset in text (both counted from 1)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    return f"line {line}, column {column}"
