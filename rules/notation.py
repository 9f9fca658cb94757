"""Move text: writing moves in a variant's notation and parsing text (with precise error messages)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Protocol

from rules.errors import AmbiguousMoveError, Illegal, IllegalMoveError, InvalidMoveError, InvalidSquareError
from rules.generators import movegen_for
from rules.move import Move
from rules.movegen import MoveGen
from rules.pieces import Color, Piece
from rules.variants import Variant


class Position(Protocol):
    """What notation reads of a position: rules.board.Board is one. Named here rather than imported, since the
    Board imports notation for its move text."""

    variant: Variant
    _k: int
    _gen: MoveGen

    @property
    def turn(self) -> Color: ...

    @property
    def legal_moves(self) -> Iterable[Move]: ...

    def piece_at(self, sq: int) -> Piece | None: ...

    def _own_opp(self) -> tuple[int, int]: ...

_SPLIT = re.compile("[-xX:\u00d7]")
PDN_CAPTURE = "x"   # PDN 3.0's capture separator, written in files whatever the variant shows (Russian ":")


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _direction(board: Position, a: int, b: int) -> tuple[int, int]:
    g = board.variant.geometry
    (ra, ca), (rb, cb) = g.rc(a), g.rc(b)
    return _sign(rb - ra), _sign(cb - ca)


def _behind(board: Position, captured: int, d: tuple[int, int]) -> int:
    g = board.variant.geometry
    r, c = g.rc(captured)
    sq = g.square_at(r + d[0], c + d[1])
    return captured if sq is None else sq


def intermediate_squares(board: Position, move: Move) -> list[int]:
    """Squares written between from and to for an ambiguous capture (docs/rules/README.md#notation): where
    the direction changes the landing square, otherwise the square immediately behind the captured piece."""
    path, caps = move.path, move.captures
    out = []
    for i in range(1, len(path) - 1):
        d_in = _direction(board, path[i - 1], path[i])
        d_out = _direction(board, path[i], path[i + 1])
        if d_in == d_out and i - 1 < len(caps):
            out.append(_behind(board, caps[i - 1], d_in))
        else:
            out.append(path[i])
    return out


def _text(board: Position, squares: list[int], capture: bool, separator: str | None = None) -> str:
    g = board.variant.geometry
    sep = (separator or board.variant.capture_separator) if capture else "-"
    return sep.join(g.name(s) for s in squares)


def full_text(board: Position, move: Move, separator: str | None = None) -> str:
    """The move with every landing square (always unambiguous)."""
    return _text(board, list(move.path), bool(move.captures), separator)


def _groups(board: Position, move: Move) -> list[set[int]]:
    """For each intermediate landing, the squares that may name it: every square passed between the
    captured piece and the landing square (the square right behind the piece ... the landing square)."""
    g = board.variant.geometry
    out: list[set[int]] = []
    for k in range(1, len(move.path) - 1):
        d = _direction(board, move.path[k - 1], move.path[k])
        start = move.captures[k - 1] if k - 1 < len(move.captures) else move.path[k - 1]
        r, c = g.rc(start)
        group: set[int] = set()
        while True:
            r, c = r + d[0], c + d[1]
            sq = g.square_at(r, c)
            if sq is None:
                break
            group.add(sq)
            if sq == move.path[k]:
                break
        group.add(move.path[k])
        out.append(group)
    return out


def _matches(mids: list[int], groups: list[set[int]]) -> bool:
    """Whether the written intermediate squares name landings of the move, in order."""
    it = iter(groups)
    return all(any(x in grp for grp in it) for x in mids)


def move_text(board: Position, move: Move, separator: str | None = None) -> str:
    """The move in the variant's notation; intermediate squares only to tell apart captures that share
    from and to but take different pieces. `separator` joins a capture's squares instead of the variant's
    own (PDN_CAPTURE in files)."""
    if not move.is_capture:   # a removal takes its own piece off: "d5xd5"
        return _text(board, [move.from_square, move.to_square], move.is_removal, separator)
    rivals = [
        m for m in board.legal_moves
        if m.from_square == move.from_square and m.to_square == move.to_square
        and set(m.captures) != set(move.captures)
    ]
    if not rivals:
        return _text(board, [move.from_square, move.to_square], True, separator)
    mids = intermediate_squares(board, move)
    squares = [move.from_square, *mids, move.to_square]
    for r in rivals:
        if _matches(mids, _groups(board, r)):
            return full_text(board, move, separator)
    return _text(board, squares, True, separator)


def pdn_text(text: str) -> str:
    """Move text as a PDN file writes it: a capture's squares joined by `x`, not by a display separator
    (Russian's `c3:e5` is `c3xe5`); readers take both. A move joined by `-` cannot be told from here."""
    return text.replace(":", PDN_CAPTURE).replace("\u00d7", PDN_CAPTURE)


def _list(texts: list[str]) -> str:
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


def parse_move(board: Position, text: str) -> Move:
    """Parse move text ("32-28", "21x14", "c3:e5", "47x38x24x13x36") into a legal Move of `board`."""
    raw = text.strip()
    raw = re.sub(r"^\d+\.(\.\.)?\s*", "", raw).rstrip("!?+#* ")
    tokens = [t.strip() for t in _SPLIT.split(raw)] if raw else []
    g = board.variant.geometry
    sep = board.variant.capture_separator
    example = f"c3-d4 or c3{sep}e5" if not g.numeric else f"32-28 or 27{sep}18"
    if len(tokens) < 2 or any(not t for t in tokens):
        raise InvalidMoveError(
            f"{text!r} is not a move: expected squares joined by - or {sep}, like {example}")
    try:
        squares = [g.parse_square(t) for t in tokens]
    except InvalidSquareError as exc:
        raise InvalidMoveError(f"{text!r} is not a move: {exc}") from None
    frm, to, mids = squares[0], squares[-1], squares[1:-1]
    legal = list(board.legal_moves)
    candidates = [m for m in legal if m.from_square == frm and m.to_square == to]
    if mids:
        candidates = [m for m in candidates if _matches(mids, _groups(board, m))]
    if len(candidates) > 1:
        # A text listing exactly a move's intermediate squares names that move, even if the squares also
        # occur, in order, along a longer rival capture ("d4xa7" is the single jump, not d4xf6xh4xf2xd4xa7).
        exact = [m for m in candidates
                 if intermediate_squares(board, m) == mids or list(m.path[1:-1]) == mids]
        if len(exact) == 1:
            return exact[0]
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        texts = [move_text(board, m) for m in candidates]
        raise AmbiguousMoveError(f"{text!r} is ambiguous: it could be {_list(texts)}")
    raise IllegalMoveError(*_why_illegal(board, frm, to, text.strip(), legal, bool(mids)))


def explain_illegal(board: Position, move: object) -> tuple[str, Illegal]:
    """Why a Move object cannot be pushed on `board`: the message and the rule that refuses it."""
    if not isinstance(move, Move):
        return f"{move!r} is not a Move", Illegal.PIECE_MOVEMENT
    g = board.variant.geometry
    try:
        text = full_text(board, move)
    except InvalidSquareError:
        return f"{move!r} uses squares that are not on this board", Illegal.PIECE_MOVEMENT
    legal = list(board.legal_moves)
    same = [m for m in legal if m.from_square == move.from_square and m.to_square == move.to_square]
    if same and move.captures:
        return (f"{text} is not a legal move: it does not capture "
                f"{', '.join(g.name(s) for s in move.captures)} legally; "
                f"legal: {_list([move_text(board, m) for m in same])}", Illegal.WRONG_CAPTURE_PATH)
    return _why_illegal(board, move.from_square, move.to_square, text, legal, False)


_PRECEDENCE_REASONS = {   # precedence filter -> the rule, and what it requires in a player's words
    "max_pieces": (Illegal.MUST_TAKE_MAXIMUM, "the capture taking the most pieces is compulsory"),
    "max_kings": (Illegal.MUST_TAKE_MORE_KINGS, "the capture taking the most kings is compulsory"),
    "capture_with_king": (Illegal.MUST_CAPTURE_WITH_KING, "a king that can capture must capture"),
    "earliest_king": (Illegal.MUST_TAKE_KINGS_FIRST, "the capture meeting a king soonest is compulsory"),
}


def _outranked_by(board: Position, frm: int, to: int) -> str | None:
    """The first precedence filter of the variant that removes every capture from `frm` ending on `to` or
    landing there on the way (None when no such capture is legal even before the filters)."""
    own, opp = board._own_opp()
    precedence = board.variant.precedence
    for n in range(len(precedence) + 1):
        partial = dataclasses.replace(board.variant, precedence=precedence[:n])
        raw = movegen_for(partial).captures(own, opp, board._k, board.turn)
        if not any(r[0] == frm and (r[1] == to or to in r[4][1:-1]) for r in raw):
            return precedence[n - 1] if n else None
    return None


def _why_illegal(board: Position, frm: int, to: int, text: str, legal: list[Move],
                 with_mids: bool) -> tuple[str, Illegal]:
    g = board.variant.geometry
    turn = board.turn.name.title()
    piece = board.piece_at(frm)
    if piece is None:
        return f"{text} is not a legal move: no piece on {g.name(frm)}", Illegal.NO_PIECE
    if piece.color != board.turn:
        return (f"{text} is not a legal move: the piece on {g.name(frm)} is {piece.color.name.title()}'s "
                f"but {turn} is to move", Illegal.NOT_YOUR_PIECE)
    if not legal:
        return f"{text} is not a legal move: {turn} has no legal move", Illegal.NO_LEGAL_MOVE
    captures = [m for m in legal if m.is_capture]
    mine = [m for m in legal if m.from_square == frm]
    if with_mids and any(m.to_square == to for m in mine):
        opts = [move_text(board, m) for m in mine if m.to_square == to]
        return (f"{text} is not a legal move: no capture passes those squares; legal: {_list(opts)}",
                Illegal.WRONG_CAPTURE_PATH)
    if not captures:
        if mine:
            return (f"{text} is not a legal move: the piece on {g.name(frm)} can only play "
                    f"{_list([move_text(board, m) for m in mine])}", Illegal.PIECE_MOVEMENT)
        return (f"{text} is not a legal move: the piece on {g.name(frm)} has no legal move",
                Illegal.PIECE_MOVEMENT)
    required = _list([move_text(board, m) for m in captures])
    unfinished = [m for m in mine if to in m.path[1:-1]]
    if unfinished:
        return (f"{text} is not a legal move: the capture must go on to the end "
                f"({_list([move_text(board, m) for m in unfinished])})", Illegal.INCOMPLETE_CAPTURE)
    if board.variant.precedence:
        rule = _outranked_by(board, frm, to)
        if rule is not None:
            reason, words = _PRECEDENCE_REASONS[rule]
            return f"{text} is not a legal move: {words}: {required}", reason
    own, opp = board._own_opp()
    if not any(r[0] == frm and r[1] == to for r in board._gen.quiet_moves(own, opp, board._k, board.turn)):
        return (f"{text} is not a legal move: the piece on {g.name(frm)} cannot go to {g.name(to)} "
                f"(and a capture is compulsory: {required})", Illegal.PIECE_MOVEMENT)
    return f"{text} is not a legal move: a capture was compulsory: {required}", Illegal.MUST_CAPTURE
