"""Move generators for the move kinds beyond standard men and kings (`Variant.move_kind`), one module each.

Each generator is a `rules.movegen.MoveGen` (the same methods on the same raw moves), so the Board, perft and
the engine use them unchanged; `rules.generators.movegen_for` picks one by the variant's `move_kind`.
"""

from __future__ import annotations

from rules.movegen import MoveGen
from rules.variants import Variant


def kind_movegen(variant: Variant) -> MoveGen:
    """The move generator of a variant whose `move_kind` is not "standard"."""
    from rules.kinds.alquerque import AlquerqueMoveGen
    from rules.kinds.dameo import DameoMoveGen
    from rules.kinds.konane import KonaneMoveGen
    from rules.kinds.parachute import ParachuteMoveGen

    kinds: dict[str, type[MoveGen]] = {"parachute": ParachuteMoveGen, "dameo": DameoMoveGen,
                                       "alquerque": AlquerqueMoveGen, "konane": KonaneMoveGen}
    if variant.move_kind not in kinds:
        raise ValueError(f"variant {variant.id}: no generator for move kind {variant.move_kind!r}")
    return kinds[variant.move_kind](variant)
