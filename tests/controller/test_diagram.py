"""The committed state diagram matches the machine in the code, and is small enough to read."""

from __future__ import annotations

from pathlib import Path

from controller import diagram
from controller.config import Config
from controller.machine import Controller
from controller.states import STATES, TRANSITIONS
from firmware_bridge.clock import ManualClock

ROOT = Path(__file__).resolve().parents[2]


def test_committed_diagram_matches_the_code() -> None:
    committed = (ROOT / "controller" / "DIAGRAM.md").read_text(encoding="utf-8")
    hint = "run: python -m controller.diagram --markdown > controller/DIAGRAM.md"
    assert committed == diagram.markdown(), hint


def test_readme_diagram_matches_the_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hint = "run: python -m controller.diagram --readme README.md"
    assert readme == diagram.with_readme_diagram(readme), hint


def test_controller_readme_draws_the_same_diagram() -> None:
    readme = (ROOT / "controller" / "README.md").read_text(encoding="utf-8")
    hint = "run: python -m controller.diagram --readme controller/README.md"
    assert readme == diagram.with_readme_diagram(readme), hint


def test_the_turns_and_the_hands_are_drawn() -> None:
    """Whose turn (person / computer / set-up / game over) x what the hands do, by name."""
    top = {s["name"] if isinstance(s, dict) else s for s in STATES}
    assert top == {"setup", "person", "computer", "out_of_sync", "game_over"}
    text = diagram.mermaid()
    for hand in ("idle", "lifted", "capturing", "settling", "ambiguous", "missed_capture"):
        assert f'state "{hand}" as person_{hand}' in text
    assert "person --> computer: commit" in text and "computer --> person: commit" in text


def test_diagram_has_at_most_half_the_edges_of_the_flat_machine() -> None:
    """The flat machine this replaced drew 69 edges between 10 states."""
    assert len(diagram.edges()) <= 69 // 2


def test_diagram_edges_are_the_machine_transitions() -> None:
    ctl = Controller(Config(), clock=ManualClock())
    declared = {(t.source, t.dest) for event in ctl.machine.events.values()
                for ts in event.transitions.values() for t in ts if t.dest is not None}
    assert declared == set(diagram.edges())
    assert len(TRANSITIONS) >= 10


def test_state_names_table_names_every_state_of_the_machine() -> None:
    """``states.NAMES`` (what Python and the page compare with) holds exactly the machine's states."""
    from controller import states
    from controller.machine import Controller
    from tests.controller.rig import Rig

    rig = Rig("english")
    assert isinstance(rig.ctl, Controller)
    drawn = set(rig.ctl.machine.get_nested_state_names())
    assert set(states.NAMES.values()) == drawn
    assert all(getattr(states, name) == value for name, value in states.NAMES.items())
