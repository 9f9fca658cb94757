"""Replay a recorded game on the board: the LEDs show each move of the record for the person to make.

Both sides are played "by the computer" (human color ``none``) and the record answers every engine request,
so the controller's own computer turn lights each move and commits it once the pieces show it; stepping back
is a takeback (the LEDs show how to restore the position). Beside it the engine reviews the game on a worker
thread (`engine.review`): its score after each move, and the better move where the game went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.limits import SearchLimits
from engine.review import PlyReview, review
from readers import read_text
from rules import Board, Move
from rules.pdn import PdnError, PdnGame, read_games
from rules.pdn.validate import start_board, variant_of

from .errors import Refused
from .ports import Flag, Report, StopFlag
from .settings import EngineJob, GameSettings
from .states import COMPUTER_SHOWING

if TYPE_CHECKING:
    from .machine import Controller


class ReplayError(Refused):
    """A game that cannot be replayed: names the file, the game and (for an illegal move) the move."""


MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A PDN file to replay: a collection of many thousand games is well under this."""


def read_record(path: Path) -> str:
    """The text of a PDN file to replay (ReadError, one line, for a FIFO, a device or a huge file; bad bytes
    are the PDN reader's to report)."""
    return read_text(path, what="PDN file", limit=MAX_RECORD_BYTES, errors="replace")


def load_game(text: str, number: int, name: str,
              variant: str | None = None) -> tuple[PdnGame, Board, list[Move]]:
    """Game ``number`` (1-based) of PDN ``text`` (called ``name`` in errors), validated move by move;
    ``variant`` for a game without a GameType tag."""
    def where(exc: PdnError) -> str:
        return f"cannot replay {exc.describe(name)}" if name.endswith(".pdn") else \
            f"cannot replay {name}: {exc.describe()}"

    try:
        games = read_games(text, validate=True, variant=variant)
    except PdnError as exc:
        raise ReplayError(where(exc)) from None
    if not games:
        raise ReplayError(f"{name} holds no game")
    if not 1 <= number <= len(games):
        raise ReplayError(f"{name} has {len(games)} game{'s' if len(games) > 1 else ''}, not a game {number}")
    game = games[number - 1]
    if game.errors:
        raise ReplayError(where(game.errors[0]))
    moves = [node.move for node in game.moves if isinstance(node.move, Move)]
    if not moves:
        raise ReplayError(f"{name}: game {number} ({game.label()}) has no moves to replay")
    return game, start_board(game, variant_of(game, variant)), moves


@dataclass
class ReplayLesson:
    """A game being replayed: its record, the engine's review so far and where the board stands."""

    game: PdnGame
    start: Board
    moves: list[Move]
    name: str
    reviews: list[PlyReview] = field(default_factory=list)
    stop_review: StopFlag = field(default_factory=Flag)
    """Set when the replay ends: its review (on a worker thread) stops at the next move."""
    at_end_said: bool = False
    kind = "replay"

    def __repr__(self) -> str:
        return f"ReplayLesson({self.name}, {len(self.moves)} plies, reviewed {len(self.reviews)})"

    def settings(self, base: GameSettings) -> GameSettings:
        return GameSettings(self.start.variant, "none", "engine", base.level, self.start.fen(),
                            base.flipped, None, base.player)

    def begin(self, ctl: Controller) -> None:
        how = ("Forward plays each move" if ctl.moves_itself else
               "set up the position as the LEDs show, then make each move the LEDs light")
        ctl.say(f"Replaying {self.game.label() or self.name} ({len(self.moves)} plies): {how}.")

    def review_work(self, depth: int, seconds: float, report: Report[PlyReview], stop: StopFlag) -> None:
        """The blunder check, on a worker thread; ``report(item)`` hands each move's review to the loop, and
        ``stop`` ends it early."""
        review(self.start, self.moves, SearchLimits(depth=depth, time=seconds), report, stop)

    def reviewed(self, item: PlyReview) -> None:
        if not self.stop_review.is_set():
            self.reviews.append(item)

    def answer(self, job: EngineJob) -> Move | None:
        """The record's move for the position the board reached (None past the end, or off the record)."""
        ply = len(job.board.move_stack)
        if ply >= len(self.moves) or job.board.move_stack != self.moves[:ply]:
            return None
        return self.moves[ply]

    def leaves_to_engine(self, job: EngineJob) -> bool:
        """Never: a replay's moves are the record's alone."""
        return False

    def follow(self, ctl: Controller) -> None:
        ply = len(ctl.records)
        if ply == len(self.moves) and not self.at_end_said:
            self.at_end_said = True
            ctl.say(f"The end of the record: {self.game.result or '*'}.")
        elif ply < len(self.moves):
            self.at_end_said = False

    def step(self, ctl: Controller, step: str) -> None:
        if step == "back":
            if not ctl.records:
                raise Refused("the replay is at the start of the game")
            ctl.takeback(1)
        elif step == "forward":
            if len(ctl.records) >= len(self.moves):
                raise Refused("the replay is at the end of the game")
            if ctl.state != COMPUTER_SHOWING:
                raise Refused("set up the position the LEDs show first")
        else:
            raise Refused(f"a replay has no step {step!r}: forward, back or stop")

    def title(self) -> str:
        """A title for readers: "Ann \u2013 Bob, 2026.11.30, Brazilian draughts" (no unknown date)."""
        tags = self.game.tags
        players = " \u2013 ".join(tags.get(side) or "?" for side in ("White", "Black"))
        date = tags.get("Date", "")
        parts = (players, "" if "?" in date else date, self.start.variant.name)
        return ", ".join(part for part in parts if part)

    def to_json(self, ply: int) -> dict[str, Any]:
        last = self.reviews[ply - 1].to_json() if 0 < ply <= len(self.reviews) else None
        following = self.moves[ply] if ply < len(self.moves) else None
        board = self.start.copy()
        for move in self.moves[:ply]:
            board.push(move)
        return {"kind": self.kind, "name": self.name, "label": self.game.label(), "title": self.title(),
                "ply": ply,
                "plies": len(self.moves), "result": self.game.result,
                "next": board.move_text(following) if following is not None else None,
                "review": last, "reviewed": len(self.reviews),
                "blunders": [r.to_json() for r in self.reviews if r.verdict]}
