"""Every variant as data: one frozen Variant per id; docs/rules/<id>.md explains each one and its sources.

Geometry, set-up, directions, crowning squares and capture rules are fields, so a new variant is a new
definition, not a new code path. `get_variant(id, **options)` applies the user-settable conflict options.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from rules.errors import UnknownVariantError, shorten
from rules.geometry import DIRECTIONS, Geometry
from rules.pieces import Color


@cache
def _geometry(width: int, height: int, cells: str, numbering: str, diagonals: str) -> Geometry:
    """Geometries are immutable: variants with the same board share one (and its ray tables)."""
    return Geometry(width, height, cells, numbering, diagonals)


KING_CAPTURES = ("short", "long_any", "long_behind", "long_any_last_behind")
REMOVALS = ("end", "immediate")
MID_CAPTURE = ("stop", "continue_as_king", "pass_through")
PRECEDENCE = ("max_pieces", "max_kings", "capture_with_king", "earliest_king")
MISSED_CAPTURE = (
    "reject",
    "opponent_choice_retract_or_accept",
    "opponent_choice_retract_or_huff",
    "accept_on_next_move",
)
RELATIVE_DIRS = ("df", "db", "of", "os", "ob")
DRAW_CLAIMS = ("repetition", "no_progress")


@dataclass(frozen=True)
class Variant:
    """All rule parameters of one draughts variant (docs/rules/README.md#terms and #options: their meaning).

    Directions are named from the mover's side: df/db diagonal forward/backward, of/os/ob orthogonal
    forward/sideways/backward. Set-up and crown squares are comma lists of numbers in the variant's
    numbering, ranges "31-50", algebraic names "c3" or whole ranks "rank:2-3".
    """

    id: str
    name: str
    width: int
    height: int
    cells: str
    numbering: str
    setup_white: str
    setup_black: str
    first: Color = Color.WHITE
    forward_white: int = 1
    forward_black: int = -1
    diagonals: str = "all"
    man_move_dirs: tuple[str, ...] = ("df",)
    man_capture_dirs: tuple[str, ...] = ("df",)
    man_capture_range: str = "short"
    king_move_dirs: tuple[str, ...] = ("df", "db")
    king_capture_dirs: tuple[str, ...] = ("df", "db")
    king_flying: bool = True
    king_capture: str = "long_any"
    removal: str = "end"
    allow_180: bool = False
    must_complete_sequence: bool = True
    flying_king_must_land_to_continue: bool = True
    promotion_mid_capture: str = "stop"
    precedence: tuple[str, ...] = ()
    can_man_capture_king: bool = True
    crown_white: str | None = None
    crown_black: str | None = None
    no_move_loses: bool = True
    missed_capture_policy: str = "reject"
    repetition: int = 3
    draw_claims: tuple[str, ...] = ()  # draw rules a player must claim (DRAW_CLAIMS); others are automatic
    no_progress_moves: int | None = None
    no_progress_reason: str = "{n} moves each without capture or man move"  # {n} = no_progress_moves
    endgame_rules: bool = False
    king_vs_single_man_wins: bool = False
    capture_separator: str = "x"
    pdn_gametype: str = ""
    gametype_number: int | None = None
    aliases: tuple[str, ...] = ()
    geometry: Geometry = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, value, allowed in (
            ("king_capture", self.king_capture, KING_CAPTURES),
            ("removal", self.removal, REMOVALS),
            ("promotion_mid_capture", self.promotion_mid_capture, MID_CAPTURE),
            ("missed_capture_policy", self.missed_capture_policy, MISSED_CAPTURE),
        ):
            if value not in allowed:
                raise UnknownVariantError(
                    f"variant {self.id}: {name} must be one of {allowed}, not {value!r}")
        for p in self.precedence:
            if p not in PRECEDENCE:
                raise UnknownVariantError(
                    f"variant {self.id}: unknown precedence filter {p!r}, expected {PRECEDENCE}")
        for d in (*self.man_move_dirs, *self.man_capture_dirs, *self.king_move_dirs, *self.king_capture_dirs):
            if d not in RELATIVE_DIRS:
                raise UnknownVariantError(
                    f"variant {self.id}: unknown direction {d!r} (expected {RELATIVE_DIRS})")
        if self.man_capture_range not in ("short", "long"):
            raise UnknownVariantError(f"variant {self.id}: man_capture_range must be short or long")
        for rule in self.draw_claims:
            if rule not in DRAW_CLAIMS:
                raise UnknownVariantError(
                    f"variant {self.id}: unknown draw claim {rule!r}, expected {DRAW_CLAIMS}")
        if self.no_progress_moves is not None and self.no_progress_moves < 1:
            raise UnknownVariantError(f"variant {self.id}: no_progress_moves must be positive or None")
        object.__setattr__(
            self, "geometry", _geometry(self.width, self.height, self.cells, self.numbering, self.diagonals)
        )

    # -- derived data used by the board -------------------------------------------------------------
    def forward(self, color: Color) -> int:
        """Row step (+1 up, -1 down, seen from White) that is 'forward' for a color's men."""
        return self.forward_white if color == Color.WHITE else self.forward_black

    def direction_indices(self, names: tuple[str, ...], color: Color) -> tuple[int, ...]:
        """Indices into geometry.DIRECTIONS for relative direction names, from `color`'s side."""
        f = self.forward(color)
        vectors: list[tuple[int, int]] = []
        for n in names:
            if n == "df":
                vectors += [(f, -1), (f, 1)]
            elif n == "db":
                vectors += [(-f, -1), (-f, 1)]
            elif n == "of":
                vectors.append((f, 0))
            elif n == "os":
                vectors += [(0, -1), (0, 1)]
            else:
                vectors.append((-f, 0))
        return tuple(DIRECTIONS.index(v) for v in vectors)

    def square_set(self, spec: str) -> tuple[int, ...]:
        """Resolve a set-up/crown spec ("1-12", "a1,c1", "rank:2-3") into squares of this geometry."""
        g = self.geometry
        out: list[int] = []
        for token in (t.strip() for t in spec.split(",")):
            if not token:
                continue
            if token.startswith("rank:"):
                lo, _, hi = token[5:].partition("-")
                for rank in range(int(lo), int(hi or lo) + 1):
                    out += [s for s in g.squares if g.rc(s)[0] == rank - 1]
            elif "-" in token and token.replace("-", "").isdigit():
                lo, hi = token.split("-")
                out += [g.from_number(n) if g.numbering == "algebraic" else g.parse_square(str(n))
                        for n in range(int(lo), int(hi) + 1)]
            else:
                out.append(g.parse_any(token))
        return tuple(out)

    def crown_squares(self, color: Color) -> tuple[int, ...]:
        """Squares on which a man of `color` is crowned (default: the far rank in its forward direction)."""
        spec = self.crown_white if color == Color.WHITE else self.crown_black
        if spec is not None:
            return self.square_set(spec)
        g = self.geometry
        row = g.height - 1 if self.forward(color) > 0 else 0
        return tuple(s for s in g.squares if g.rc(s)[0] == row)

    def __repr__(self) -> str:
        return f"Variant({self.id!r}, {self.width}x{self.height})"


def _spanish() -> Variant:
    return Variant(
        id="spanish", name="Spanish draughts", width=8, height=8, cells="light", numbering="bottom-right",
        setup_white="1-12", setup_black="21-32", precedence=("max_pieces", "max_kings"),
        promotion_mid_capture="stop", no_progress_moves=50, pdn_gametype="24,W,8,8,N1,1", gametype_number=24,
    )


def _international() -> Variant:
    return Variant(
        id="international", name="International draughts", width=10, height=10, cells="dark",
        numbering="top-left", setup_white="31-50", setup_black="1-20", man_capture_dirs=("df", "db"),
        precedence=("max_pieces",), promotion_mid_capture="pass_through", no_progress_moves=25,
        no_progress_reason="{n} king moves each", endgame_rules=True, pdn_gametype="20,W,10,10,N2,0",
        gametype_number=20, aliases=("french", "fmjd"),
    )


def _english() -> Variant:
    return Variant(
        id="english", name="English draughts", width=8, height=8, cells="dark", numbering="top-left",
        setup_white="21-32", setup_black="1-12", first=Color.BLACK, king_flying=False, king_capture="short",
        promotion_mid_capture="stop", no_progress_moves=40, draw_claims=("repetition", "no_progress"),
        pdn_gametype="21,B,8,8,N1,0", gametype_number=21, aliases=("checkers", "classic"),
    )


_R = dataclasses.replace
_SP = _spanish()
# The Spanish family on the Spanish board numbers it as the Spanish and Portuguese federations and PDN do
# (1 = h1, White on 1-12), though the traditional rules' source prints the board numbered from a8.
_SPT = _R(_SP, id="spanish-traditional", name="Traditional Spanish draughts", precedence=("max_pieces",),
          missed_capture_policy="opponent_choice_retract_or_huff", pdn_gametype="51,W,8,8,N1,1",
          gametype_number=None)
_INT = _international()
_BR = _R(_INT, id="brazilian", name="Brazilian draughts", width=8, height=8, numbering="algebraic",
         setup_white="rank:1-3", setup_black="rank:6-8", no_progress_moves=20,
         no_progress_reason="{n} king moves each", endgame_rules=False,
         pdn_gametype="26,W,8,8,A0,0", gametype_number=26, aliases=())
_EN = _english()

_ALL: tuple[Variant, ...] = (
    _SP,
    _SPT,
    _R(_SPT, id="spanish-german", name="South German Spanish draughts", cells="dark",
       numbering="top-left", setup_white="21-32", setup_black="1-12", king_capture="long_any_last_behind",
       pdn_gametype="52,W,8,8,N2,0", no_progress_moves=None),
    _R(_SPT, id="spanish-nordic", name="Swedish-Danish Spanish draughts", width=10, height=10,
       cells="dark", numbering="top-left", setup_white="31-50", setup_black="1-20", man_capture_range="long",
       pdn_gametype="53,W,10,10,N2,0", no_progress_moves=None),
    _R(_SP, id="portuguese", name="Portuguese draughts", no_progress_moves=None, draw_claims=("repetition",),
       pdn_gametype="28,W,8,8,N1,1", gametype_number=28),
    _INT,
    _R(_INT, id="polish", name="Historical Polish draughts", removal="immediate",
       allow_180=True, missed_capture_policy="opponent_choice_retract_or_accept",
       pdn_gametype="54,W,10,10,N2,0", gametype_number=None, aliases=()),
    _BR,
    _R(_INT, id="canadian", name="Canadian draughts", width=12, height=12, setup_white="43-72",
       setup_black="1-30", endgame_rules=False, pdn_gametype="27,W,12,12,N2,0", gametype_number=27,
       aliases=()),
    _R(_BR, id="russian", name="Russian draughts", precedence=(), promotion_mid_capture="continue_as_king",
       capture_separator=":", no_progress_moves=None, pdn_gametype="25,W,8,8,A0,0", gametype_number=25),
    _EN,
    _R(_EN, id="giveaway", name="Giveaway (anti-checkers)", no_move_loses=False, draw_claims=(),
       pdn_gametype="55,B,8,8,N1,0", gametype_number=None, aliases=()),
    _R(_EN, id="italian", name="Italian draughts", cells="light", first=Color.WHITE,
       can_man_capture_king=False, draw_claims=(),
       precedence=("max_pieces", "capture_with_king", "max_kings", "earliest_king"), repetition=4,
       pdn_gametype="22,W,8,8,N2,1", gametype_number=22, aliases=()),
    Variant(id="czech", name="Czech draughts", width=8, height=8, cells="dark", numbering="algebraic",
            setup_white="rank:1-3", setup_black="rank:6-8", precedence=("capture_with_king",),
            no_progress_moves=15, draw_claims=("repetition",), missed_capture_policy="accept_on_next_move",
            pdn_gametype="29,W,8,8,A0,0", gametype_number=29),
    Variant(id="thai", name="Thai draughts (Mak-hos)", width=8, height=8, cells="dark",
            numbering="bottom-right", setup_white="a1,c1,e1,g1,b2,d2,f2,h2",
            setup_black="b8,d8,f8,h8,a7,c7,e7,g7", first=Color.BLACK, king_capture="long_behind",
            removal="immediate", allow_180=True, capture_separator="-",
            pdn_gametype="31,B,8,8,N2,0", gametype_number=31),
    Variant(id="turkish", name="Turkish draughts (Dama)", width=8, height=8, cells="all",
            numbering="algebraic", setup_white="rank:2-3", setup_black="rank:6-7",
            man_move_dirs=("of", "os"), man_capture_dirs=("of", "os"), king_move_dirs=("of", "os", "ob"),
            king_capture_dirs=("of", "os", "ob"), removal="immediate", allow_180=False,
            precedence=("max_pieces",), promotion_mid_capture="pass_through", king_vs_single_man_wins=True,
            pdn_gametype="30,W,8,8,A0,0", gametype_number=30),
)

VARIANTS: dict[str, Variant] = {v.id: v for v in _ALL}
VARIANT_IDS: tuple[str, ...] = tuple(v.id for v in _ALL)
ALIASES: dict[str, str] = {a: v.id for v in _ALL for a in v.aliases}
# Aliases whose source states a different default (docs/rules/international.md#missed-captures: the French
# game lets the opponent accept a missed capture). The id stays the canonical one.
ALIAS_DEFAULTS: dict[str, dict[str, object]] = {
    "french": {"missed_capture_policy": "opponent_choice_retract_or_accept"},
}

# Options a user may change (docs/rules/README.md#options); value checked by Variant.__post_init__.
OPTIONS: frozenset[str] = frozenset({
    "first", "promotion_mid_capture", "allow_180", "flying_king_must_land_to_continue",
    "missed_capture_policy", "repetition", "draw_claims",
    "no_progress_moves", "no_progress_reason", "precedence", "endgame_rules", "king_vs_single_man_wins",
})


def get_variant(variant_id: str | Variant, **options: object) -> Variant:
    """The Variant for an id or alias (case-insensitive), with user-settable options applied."""
    if isinstance(variant_id, Variant):
        base = variant_id
    else:
        key = str(variant_id).strip().lower()
        options = {**ALIAS_DEFAULTS.get(key, {}), **options}
        key = ALIASES.get(key, key)
        if key not in VARIANTS:
            valid = ", ".join(VARIANT_IDS + tuple(sorted(ALIASES)))
            raise UnknownVariantError(f"unknown variant {shorten(str(variant_id))!r}; valid ids: {valid}")
        base = VARIANTS[key]
    if not options:
        return base
    if "no_progress" in options:
        options["no_progress_moves"] = options.pop("no_progress")
    unknown = sorted(set(options) - OPTIONS)
    if unknown:
        raise UnknownVariantError(
            f"unknown option(s) {', '.join(unknown)} for variant {base.id}; "
            f"valid: {', '.join(sorted(OPTIONS))}"
        )
    if "first" in options:
        first = options["first"]
        if isinstance(first, str):
            first = {"w": Color.WHITE, "white": Color.WHITE, "b": Color.BLACK, "black": Color.BLACK}.get(
                first.lower(), first)
        if first not in tuple(Color):
            raise UnknownVariantError(
                f"option first of variant {base.id}: expected white or black, not {first!r}")
        options["first"] = Color(first)  # type: ignore[arg-type]
    for name in ("precedence", "draw_claims"):
        if name in options:
            options[name] = tuple(typing.cast(Iterable[str], options[name]))
    return dataclasses.replace(base, **options)  # type: ignore[arg-type]


def variant_for_gametype(tag: str) -> Variant:
    """Map a PDN GameType value ("20" or "20,W,10,10,N2,0") to a variant; UnknownVariantError if unknown."""
    text = tag.strip()
    for v in _ALL:
        if text == v.pdn_gametype:
            return v
    number = text.split(",")[0].strip()
    for v in _ALL:
        if v.gametype_number is not None and number == str(v.gametype_number):
            return v
    for v in _ALL:
        if v.pdn_gametype.split(",")[0] == number:
            return v
    raise UnknownVariantError(f"no variant for PDN GameType {shorten(tag)!r}")
