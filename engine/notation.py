"""Numeric move and position texts shared by the Hub and DXP protocols (squares by their numeric number)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import EngineError
from readers import is_digits
from rules import Board, Color, Move, Piece, Variant


class ProtocolMoveError(EngineError, ValueError):
    """A protocol move text that is malformed or matches no legal move in the position."""


def _quoted(text: str) -> str:
    """A move text a peer sent, quoted by its start (it can be 60,000 characters long)."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def numbered(variant: Variant) -> dict[int, int]:
    """Map each numeric square number to the core's square index."""
    geo = variant.geometry
    return {geo.number(sq): sq for sq in geo.squares}


HISTORY_PLIES = 100   # the longest history a draw rule looks at (50 moves each, Spanish)


def recent_moves(board: Board, plies: int = HISTORY_PLIES) -> tuple[Board, list[Move]]:
    """The position some moves back and the moves played since: every move after the last capture, at
    most ``plies``. What another process needs besides the position to see repetitions and move counts."""
    base = board.copy()
    moves: list[Move] = []
    while base.move_stack and len(moves) < plies and not base.peek().captures:
        moves.append(base.pop())
    moves.reverse()
    return base, moves


def hub_line(board: Board) -> dict[str, str]:
    """The Hub ``pos`` arguments for ``board`` with its recent moves (``pos=... moves="..."``)."""
    base, moves = recent_moves(board)
    args = {"pos": position_string(base)}
    texts = []
    for move in moves:
        texts.append(hub_move_text(base, move))
        base.push(move)
    if texts:
        args["moves"] = " ".join(texts)
    return args


def hub_move_text(board: Board, move: Move) -> str:
    """A move as Scan writes it: "32-28", or "from x to x captured..." captured squares ascending."""
    num = board.variant.geometry.number
    if not move.captures:
        return f"{num(move.from_square)}-{num(move.to_square)}"
    caps = sorted(num(sq) for sq in move.captures)
    return "x".join(str(n) for n in (num(move.from_square), num(move.to_square), *caps))


def find_move(board: Board, origin: int, dest: int, captured: Iterable[int] | None, text: str) -> Move:
    """The unique legal move with these numeric from/to (and captured set, if given)."""
    by_number = numbered(board.variant)
    try:
        frm, to = by_number[origin], by_number[dest]
        caps = None if captured is None else frozenset(by_number[n] for n in captured)
    except KeyError as exc:
        raise ProtocolMoveError(
            f"move {_quoted(text)}: square {exc.args[0]} does not exist in {board.variant.id}"
        ) from None
    candidates = [
        m
        for m in board.legal_moves
        if m.from_square == frm and m.to_square == to and (caps is None or frozenset(m.captures) == caps)
    ]
    if not candidates:
        legal = ", ".join(hub_move_text(board, m) for m in board.legal_moves) or "none"
        raise ProtocolMoveError(f"move {_quoted(text)} is not legal here; legal moves: {legal}")
    if len(candidates) > 1:
        options = ", ".join(hub_move_text(board, m) for m in candidates)
        raise ProtocolMoveError(f"move {_quoted(text)} is ambiguous: {options}")
    return candidates[0]


def parse_hub_move(board: Board, text: str) -> Move:
    """Parse a Hub move ("32-28", "28x19x23", captured squares in any order) against the board."""
    text = text.strip()
    sep = "x" if "x" in text else "-"
    parts = text.split(sep)
    # square numbers in ASCII digits: int() reads Devanagari and fullwidth digits, and raises on a superscript
    if len(parts) < 2 or not all(is_digits(p, 3) for p in parts) or (sep == "-" and len(parts) != 2):
        raise ProtocolMoveError(
            f"move {_quoted(text)}: expected 'from-to' or 'fromxto[xcaptured...]' with square numbers"
        )
    numbers = [int(p) for p in parts]
    captured = numbers[2:] if sep == "x" and len(numbers) > 2 else None
    if sep == "-":
        captured = []
    return find_move(board, numbers[0], numbers[1], captured, text)


def position_string(
    board: Board,
    white: str = "w",
    black: str = "b",
    turn: tuple[str, str] = ("W", "B"),
    with_turn: bool = True,
) -> str:
    """Side to move then one letter per square in numeric order (kings upper-case); 'e' for empty."""
    geo = board.variant.geometry
    order = sorted(geo.squares, key=geo.number)
    letters = []
    for sq in order:
        piece = board.piece_at(sq)
        if piece is None:
            letters.append("e")
        else:
            ch = white if piece.color == Color.WHITE else black
            letters.append(ch.upper() if piece.king else ch)
    head = turn[0] if board.turn == Color.WHITE else turn[1]
    return (head if with_turn else "") + "".join(letters)


def board_from_position(
    variant: Variant,
    side: str,
    squares: str,
    white: str = "w",
    black: str = "b",
    turn: tuple[str, str] = ("W", "B"),
) -> Board:
    """Inverse of `position_string`: build a Board from a side letter and one letter per numbered square."""
    geo = variant.geometry
    order = sorted(geo.squares, key=geo.number)
    if len(squares) != len(order):
        raise ProtocolMoveError(f"position has {len(squares)} squares, {variant.id} needs {len(order)}")
    if side not in turn:
        raise ProtocolMoveError(f"side to move {side!r}: expected {turn[0]!r} or {turn[1]!r}")
    whites: list[str] = []
    blacks: list[str] = []
    for index, (sq, ch) in enumerate(zip(order, squares, strict=True)):
        name = geo.name(sq)
        if ch.lower() == white:
            whites.append(("K" if ch.isupper() else "") + name)
        elif ch.lower() == black:
            blacks.append(("K" if ch.isupper() else "") + name)
        elif ch.lower() != "e":
            raise ProtocolMoveError(
                f"position letter {ch!r} at square {index + 1}: expected e, {white} or {black}"
            )
    fen = f"{'W' if side == turn[0] else 'B'}:W{','.join(whites)}:B{','.join(blacks)}"
    board = Board(variant, fen)
    check_position(board)
    return board


def check_position(board: Board) -> None:
    """ProtocolMoveError naming why `board` cannot arise in a game of its variant: no piece at all, more
    pieces of a color than it starts with, or a man on the row where it would have been crowned."""
    variant = board.variant
    pieces = board.pieces()
    if not pieces:
        raise ProtocolMoveError("the position is an empty board")
    num = variant.geometry.number
    for color, setup in ((Color.WHITE, variant.setup_white), (Color.BLACK, variant.setup_black)):
        name = color.name.lower()
        count = sum(p.color == color for p in pieces.values())
        start = len(variant.square_set(setup))
        if count > start:
            raise ProtocolMoveError(f"the position has {count} {name} pieces; the game starts with {start}")
        crowned = sorted(num(sq) for sq in variant.crown_squares(color)
                         if sq in pieces and pieces[sq] == Piece(color))
        if crowned:
            raise ProtocolMoveError(f"a {name} man on square {crowned[0]}, where it would have been crowned")
