"""Konane, Hawaiian checkers (docs/rules/hawaii.md): the opening removals, then straight orthogonal jumps.

The phase is read from the position: on a full board the side to move takes one of its pieces off a corner
or one of the four centre squares; with one empty square the side to move takes off one of its pieces next
to it (orthogonally); afterwards every move is a capture - a jump over an adjacent enemy piece to the empty
square behind it, continued only straight on and stopping after any jump. A removal is the Move from a
square to itself capturing that square (`Move.is_removal`).
"""

from __future__ import annotations

from rules.kinds._common import bits
from rules.move import Move
from rules.movegen import MoveGen, RawMove
from rules.variants import Variant


class KonaneMoveGen(MoveGen):
    """Removals in the opening, straight multi-jumps that may stop after any jump afterwards."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        g = variant.geometry
        h, w = g.height, g.width
        cells = {(0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)}
        cells |= {(r, c) for r in (h // 2 - 1, h // 2) for c in (w // 2 - 1, w // 2)}
        self.opening = sum(1 << sq for r, c in cells if (sq := g.square_at(r, c)) is not None)
        self.orthogonal = variant.direction_indices(("of", "os", "ob"), variant.first)
        self.neighbours = [0] * g.size
        self.removal: list[RawMove | None] = [None] * g.size
        for sq in g.squares:
            for d in self.orthogonal:
                if g.steps[d][sq] >= 0:
                    self.neighbours[sq] |= 1 << g.steps[d][sq]
            self.removal[sq] = (sq, sq, 1 << sq, False, (sq, sq), (sq,), Move(sq, sq, (sq, sq), (sq,)))

    def quiet_moves(self, own: int, opp: int, kings: int, color: int) -> list[RawMove]:
        """The opening removals: off a corner or the centre on a full board, next to the one hole after."""
        empty = self.mask & ~(own | opp)
        if not empty:
            chosen = own & self.opening
        elif not empty & (empty - 1):
            chosen = own & self.neighbours[empty.bit_length() - 1]
        else:
            return []
        return [self.removal[sq] for sq in bits(chosen)]  # type: ignore[misc]

    def count_quiet(self, own: int, opp: int, kings: int, color: int) -> int:
        """Number of removals."""
        return len(self.quiet_moves(own, opp, kings, color))

    def captures(self, own: int, opp: int, kings: int, color: int,
                 keep_duplicates: bool = False) -> list[RawMove]:
        """Every straight multi-jump and each of its stops (none while the opening removals are made)."""
        empty = self.mask & ~(own | opp)
        if not empty & (empty - 1):
            return []
        out: list[RawMove] = []
        for frm in bits(own):
            for d in self.orthogonal:
                ray = self.rays[d][frm]
                captured, i = 0, 0
                path: tuple[int, ...] = (frm,)
                caps: tuple[int, ...] = ()
                while i + 1 < len(ray) and opp >> ray[i] & 1 and empty >> ray[i + 1] & 1:
                    captured |= 1 << ray[i]
                    path, caps = (*path, ray[i + 1]), (*caps, ray[i])
                    out.append((frm, ray[i + 1], captured, False, path, caps, None))
                    i += 2
        return out

    def has_capture(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether the side to move can jump."""
        return bool(self.captures(own, opp, kings, color))

    def count_legal(self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False) -> int:
        """Number of legal moves."""
        return len(self.captures(own, opp, kings, color)) or self.count_quiet(own, opp, kings, color)
