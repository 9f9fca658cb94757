"""A game's blunder check: the engine's score before every move, its better move, and what each move lost.

Each position of the game is searched once; a move's loss is the score the mover had before it less the
score it left (seen from the mover), so a move worth a man or more below the engine's choice is a mistake,
two men or more a blunder (as lichess' analysis marks them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Engine
from engine.limits import MATE_BOUND, SearchLimits, format_score
from rules import Board, Color, Move

MISTAKE = 100
BLUNDER = 200


@dataclass(frozen=True)
class PlyReview:
    """The engine's view of one move of the game (scores in hundredths of a man, for White)."""

    ply: int
    """1 = the game's first move."""
    played: str
    best: str
    before: int
    after: int
    loss: int
    line: tuple[str, ...] = ()

    @property
    def verdict(self) -> str:
        """'blunder', 'mistake' or '' (a good move)."""
        return "blunder" if self.loss >= BLUNDER else "mistake" if self.loss >= MISTAKE else ""

    def describe(self) -> str:
        """One sentence: the score after the move and, for a mistake, the better move."""
        text = f"{self.played}: {format_score(self.after)} for White"
        if self.verdict:
            text += (f"; a {self.verdict} (loses {self.loss / 100:.2f}): better was {self.best} "
                     f"({format_score(self.before)})")
        return text

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "played": self.played, "best": self.best, "before": self.before / 100,
                "after": self.after / 100, "loss": self.loss / 100, "verdict": self.verdict,
                "line": list(self.line), "text": self.describe()}


class StopFlag(Protocol):
    """Whatever says a review should end early (a ``threading.Event``, or the board's own flag)."""

    def is_set(self) -> bool: ...


def _white(score: int, turn: Color) -> int:
    return score if turn == Color.WHITE else -score


def review(start: Board, moves: Sequence[Move], limits: SearchLimits,
           on_ply: Callable[[PlyReview], None] | None = None,
           stop: StopFlag | None = None) -> list[PlyReview]:
    """Review every move of the game from `start` (each search within `limits`); `on_ply` gets each as it is
    done, and `stop` ends the review early (what was done is returned)."""
    engine = Engine(start.variant)
    board = start.copy()
    scores: list[int] = []          # for the side to move in each position
    bests: list[tuple[str, tuple[str, ...]]] = []
    done: list[PlyReview] = []

    def search(b: Board) -> int:
        if not b.legal_moves:
            scores.append(-MATE_BOUND)
            bests.append(("", ()))
            return -MATE_BOUND
        engine.new_game()
        result = engine.search(b, limits)
        scores.append(result.score)
        bests.append((b.move_text(result.move) if result.move else "", result.pv_text))
        return result.score

    search(board)
    for index, move in enumerate(moves):
        if stop is not None and stop.is_set():
            break
        mover = board.turn
        played = board.move_text(move)
        board.push(move)
        left = -search(board)                       # the score the move left, for the mover
        before = scores[index]
        best, line = bests[index]
        loss = 0 if played == best else max(0, before - left)
        item = PlyReview(index + 1, played, best, _white(before, mover), _white(left, mover), loss, line)
        done.append(item)
        if on_ply is not None:
            on_ply(item)
    return done
