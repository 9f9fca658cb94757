"""Rewriting a validated game's moves (and FEN) in numeric or algebraic notation, its GameType saying so."""

from __future__ import annotations

import re

import rules
from rules.pdn.model import Line, PdnGame
from rules.pdn.record import notation_gametype
from rules.pdn.validate import start_board, variant_of

NOTATIONS = ("numeric", "algebraic")
_SQUARES = re.compile(r"[a-l]\d{1,2}|\d{1,2}")


def square_text(geometry: rules.Geometry, square: int, notation: str) -> str:
    """A square's name in `notation`: its number or its "c3" name."""
    return str(geometry.number(square)) if notation == "numeric" else geometry.algebraic(square)


def _convert_text(geometry: rules.Geometry, text: str, notation: str) -> str:
    """`text` with every square name (number or "c3") rewritten in `notation`."""
    return _SQUARES.sub(lambda m: square_text(geometry, geometry.parse_any(m.group()), notation), text)


def _convert_line(board: rules.Board, line: Line, notation: str) -> None:
    pushed = 0
    try:
        for node in line.moves:
            if node.move is None:
                return
            move = node.move
            assert isinstance(move, rules.Move)
            for variation in node.variations:
                _convert_line(board, variation, notation)
            node.text = _convert_text(board.variant.geometry, board.pdn_move_text(move), notation)
            board.push(move)
            pushed += 1
    finally:
        for _ in range(pushed):
            board.pop()


def convert_game(game: PdnGame, notation: str, default: str | None = None) -> PdnGame:
    """Rewrite, in place, the moves of a validated game (and its FEN squares) in `notation`, captures joined
    by `x`, and set a full GameType whose notation field matches (`25,W,8,8,N0,0` for numeric Russian)."""
    if notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r}: expected numeric or algebraic")
    variant = variant_of(game, default)
    board = start_board(game, variant)
    game.tags["GameType"] = notation_gametype(variant, notation)
    if "FEN" in game.tags:
        fen = board.fen()
        head, _, rest = fen.partition(":")  # the head is the side to move: W or B, not a square
        game.tags["FEN"] = head + ":" + _convert_text(variant.geometry, rest, notation)
    _convert_line(board, game.mainline, notation)
    return game
