"""The names of the controller's states, one constant each, for every comparison in Python; the page's
script gets the same table (``NAMES``).

A leaf module: ``controller.states`` (which re-exports these) imports the board readers, and the readers
compare state names too.
"""

from __future__ import annotations

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
