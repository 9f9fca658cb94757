"""Alquerque (docs/rules/alquerque.md): pieces on the 25 points of a 5x5 grid of lines.

Orthogonal lines join every point, diagonal lines only the points with an even coordinate sum (the
geometry's rays already follow them). A piece steps forward, diagonally forward or sideways, never back,
and not at all from the far row. It captures by jumping an adjacent enemy to the empty point beyond: the
first jump in a direction it may move in, later jumps of the same capture in any direction. Captures are
compulsory and go on while possible; nothing is ever crowned.
"""

from __future__ import annotations

from rules.geometry import DIRECTIONS
from rules.kinds._common import bits
from rules.move import Move
from rules.movegen import MoveGen, RawMove, merge_duplicates
from rules.pieces import Color
from rules.variants import Variant


class AlquerqueMoveGen(MoveGen):
    """Steps along the lines and jumps whose later legs may turn any way."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        g = variant.geometry
        far = []
        for c in Color:
            row = g.height - 1 if variant.forward(c) > 0 else 0
            far.append(sum(1 << s for s in g.squares if g.rc(s)[0] == row))
        self.far_row = tuple(far)
        steps: list[tuple[tuple[tuple[int, RawMove], ...], ...]] = []
        for c in Color:
            per_square: list[tuple[tuple[int, RawMove], ...]] = [()] * g.size
            for frm in g.squares:
                tos = [g.steps[d][frm] for d in self.man_move[c] if g.steps[d][frm] >= 0]
                per_square[frm] = tuple((to, (frm, to, 0, False, (frm, to), (), Move.simple(frm, to)))
                                        for to in tos)
            steps.append(tuple(per_square))
        self.step_table = tuple(steps)
        self.later_jumps = self._jump_table(tuple(range(len(DIRECTIONS))))

    def quiet_moves(self, own: int, opp: int, kings: int, color: int) -> list[RawMove]:
        """One step along a line, forward, diagonally forward or sideways; none from the far row."""
        empty = self.mask & ~(own | opp)
        table = self.step_table[color]
        return [raw for frm in bits(own & ~self.far_row[color]) for to, raw in table[frm] if empty >> to & 1]

    def count_quiet(self, own: int, opp: int, kings: int, color: int) -> int:
        """Number of steps."""
        return len(self.quiet_moves(own, opp, kings, color))

    def captures(self, own: int, opp: int, kings: int, color: int,
                 keep_duplicates: bool = False) -> list[RawMove]:
        """Every complete capture (each jumped piece leaves the board at once), precedence applied."""
        occ = own | opp
        out: list[RawMove] = []
        for frm in bits(own):
            for _d, obit, over, land, lbit in self.man_jumps[color][frm]:
                if opp & obit and not occ & lbit:
                    rest = (occ ^ (1 << frm)) & ~obit
                    self._jump_on(frm, land, rest, opp & ~obit, obit, (frm, land), (over,), out)
        if self.precedence and len(out) > 1:
            out = self._apply_precedence(out, 0, 0)
        return out if keep_duplicates else merge_duplicates(out)

    def _jump_on(self, start: int, sq: int, occ: int, opp: int, captured: int, path: tuple[int, ...],
                 caps: tuple[int, ...], out: list[RawMove]) -> None:
        """Continue a capture from `sq` in any direction along the lines while a jump exists."""
        found = False
        for _d, obit, over, land, lbit in self.later_jumps[sq]:
            if opp & obit and not occ & lbit:
                found = True
                self._jump_on(start, land, occ & ~obit, opp & ~obit, captured | obit, (*path, land),
                              (*caps, over), out)
        if not found:
            out.append((start, sq, captured, False, path, caps, None))

    def has_capture(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether a piece can make a first jump."""
        occ = own | opp
        return any(opp & obit and not occ & lbit
                   for frm in bits(own) for _d, obit, _o, _l, lbit in self.man_jumps[color][frm])

    def count_legal(self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False) -> int:
        """Number of legal moves."""
        return len(self.captures(own, opp, kings, color, keep_duplicates)) or self.count_quiet(
            own, opp, kings, color)
