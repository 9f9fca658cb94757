"""Move generation on integer bitboards, driven entirely by a Variant's parameters.

Internally a move is a compact tuple `(from, to, captured_mask, promotion, path, captures)`; the Board wraps
it in a Move only when asked. Captures are found by depth-first search; precedence filters and duplicate
merging (same from, to, captured set) are applied afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from rules.geometry import DIRECTIONS, REVERSE
from rules.move import Move
from rules.native import native_movegen
from rules.pieces import Color
from rules.variants import Variant

# (from, to, captured mask, promotion, path, captures, prebuilt Move or None)
RawMove = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...], Move | None]
# per capture direction: (|shift|, shift < 0, i.e. targets are shifted left to line up with their jumpers)
ShiftTests = tuple[tuple[int, bool], ...]


def _shift_tests(shifts: Iterable[int]) -> ShiftTests:
    """The (amount, is_left_shift) pairs of signed direction shifts, for _short_jumpers."""
    return tuple((-sh if sh < 0 else sh, sh < 0) for sh in shifts)


def _short_jumpers(pieces: int, targets: int, empty: int, tests: ShiftTests) -> int:
    """The `pieces` that can jump a `targets` piece onto an `empty` square right behind it, whole board."""
    found = 0
    for sh, left in tests:
        if left:
            found |= pieces & (targets << sh) & (empty << 2 * sh)
        else:
            found |= pieces & (targets >> sh) & (empty >> 2 * sh)
    return found


def merge_duplicates(moves: list[RawMove]) -> list[RawMove]:
    """One capture per (from, to, captured set, promotion): other paths are the same move on the board."""
    seen: set[tuple[int, int, int, bool]] = set()
    unique: list[RawMove] = []
    for m in moves:
        key = (m[0], m[1], m[2], m[3])
        if key not in seen:
            seen.add(key)
            unique.append(m)
    return unique


class MoveGen:
    """Precomputed tables and generators for one variant (obtain with `rules.generators.movegen_for`)."""

    def __init__(self, variant: Variant) -> None:
        g = variant.geometry
        self.variant = variant
        self.mask = g.mask
        self.rays = g.rays
        stride = g.stride
        self.shift_of = tuple(dr * stride + dc for dr, dc in DIRECTIONS)
        self.man_move = tuple(variant.direction_indices(variant.man_move_dirs, c) for c in Color)
        self.man_cap = tuple(variant.direction_indices(variant.man_capture_dirs, c) for c in Color)
        self.king_move = tuple(variant.direction_indices(variant.king_move_dirs, c) for c in Color)
        self.king_cap = tuple(variant.direction_indices(variant.king_capture_dirs, c) for c in Color)
        self.man_move_shifts = tuple(tuple(self.shift_of[d] for d in self.man_move[c]) for c in Color)
        self.man_cap_shifts = tuple(tuple(self.shift_of[d] for d in self.man_cap[c]) for c in Color)
        crown = []
        for c in Color:
            m = 0
            for s in variant.crown_squares(c):
                m |= 1 << s
            crown.append(m)
        self.crown = tuple(crown)
        self.man_long = variant.man_capture_range == "long"
        self.king_flying = variant.king_flying
        self.king_mode = variant.king_capture
        self.king_long = variant.king_capture != "short"
        self.removal_end = variant.removal == "end"
        self.mid = variant.promotion_mid_capture
        self.man_takes_kings = variant.can_man_capture_king
        self.precedence = variant.precedence
        self.partial = not variant.must_complete_sequence
        # direction a capture may not take after `last_dir` (index -1 = first jump: none)
        self.rev_table = (-1,) * 9 if variant.allow_180 else (*REVERSE, -1)
        self.land_to_continue = variant.flying_king_must_land_to_continue
        self.man_jumps = tuple(self._jump_table(self.man_cap[c]) for c in Color)
        self.king_jumps = tuple(self._jump_table(self.king_cap[c]) for c in Color)
        self._quiet_tables()
        self._mdfs = self._dfs if self.man_long else self._sdfs
        self._kdfs = self._dfs if self.king_long else self._sdfs
        # (amount, is_left_shift) pairs for whole-board short-capture detection (see _short_jumpers)
        self.man_cap_tests = tuple(_shift_tests(self.man_cap_shifts[c]) for c in Color)
        self.king_cap_tests = tuple(_shift_tests(self.shift_of[d] for d in self.king_cap[c]) for c in Color)

    def _quiet_tables(self) -> None:
        """Prebuilt raw non-capture tuples (with their Move objects): per color and man-move shift,
        indexed by target square; per king-move direction and square, aligned with the ray."""
        size = self.variant.geometry.size
        man: list[tuple[tuple[int, tuple[RawMove | None, ...]], ...]] = []
        for c in Color:
            per_shift = []
            for s in self.man_move_shifts[c]:
                row: list[RawMove | None] = [None] * size
                for to in self.variant.geometry.squares:
                    frm = to - s
                    if 0 <= frm < size and self.mask >> frm & 1:
                        promo = bool(self.crown[c] >> to & 1)
                        row[to] = (frm, to, 0, promo, (frm, to), (), Move(frm, to, (frm, to), (), promo))
                per_shift.append((s, tuple(row)))
            man.append(tuple(per_shift))
        self.man_quiet = tuple(man)
        king: list[tuple[tuple[RawMove, ...], ...]] = []
        for d in range(len(DIRECTIONS)):
            per_sq: list[tuple[RawMove, ...]] = []
            for frm in range(size):
                per_sq.append(tuple((frm, to, 0, False, (frm, to), (), Move(frm, to, (frm, to), (), False))
                                    for to in self.rays[d][frm]))
            king.append(tuple(per_sq))
        self.king_quiet = tuple(king)

    def _jump_table(self, dirs: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
        """Per square: (direction, jumped bit, jumped square, landing square, landing bit) of short jumps."""
        table: list[tuple[tuple[int, int, int, int, int], ...]] = []
        for sq in range(self.variant.geometry.size):
            entries = []
            for d in dirs:
                ray = self.rays[d][sq]
                if len(ray) >= 2:
                    entries.append((d, 1 << ray[0], ray[0], ray[1], 1 << ray[1]))
            table.append(tuple(entries))
        return tuple(table)

    # -- non-captures ---------------------------------------------------------------------------------
    def quiet_moves(self, own: int, opp: int, kings: int, color: int) -> list[RawMove]:
        """Every non-capturing move of the side owning `own`."""
        empty = self.mask & ~(own | opp)
        men = own & ~kings
        out: list[RawMove] = []
        append = out.append
        for s, row in self.man_quiet[color]:
            tgt = (men << s if s > 0 else men >> -s) & empty
            while tgt:
                low = tgt & -tgt
                tgt ^= low
                append(row[low.bit_length() - 1])  # type: ignore[arg-type]
        k = own & kings
        if k:
            rays = self.rays
            kq = self.king_quiet
            dirs = self.king_move[color]
            flying = self.king_flying
            while k:
                low = k & -k
                frm = low.bit_length() - 1
                k ^= low
                for d in dirs:
                    raws = kq[d][frm]
                    for i, to in enumerate(rays[d][frm]):
                        if empty >> to & 1:
                            append(raws[i])
                            if not flying:
                                break
                        else:
                            break
        return out

    def count_legal(self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False) -> int:
        """Number of legal moves (perft leaves); avoids building moves when men-only and no capture."""
        if not (own & kings) and not self.man_long:
            # _short_jumpers inlined with an early exit: this runs at every perft leaf.
            occ = own | opp
            empty = self.mask & ~occ
            targets = opp if self.man_takes_kings else opp & ~kings
            for sh, left in self.man_cap_tests[color]:
                if left:
                    if own & (targets << sh) & (empty << 2 * sh):
                        break
                elif own & (targets >> sh) & (empty >> 2 * sh):
                    break
            else:
                n = 0
                for s in self.man_move_shifts[color]:
                    n += ((own << s if s > 0 else own >> -s) & empty).bit_count()
                return n
        return len(self.captures(own, opp, kings, color, keep_duplicates)) or self.count_quiet(
            own, opp, kings, color)

    def count_quiet(self, own: int, opp: int, kings: int, color: int) -> int:
        """Number of non-capturing moves, without building them."""
        empty = self.mask & ~(own | opp)
        men = own & ~kings
        n = 0
        for s in self.man_move_shifts[color]:
            n += ((men << s if s > 0 else men >> -s) & empty).bit_count()
        k = own & kings
        if k:
            rays = self.rays
            flying = self.king_flying
            while k:
                low = k & -k
                frm = low.bit_length() - 1
                k ^= low
                for d in self.king_move[color]:
                    for to in rays[d][frm]:
                        if empty >> to & 1:
                            n += 1
                            if not flying:
                                break
                        else:
                            break
        return n

    # -- captures -------------------------------------------------------------------------------------
    def has_capture(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether the side owning `own` has at least one capture."""
        occ = own | opp
        empty = self.mask & ~occ
        men = own & ~kings
        if men:
            targets = opp if self.man_takes_kings else opp & ~kings
            if self.man_long:
                if self._any_long_capture(men, self.man_cap[color], occ, targets):
                    return True
            elif _short_jumpers(men, targets, empty, self.man_cap_tests[color]):
                return True
        k = own & kings
        if k:
            if self.king_long:
                return self._any_long_capture(k, self.king_cap[color], occ, opp)
            return bool(_short_jumpers(k, opp, empty, self.king_cap_tests[color]))
        return False

    def _any_long_capture(self, pieces: int, dirs: tuple[int, ...], occ: int, targets: int) -> bool:
        """Whether one of `pieces` can jump a `targets` piece at any distance along one of `dirs`."""
        rays = self.rays
        while pieces:
            low = pieces & -pieces
            sq = low.bit_length() - 1
            pieces ^= low
            for d in dirs:
                ray = rays[d][sq]
                n = len(ray)
                i = 0
                while i < n and not occ >> ray[i] & 1:
                    i += 1
                if i < n - 1 and targets >> ray[i] & 1 and not occ >> ray[i + 1] & 1:
                    return True
        return False

    def captures(
        self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False
    ) -> list[RawMove]:
        """Every legal capture after precedence filters; duplicates (same from, to, captured set) merged
        unless keep_duplicates."""
        out: list[RawMove] = []
        occ = own | opp
        opp_kings = opp & kings
        own_kings = own & kings
        men = own & ~kings
        if men and not self.man_long:
            # Only men with an immediate short capture can start a sequence.
            empty = self.mask & ~occ
            targets = opp if self.man_takes_kings else opp & ~kings
            men = _short_jumpers(men, targets, empty, self.man_cap_tests[color])
        if men:
            mdfs = self._mdfs
            while men:
                low = men & -men
                sq = low.bit_length() - 1
                men ^= low
                mdfs(sq, sq, False, False, occ ^ low, opp, opp_kings, 0, (sq,), (), -1, out, color)
        if own_kings:
            kdfs = self._kdfs
            k = own_kings
            while k:
                low = k & -k
                sq = low.bit_length() - 1
                k ^= low
                kdfs(sq, sq, True, False, occ ^ low, opp, opp_kings, 0, (sq,), (), -1, out, color)
        if not out:
            return out
        if self.precedence and len(out) > 1:
            out = self._apply_precedence(out, own_kings, opp_kings)
        if keep_duplicates or len(out) == 1:
            return out
        for m in out:
            if len(m[5]) > 1:
                break
        else:  # single captures: a different path always means a different landing square
            return out
        return merge_duplicates(out)

    def _sdfs(self, start: int, sq: int, king: bool, promoted: bool, occ: int, opp: int, opp_kings: int,
              captured: int, path: tuple[int, ...], caps: tuple[int, ...], last_dir: int,
              out: list[RawMove], color: int) -> bool:
        """Short-jump version of _dfs (table driven). Captured pieces may stay in `occ` whatever the removal
        rule: short landings and jumped squares never coincide."""
        if king:
            table = self.king_jumps[color][sq]
            capturable = opp & ~captured
        else:
            table = self.man_jumps[color][sq]
            capturable = (opp if self.man_takes_kings else opp & ~opp_kings) & ~captured
        rev = self.rev_table[last_dir]
        crown = 0 if king else self.crown[color]
        partial = self.partial
        found = False
        for d, obit, over, land, lbit in table:
            if not capturable & obit or occ & lbit or d == rev:
                continue
            found = True
            ncap = captured | obit
            npath = (*path, land)
            ncaps = (*caps, over)
            if crown & lbit:
                mid = self.mid
                if mid == "stop":
                    out.append((start, land, ncap, True, npath, ncaps, None))
                elif mid == "continue_as_king":
                    if not self._kdfs(start, land, True, True, occ, opp, opp_kings, ncap, npath, ncaps, d,
                                      out, color) or partial:
                        out.append((start, land, ncap, True, npath, ncaps, None))
                elif not self._sdfs(start, land, False, promoted, occ, opp, opp_kings, ncap, npath, ncaps, d,
                                    out, color) or partial:
                    out.append((start, land, ncap, True, npath, ncaps, None))
            elif not self._sdfs(start, land, king, promoted, occ, opp, opp_kings, ncap, npath, ncaps, d, out,
                                color) or partial:
                out.append((start, land, ncap, promoted, npath, ncaps, None))
        return found

    def _dfs(self, start: int, sq: int, king: bool, promoted: bool, occ: int, opp: int, opp_kings: int,
             captured: int, path: tuple[int, ...], caps: tuple[int, ...], last_dir: int,
             out: list[RawMove], color: int) -> bool:
        """Extend a capture sequence from `sq`; append complete ones to `out`; True if any jump exists."""
        occ_eff = occ if self.removal_end else occ & ~captured
        capturable = opp & ~captured
        if king:
            dirs = self.king_cap[color]
            long = self.king_long
            mode = self.king_mode
        else:
            dirs = self.man_cap[color]
            long = self.man_long
            mode = "long_any" if long else "short"
            if not self.man_takes_kings:
                capturable &= ~opp_kings
        rays = self.rays
        crown = self.crown[color]
        rev = self.rev_table[last_dir]
        found = False
        for d in dirs:
            if d == rev:
                continue
            ray = rays[d][sq]
            n = len(ray)
            i = 0
            if long:
                while i < n and not occ_eff >> ray[i] & 1:
                    i += 1
            if i >= n - 1:
                continue
            t = ray[i]
            if not capturable >> t & 1:
                continue
            first = ray[i + 1]
            if occ_eff >> first & 1:
                continue
            landings = [first]
            if mode == "long_any" or mode == "long_any_last_behind":
                j = i + 2
                while j < n and not occ_eff >> ray[j] & 1:
                    landings.append(ray[j])
                    j += 1
            found = True
            ncap = captured | (1 << t)
            ncaps = (*caps, t)
            terminals: list[tuple[int, bool]] = []
            stops: list[tuple[int, bool]] = []  # landings that could continue (optional continuation only)
            cont = False
            for land in landings:
                if not king and crown >> land & 1:
                    if self.mid == "stop":
                        terminals.append((land, True))
                        continue
                    if self.mid == "continue_as_king":
                        if self._kdfs(start, land, True, True, occ, opp, opp_kings, ncap, (*path, land),
                                      ncaps, d, out, color):
                            cont = True
                            if self.partial:
                                stops.append((land, True))
                        else:
                            terminals.append((land, True))
                        continue
                promo = promoted or (not king and bool(crown >> land & 1))
                if self._dfs(start, land, king, promoted, occ, opp, opp_kings, ncap, (*path, land), ncaps,
                             d, out, color):
                    cont = True
                    if self.partial:
                        stops.append((land, promo))
                else:
                    terminals.append((land, promo))
            if cont and self.land_to_continue and not self.partial:
                continue
            if mode == "long_any_last_behind":
                terminals = [tl for tl in terminals if tl[0] == first]
            for land, promo in terminals + stops:
                out.append((start, land, ncap, promo, (*path, land), ncaps, None))
        return found

    def _apply_precedence(self, moves: list[RawMove], own_kings: int, opp_kings: int) -> list[RawMove]:
        """Keep the captures preferred by the variant's precedence rules, applied in order."""
        for rule in self.precedence:
            if len(moves) == 1:
                break
            if rule == "max_pieces":
                best = max(len(m[5]) for m in moves)
                if best > 1:
                    moves = [m for m in moves if len(m[5]) == best]
            elif rule == "max_kings":
                best = max((m[2] & opp_kings).bit_count() for m in moves)
                moves = [m for m in moves if (m[2] & opp_kings).bit_count() == best]
            elif rule == "capture_with_king":
                by_king = [m for m in moves if own_kings >> m[0] & 1]
                if by_king:
                    moves = by_king
            elif rule == "earliest_king":
                def order(m: RawMove) -> tuple[bool, ...]:
                    return tuple(bool(opp_kings >> s & 1) for s in m[5])
                best_order = max(order(m) for m in moves)
                moves = [m for m in moves if order(m) == best_order]
        return moves

    def legal(
        self, own: int, opp: int, kings: int, color: int, keep_duplicates: bool = False
    ) -> list[RawMove]:
        """Legal moves: captures if any (compulsory), else the non-captures."""
        return self.captures(own, opp, kings, color, keep_duplicates) or self.quiet_moves(
            own, opp, kings, color)


@cache
def standard_movegen(variant: Variant) -> MoveGen:
    """The (cached) generator of standard men and kings for `variant`: the compiled one when it is built and
    fits the variant, else the Python one. For any variant, whatever its move kind: rules.generators."""
    native = native_movegen(variant)
    return MoveGen(variant) if native is None else native
