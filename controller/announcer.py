"""What the board says aloud: controller events in, short translatable phrases out (sans-IO; the Session
renders them in the configured language and hands them to its Speaker).

Said always: the computer's move ("32 to 28", "32 takes 23", "... and crowns"), a refusal's short reason, the
result, a draw offer and low time on the clock. In blind mode also every lift and place as it happens ("32
up", "28 down") and every move committed ("32 to 28, played"). Squares keep the variant's notation, spoken
as words: ``d4`` is said ``d 4`` (espeak-ng reads "d4" in German and Dutch as "d fourth").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.types import Cell
from i18n import Phrase, joined, phrase, plural
from rules import Illegal

from . import events as ev
from .host import GameFacts
from .record import color_name
from .state_names import GAME_OVER, PERSON

__all__ = ["LOW_TIME", "Announcement", "Announcer", "move_words", "piece_words", "position_of",
           "position_words", "spoken_square"]

LOW_TIME = (60, 30, 10)
"""Seconds left on the running clock at which low time is said."""
TOUCHES_SAID = 4
"""A reading that lifts and places more squares than this at once (a set-up) is said as counts."""

_BETWEEN_LETTER_AND_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")


@dataclass(frozen=True)
class Announcement:
    """A phrase to say; a newer announcement of the same ``topic`` replaces a stale one ('' none)."""

    text: Phrase
    topic: str = ""


def spoken_square(name: str) -> str:
    """A square's name as it is to be spoken: numbers as they are, ``d4`` as ``d 4``."""
    return _BETWEEN_LETTER_AND_DIGIT.sub(" ", name)


def move_words(origin: str, target: str, captures: int = 0, crowned: bool = False) -> Phrase:
    """A move as players say it: "32 to 28", "32 takes 23", "32 takes 3 pieces, to 12", "... and crowns"."""
    a, b = spoken_square(origin), spoken_square(target)
    if captures == 0:
        words = phrase("{origin} to {target}", origin=a, target=b)
    elif captures == 1:
        words = phrase("{origin} takes {target}", origin=a, target=b)
    else:
        words = plural("{origin} takes {n} piece, to {target}", "{origin} takes {n} pieces, to {target}",
                       captures, origin=a, target=b)
    return phrase("{move} and crowns", move=words) if crowned else words


_REFUSED: dict[str, Phrase] = {
    Illegal.NO_PIECE.rule: phrase("Refused: there is no piece there"),
    Illegal.NOT_YOUR_PIECE.rule: phrase("Refused: move your own pieces"),
    Illegal.NO_LEGAL_MOVE.rule: phrase("Refused: that piece cannot move"),
    Illegal.MUST_CAPTURE.rule: phrase("Refused: capturing is compulsory"),
    Illegal.MUST_TAKE_MAXIMUM.rule: phrase("Refused: take the most pieces"),
    Illegal.MUST_TAKE_MORE_KINGS.rule: phrase("Refused: take the most kings"),
    Illegal.MUST_CAPTURE_WITH_KING.rule: phrase("Refused: capture with the king"),
    Illegal.MUST_TAKE_KINGS_FIRST.rule: phrase("Refused: take the kings first"),
    Illegal.INCOMPLETE_CAPTURE.rule: phrase("Refused: complete the capture"),
    Illegal.WRONG_CAPTURE_PATH.rule: phrase("Refused: wrong capture path"),
    Illegal.PIECE_MOVEMENT.rule: phrase("Refused: the piece does not move that way"),
    "saving": phrase("Refused: the move cannot be saved"),
}
"""A refusal's short reason, by the rule that refused it (any other rule: "Refused")."""


def refusal_words(rule: str) -> Phrase:
    """The short reason said for a refusal by ``rule``."""
    return _REFUSED.get(rule, phrase("Refused"))


def result_words(result: str) -> Phrase:
    """The result said at the end: who won, or a draw."""
    if result == "1-0":
        return phrase("Game over: White wins")
    if result == "0-1":
        return phrase("Game over: Black wins")
    return phrase("Game over: a draw")


def draw_offer_words(color: str) -> Phrase:
    """A draw offered by ``color``."""
    return phrase("White offers a draw") if color == "white" else phrase("Black offers a draw")


def low_time_words(color: str, seconds: int) -> Phrase:
    """``color`` has ``seconds`` left."""
    if color == "white":
        return plural("White has {n} second left", "White has {n} seconds left", seconds)
    return plural("Black has {n} second left", "Black has {n} seconds left", seconds)


def position_words(pieces: dict[str, tuple[str, bool]], turn: str | None) -> Phrase:
    """The position read aloud (a blind player's "read"): each side's squares in order, kings named, and
    whose turn it is: "White: 21, 22, king 5. Black: 1, 2. White to move."."""
    def side(color: str) -> Phrase | str:
        names = sorted((n for n, (c, _) in pieces.items() if c == color), key=_square_order)
        said = [phrase("king {square}", square=spoken_square(n)) if pieces[n][1] else spoken_square(n)
                for n in names]
        return joined(said, ", ") if said else phrase("no pieces")
    board = phrase("White: {white}. Black: {black}.", white=side("white"), black=side("black"))
    if turn is None:
        return board
    to_move = phrase("{side} to move", side=phrase("White") if turn == "white" else phrase("Black"))
    return phrase("{position} {turn}.", position=board, turn=to_move)


def position_of(game: GameFacts) -> Phrase:
    """The game's position read aloud (the console's ``read``, the page's "Read the position"): the pieces
    it expects, and whose turn it is while the game goes on."""
    pieces = {game.map.name(cell): (color_name(color), king)
              for cell, (color, king) in game.exp.pieces.items()}
    return position_words(pieces, game.record.mover if game.turn_state != GAME_OVER else None)


def piece_words(game: GameFacts, cell: Cell) -> Phrase:
    """What a tap on ``cell`` asks (a blind player's "what is here, where may it go"): the piece, and while
    the person is to move with it, its legal moves: "32, white man: 32 to 28 or 32 to 27"."""
    name = spoken_square(game.map.name(cell))
    held = game.exp.pieces.get(cell)
    if held is None:
        return phrase("{square}: empty", square=name)
    color, king = held
    piece = _PIECES[color_name(color), king]
    if game.turn_state != PERSON or color != game.exp.turn:
        return phrase("{square}, {piece}", square=name, piece=piece)
    moves = [move_words(game.map.name(s.origin), game.map.name(s.target), len(s.captures),
                        s.move.promotion)
             for s in game.exp.shapes_from(cell)]
    if not moves:
        return phrase("{square}, {piece}: it cannot move", square=name, piece=piece)
    return phrase("{square}, {piece}: {moves}", square=name, piece=piece, moves=joined(moves, phrase(" or ")))


_PIECES = {("white", False): phrase("white man"), ("white", True): phrase("white king"),
           ("black", False): phrase("black man"), ("black", True): phrase("black king")}


def _square_order(name: str) -> tuple[int, str]:
    """Squares in reading order: numbers by value, algebraic names by file then rank."""
    return (int(name), "") if name.isdigit() else (0, name)


def touch_words(lifted: tuple[str, ...], placed: tuple[str, ...]) -> list[Phrase]:
    """One reading of the board as a blind player hears it: "32 up", "28 down" (a set-up as counts)."""
    if len(lifted) + len(placed) > TOUCHES_SAID:
        said = [plural("{n} piece lifted", "{n} pieces lifted", len(lifted))] if lifted else []
        return said + ([plural("{n} piece put down", "{n} pieces put down", len(placed))] if placed else [])
    return ([phrase("{square} up", square=spoken_square(s)) for s in lifted]
            + [phrase("{square} down", square=spoken_square(s)) for s in placed])


@dataclass
class Announcer:
    """Hears every controller event (``hear``) and answers what to say of it; ``blind`` says every lift,
    place and committed move too. Keeps only what it needs to notice a change in the page's view (a draw
    offer made, a clock passing a LOW_TIME mark)."""

    blind: bool = False
    _draw_offer: str | None = None
    _seconds: dict[str, int] = field(default_factory=dict)

    def hear(self, event: ev.Event) -> list[Announcement]:
        """What to say of ``event`` (often nothing)."""
        if isinstance(event, ev.ComputerMoveShown):
            return [Announcement(move_words(event.origin, event.target, event.captures, event.crowned),
                                 "computer")]
        if isinstance(event, ev.MoveCommitted):
            if not self.blind or not event.origin:
                return []
            move = move_words(event.origin, event.target, event.captures, event.crowned)
            return [Announcement(phrase("{move}, played", move=move))]
        if isinstance(event, ev.PiecesTouched):
            return [Announcement(p) for p in touch_words(event.lifted, event.placed)] if self.blind else []
        if isinstance(event, ev.Asked):
            return [Announcement(event.text, event.topic)]
        if isinstance(event, ev.Refusal):
            return [Announcement(refusal_words(event.rule), "refusal")]
        if isinstance(event, ev.GameOver):
            return [Announcement(result_words(event.result))]
        if isinstance(event, ev.ViewChanged):
            return self._view(event.view)
        return []

    def _view(self, view: dict[str, Any]) -> list[Announcement]:
        said: list[Announcement] = []
        offer = view.get("draw_offer")
        if offer is not None and offer != self._draw_offer:
            said.append(Announcement(draw_offer_words(str(offer))))
        self._draw_offer = offer
        clocks = view.get("clocks")
        if not isinstance(clocks, dict):
            self._seconds = {}
            return said
        running = clocks.get("running")
        for color in ("white", "black"):
            left, before = clocks.get(color), self._seconds.get(color)
            if not isinstance(left, int):
                continue
            if color == running and before is not None and any(left <= mark < before for mark in LOW_TIME):
                said.append(Announcement(low_time_words(color, left), "clock"))
            self._seconds[color] = left
        return said
