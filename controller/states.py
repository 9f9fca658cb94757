"""The controller's state machine as data: whose turn it is, and within a turn what the hands are doing.

Five top states say whose turn it is: ``setup`` (waiting for the start position), ``person`` and ``computer``
(whose move the board is waiting for), ``out_of_sync`` (the board disagrees with the game: the LEDs show
what to fix) and ``game_over``. Inside ``person`` the hands go ``idle -> lifted -> capturing -> settling``
and the move is committed (``commit``, a transition to the next turn); a board that several moves explain
asks (``ambiguous``), a move that ignored a compulsory capture waits for the opponent's answer
(``missed_capture``). Inside ``computer`` the engine is ``thinking`` until its move is ``showing`` on the
LEDs for the person to carry out.

Conditions (methods of the model) choose among transitions with the same trigger; each state names the
function of ``controller.reading`` that reads the board while it is current (``on_board``, inherited by
nested states). The states' names are constants (``controller.state_names``, re-exported here).
``python -m controller.diagram`` draws this machine.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, Protocol

from transitions import EventData
from transitions.extensions.nesting import HierarchicalMachine, NestedState

from . import reading
from .state_names import (
    COMPUTER,
    COMPUTER_SHOWING,
    COMPUTER_THINKING,
    GAME_OVER,
    NAMES,
    OUT_OF_SYNC,
    PERSON,
    PERSON_AMBIGUOUS,
    PERSON_CAPTURING,
    PERSON_IDLE,
    PERSON_LIFTED,
    PERSON_MISSED_CAPTURE,
    PERSON_SETTLING,
    SETUP,
    TURNS,
)

if typing.TYPE_CHECKING:
    from .host import ReaderHost

__all__ = ["COMPUTER", "COMPUTER_SHOWING", "COMPUTER_THINKING", "GAME_OVER", "HAND_TRIGGERS", "NAMES",
           "OUT_OF_SYNC", "PERSON", "PERSON_AMBIGUOUS", "PERSON_CAPTURING", "PERSON_IDLE", "PERSON_LIFTED",
           "PERSON_MISSED_CAPTURE", "PERSON_SETTLING", "SETUP", "STATES", "TRANSITIONS", "TURNS", "Reader",
           "Triggers", "TurnMachine", "TurnState", "build", "top"]

Reader = Callable[["ReaderHost", float], None]
"""A board reader: the Controller (as its readers see it) and the time (``controller.reading``)."""



class TurnState(NestedState):
    """A state of the controller's machine, with the reader of the board while it is current (None: its
    parent's)."""

    separator = "."

    def __init__(self, *args: Any, on_board: Reader | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_board = on_board


class TurnMachine(HierarchicalMachine):
    """The hierarchical machine with ``person.idle``-style dotted state names."""

    state_cls = TurnState


STATES: list[Any] = [   # nested states by their own name ("idle" of person.idle)
    {"name": SETUP, "on_board": reading.setup},
    {"name": PERSON, "on_enter": "_enter_person_turn", "on_board": reading.person_turn,
     "initial": "idle", "children": [
         "idle", "lifted", "capturing",
         {"name": "settling", "on_board": reading.settling},
         {"name": "ambiguous", "on_board": reading.asking},
         {"name": "missed_capture", "on_board": reading.after_missed_capture},
     ]},
    {"name": COMPUTER, "on_enter": "_enter_computer_turn", "on_board": reading.computer_turn,
     "initial": "thinking", "children": ["thinking", "showing"]},
    {"name": OUT_OF_SYNC, "on_enter": "_enter_out_of_sync", "on_board": reading.out_of_sync},
    {"name": GAME_OVER, "on_enter": "_enter_game_over", "on_board": reading.after_game},
]

TRANSITIONS: list[dict[str, Any]] = [
    # whose turn: the board set up, a move committed, the board lost and found again, a takeback, a new game
    {"trigger": "set_up", "source": SETUP, "dest": COMPUTER, "conditions": "computer_to_move"},
    {"trigger": "set_up", "source": SETUP, "dest": PERSON},
    {"trigger": "commit", "source": list(TURNS), "dest": GAME_OVER, "conditions": "game_ended"},
    {"trigger": "commit", "source": PERSON, "dest": COMPUTER, "conditions": "computer_to_move"},
    {"trigger": "commit", "source": PERSON, "dest": PERSON},
    # (both sides played from a record: a replay)
    {"trigger": "commit", "source": COMPUTER, "dest": COMPUTER, "conditions": "computer_to_move"},
    {"trigger": "commit", "source": COMPUTER, "dest": PERSON},
    {"trigger": "finish", "source": [*TURNS, OUT_OF_SYNC], "dest": GAME_OVER},
    {"trigger": "lose_sync", "source": list(TURNS), "dest": OUT_OF_SYNC},
    {"trigger": "take_back", "source": [*TURNS, GAME_OVER], "dest": OUT_OF_SYNC},
    {"trigger": "resync", "source": OUT_OF_SYNC, "dest": COMPUTER, "conditions": "computer_to_move"},
    {"trigger": "resync", "source": OUT_OF_SYNC, "dest": PERSON},
    {"trigger": "reset", "source": [*TURNS, OUT_OF_SYNC, GAME_OVER], "dest": SETUP},
    # the person's hands: lift, capture, settle, or put back; ask when the board shows several moves
    {"trigger": "lift", "source": [PERSON_IDLE, PERSON_CAPTURING, PERSON_SETTLING],
     "dest": PERSON_LIFTED},
    {"trigger": "capture_step", "source": [PERSON_IDLE, PERSON_LIFTED, PERSON_SETTLING],
     "dest": PERSON_CAPTURING},
    {"trigger": "settle", "source": [PERSON_LIFTED, PERSON_CAPTURING], "dest": PERSON_SETTLING},
    {"trigger": "put_back", "source": [PERSON_LIFTED, PERSON_CAPTURING, PERSON_SETTLING],
     "dest": PERSON_IDLE},
    {"trigger": "ask", "source": PERSON_SETTLING, "dest": PERSON_AMBIGUOUS},
    {"trigger": "reconsider", "source": PERSON_AMBIGUOUS, "dest": PERSON_IDLE},
    {"trigger": "missed", "source": PERSON_LIFTED, "dest": PERSON_MISSED_CAPTURE},
    {"trigger": "retract", "source": PERSON_MISSED_CAPTURE, "dest": PERSON_IDLE},
    # the computer's turn: its move chosen, then carried out by the person (and committed)
    {"trigger": "engine_answered", "source": COMPUTER_THINKING, "dest": COMPUTER_SHOWING},
]

class Triggers:
    """The triggers the machine adds to its model (the Controller), one per trigger of TRANSITIONS: declared
    for the type checker only, so that the machine can bind them at run time."""

    if typing.TYPE_CHECKING:
        def set_up(self) -> bool: ...
        def commit(self) -> bool: ...
        def finish(self, *, result: str, reason: str) -> bool: ...
        def lose_sync(self) -> bool: ...
        def take_back(self) -> bool: ...
        def resync(self) -> bool: ...
        def reset(self) -> bool: ...
        def lift(self) -> bool: ...
        def capture_step(self) -> bool: ...
        def settle(self) -> bool: ...
        def put_back(self) -> bool: ...
        def ask(self) -> bool: ...
        def reconsider(self) -> bool: ...
        def missed(self) -> bool: ...
        def retract(self) -> bool: ...
        def engine_answered(self) -> bool: ...


HAND_TRIGGERS = ("lift", "capture_step", "settle", "put_back")
"""Hand triggers (and ``reset``, ``take_back``) are idempotent: firing one in its own destination is an
internal no-op, not drawn."""


class Model(Protocol):
    """What the machine needs of its model besides the callbacks it names: where it notes each transition."""

    walked: set[tuple[str, str]]


def build(model: Model) -> TurnMachine:
    """The machine for ``model`` (the Controller), in ``setup``, with idempotent hand triggers; every
    transition it takes is added to ``model.walked``."""
    internal = [{"trigger": t["trigger"], "source": t["dest"], "dest": None}
                for t in TRANSITIONS if t["trigger"] in HAND_TRIGGERS]
    internal.append({"trigger": "reset", "source": SETUP, "dest": None})
    internal.append({"trigger": "take_back", "source": OUT_OF_SYNC, "dest": None})

    def walked(event: EventData) -> None:
        transition = event.transition
        if transition is not None and transition.dest is not None:
            model.walked.add((transition.source, transition.dest))

    return TurnMachine(model=model, states=STATES, transitions=[*TRANSITIONS, *internal], initial=SETUP,
                       queued=True, auto_transitions=False, send_event=True, after_state_change=walked)


def top(state: str) -> str:
    """The turn part of a dotted state name (``person`` of ``person.lifted``)."""
    return state.split(TurnState.separator, 1)[0]
