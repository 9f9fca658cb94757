"""Teaching mode's words for a piece lifted that cannot move: why, naming the rule that holds it.

The rules core already explains an illegal move (`Board.parse_move` raises with the rule); this asks it about
every move the piece might try and keeps the rule that stops it: a capture the variant's precedence
requires, a capture compulsory elsewhere, or the piece simply blocked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Board, Illegal, IllegalMoveError, InvalidMoveError

_PRECEDENCE = (Illegal.MUST_TAKE_MAXIMUM, Illegal.MUST_TAKE_MORE_KINGS, Illegal.MUST_CAPTURE_WITH_KING,
               Illegal.MUST_TAKE_KINGS_FIRST)


@dataclass(frozen=True)
class Immobile:
    """Why the piece on a square cannot move: in words (``text``) and as the rule (``reason``)."""

    text: str
    reason: Illegal


def _refusals(board: Board, square: int, separator: str) -> list[tuple[str, Illegal]]:
    """What the rules answer to every move text from ``square`` to another square (``separator`` between)."""
    g = board.variant.geometry
    answers = []
    for target in g.squares:
        if target == square:
            continue
        try:
            board.parse_move(f"{g.name(square)}{separator}{g.name(target)}")
        except IllegalMoveError as exc:
            answers.append((str(exc).split(" is not a legal move: ", 1)[-1], exc.reason))
        except InvalidMoveError:
            continue
    return answers


def why_immobile(board: Board, square: int) -> Immobile:
    """Why the side to move's piece on ``square`` (one with no legal move) cannot move, e.g. "the man on 19
    cannot move: a capture is compulsory (23x14)"."""
    piece = board.piece_at(square)
    what = "king" if piece is not None and piece.king else "man"
    start = f"the {what} on {board.variant.geometry.name(square)} cannot move"
    captures = [board.move_text(m) for m in board.legal_moves if m.is_capture]
    if captures:
        for words, reason in _refusals(board, square, board.variant.capture_separator):
            if reason in _PRECEDENCE:
                return Immobile(f"{start}: it could capture, but {words}", reason)
        return Immobile(f"{start}: a capture is compulsory ({', '.join(captures)})", Illegal.MUST_CAPTURE)
    return Immobile(f"{start}: it is blocked, no square it may move to is free", Illegal.PIECE_MOVEMENT)
