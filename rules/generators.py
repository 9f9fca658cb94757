"""Which move generator a variant plays with: the standard one (rules.movegen) or its kind's (rules/kinds).

Not in rules.movegen: the kinds' generators are built on its MoveGen, so movegen cannot import them.
"""

from __future__ import annotations

from functools import cache

from rules.kinds import kind_movegen
from rules.movegen import MoveGen, standard_movegen
from rules.native import native_movegen
from rules.variants import Variant


@cache
def movegen_for(variant: Variant) -> MoveGen:
    """The (cached) move generator of a variant: the compiled one when it is built and fits the variant, else
    the Python one (the move kinds beyond standard ones have their own: rules/kinds)."""
    if variant.move_kind == "standard":
        return standard_movegen(variant)
    native = native_movegen(variant)   # None (the C core has standard moves only), logging why
    return kind_movegen(variant) if native is None else native
