"""Parachute checkers (docs/rules/parachute.md): Czech rules plus parachutists.

A parachutist is a man standing on its own crowning row (where a man would have been crowned: it can only
have been dropped there). Its one move is a capture: a short jump back over an enemy piece to the square
right behind it, after which it is an ordinary man and the move ends; with the option
`parachutist_multi_jump` it goes on jumping like a checkers king (short, four diagonals) while it can.
Parachutists are men for the precedence rules (a king that can capture must).
"""

from __future__ import annotations

import dataclasses

from rules.kinds._common import bits
from rules.movegen import MoveGen, RawMove, merge_duplicates, standard_movegen
from rules.pieces import Color
from rules.variants import Variant


class ParachuteMoveGen(MoveGen):
    """Czech moves from the standard generator, with the parachutists' captures added before precedence."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        # the same rules without precedence: its captures and the drops are filtered together
        self.plain = standard_movegen(dataclasses.replace(variant, precedence=(), move_kind="standard"))
        self.drop_jumps = tuple(self._jump_table(variant.direction_indices(("db",), c)) for c in Color)
        self.diagonal_jumps = self._jump_table(variant.direction_indices(("df", "db"), Color.WHITE))
        self.multi = variant.parachutist_multi_jump

    def _drops(self, own: int, opp: int, kings: int, color: int) -> list[RawMove]:
        """The parachutists' captures."""
        paras = own & ~kings & self.crown[color]
        if not paras:
            return []
        occ = own | opp
        out: list[RawMove] = []
        for frm in bits(paras):
            for _d, obit, over, land, lbit in self.drop_jumps[color][frm]:
                if opp & obit and not occ & lbit:
                    if self.multi:
                        self._jump_on(frm, land, occ ^ (1 << frm), opp, obit, (frm, land), (over,), color,
                                      out)
                    else:
                        out.append((frm, land, obit, False, (frm, land), (over,), None))
        return out

    def _jump_on(self, start: int, sq: int, occ: int, opp: int, captured: int, path: tuple[int, ...],
                 caps: tuple[int, ...], color: int, out: list[RawMove]) -> None:
        """Continue a parachutist's capture like a checkers king (jumped pieces stay until the end)."""
        found = False
        for _d, obit, over, land, lbit in self.diagonal_jumps[sq]:
            if opp & obit and not captured & obit and not occ & lbit:
                found = True
                self._jump_on(start, land, occ, opp, captured | obit, (*path, land), (*caps, over), color,
                              out)
        if not found:
            out.append((start, sq, captured, bool(self.crown[color] >> sq & 1), path, caps, None))

    def captures(self, own: int, opp: int, kings: int, color: int,
                 keep_duplicates: bool = False) -> list[RawMove]:
        """Every legal capture, the parachutists' included, after the precedence filters."""
        out = self.plain.captures(own, opp, kings, color, True) + self._drops(own, opp, kings, color)
        if self.precedence and len(out) > 1:
            out = self._apply_precedence(out, own & kings, opp & kings)
        return out if keep_duplicates else merge_duplicates(out)

    def has_capture(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether a piece, a parachutist included, can capture."""
        return self.plain.has_capture(own, opp, kings, color) or bool(self._drops(own, opp, kings, color))

    def count_legal(self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False) -> int:
        """Number of legal moves (MoveGen's shortcut would miss the parachutists)."""
        return len(self.captures(own, opp, kings, color, keep_duplicates)) or self.count_quiet(
            own, opp, kings, color)
