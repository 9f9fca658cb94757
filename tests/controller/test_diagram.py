"""The committed state diagram matches the machine in the code."""

from __future__ import annotations

from pathlib import Path

from controller import diagram
from controller.machine import STATES, TRANSITIONS, Controller

ROOT = Path(__file__).resolve().parents[2]


def test_committed_diagram_matches_the_code() -> None:
    committed = (ROOT / "controller" / "DIAGRAM.md").read_text(encoding="utf-8")
    hint = "run: python -m controller.diagram --markdown > controller/DIAGRAM.md"
    assert committed == diagram.markdown(), hint


def test_readme_diagram_matches_the_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hint = "run: python -m controller.diagram --readme README.md"
    assert readme == diagram.with_readme_diagram(readme), hint


def test_diagram_names_every_state_and_the_required_ones() -> None:
    text = diagram.mermaid()
    for state in STATES:
        assert state in text
    for required in ("waiting_start", "player_to_move", "piece_lifted", "capture_in_progress",
                     "move_pending_settle", "computer_move_pending", "out_of_sync", "game_over"):
        assert required in STATES


def test_diagram_edges_are_the_machine_transitions() -> None:
    from controller.config import Config
    from firmware_bridge.clock import ManualClock

    ctl = Controller(Config(), clock=ManualClock())
    machine_edges = {(t.source, t.dest) for event in ctl.machine.events.values()
                     for ts in event.transitions.values() for t in ts}
    drawn = set()
    for line in diagram.mermaid().splitlines()[2:]:
        source, rest = line.strip().split(" --> ")
        drawn.add((source, rest.split(":")[0]))
    assert drawn == {(s, d) for s, d in machine_edges if s != d}
    assert len(TRANSITIONS) >= 10


def test_readme_draws_the_same_diagram() -> None:
    readme = (ROOT / "controller" / "README.md").read_text(encoding="utf-8")
    assert "```mermaid\n" + diagram.mermaid() + "```" in readme
