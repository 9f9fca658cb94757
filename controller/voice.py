"""The Controller's voice: every sentence for the person, kept in a short history (a page opened later shows
it) and sent as an event; the standing alert (a refusal or warning shown until the board is right again);
and the failed saves, which a command that caused one reports as failed.

The Controller owns one ``Voice`` (``ctl.voice``); ``ctl.say`` is its ``say``. The phrasing two of the
Controller's sentences share is here too (``computer_plays``, ``set_up_request``).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

from i18n import Phrase, phrase
from rules import Board, Illegal, Variant

from . import events as ev
from .durable import SaveError
from .record import GameRecord
from .words import side_word

__all__ = ["Voice", "computer_plays", "set_up_request"]

log = logging.getLogger(__name__)

HISTORY = 20
"""How many sentences the history keeps (a page opened later shows them)."""


class Voice:
    """Says sentences (``Message``), refusals (``Refusal``) and warnings, and keeps what a new page needs:
    the last sentences (``messages``) and the alert standing now (``alert``)."""

    def __init__(self, emit: Callable[[ev.Event], None]) -> None:
        self._emit = emit
        self.messages: deque[dict[str, str]] = deque(maxlen=HISTORY)
        self.alert: dict[str, str] | None = None
        """The refusal or warning the board is in now: shown until it is resolved, then cleared."""
        self.save_errors: list[SaveError] = []
        """Every save that failed, newest last: a command that caused one failed, whatever else it did."""

    def say(self, text: str, level: str = "info", topic: str = "") -> None:
        """A sentence for the person: kept in the message history and sent as a Message event (``topic``
        names what it is about where a reader acts on it: "draw")."""
        self.messages.append({"text": text, "level": level})
        self._emit(ev.Message(text, level, topic))

    def warn(self, text: str) -> None:
        """A warning that stands as the alert until the board is right again."""
        self.say(text, "warning")
        self.alert = {"text": text, "level": "warning"}

    def refuse(self, message: str, reason: Illegal, variant: Variant) -> None:
        """A move refused under ``variant``'s rules: a Refusal event naming the rule and its section of the
        rules page, kept in the history too (a page opened later shows it), the alert until the board is
        right again."""
        text = f"Refused: {message} ({reason.rule})"
        section = f"docs/rules/{variant.id}.md#{reason.section}"
        self.messages.append({"text": text, "level": "refusal", "section": section})
        self.alert = {"text": text, "level": "refusal"}
        self._emit(ev.Refusal(message, reason.rule, section))

    def clear(self) -> None:
        """The board is right again: the standing alert goes."""
        self.alert = None

    def save_refused(self, message: str, error: SaveError, *, again: bool = False) -> None:
        """What was just done could not be saved: refused on the page and the terminal, the alert standing;
        ``again`` (the same move failing again) stands the alert and says nothing new."""
        self.save_errors.append(error)
        text = f"Refused: {message}"
        self.alert = {"text": text, "level": "refusal"}
        if again:
            return
        log.warning("%s", message)
        self.messages.append({"text": text, "level": "refusal"})
        self._emit(ev.Refusal(message, "saving"))

    def save_failed(self, error: SaveError) -> None:
        """A save that failed while nothing can be refused any more (the end of a game): said as an error."""
        log.warning("%s", error)
        self.save_errors.append(error)
        self.say(f"{error}.", "error")


def computer_plays(record: GameRecord, text: str, by: str, ply: int, done: bool = False) -> Phrase:
    """The computer's move (the ``ply``-th of the game, 0 first) in words; a replay's is the record's
    ("Move 12: 29-33"), numbered as the PDN numbers it."""
    if record.settings.human_color == "none":
        first = 0 if record.start_board().turn == record.variant.first else 1
        return phrase("Move {number}: {move}", number=(first + ply) // 2 + 1, move=text)
    if done:
        return phrase("The computer ({side}) played {move}", side=side_word(by), move=text)
    return phrase("The computer ({side}) plays {move}", side=side_word(by), move=text)


def set_up_request(variant: Variant, start_fen: str, *, moves_itself: bool, virtual: bool) -> Phrase:
    """What a new game asks of the person's hands, to end "New game of X": the start position, another
    position shown by the LEDs, or nothing (a board that ``moves_itself`` arranges itself)."""
    if moves_itself:
        return Phrase(".")
    start = start_fen == Board(variant).fen()
    if virtual:
        return phrase(": set up the start position (Arrange pieces on the page, `setup` at the console, does "
                      "it).") if start else \
            phrase(": set up the position shown: the lit squares say what to empty and fill (Arrange pieces "
                   "on the page, `setup` at the console, does it).")
    return phrase(": set up the start position.") if start else \
        phrase(": set up the position shown: the lit squares say what to empty and fill.")
