"""Dameo (docs/rules/dameo.md): the standard, data-driven moves and orthogonal captures, plus linear moves.

A linear move: the rear man of an unbroken line of own men along a forward direction (straight or diagonal)
jumps to the empty square in front of the line - the whole line advances one square.
"""

from __future__ import annotations

from rules.kinds._common import bits
from rules.move import Move
from rules.movegen import MoveGen, RawMove


class DameoMoveGen(MoveGen):
    """Dameo's generator: MoveGen's steps, captures and precedence, with the linear moves added."""

    def quiet_moves(self, own: int, opp: int, kings: int, color: int) -> list[RawMove]:
        """The steps of men and kings, then the linear moves of lines of two or more men."""
        out = super().quiet_moves(own, opp, kings, color)
        men = own & ~kings
        empty = self.mask & ~(own | opp)
        crown = self.crown[color]
        for frm in bits(men):
            for d in self.man_move[color]:
                ray = self.rays[d][frm]
                i = 0
                while i < len(ray) and men >> ray[i] & 1:
                    i += 1
                if 0 < i < len(ray) and empty >> ray[i] & 1:
                    to = ray[i]
                    promo = bool(crown >> to & 1)
                    out.append((frm, to, 0, promo, (frm, to), (), Move(frm, to, (frm, to), (), promo)))
        return out

    def count_quiet(self, own: int, opp: int, kings: int, color: int) -> int:
        """Number of non-capturing moves, linear moves included, counted on bitboards (perft's leaves)."""
        n = super().count_quiet(own, opp, kings, color)
        men = own & ~kings
        empty = self.mask & ~(own | opp)
        for s in self.man_move_shifts[color]:
            # bit sq of `ahead_men` / `ahead_empty`: a man / an empty square k / k+1 steps in front of sq
            ahead_men = men >> s if s > 0 else men << -s
            ahead_empty = empty >> 2 * s if s > 0 else empty << -2 * s
            line = men & ahead_men
            while line:
                n += (line & ahead_empty).bit_count()
                ahead_men = ahead_men >> s if s > 0 else ahead_men << -s
                ahead_empty = ahead_empty >> s if s > 0 else ahead_empty << -s
                line &= ahead_men
        return n

    def count_legal(self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False) -> int:
        """Number of legal moves (MoveGen's shortcut would miss the linear moves)."""
        if self.has_capture(own, opp, kings, color):
            return len(self.captures(own, opp, kings, color, keep_duplicates))
        return self.count_quiet(own, opp, kings, color)
