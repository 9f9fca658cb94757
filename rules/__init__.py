"""Pure rules core for draughts variants: variants as data, bitboard Board, FEN, notation, Game, perft."""

from rules.board import Board, LegalMoves
from rules.errors import (
    AmbiguousMoveError,
    FenError,
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSquareError,
    RulesError,
    UnknownVariantError,
)
from rules.game import Game, Outcome
from rules.geometry import Geometry
from rules.move import Move
from rules.perft import divide, perft
from rules.pieces import Color, Piece
from rules.variants import VARIANT_IDS, Variant, get_variant, variant_for_gametype

__all__ = [
    "VARIANT_IDS",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "FenError",
    "Game",
    "GameOverError",
    "Geometry",
    "Illegal",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidSquareError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "RulesError",
    "UnknownVariantError",
    "Variant",
    "divide",
    "get_variant",
    "perft",
    "variant_for_gametype",
]
