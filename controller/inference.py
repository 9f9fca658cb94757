"""Reading the board: which legal move (or which part of one) the occupied squares show.

A move is a set of physical changes: its origin emptied, its captured pieces removed, its target filled.
While it is being made, the board shows a *partial* state: any subset of the captured pieces gone, the
moving piece in the hand or resting on a square of its trace (every square it passes, landing or not).
Pure: no clock, no I/O; the machine decides when a reading is acted upon.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from firmware_bridge.types import Cell
from rules import Board, Color, Move

from .squares import BoardMap


def trace(points: Iterable[Cell]) -> tuple[Cell, ...]:
    """Every cell on the straight lines joining consecutive points (the squares a sliding piece passes); a
    ValueError for points not on one line (orthogonal or diagonal)."""
    cells: list[Cell] = []
    pts = list(points)
    for (r1, c1), (r2, c2) in pairwise(pts):
        if r1 != r2 and c1 != c2 and abs(r2 - r1) != abs(c2 - c1):
            raise ValueError(f"{(r1, c1)} and {(r2, c2)} are not on one line")
        dr = (r2 > r1) - (r2 < r1)
        dc = (c2 > c1) - (c2 < c1)
        r, c = r1, c1
        cells.append((r, c))
        while (r, c) != (r2, c2):
            r, c = r + dr, c + dc
            if (r, c) != (r2, c2):
                cells.append((r, c))
    if pts:
        cells.append(pts[-1])
    seen: dict[Cell, None] = dict.fromkeys(cells)
    return tuple(seen)


@dataclass(frozen=True)
class MoveShape:
    """A legal move as the board sees it: origin, landing path, every square passed, captured squares."""

    move: Move
    text: str
    origin: Cell
    target: Cell
    path: tuple[Cell, ...]
    passes: frozenset[Cell]
    captures: tuple[Cell, ...]
    result: frozenset[Cell]

    def __repr__(self) -> str:
        return f"MoveShape({self.text})"

    def by_hand(self) -> list[tuple[Literal["lift", "place"], Cell]]:
        """The lifts and the place that make this move with the pieces: the mover lifted, each captured
        piece taken off, the mover put down (a removal, Konane's opening, puts nothing down)."""
        steps: list[tuple[Literal["lift", "place"], Cell]] = [("lift", self.origin)]
        steps += [("lift", square) for square in self.captures if square != self.origin]
        if not self.move.is_removal:
            steps.append(("place", self.target))
        return steps


@dataclass(frozen=True)
class Reading:
    """What an occupancy means for the side to move.

    ``kind``: ``rest`` (the position itself), ``complete`` (the result of ``complete`` moves), ``partial``
    (on the way through ``partial`` moves), ``none`` (no legal continuation).
    ``extendable``: a complete reading that is also a partial state of a longer legal move.
    """

    kind: Literal["rest", "complete", "partial", "none"]
    complete: tuple[MoveShape, ...] = ()
    partial: tuple[MoveShape, ...] = ()
    extendable: bool = False
    removed: frozenset[Cell] = field(default=frozenset())
    added: frozenset[Cell] = field(default=frozenset())


class Expectation:
    """Everything the side to move may legally show on the board from one position (built once per ply)."""

    def __init__(self, board: Board, squares: BoardMap) -> None:
        self.board = board
        self.squares = squares
        self.turn: Color = board.turn
        self.pieces: dict[Cell, tuple[Color, bool]] = {
            squares.rc(sq): (piece.color, piece.king) for sq, piece in board.pieces().items()}
        self.base: frozenset[Cell] = frozenset(self.pieces)
        shapes = []
        for move in board.legal_moves:
            origin = squares.rc(move.from_square)
            target = squares.rc(move.to_square)
            path = tuple(squares.rc(sq) for sq in move.path)
            captures = tuple(squares.rc(sq) for sq in move.captures)
            # a removal (Konane's opening) is a lift with no place: its piece does not land again
            result = (self.base - {origin} - set(captures)) | (set() if move.is_removal else {target})
            shapes.append(MoveShape(move, board.move_text(move), origin, target, path, frozenset(trace(path)),
                                    captures, frozenset(result)))
        self.shapes: tuple[MoveShape, ...] = tuple(shapes)
        self.by_result: dict[frozenset[Cell], list[MoveShape]] = {}
        for shape in shapes:
            self.by_result.setdefault(shape.result, []).append(shape)
        self.must_capture = tuple(sorted({s.origin for s in shapes if s.captures}))

    def own(self, square: Cell) -> bool:
        """Whether the side to move has a piece on ``square``."""
        piece = self.pieces.get(square)
        return piece is not None and piece[0] == self.turn

    def partial_of(self, removed: frozenset[Cell], added: frozenset[Cell], shape: MoveShape) -> bool:
        """Whether a board differing from the base by ``removed``/``added`` is on the way through
        ``shape``."""
        if len(added) > 1:
            return False
        if added:
            (landed,) = added
            if landed not in shape.passes or shape.origin not in removed:
                return False
        return all(sq == shape.origin or sq in shape.captures for sq in removed)

    def read(self, occupancy: frozenset[Cell]) -> Reading:
        """Classify ``occupancy`` against the legal moves of the side to move."""
        if occupancy == self.base:
            return Reading("rest")
        removed = self.base - occupancy
        added = occupancy - self.base
        complete = tuple(self.by_result.get(occupancy, ()))
        partial = tuple(s for s in self.shapes
                        if s.result != occupancy and self.partial_of(removed, added, s))
        if complete:
            return Reading("complete", complete, partial, bool(partial), removed, added)
        if partial:
            return Reading("partial", (), partial, False, removed, added)
        return Reading("none", (), (), False, removed, added)

    def shapes_from(self, origin: Cell) -> tuple[MoveShape, ...]:
        """The legal moves of the piece on ``origin``."""
        return tuple(s for s in self.shapes if s.origin == origin)

    def shape_of(self, move: Move) -> MoveShape | None:
        """The shape of a legal ``move`` (None when it is not legal here)."""
        for shape in self.shapes:
            if shape.move == move:
                return shape
        return None

    def __repr__(self) -> str:
        return f"Expectation(turn={self.turn.name}, pieces={len(self.base)}, moves={len(self.shapes)})"


def disambiguate(candidates: tuple[MoveShape, ...], touched: frozenset[Cell]) -> tuple[MoveShape, ...]:
    """Keep the candidates that best explain the squares actually touched (origin first, then trace)."""
    if len(candidates) <= 1:
        return candidates

    def score(shape: MoveShape) -> tuple[int, int]:
        return (shape.origin in touched, len(shape.passes & touched) - len(touched - shape.passes))

    best = max(score(s) for s in candidates)
    return tuple(s for s in candidates if score(s) == best)
