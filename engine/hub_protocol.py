"""Hub protocol lines (as Scan speaks it): `command key=value key="quoted value" flag`."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field


class HubSyntaxError(ValueError):
    """A Hub line that cannot be split into a command and its arguments."""


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


def parse_message(line: str) -> HubMessage:
    """Split a Hub line; values with spaces are double-quoted."""
    try:
        tokens = shlex.split(line.strip(), posix=True)
    except ValueError as exc:
        raise HubSyntaxError(f"hub line {line.strip()!r}: {exc}") from None
    if not tokens:
        raise HubSyntaxError("empty hub line")
    args: dict[str, str] = {}
    flags: list[str] = []
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if eq:
            args[key] = value
        else:
            flags.append(token)
    return HubMessage(tokens[0], args, tuple(flags))


def _quote(value: str) -> str:
    return f'"{value}"' if (not value or any(c in value for c in ' ="')) else value


def format_message(command: str, *flags: str, **args: object) -> str:
    """Build a Hub line; keyword names use '_' for '-' (e.g. move_time -> move-time)."""
    parts = [command, *flags]
    parts.extend(f"{key.replace('_', '-')}={_quote(str(value))}" for key, value in args.items())
    return " ".join(parts)
