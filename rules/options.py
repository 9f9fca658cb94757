"""Variant options: the rules a player may change (docs/rules/README.md#options), their types and text form.

A game's variant is a `Variant` value; its options (what differs from the variant's defaults) travel as a
mapping ``{name: value}`` (JSON, TOML) or as text ``first=white allow_180=false`` (command line, the PDN tag
``VariantOptions``). Every value is checked here, so a bad one is one error line naming the variant, the
option and what was expected, wherever it came from.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from string import Formatter

from rules.errors import UnknownVariantError
from rules.pieces import Color

PRECEDENCE = ("max_pieces", "max_kings", "capture_with_king", "earliest_king")
MID_CAPTURE = ("stop", "continue_as_king", "pass_through")
MISSED_CAPTURE = (
    "reject",
    "opponent_choice_retract_or_accept",
    "opponent_choice_retract_or_huff",
    "accept_on_next_move",
)
DRAW_CLAIMS = ("repetition", "no_progress")
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


class VariantOptionError(UnknownVariantError):
    """An option a variant does not have, or a value of the wrong type; the message names both."""


MAX_TEXT = 80
"""The longest text option (a draw's name)."""


def _names_only_n(text: str) -> bool:
    """Whether `text` formats with ``n`` alone: ``{x}`` or ``{0}`` raised at the game's end (the draw is
    named with ``text.format(n=...)``), ``{n.__class__}`` reached into the count."""
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in Formatter().parse(text)
                  if name is not None]
    except ValueError:   # an unmatched brace
        return False
    return all(field == ("n", "", None) for field in fields)


@dataclass(frozen=True)
class OptionSpec:
    """One option: its value kind (color, choice, bool, int, count_or_none, list, text) and allowed words."""

    name: str
    kind: str
    label: str
    choices: tuple[str, ...] = ()
    minimum: int = 1
    maximum: int = 1000
    """No count of a rule comes near it (99999999999999999 moves was accepted, and written to the PDN)."""

    def expected(self) -> str:
        """What a value must be, in words."""
        if self.kind == "color":
            return "white or black"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "int":
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.kind == "count_or_none":
            return f"a whole number from {self.minimum} to {self.maximum}, or none"
        if self.kind == "list":
            return "a list of " + ", ".join(self.choices) + " (none for an empty list)"
        return f"a printable text of at most {MAX_TEXT} characters (with {{n}} for the count, if at all)"

    def coerce(self, value: object) -> object:
        """The option's value from a Python value or its text; ValueError (a bare message) otherwise."""
        kind = self.kind
        text = value.strip().lower() if isinstance(value, str) else None
        if kind == "color":
            if isinstance(value, Color):
                return value
            if text in ("white", "w"):
                return Color.WHITE
            if text in ("black", "b"):
                return Color.BLACK
        elif kind == "bool":
            if isinstance(value, bool):
                return value
            if text in _TRUE or text in _FALSE:
                return text in _TRUE
        elif kind == "choice":
            if text in self.choices:
                return text
        elif kind in ("int", "count_or_none"):
            if kind == "count_or_none" and (value is None or text in ("none", "")):
                return None
            digits = text is not None and text.isascii() and text.isdigit() and len(text) <= 9
            number = value if isinstance(value, int) and not isinstance(value, bool) else (
                int(text) if digits and text is not None else None)
            if number is not None and self.minimum <= number <= self.maximum:
                return number
        elif kind == "list":
            items: object = value
            if text is not None:
                items = [] if text in ("none", "()", "") else [t.strip() for t in text.split(",")]
            if isinstance(items, list | tuple) and all(i in self.choices for i in items):
                return tuple(items)
        elif isinstance(value, str) and value.strip() and value.isprintable() and len(value) <= MAX_TEXT \
                and _names_only_n(value):
            return value   # one printable line (it is shown and written in the PDN), formatted with n only
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:40] + "..."
        raise ValueError(f"expects {self.expected()}, not {shown}")

    def text(self, value: object) -> str:
        """The value as the text form writes it (the inverse of coerce)."""
        if isinstance(value, Color):
            return value.name.lower()
        if isinstance(value, bool):
            return "true" if value else "false"
        if value is None:
            return "none"
        if isinstance(value, tuple):
            return ",".join(value) if value else "none"
        return str(value)

    def json(self, value: object) -> object:
        """The value as JSON or TOML holds it."""
        if isinstance(value, Color):
            return value.name.lower()
        return list(value) if isinstance(value, tuple) else value


def _spec(name: str, kind: str, label: str, choices: tuple[str, ...] = (), minimum: int = 1,
          maximum: int = 1000) -> OptionSpec:
    return OptionSpec(name, kind, label, choices, minimum, maximum)


SPECS: dict[str, OptionSpec] = {s.name: s for s in (
    _spec("first", "color", "who moves first"),
    _spec("precedence", "list", "capture precedence", PRECEDENCE),
    _spec("promotion_mid_capture", "choice", "a man reaching the crown row during a capture", MID_CAPTURE),
    _spec("allow_180", "bool", "a capture may turn back"),
    _spec("flying_king_must_land_to_continue", "bool", "a king lands where it can capture on"),
    _spec("missed_capture_policy", "choice", "a missed capture", MISSED_CAPTURE),
    _spec("repetition", "int", "repetitions that draw", minimum=2),
    _spec("draw_claims", "list", "draws a player must claim", DRAW_CLAIMS),
    _spec("no_progress_moves", "count_or_none", "moves each without progress that draw"),
    _spec("no_progress_reason", "text", "how that draw is named"),
    _spec("endgame_rules", "bool", "FMJD endgame move limits"),
    _spec("king_vs_single_man_wins", "bool", "a single king beats a single man"),
    _spec("far_row_crowns", "bool", "the rest of the far row crowns too"),
    _spec("parachutist_multi_jump", "bool", "a parachutist may capture on"),
)}
ALIASES = {"no_progress": "no_progress_moves"}

COMMON: tuple[str, ...] = (
    "first", "precedence", "promotion_mid_capture", "allow_180", "flying_king_must_land_to_continue",
    "missed_capture_policy", "repetition", "draw_claims", "no_progress_moves", "no_progress_reason",
    "endgame_rules", "king_vs_single_man_wins",
)
"""The options of every variant played with the standard moves (men, kings, captures)."""


def check(variant_id: str, has: Iterable[str], options: Mapping[str, object]) -> dict[str, object]:
    """The options checked against what the variant `has` and converted to their values (text accepted);
    VariantOptionError names the variant, the option and what was expected."""
    allowed = tuple(has)
    out: dict[str, object] = {}
    for raw_name, value in options.items():
        name = ALIASES.get(raw_name, raw_name)
        spec = SPECS.get(name)
        if spec is None or name not in allowed:
            known = "" if spec is None else " (it is not one of its rules)"
            raise VariantOptionError(f"variant {variant_id} has no option {raw_name!r}{known}; "
                                     f"its options: {', '.join(allowed)}")
        try:
            out[name] = spec.coerce(value)
        except ValueError as exc:
            raise VariantOptionError(f"variant {variant_id}: option {name} {exc}") from None
    return out


def parse_text(text: str, where: str = "") -> dict[str, str]:
    """``first=white allow_180=false`` (values with spaces in quotes) as {name: text}; VariantOptionError for
    a word that is not ``name=value`` or a name given twice (its message starts with `where`, if given)."""
    said = f"{where}: " if where else ""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise VariantOptionError(f"{said}{exc} in {text!r}") from None
    out: dict[str, str] = {}
    for word in words:
        name, eq, value = word.partition("=")
        name = name.strip()
        if not eq or not name:
            raise VariantOptionError(f"{said}{word!r} is not name=value (like first=white)")
        if name in out:
            raise VariantOptionError(f"{said}option {name} is given twice")
        out[name] = value
    return out


def format_text(values: Mapping[str, object]) -> str:
    """Option values as text (``first=white precedence=max_pieces``), read back by parse_text and check."""
    return " ".join(f"{name}={shlex.quote(SPECS[name].text(value))}" for name, value in values.items())


def to_json(values: Mapping[str, object]) -> dict[str, object]:
    """Option values as a JSON object (colors as words, lists as lists), read back by check."""
    return {name: SPECS[name].json(value) for name, value in values.items()}
