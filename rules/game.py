"""A Game: a Board plus history, results and each variant's draw rules (repetition, move counters)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.board import Board
from rules.errors import GameOverError
from rules.move import Move
from rules.pieces import Color
from rules.variants import Variant

_REPETITION_NAMES = {2: "twofold", 3: "threefold", 4: "fourfold", 5: "fivefold"}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: result text, winner (None for a draw) and the reason."""

    result: str
    winner: Color | None
    reason: str

    @classmethod
    def win(cls, winner: Color, reason: str) -> Outcome:
        """A decisive outcome."""
        return cls("1-0" if winner == Color.WHITE else "0-1", winner, reason)

    @classmethod
    def draw(cls, reason: str) -> Outcome:
        """A drawn outcome."""
        return cls("1/2-1/2", None, reason)


def _endgame_limit(board: Board) -> tuple[str, int] | None:
    """FMJD endgame rule category of a position: (name, moves each) or None."""
    counts = []
    for c in (Color.WHITE, Color.BLACK):
        counts.append((len(board.kings(c)), len(board.men(c))))
    for strong, weak in ((0, 1), (1, 0)):
        if counts[weak] != (1, 0):
            continue
        k, m = counts[strong]
        if (k, m) in ((3, 0), (2, 1), (1, 2)):
            return ("16-move endgame rule", 16)
        if (k, m) in ((2, 0), (1, 1), (1, 0)):
            return ("5-move endgame rule", 5)
    return None


class Game:
    """A game in progress: `board`, the moves played, and `outcome()` under the variant's rules."""

    def __init__(self, variant: Variant | str = "international", fen: str | None = None) -> None:
        self.board = Board(variant, fen)
        self.variant = self.board.variant
        self._keys: list[int] = [self.board.key()]
        self._quiet: list[int] = [0]
        self._endgame: list[tuple[tuple[str, int] | None, int]] = [(_endgame_limit(self.board), 0)]
        self._declared: Outcome | None = None

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        return list(self.board.move_stack)

    def push(self, move: Move | str) -> Move:
        """Play a legal move (a Move or move text) and return it. Refused once the game is over."""
        if self._declared is not None:
            raise GameOverError(f"the game is over ({self._declared.reason}); no more moves")
        if isinstance(move, str):
            move = self.board.parse_move(move)
        piece = self.board.piece_at(move.from_square)
        self.board.push(move)
        played = self.board.peek()
        progress = played.is_capture or (piece is not None and not piece.king)
        self._keys.append(self.board.key())
        self._quiet.append(0 if progress else self._quiet[-1] + 1)
        ply = len(self._keys) - 1
        if played.is_capture or played.promotion:
            self._endgame.append((_endgame_limit(self.board), ply))
        else:
            self._endgame.append(self._endgame[-1])
        return played

    def pop(self) -> Move:
        """Take back the last move (also cancels a declared result)."""
        move = self.board.pop()
        self._keys.pop()
        self._quiet.pop()
        self._endgame.pop()
        self._declared = None
        return move

    def agree_draw(self) -> Outcome:
        """Record a draw by agreement."""
        self._declared = Outcome.draw("agreement")
        return self._declared

    def resign(self, color: Color) -> Outcome:
        """Record `color`'s resignation."""
        self._declared = Outcome.win(Color(color).opponent, "resignation")
        return self._declared

    def repetitions(self) -> int:
        """How many times the current position (with the same side to move) has occurred."""
        return self._keys.count(self._keys[-1])

    def outcome(self) -> Outcome | None:
        """The result if the game is over (declared, no legal move, or an automatic draw rule), else None.

        A draw rule the variant leaves to a claim (``Variant.draw_claims``) does not end the game: see
        ``claimable_draw`` and ``claim_draw``.
        """
        decided = self._decided()
        if decided is not None:
            return decided
        return next((draw for rule, draw in self._draws() if rule not in self.variant.draw_claims), None)

    def claimable_draw(self) -> Outcome | None:
        """The draw a player may claim now (a claim rule of the variant holds), or None."""
        if self._decided() is not None:
            return None
        draws = self._draws()   # once: an automatic draw already ended the game, so nothing is claimed
        if any(rule not in self.variant.draw_claims for rule, _ in draws):
            return None
        return next((draw for _, draw in draws), None)

    def claim_draw(self) -> Outcome:
        """End the game by a claimed draw; GameOverError when no claim rule holds."""
        draw = self.claimable_draw()
        if draw is None:
            over = self.outcome()
            raise GameOverError(f"the game is over ({over.reason})" if over else "no draw can be claimed now")
        self._declared = Outcome.draw(f"{draw.reason}, claimed")
        return self._declared

    def _decided(self) -> Outcome | None:
        """A declared result or a win on the board (no legal move, Turkish king versus single man)."""
        if self._declared is not None:
            return self._declared
        v = self.variant
        b = self.board
        winner = b.winner()
        if winner is not None:
            reason = "no legal move" if v.no_move_loses else "no legal move (giveaway: the blocked side wins)"
            return Outcome.win(winner, reason)
        if v.king_vs_single_man_wins:
            for c in (Color.WHITE, Color.BLACK):
                o = c.opponent
                if len(b.kings(c)) == 1 and not b.men(c) and len(b.men(o)) == 1 and not b.kings(o):
                    return Outcome.win(c, "king versus single man")
        return None

    def _draws(self) -> list[tuple[str, Outcome]]:
        """Every draw rule that holds in the current position: (rule, outcome)."""
        v = self.variant
        draws = []
        if self.repetitions() >= v.repetition:
            name = _REPETITION_NAMES.get(v.repetition, f"{v.repetition}-fold")
            draws.append(("repetition", Outcome.draw(f"{name} repetition")))
        if v.no_progress_moves is not None and self._quiet[-1] >= 2 * v.no_progress_moves:
            draws.append(("no_progress", Outcome.draw(v.no_progress_reason.format(n=v.no_progress_moves))))
        if v.endgame_rules:
            category, start = self._endgame[-1]
            if category is not None and len(self._keys) - 1 - start >= 2 * category[1]:
                draws.append(("endgame", Outcome.draw(category[0])))
        return draws

    def is_over(self) -> bool:
        """True when outcome() is not None."""
        return self.outcome() is not None

    def __repr__(self) -> str:
        return f"Game({self.variant.id!r}, moves={len(self.board.move_stack)}, fen={self.board.fen()!r})"
