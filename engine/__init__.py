"""Search engine over the rules core: evaluation, PVS search, ten levels, worker process, Hub/DXP, ratings."""

from engine.core import Engine, NoLegalMoveError, choose_move
from engine.evaluation import Evaluator, king_value
from engine.levels import LEVELS, Level, get_level
from engine.limits import MATE, SearchLimits, SearchProgress, SearchResult, format_score

__all__ = [
    "LEVELS",
    "MATE",
    "Engine",
    "Evaluator",
    "Level",
    "NoLegalMoveError",
    "SearchLimits",
    "SearchProgress",
    "SearchResult",
    "choose_move",
    "format_score",
    "get_level",
    "king_value",
]
