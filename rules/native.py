"""The bridge to the compiled core (`rules._native`): loading it, checking a variant fits it, its parameters.

`Variant` stays the one description of a variant: `rules_params()` turns one into the tables and codes the
C side reads, and `unsupported()` says why a variant is beyond what the C side can do (an unknown field value,
a geometry it cannot represent). Such a variant, like every variant when the extension is not built or
`DBOARD_PURE_PYTHON=1` is set, runs on the pure-Python core, which stays the reference.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import logging
import os
from functools import cache
from types import ModuleType
from typing import Any

from rules.geometry import DIRECTIONS, REVERSE, Geometry
from rules.move import Move
from rules.pieces import Color
from rules.variants import VARIANT_IDS, Variant, get_variant
from rules.zobrist import zobrist_table

logger = logging.getLogger(__name__)

PURE_ENV = "DBOARD_PURE_PYTHON"

_NATIVE_KING_CAPTURES = ("short", "long_any", "long_behind", "long_any_last_behind")   # csrc/dcore.h KC_*
_NATIVE_MID = ("stop", "continue_as_king", "pass_through")                             # MID_*
_NATIVE_PRECEDENCE = ("max_pieces", "max_kings", "capture_with_king", "earliest_king")  # PREC_*

# The Variant fields the C core reads, with the values it implements; every other field it knows is turned
# into tables by rules_params (far_row_crowns through crown_squares), read elsewhere (set-up, notation, draw
# rules) or is metadata no rule reads (options: what get_variant may change). A field added later (not in
# either set) is supported only at its default value.
_NATIVE_VALUES: dict[str, tuple[object, ...]] = {
    "man_capture_range": ("short", "long"),
    "king_flying": (True, False),
    "king_capture": _NATIVE_KING_CAPTURES,
    "removal": ("end", "immediate"),
    "allow_180": (True, False),
    "must_complete_sequence": (True, False),
    "flying_king_must_land_to_continue": (True, False),
    "promotion_mid_capture": _NATIVE_MID,
    "can_man_capture_king": (True, False),
}
_KNOWN_FIELDS = frozenset({
    "id", "name", "width", "height", "cells", "numbering", "setup_white", "setup_black", "first",
    "forward_white", "forward_black", "diagonals", "man_move_dirs", "man_capture_dirs", "king_move_dirs",
    "king_capture_dirs", "precedence", "crown_white", "crown_black", "no_move_loses", "missed_capture_policy",
    "repetition", "draw_claims", "no_progress_moves", "no_progress_reason", "endgame_rules",
    "king_vs_single_man_wins", "capture_separator", "pdn_gametype", "gametype_number", "aliases", "geometry",
    "far_row_crowns", "options", *_NATIVE_VALUES,
})
_GEOMETRY_FIELDS = frozenset({"width", "height", "cells", "numbering", "diagonals", "stride", "squares",
                              "mask", "size", "rays", "steps", "_names", "_parse", "_numbers", "_by_number"})


def load_extension(name: str) -> ModuleType | None:
    """The compiled extension module `name` ("rules._native", "engine._native"), or None when it is not built
    (setup.py's extensions are optional). Imported by name, so one loader serves both packages."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@cache
def compiled() -> ModuleType | None:
    """The rules extension whether or not DBOARD_PURE_PYTHON is set (tests compare both cores), or None."""
    return load_extension("rules._native")


def _load() -> ModuleType | None:
    """The extension the package uses: None when pure Python is forced, or not built (one warning line)."""
    if os.environ.get(PURE_ENV, "").strip() not in ("", "0"):
        return None
    module = compiled()
    if module is None:
        logger.warning("draughts-board: the native core is not built (no C compiler at install?); "
                       "using the pure-Python core")
    return module


_EXT: ModuleType | None = _load()


def available() -> bool:
    """Whether the package plays on the compiled core (built, and not disabled by DBOARD_PURE_PYTHON)."""
    return _EXT is not None


def native_variant_ids() -> tuple[str, ...]:
    """The ids of the variants the compiled core can play (built or not); the others play on Python's."""
    return tuple(v for v in VARIANT_IDS if unsupported(get_variant(v)) is None)


def _default(f: dataclasses.Field[Any]) -> object:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _rays_straight(g: Geometry) -> bool:
    """Every ray is the chain of its first steps (the C side walks rays step by step)."""
    for d in range(len(DIRECTIONS)):
        for sq in g.squares:
            ray = g.rays[d][sq]
            for a, b in itertools.pairwise(ray):
                if g.rays[d][a][:1] != (b,):
                    return False
            if ray and g.rays[d][ray[-1]]:
                return False
    return True


@cache
def unsupported(variant: Variant) -> str | None:
    """Why the compiled core cannot play `variant` (None when it can). Independent of whether it is built."""
    if type(variant) is not Variant:
        return f"{type(variant).__name__} is not a plain Variant"
    for f in dataclasses.fields(Variant):
        value = getattr(variant, f.name)
        if f.name not in _KNOWN_FIELDS:
            if value != _default(f):
                return f"field {f.name}={value!r} is unknown to the native core"
        elif f.name in _NATIVE_VALUES and value not in _NATIVE_VALUES[f.name]:
            return f"{f.name}={value!r} is not implemented natively"
    if any(p not in _NATIVE_PRECEDENCE for p in variant.precedence) or len(variant.precedence) > 8:
        return f"precedence {variant.precedence} not implemented natively"
    g = variant.geometry
    if type(g) is not Geometry or {f.name for f in dataclasses.fields(Geometry)} != _GEOMETRY_FIELDS:
        return "the geometry has fields the native core does not know"
    if len(g.squares) > 128 or g.size > 192:
        return f"a {g.width}x{g.height} board is larger than the native core's bitboards"
    if len(DIRECTIONS) != 8 or not _rays_straight(g):
        return "the geometry's rays are not straight lines of steps"
    return None


@cache
def rules_params(variant: Variant) -> dict[str, object]:
    """The tables and codes the C side reads for `variant` (squares as dense indices, see csrc/dcore.h)."""
    g = variant.geometry
    squares = tuple(sorted(g.squares))
    dense = {sq: i for i, sq in enumerate(squares)}

    def dense_or_none(sq: int | None) -> int:
        return -1 if sq is None else dense[sq]

    adj = []
    step = []
    for dr, dc in DIRECTIONS:
        adj.append(tuple(dense_or_none(g.square_at(r + dr, c + dc)) for r, c in (g.rc(s) for s in squares)))
    for d in range(len(DIRECTIONS)):
        step.append(tuple(dense[g.rays[d][s][0]] if g.rays[d][s] else -1 for s in squares))
    v = variant
    kinds = (v.man_move_dirs, v.man_capture_dirs, v.king_move_dirs, v.king_capture_dirs)
    dirs = tuple(tuple(variant.direction_indices(k, c) for c in Color) for k in kinds)
    crown = tuple(tuple(sorted(dense[s] for s in variant.crown_squares(c))) for c in Color)
    table, turn_key = zobrist_table(g.size)
    return {
        "n": len(squares),
        "pad_size": g.size,
        "squares": squares,
        "adj": tuple(adj),
        "step": tuple(step),
        "dirs": dirs,
        "crown": crown,
        "man_long": int(variant.man_capture_range == "long"),
        "king_flying": int(variant.king_flying),
        "king_mode": _NATIVE_KING_CAPTURES.index(variant.king_capture),
        "removal_end": int(variant.removal == "end"),
        "mid": _NATIVE_MID.index(variant.promotion_mid_capture),
        "man_takes_kings": int(variant.can_man_capture_king),
        "partial": int(not variant.must_complete_sequence),
        "land_to_continue": int(variant.flying_king_must_land_to_continue),
        "rev": (-1,) * 9 if variant.allow_180 else (*REVERSE, -1),
        "precedence": tuple(_NATIVE_PRECEDENCE.index(p) for p in variant.precedence),
        "zobrist": tuple(tuple(row[s] for s in squares) for row in table),
        "zturn": turn_key,
    }


def native_movegen(variant: Variant, force: bool = False) -> Any | None:
    """A compiled MoveGen for `variant` (same methods as rules.movegen.MoveGen, plus perft), or None when the
    package runs on pure Python (`force`: whenever the extension is built) or the variant does not fit."""
    module = compiled() if force else _EXT
    if module is None:
        return None
    reason = unsupported(variant)
    if reason is not None:
        if not force:
            logger.info("draughts-board: %s plays on the pure-Python core (beyond the native core: %s)",
                        variant.id, reason)
        return None
    return module.MoveGen(rules_params(variant), Move)
