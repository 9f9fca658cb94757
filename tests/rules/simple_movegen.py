"""A deliberately simple move generator for the seven BrainKing games, written from their rules pages
(docs/rules/corner.md, one-way.md, parachute.md, gothic.md, dameo.md, alquerque.md, hawaii.md) without the
rules core: squares are (row, col) pairs seen from White, a position is a dict, every move is found by
walking the board one step at a time. Slow and obvious, it checks the rules core's generators
(tests/rules/test_brainking_perft.py, bench/perft_brainking.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import rules

Cell = tuple[int, int]
Position = dict[Cell, tuple[int, bool]]  # (color: 0 white / 1 black, king)
DIAGONALS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
ORTHOGONALS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class SimpleMove:
    """From, to, the captured squares (a removal: to == from, capturing itself) and whether it crowns."""

    frm: Cell
    to: Cell
    captured: frozenset[Cell]
    crowned: bool


def position_of(board: rules.Board) -> tuple[Position, int]:
    """The board's pieces as (row, col) -> (color, king), and the side to move."""
    g = board.variant.geometry
    return {g.rc(sq): (int(p.color), p.king) for sq, p in board.pieces().items()}, int(board.turn)


def play(pos: Position, move: SimpleMove) -> Position:
    """The position after a move."""
    out = dict(pos)
    color, king = out.pop(move.frm)
    for sq in move.captured:
        out.pop(sq, None)
    if move.captured != {move.frm} or move.to != move.frm:
        out[move.to] = (color, king or move.crowned)
    return out


class Simple:
    """Legal moves of one of the seven games, from its rules page."""

    def __init__(self, game: str, parachutist_multi_jump: bool = False) -> None:
        self.game = game
        self.size = 5 if game == "alquerque" else 8
        self.multi = parachutist_multi_jump

    # -- the board ------------------------------------------------------------------------------------
    def on(self, sq: Cell) -> bool:
        r, c = sq
        inside = 0 <= r < self.size and 0 <= c < self.size
        if self.game in ("corner", "one-way", "parachute"):
            return inside and (r + c) % 2 == 0       # the dark squares, a1 dark
        return inside

    def line(self, sq: Cell, d: Cell) -> bool:
        """Whether a line leaves `sq` in direction `d` (Alquerque: diagonals only from even points)."""
        if self.game == "alquerque" and d[0] and d[1]:
            return (sq[0] + sq[1]) % 2 == 0
        return True

    def forward(self, color: int) -> int:
        return 1 if color == 0 or self.game == "one-way" else -1

    def crowns(self, sq: Cell, color: int) -> bool:
        if self.game in ("alquerque", "hawaii"):
            return False
        if self.game == "corner":
            return sq in (((6, 0), (7, 1)) if color == 0 else ((0, 6), (1, 7)))
        return sq[0] == (7 if self.forward(color) > 0 else 0)

    # -- moves ------------------------------------------------------------------------------------------
    def moves(self, pos: Position, turn: int) -> list[SimpleMove]:
        """Every legal move of the side to move (duplicate paths merged)."""
        if self.game == "hawaii":
            return self._konane(pos, turn)
        caps = list(self._captures(pos, turn))
        if caps:
            if self.game in ("corner", "one-way", "parachute") and any(pos[m.frm][1] for m in caps):
                caps = [m for m in caps if pos[m.frm][1]]    # a king that can capture must
            if self.game == "dameo":
                best = max(len(m.captured) for m in caps)
                caps = [m for m in caps if len(m.captured) == best]
            return sorted(set(caps), key=repr)
        return sorted(set(self._steps(pos, turn)), key=repr)

    def _steps(self, pos: Position, turn: int) -> Iterator[SimpleMove]:
        f = self.forward(turn)
        for (r, c), (color, king) in pos.items():
            if color != turn:
                continue
            if king:
                czech = self.game in ("corner", "one-way", "parachute")
                dirs = DIAGONALS if czech else DIAGONALS + ORTHOGONALS
                flying = self.game != "gothic"
                for dr, dc in dirs:
                    sq = (r + dr, c + dc)
                    while self.on(sq) and sq not in pos:
                        yield SimpleMove((r, c), sq, frozenset(), False)
                        if not flying:
                            break
                        sq = (sq[0] + dr, sq[1] + dc)
                continue
            if self.game == "parachute" and self.crowns((r, c), color):
                continue                                  # a parachutist only captures
            if self.game == "alquerque" and r == (self.size - 1 if f > 0 else 0):
                continue                                  # no steps from the far row
            dirs = {"gothic": ((f, -1), (f, 0), (f, 1), (0, -1), (0, 1)), "dameo": ((f, -1), (f, 0), (f, 1)),
                    "alquerque": ((f, -1), (f, 0), (f, 1), (0, -1), (0, 1))}.get(self.game, ((f, -1), (f, 1)))
            for dr, dc in dirs:
                if not self.line((r, c), (dr, dc)):
                    continue
                sq = (r + dr, c + dc)
                if self.game == "dameo":                  # the linear move: over a line of own men
                    while self.on(sq) and pos.get(sq) == (turn, False):
                        sq = (sq[0] + dr, sq[1] + dc)
                if self.on(sq) and sq not in pos:
                    yield SimpleMove((r, c), sq, frozenset(), self.crowns(sq, color))

    def _captures(self, pos: Position, turn: int) -> Iterator[SimpleMove]:
        for sq, (color, king) in pos.items():
            if color != turn:
                continue
            if king and self.game != "gothic":
                yield from self._king_jumps(pos, turn, sq, sq, frozenset())
            elif self.game == "parachute" and not king and self.crowns(sq, color):
                yield from self._drop(pos, turn, sq)
            else:
                yield from self._short_jumps(pos, turn, sq, sq, frozenset(), king, first=True)

    def _short_jump_dirs(self, turn: int, king: bool, first: bool) -> tuple[Cell, ...]:
        f = self.forward(turn)
        if self.game == "gothic":
            return DIAGONALS + ORTHOGONALS if king else ((f, -1), (f, 0), (f, 1), (0, -1), (0, 1))
        if self.game == "dameo":
            return ORTHOGONALS
        if self.game == "alquerque":
            return ((f, -1), (f, 0), (f, 1), (0, -1), (0, 1)) if first else DIAGONALS + ORTHOGONALS
        return ((f, -1), (f, 1))

    def _short_jumps(self, pos: Position, turn: int, start: Cell, sq: Cell, taken: frozenset[Cell],
                     king: bool, first: bool) -> Iterator[SimpleMove]:
        """Men (and Gothic's kings): jump an adjacent enemy to the empty square behind, while possible."""
        found = False
        for dr, dc in self._short_jump_dirs(turn, king, first):
            over, land = (sq[0] + dr, sq[1] + dc), (sq[0] + 2 * dr, sq[1] + 2 * dc)
            if not self.line(sq, (dr, dc)) or not self.on(land) or over in taken:
                continue
            if over not in pos or pos[over][0] == turn:
                continue
            if land != start and land in pos and not (self.game == "alquerque" and land in taken):
                continue
            found = True
            now = taken | {over}
            if not king and self.game != "dameo" and self.crowns(land, turn):
                yield SimpleMove(start, land, now, True)   # crowned: the move ends
                continue
            yield from self._short_jumps(pos, turn, start, land, now, king, first=False)
        if not found and taken:
            crowned = not king and self.game == "dameo" and self.crowns(sq, turn)
            yield SimpleMove(start, sq, taken, crowned)

    def _king_jumps(self, pos: Position, turn: int, start: Cell, sq: Cell,
                    taken: frozenset[Cell]) -> Iterator[SimpleMove]:
        """Flying kings: jump one enemy at any distance, land on an empty square beyond; where some landing
        can go on capturing, only those landings."""
        dirs = ORTHOGONALS if self.game == "dameo" else DIAGONALS

        def empty(s: Cell) -> bool:
            return self.on(s) and (s not in pos or s == start)

        found = False
        for dr, dc in dirs:
            over = (sq[0] + dr, sq[1] + dc)
            while empty(over):
                over = (over[0] + dr, over[1] + dc)
            if not self.on(over) or over in taken or pos[over][0] == turn:
                continue
            landings = []
            land = (over[0] + dr, over[1] + dc)
            while empty(land):
                landings.append(land)
                land = (land[0] + dr, land[1] + dc)
            if not landings:
                continue
            found = True
            now = taken | {over}
            going_on = [s for s in landings
                        if any(m.captured != now for m in self._king_jumps(pos, turn, start, s, now))]
            for s in going_on or landings:
                if going_on:
                    yield from self._king_jumps(pos, turn, start, s, now)
                else:
                    yield SimpleMove(start, s, now, False)
        if not found and taken:
            yield SimpleMove(start, sq, taken, False)

    def _drop(self, pos: Position, turn: int, sq: Cell) -> Iterator[SimpleMove]:
        """A parachutist: one jump back over an enemy to the square right behind it, then a man."""
        back = -self.forward(turn)
        for dc in (-1, 1):
            over, land = (sq[0] + back, sq[1] + dc), (sq[0] + 2 * back, sq[1] + 2 * dc)
            if self.on(land) and land not in pos and over in pos and pos[over][0] != turn:
                if not self.multi:
                    yield SimpleMove(sq, land, frozenset({over}), False)
                    continue
                yield from self._short_jumps_like_king(pos, turn, sq, land, frozenset({over}))

    def _short_jumps_like_king(self, pos: Position, turn: int, start: Cell, sq: Cell,
                               taken: frozenset[Cell]) -> Iterator[SimpleMove]:
        found = False
        for dr, dc in DIAGONALS:
            over, land = (sq[0] + dr, sq[1] + dc), (sq[0] + 2 * dr, sq[1] + 2 * dc)
            if (self.on(land) and (land not in pos or land == start) and over in pos and over not in taken
                    and pos[over][0] != turn):
                found = True
                yield from self._short_jumps_like_king(pos, turn, start, land, taken | {over})
        if not found:
            yield SimpleMove(start, sq, taken, self.crowns(sq, turn))

    def _konane(self, pos: Position, turn: int) -> list[SimpleMove]:
        holes = [(r, c) for r in range(8) for c in range(8) if (r, c) not in pos]
        mine = [sq for sq, (color, _) in pos.items() if color == turn]
        if not holes:
            allowed = {(0, 0), (0, 7), (7, 0), (7, 7), (3, 3), (3, 4), (4, 3), (4, 4)}
            return [SimpleMove(sq, sq, frozenset({sq}), False) for sq in mine if sq in allowed]
        if len(holes) == 1:
            (hr, hc), = holes
            return [SimpleMove(sq, sq, frozenset({sq}), False) for sq in mine
                    if abs(sq[0] - hr) + abs(sq[1] - hc) == 1]
        out = []
        for r, c in mine:
            for dr, dc in ORTHOGONALS:
                taken: frozenset[Cell] = frozenset()
                at = (r, c)
                while True:
                    over, land = (at[0] + dr, at[1] + dc), (at[0] + 2 * dr, at[1] + 2 * dc)
                    if not (self.on(land) and land not in pos and over in pos and pos[over][0] != turn):
                        break
                    taken, at = taken | {over}, land
                    out.append(SimpleMove((r, c), land, taken, False))
        return sorted(out, key=repr)
