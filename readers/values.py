"""JSON of bounded nesting and numbers, and values of exact types: ``expect_int(value, "tries.english-01")``
returns the value or raises one `ReadError` line naming the field and what it should be."""

from __future__ import annotations

import json
import re
from typing import Any

from readers.files import ReadError

MAX_DEPTH = 32
"""Nesting deeper than any of our formats has: a hostile file cannot exhaust the parser's stack."""
MAX_DIGITS = 18
"""The longest integer read (int() of 5,000 digits is slow and no count of ours is that large)."""


_DECIMAL = re.compile(r"[0-9]{1,12}(?:\.[0-9]{0,12})?|\.[0-9]{1,12}")
"""A number of seconds as a protocol writes it: ASCII digits and one point (no sign, exponent or ``_``)."""


def shown(text: str, limit: int = 80) -> str:
    """`text` as a short printable line for a message or a page: every character that is not printable (a
    control character, NUL, a line break, a lone surrogate) becomes '?', and a longer text is cut to `limit`
    characters ending in '...'."""
    cleaned = "".join(c if c.isprintable() else "?" for c in text[: limit + 1])
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 3] + "..."


def is_digits(text: str, max_digits: int = MAX_DIGITS) -> bool:
    """Whether `text` is a whole number in ASCII digits, at most `max_digits` of them: ``int()`` also reads
    Devanagari ``३``, ``1_000``, `` 7`` and ``+7``, and ``str.isdigit`` is true of ``²`` (int() refuses
    it)."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()


def is_decimal(text: str) -> bool:
    """Whether `text` is a number such as ``60``, ``0.5`` or ``.5`` in ASCII digits: ``float()`` also reads
    ``nan``, ``1e400``, ``-5``, ``1_0`` and other scripts' digits."""
    return _DECIMAL.fullmatch(text) is not None


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (iterative: no recursion on a hostile text)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits")
    return int(text)


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes, where: str, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of `text`; `where` names the file (and line) in the error."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ReadError(where, f"not UTF-8 text (byte {exc.start})") from None
    if _depth(text) > max_depth:
        raise ReadError(where, f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ReadError(where, f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise ReadError(where, f"not JSON ({exc})") from None


def at(where: str, key: object, separator: str = ".") -> str:
    """The name of field `key` inside `where`, printable and short whatever the key is (a key read from a
    file can hold a line break or a thousand characters)."""
    text = key if isinstance(key, str) and key.isprintable() and len(key) <= 40 else repr(key)[:40]
    return f"{where}{separator}{text}"


def _got(value: object) -> str:
    """A short description of a value that was not what was expected."""
    names = {dict: "an object", list: "a list", str: "a text", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    text = repr(value)
    return f"{names.get(type(value), type(value).__name__)} {text[:40]}{'...' if len(text) > 40 else ''}"


def _wrong(where: str, expected: str, value: object) -> ReadError:
    return ReadError(where, f"expected {expected}, got {_got(value)}")


def expect_dict(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _wrong(where, "an object", value)
    return value


def expect_list(value: object, where: str, max_items: int = 100_000) -> list[Any]:
    if not isinstance(value, list):
        raise _wrong(where, "a list", value)
    if len(value) > max_items:
        raise ReadError(where, f"a list of {len(value)} items, more than the {max_items} it may have")
    return value


def expect_str(value: object, where: str, max_length: int = 10_000) -> str:
    if not isinstance(value, str):
        raise _wrong(where, "a text", value)
    if len(value) > max_length:
        raise ReadError(where, f"a text of {len(value)} characters, more than the {max_length} it may have")
    return value


def expect_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise _wrong(where, "true or false", value)
    return value


def expect_int(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number (not true/false) within `low`..`high` when given."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong(where, "a whole number", value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ReadError(where, f"{value} is outside {low}..{high}")
    return value


def expect_number(value: object, where: str, low: float, high: float) -> float:
    """A number (whole or not, not true/false) within `low`..`high`."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _wrong(where, "a number", value)
    if not low <= value <= high:
        raise ReadError(where, f"{value} is outside {low}..{high}")
    return float(value)
