"""Hub protocol lines (as Scan speaks it): `command key=value key="quoted value" flag`.

Double quotes group a value with spaces; there is no escape character, so a `"` inside a value cannot be
sent and `format_message` writes it as `'`. Parsing takes time linear in the line's length, whatever it
holds; apostrophes and backslashes are ordinary characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import EngineError

OPTIONS_PARAM = "variant-options"
"""The parameter an engine declares to be told the game's variant options (`first=white allow_180=false`)."""

MAX_LINE = 64 * 1024
"""Longest Hub line (in bytes, newline excluded) either side reads; longer lines are skipped and counted."""

_BLANKS = " \t\r\n"
_SEPARATOR = re.compile(r"[ \t\r\n]++")
_TOKEN = re.compile(r'(?:[^ \t\r\n"]++|"[^"]*+")++')
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")


class HubSyntaxError(EngineError, ValueError):
    """A Hub line that cannot be split into a command and its arguments (the message says where)."""


@dataclass(frozen=True)
class HubMessage:
    """One Hub line: the command word, its key=value arguments and bare flags (e.g. `go think`)."""

    command: str
    args: dict[str, str] = field(default_factory=dict)
    flags: tuple[str, ...] = ()

    def __str__(self) -> str:
        return format_message(self.command, *self.flags, **self.args)

    def get(self, key: str, default: str | None = None) -> str | None:
        """The value of argument `key`, or `default`."""
        return self.args.get(key, default)


def _excerpt(line: str) -> str:
    return repr(line if len(line) <= 60 else line[:57] + "...")


def split_tokens(line: str) -> list[str]:
    """The line's words; a double-quoted stretch (anywhere in a word) keeps its spaces and loses its quotes.

    Quotes pair up left to right, so an odd count means the last one is never closed. The work is a few
    passes of C code over the line (possessive regex quantifiers never backtrack): linear in its length.
    """
    quotes = line.count('"')
    if quotes % 2:
        raise HubSyntaxError(f"hub line {_excerpt(line)}: the quote at column {line.rindex(chr(34)) + 1} "
                             f"is never closed")
    if not quotes:
        stripped = line.strip(_BLANKS)
        return _SEPARATOR.split(stripped) if stripped else []
    return [token.replace('"', "") for token in _TOKEN.findall(line)]


def parse_message(line: str) -> HubMessage:
    """Split a Hub line into command, `key=value` arguments and flags; HubSyntaxError if it has none."""
    tokens = split_tokens(line)
    if not tokens or not tokens[0]:
        raise HubSyntaxError(f"hub line {_excerpt(line)}: no command word")
    args: dict[str, str] = {}
    flags: list[str] = []
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if eq:
            args[key] = value
        else:
            flags.append(token)
    return HubMessage(tokens[0], args, tuple(flags))


def clean_value(value: str) -> str:
    """`value` as a Hub line can carry it: `"` becomes `'`, control characters (newlines) become spaces."""
    return _UNSAFE.sub(" ", value.replace('"', "'"))


def _quote(value: str) -> str:
    value = clean_value(value)
    return f'"{value}"' if (not value or "=" in value or any(c.isspace() for c in value)) else value


def format_message(command: str, /, *flags: str, **args: object) -> str:
    """A Hub line that `parse_message` reads back; keyword names use '_' for '-' (move_time: move-time)."""
    parts = [command, *flags]
    parts.extend(f"{key.replace('_', '-')}={_quote(str(value))}" for key, value in args.items())
    return " ".join(parts)
