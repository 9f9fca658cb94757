"""PDN 3.0 game records: a streaming reader with rules validation, a canonical writer and a CLI.

Read with `PdnReader(lines)` / `read_games(text)`; write with `write_game` / `write_games`.
Clock annotations: games played on the board store, after each move, a comment that other programs
ignore: `{[%clock w0:05:12 b0:04:58] [%wall 2026-11-29T13:10:55]}` - both players' remaining times
(h:mm:ss) after the move, and the wall-clock time (ISO 8601) the move was made; see `model.ClockComment`.
"""

from rules.pdn.errors import PdnError, PdnGameError, PdnMoveError, PdnSyntaxError
from rules.pdn.model import ClockComment, Line, MoveNode, PdnGame
from rules.pdn.reader import PdnReader, iter_games, read_game, read_games, scan
from rules.pdn.record import game_from_board
from rules.pdn.validate import validate_game, variant_of
from rules.pdn.visitors import BaseVisitor, GameBuilder, HeadersVisitor
from rules.pdn.writer import write_game, write_games

__all__ = [
    "BaseVisitor",
    "ClockComment",
    "GameBuilder",
    "HeadersVisitor",
    "Line",
    "MoveNode",
    "PdnError",
    "PdnGame",
    "PdnGameError",
    "PdnMoveError",
    "PdnReader",
    "PdnSyntaxError",
    "game_from_board",
    "iter_games",
    "read_game",
    "read_games",
    "scan",
    "validate_game",
    "variant_of",
    "write_game",
    "write_games",
]
