"""The controller's state machine as data: whose turn it is, and within a turn what the hands are doing.

Five top states say whose turn it is: ``setup`` (waiting for the start position), ``person`` and ``computer``
(whose move the board is waiting for), ``out_of_sync`` (the board disagrees with the game: the LEDs show
what to fix) and ``game_over``. Inside ``person`` the hands go ``idle -> lifted -> capturing -> settling``
and the move is committed (``commit``, a transition to the next turn); a board that several moves explain
asks (``ambiguous``), a move that ignored a compulsory capture waits for the opponent's answer
(``missed_capture``). Inside ``computer`` the engine is ``thinking`` until its move is ``showing`` on the
LEDs for the person to carry out.

Conditions (methods of the model) choose among transitions with the same trigger; each state names the
model method that reads the board while it is current (``on_board``, inherited by nested states).
``python -m controller.diagram`` draws this machine.
"""

from __future__ import annotations

from typing import Any

from transitions.extensions.nesting import HierarchicalMachine, NestedState

# The states' names, for every comparison in Python; the page's script gets the same table (``NAMES``).
SETUP = "setup"
PERSON = "person"
COMPUTER = "computer"
OUT_OF_SYNC = "out_of_sync"
GAME_OVER = "game_over"
PERSON_IDLE = "person.idle"
PERSON_LIFTED = "person.lifted"
PERSON_CAPTURING = "person.capturing"
PERSON_SETTLING = "person.settling"
PERSON_AMBIGUOUS = "person.ambiguous"
PERSON_MISSED_CAPTURE = "person.missed_capture"
COMPUTER_THINKING = "computer.thinking"
COMPUTER_SHOWING = "computer.showing"
TURNS = (PERSON, COMPUTER)
"""The top states in which a side is to move."""
NAMES: dict[str, str] = {
    "SETUP": SETUP, "PERSON": PERSON, "COMPUTER": COMPUTER, "OUT_OF_SYNC": OUT_OF_SYNC,
    "GAME_OVER": GAME_OVER,
    "PERSON_IDLE": PERSON_IDLE, "PERSON_LIFTED": PERSON_LIFTED, "PERSON_CAPTURING": PERSON_CAPTURING,
    "PERSON_SETTLING": PERSON_SETTLING, "PERSON_AMBIGUOUS": PERSON_AMBIGUOUS,
    "PERSON_MISSED_CAPTURE": PERSON_MISSED_CAPTURE, "COMPUTER_THINKING": COMPUTER_THINKING,
    "COMPUTER_SHOWING": COMPUTER_SHOWING,
}
"""Every state's constant by name: what the web page's script compares with (served as ``/states.js``)."""


class TurnState(NestedState):
    """A state of the controller's machine, with the model method that reads the board while it is current."""

    separator = "."

    def __init__(self, *args: Any, on_board: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_board = on_board


class TurnMachine(HierarchicalMachine):
    """The hierarchical machine with ``person.idle``-style dotted state names."""

    state_cls = TurnState


STATES: list[Any] = [
    {"name": "setup", "on_board": "_board_in_setup"},
    {"name": "person", "on_enter": "_enter_person_turn", "on_board": "_board_in_person_turn",
     "initial": "idle", "children": [
         "idle", "lifted", "capturing",
         {"name": "settling", "on_board": "_board_while_settling"},
         {"name": "ambiguous", "on_board": "_board_while_asking"},
         {"name": "missed_capture", "on_board": "_board_after_missed_capture"},
     ]},
    {"name": "computer", "on_enter": "_enter_computer_turn", "on_board": "_board_in_computer_turn",
     "initial": "thinking", "children": ["thinking", "showing"]},
    {"name": "out_of_sync", "on_enter": "_enter_out_of_sync", "on_board": "_board_out_of_sync"},
    {"name": "game_over", "on_enter": "_enter_game_over", "on_board": "_board_after_game"},
]

TRANSITIONS: list[dict[str, Any]] = [
    # whose turn: the board set up, a move committed, the board lost and found again, a takeback, a new game
    {"trigger": "set_up", "source": "setup", "dest": "computer", "conditions": "computer_to_move"},
    {"trigger": "set_up", "source": "setup", "dest": "person"},
    {"trigger": "commit", "source": list(TURNS), "dest": "game_over", "conditions": "game_ended"},
    {"trigger": "commit", "source": "person", "dest": "computer", "conditions": "computer_to_move"},
    {"trigger": "commit", "source": "person", "dest": "person"},
    # (both sides played from a record: a replay)
    {"trigger": "commit", "source": "computer", "dest": "computer", "conditions": "computer_to_move"},
    {"trigger": "commit", "source": "computer", "dest": "person"},
    {"trigger": "finish", "source": [*TURNS, "out_of_sync"], "dest": "game_over"},
    {"trigger": "lose_sync", "source": list(TURNS), "dest": "out_of_sync"},
    {"trigger": "take_back", "source": [*TURNS, "game_over"], "dest": "out_of_sync"},
    {"trigger": "resync", "source": "out_of_sync", "dest": "computer", "conditions": "computer_to_move"},
    {"trigger": "resync", "source": "out_of_sync", "dest": "person"},
    {"trigger": "reset", "source": [*TURNS, "out_of_sync", "game_over"], "dest": "setup"},
    # the person's hands: lift, capture, settle, or put back; ask when the board shows several moves
    {"trigger": "lift", "source": ["person.idle", "person.capturing", "person.settling"],
     "dest": "person.lifted"},
    {"trigger": "capture_step", "source": ["person.idle", "person.lifted", "person.settling"],
     "dest": "person.capturing"},
    {"trigger": "settle", "source": ["person.lifted", "person.capturing"], "dest": "person.settling"},
    {"trigger": "put_back", "source": ["person.lifted", "person.capturing", "person.settling"],
     "dest": "person.idle"},
    {"trigger": "ask", "source": "person.settling", "dest": "person.ambiguous"},
    {"trigger": "reconsider", "source": "person.ambiguous", "dest": "person.idle"},
    {"trigger": "missed", "source": "person.lifted", "dest": "person.missed_capture"},
    {"trigger": "retract", "source": "person.missed_capture", "dest": "person.idle"},
    # the computer's turn: its move chosen, then carried out by the person (and committed)
    {"trigger": "engine_answered", "source": "computer.thinking", "dest": "computer.showing"},
]

HAND_TRIGGERS = ("lift", "capture_step", "settle", "put_back")
"""Hand triggers (and ``reset``, ``take_back``) are idempotent: firing one in its own destination is an
internal no-op, not drawn."""


def build(model: Any) -> TurnMachine:
    """The machine for ``model`` (the Controller), in ``setup``, with idempotent hand triggers."""
    internal = [{"trigger": t["trigger"], "source": t["dest"], "dest": None}
                for t in TRANSITIONS if t["trigger"] in HAND_TRIGGERS]
    internal.append({"trigger": "reset", "source": "setup", "dest": None})
    internal.append({"trigger": "take_back", "source": "out_of_sync", "dest": None})
    return TurnMachine(model=model, states=STATES, transitions=[*TRANSITIONS, *internal], initial="setup",
                       queued=True, auto_transitions=False, send_event=True,
                       after_state_change="_walked")


def top(state: str) -> str:
    """The turn part of a dotted state name (``person`` of ``person.lifted``)."""
    return state.split(TurnState.separator, 1)[0]
