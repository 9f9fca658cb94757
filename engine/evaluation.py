"""Static evaluation per variant family, in hundredths of a man from the side to move's point of view.

Families: diagonal boards with flying kings, diagonal boards with short kings (English, Italian), giveaway
(material reversed) and orthogonal Turkish with its own terms. Three goals come from the rules' data: a man
advances towards the nearest crown square it can still reach (Corner: a man that can reach none is worth
less), where nothing is crowned (Alquerque) advancing earns nothing, and where every move is a capture
(Konane) the position is worth the moves each side has left. Per-square tables are built once per variant.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rules import Board, Color, Variant
from rules.generators import movegen_for
from rules.geometry import DIRECTIONS

MAN = 100


def king_value(variant: Variant) -> int:
    """A king's worth in hundredths of a man for this variant (a `king_value` field wins)."""
    explicit = getattr(variant, "king_value", None)
    if isinstance(explicit, int | float):
        return int(explicit * MAN) if explicit < 20 else int(explicit)
    if "of" in variant.man_move_dirs:  # Turkish: flying orthogonal kings among 16 men a side
        return 250
    if not variant.king_flying:
        return 160 if not variant.can_man_capture_king else 150
    if variant.id == "thai":
        return 250
    return 300 if variant.width >= 10 else 250


@dataclass(frozen=True)
class Weights:
    """Tunable weights of the evaluation terms (hundredths of a man)."""

    advance: int = 3
    advance_late: int = 6
    back_rank: int = 10
    centre: int = 4
    runaway: int = 150
    mobility: int = 2
    turkish_backed: int = 6
    turkish_side: int = 3
    tempo_balance: int = 1
    chase: int = 3
    moves_left: int = 25
    never_crowned: int = 40


def _squares(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class Evaluator:
    """Scores a Board statically; build one per variant and reuse it (it precomputes square tables)."""

    def __init__(self, variant: Variant, weights: Weights | None = None) -> None:
        self.variant = variant
        self.weights = weights or Weights()
        # no simple moves, only captures (Konane): the side with more moves left is ahead, and there is no
        # quiet position for a quiescence search to wait for
        self.mobility_game = not variant.man_move_dirs
        self.quiescence = not self.mobility_game
        self._gen = movegen_for(variant)
        self.no_crowning = not any(variant.crown_squares(c) for c in Color)
        if self.no_crowning:   # nothing is crowned (Alquerque): advancing earns nothing
            self.weights = dataclasses.replace(self.weights, advance=0, advance_late=0, runaway=0)
        self.king = king_value(variant)
        self.orthogonal = "of" in variant.man_move_dirs
        self.giveaway = not variant.no_move_loses
        geo = variant.geometry
        h, w = variant.height, variant.width
        self.squares = geo.squares
        self._rc = {sq: geo.rc(sq) for sq in geo.squares}
        wt = self.weights
        # Rows advanced from each color's own back rank and the man tables built from it.
        self._adv: dict[Color, dict[int, int]] = {}
        self._to_crown: dict[Color, dict[int, int | None]] = {}
        self._man_table: dict[Color, dict[int, int]] = {}
        self._forward_steps: dict[Color, dict[int, tuple[int, ...]]] = {}
        self._cone: dict[Color, dict[int, tuple[int, ...]]] = {}
        for color in (Color.WHITE, Color.BLACK):
            f = variant.forward(color)
            rank = {sq: (r if f > 0 else h - 1 - r) for sq, (r, _c) in self._rc.items()}
            to_crown = self._to_crown[color] = self._rows_to_crown(color)
            # a man is as far advanced as it is near a crown square it can still reach (Corner: two squares)
            adv = {sq: h - 1 - k if k is not None else 0 for sq, k in to_crown.items()}
            self._adv[color] = adv
            table: dict[int, int] = {}
            for sq, (_r, c) in self._rc.items():
                a = adv[sq]
                value = MAN + wt.advance * a + (wt.advance_late * (a - (h - 4)) if a > h - 4 else 0)
                central = min(c, w - 1 - c)
                if central >= 2:
                    value += wt.centre * (1 + (central >= 3))
                if rank[sq] == 0 and not self.orthogonal:
                    value += wt.back_rank
                if to_crown[sq] is None and not self.no_crowning:
                    value -= wt.never_crowned
                table[sq] = value
            self._man_table[color] = table
            steps: dict[int, tuple[int, ...]] = {}
            cone: dict[int, tuple[int, ...]] = {}
            for sq, (r, c) in self._rc.items():
                if self.orthogonal:
                    cand = [(r + f, c), (r, c - 1), (r, c + 1)]
                else:
                    cand = [(r + f, c - 1), (r + f, c + 1)]
                steps[sq] = tuple(s for s in (geo.square_at(rr, cc) for rr, cc in cand) if s is not None)
                left = h - 1 - adv[sq]  # rows to promotion
                cone_sqs = []
                if 0 < left <= 3:
                    for k in range(1, left + 1):
                        rr = r + f * k
                        spread = k + 1 if not self.orthogonal else k
                        for cc in range(c - spread, c + spread + 1):
                            s = geo.square_at(rr, cc)
                            if s is not None:
                                cone_sqs.append(s)
                cone[sq] = tuple(cone_sqs)
            self._forward_steps[color] = steps
            self._cone[color] = cone
        self._king_table = {}
        for sq, (r, c) in self._rc.items():
            central = min(c, w - 1 - c) + min(r, h - 1 - r)
            self._king_table[sq] = self.king + 2 * central
        size = geo.size
        self._step_masks: list[list[int]] = []
        self._cone_masks: list[list[int]] = []
        self._runaway: list[list[int]] = []
        for color in (Color.WHITE, Color.BLACK):
            step_m = [0] * size
            cone_m = [0] * size
            run = [0] * size
            for sq in self._rc:
                for t in self._forward_steps[color][sq]:
                    step_m[sq] |= 1 << t
                for t in self._cone[color][sq]:
                    cone_m[sq] |= 1 << t
                left = h - 1 - self._adv[color][sq]
                run[sq] = wt.runaway // left if left > 0 and self._to_crown[color][sq] is not None else 0
            self._step_masks.append(step_m)
            self._cone_masks.append(cone_m)
            self._runaway.append(run)
        # Bitboard forms of the tables: squares grouped by equal value, so a term is a few popcounts.
        self._man_groups = [self._groups(self._man_table[c]) for c in (Color.WHITE, Color.BLACK)]
        self._king_groups = self._groups(self._king_table)
        board_mask = geo.mask
        stride = geo.stride
        self._board_mask = board_mask
        self._man_shifts: list[tuple[int, ...]] = []
        self._zone: list[int] = []
        for color in (Color.WHITE, Color.BLACK):
            shifts = []
            for index in variant.direction_indices(variant.man_move_dirs, color):
                dr, dc = DIRECTIONS[index]
                shifts.append(dr * stride + dc)
            self._man_shifts.append(tuple(shifts))
            zone = 0
            for sq in geo.squares:
                if self._cone_masks[color][sq]:
                    zone |= 1 << sq
            self._zone.append(zone)
        self._forward_shift = [variant.forward(Color.WHITE) * stride, variant.forward(Color.BLACK) * stride]

    def _rows_to_crown(self, color: Color) -> dict[int, int | None]:
        """For each square, the rows a man of `color` still has to go to the nearest crown square within its
        reach (a diagonal man's cone ahead; straight ahead for an orthogonal one), None when none is: where
        the whole far row crowns that is the rows to the far row, in Corner it is the distance to a corner."""
        variant, h = self.variant, self.variant.height
        f = variant.forward(color)
        crowns = [self._rc[sq] for sq in variant.crown_squares(color)]
        out: dict[int, int | None] = {}
        for sq, (r, c) in self._rc.items():
            if not crowns:
                out[sq] = h - 1 - (r if f > 0 else h - 1 - r)
                continue
            ahead = [(cr - r) * f for cr, cc in crowns
                     if (cr - r) * f >= (0 if self.orthogonal else abs(cc - c))]
            out[sq] = min(ahead) if ahead else None
        return out

    @staticmethod
    def _groups(table: dict[int, int]) -> tuple[tuple[int, int], ...]:
        by_value: dict[int, int] = {}
        for sq, value in table.items():
            by_value[value] = by_value.get(value, 0) | (1 << sq)
        return tuple(sorted(by_value.items()))

    def __repr__(self) -> str:
        return f"Evaluator({self.variant.id}, king={self.king})"

    def evaluate(self, board: Board) -> int:
        """Score for the side to move; positive is good for it."""
        white, black, kings = board.bitboards()
        if self.mobility_game:
            mine = self._gen.count_legal(white, black, kings, Color.WHITE)
            theirs = self._gen.count_legal(black, white, kings, Color.BLACK)
            lead = self.weights.moves_left * (mine - theirs)
            return lead if board.turn == Color.WHITE else -lead
        if self.giveaway:
            return self._giveaway(board, white, black, kings)
        empty = self._board_mask & ~(white | black)
        wt = self.weights
        sides = (white, black)
        score = [0, 0]
        count = [0, 0]
        for c in (0, 1):
            own = sides[c]
            men = own & ~kings
            own_kings = own & kings
            total = 0
            for value, mask in self._man_groups[c]:
                if men & mask:
                    total += value * (men & mask).bit_count()
            if own_kings:
                for value, mask in self._king_groups:
                    if own_kings & mask:
                        total += value * (own_kings & mask).bit_count()
            mobility = 0
            for shift in self._man_shifts[c]:
                moved = men << shift if shift > 0 else men >> -shift
                mobility += (moved & empty).bit_count()
            total += wt.mobility * mobility
            enemy = sides[1 - c]
            near = men & self._zone[c]
            if near and not enemy & kings:
                cones = self._cone_masks[c]
                runaway = self._runaway[c]
                while near:
                    low = near & -near
                    sq = low.bit_length() - 1
                    near ^= low
                    if not enemy & cones[sq]:
                        total += runaway[sq]
            if self.orthogonal:
                f = self._forward_shift[c]
                ahead = own << f if f > 0 else own >> -f  # squares just in front of own pieces
                total += wt.turkish_backed * (men & ahead).bit_count()
                total += wt.turkish_side * ((men & (own << 1)).bit_count() + (men & (own >> 1)).bit_count())
            score[c] = total
            count[c] = own.bit_count()
        pieces = count[0] + count[1]
        if pieces <= 10:
            diff = score[0] - score[1]
            ahead = 0 if diff > 0 else 1
            if pieces <= 8:
                score[ahead] += abs(diff) // (4 * max(pieces, 1))  # trading down helps the side ahead
            if abs(diff) >= MAN // 2 and sides[ahead] & kings:
                score[ahead] -= wt.chase * self._king_distance(sides[ahead] & kings, sides[1 - ahead])
        me = int(board.turn)
        return score[me] - score[1 - me]

    def _king_distance(self, kings: int, enemy: int) -> int:
        """Sum over kings of the row/column distance to the nearest enemy piece (endgame conversion)."""
        rc = self._rc
        targets = [rc[s] for s in _squares(enemy)]
        if not targets:
            return 0
        total = 0
        for s in _squares(kings):
            r, c = rc[s]
            total += min(max(abs(r - tr), abs(c - tc)) for tr, tc in targets)
        return total

    def _giveaway(self, board: Board, white: int, black: int, kings: int) -> int:
        occ = white | black
        count = [0, 0]
        mobility = [0, 0]
        for c, side in ((0, white), (1, black)):
            count[c] = side.bit_count() + (side & kings).bit_count()
            steps = self._step_masks[c]
            x = side & ~kings
            while x:
                low = x & -x
                x ^= low
                mobility[c] += (steps[low.bit_length() - 1] & ~occ).bit_count()
        me = int(board.turn)
        # Fewer pieces and fewer moves are good: the side left without a move wins.
        return MAN * (count[1 - me] - count[me]) + 3 * (mobility[1 - me] - mobility[me])
