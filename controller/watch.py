"""The watch over one ply: the legal moves as the board shows them, the computer's move, the timer, and the
small facts that make up the hidden substates of the machine's drawn states.

A ``Watch`` is replaced whole after every ply (and by a takeback or a new game), so none of its fields needs
resetting by hand. Most fields mean something only in some states; this is where each one is read:

================  ==============================  ==========================================================
field             meaningful in                   means
================  ==============================  ==========================================================
exp, token        every state                     the position to show; the engine request's token
crown             person, computer                the square crowned by the last move (lit with the turn)
restore           out_of_sync (and entering a     the board must show exactly ``exp`` again (a takeback by
                  turn)                           command, a retracted move, a huff) before play goes on
computer_shape    computer.showing, out_of_sync   the computer's chosen move, lit for the person to carry out
engine_asked      computer                        the engine was asked this ply (back in sync: not again)
pending           person.settling,                the moves the board shows, waiting for the settle time or
                  person.ambiguous, computer      the person's choice
touched           every turn                      the squares changed this ply (telling candidates apart)
deadline          every state but setup           the one timer (``Deadline``)
grace_at          person, computer                the board matches nothing legal: out of sync at this time
refused_at        the person's turn               the board last refused (each board is refused once)
alt_warned        computer.showing                the board showing another legal move, warned once
unsaved           person, computer                why this ply could not be saved, once said
previous          person, computer, game_over     the move before, still amendable (``Amendable``)
lifted_since      with ``previous``               since when a piece of the side to move is off its square
restored          every state but setup           an earlier position showed: a takeback if play goes on
start_question    out_of_sync                     the start position stands after this many plies: asked
amending          the turn after an amendment     the move being replaced, said once its replacement stands
after             person.settling, computer       the position after a pending move (the reply read on it)
told              person, computer                the squares whose "not your turn" (or why not) was said
jump_on_said      person                          a capture that may stop or jump on was explained
================  ==============================  ==========================================================

A move that ignored a compulsory capture (``MissedCapture``) outlives its turn: the Controller keeps it
(``missed_info``) in ``person.missed_capture`` and, under ``accept_on_next_move``, until the next ply.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_bridge.types import Cell
from rules import Move

from .inference import Expectation, MoveShape

__all__ = ["Amendable", "Deadline", "DeadlineData", "MissedCapture", "Watch"]

DeadlineData = int | Cell | tuple[Cell, Cell, str] | None
"""What a deadline carries: the plies of a takeback, the square lifted for a reply, a missed capture's
origin, target and text; nothing for the others."""


@dataclass
class Deadline:
    """The one timer of a watch: ``kind`` fires once the board has stayed as it is until ``at``.

    Kinds: ``settle`` (commit or ask), ``reply`` (the next move begun: commit the pending one), ``takeback``
    (an earlier position stood), ``restart`` (the start position stood), ``retry`` (save again), ``missed``
    (a move that ignored a compulsory capture stood)."""

    kind: str
    at: float
    data: DeadlineData = None


@dataclass
class MissedCapture:
    """A move that ignored a compulsory capture, waiting for the opponent's answer."""

    origin: Cell
    target: Cell
    should: tuple[Cell, ...]
    text: str
    policy: str
    by: str
    objection_ply: int | None = None
    """The ply it was recorded as, under ``accept_on_next_move`` (it stands unless objected to before the
    opponent's next move); None while it waits for the answer."""

    @property
    def answers(self) -> tuple[str, ...]:
        """The answers the variant's policy allows: retract, and accept or huff (only retract once it
        stands)."""
        return {"opponent_choice_retract_or_accept": ("retract", "accept"),
                "opponent_choice_retract_or_huff": ("retract", "huff"),
                "accept_on_next_move": ("retract",)}.get(self.policy, ())

    @property
    def huffed(self) -> Cell:
        """The piece a huff takes off: the one that should have captured, or the one that moved instead."""
        return self.target if self.origin in self.should else self.should[0]


@dataclass(frozen=True)
class Amendable:
    """The person's move just recorded, amendable until the side to move touches the board: the position
    before it (as an Expectation), the move, and the squares touched making it."""

    exp: Expectation
    shape: MoveShape
    touched: frozenset[Cell]


@dataclass
class Watch:
    """What belongs to one ply (see the module's table for which field means something when). A new ply gets
    a new Watch."""

    exp: Expectation
    token: int
    crown: Cell | None = None
    restore: bool = False
    computer_shape: MoveShape | None = None
    engine_asked: bool = False
    pending: tuple[MoveShape, ...] = ()
    touched: set[Cell] = field(default_factory=set)
    deadline: Deadline | None = None
    grace_at: float | None = None
    refused_at: frozenset[Cell] | None = None
    alt_warned: frozenset[Cell] | None = None
    unsaved: str | None = None
    previous: Amendable | None = None
    lifted_since: float | None = None
    restored: int | None = None
    start_question: int | None = None
    amending: str | None = None
    after: dict[Move, Expectation] = field(default_factory=dict)
    told: set[Cell] = field(default_factory=set)
    jump_on_said: bool = False
