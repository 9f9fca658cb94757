"""`dboard board-test`: the guided self-test finds each fault planted in a simulated board's switch matrix
(and nothing else), on the simulated device and on a GPIO board, and end to end through the terminal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.board_test_cli import plant, run
from firmware_bridge.clock import ManualClock
from firmware_bridge.device import wire_map
from firmware_bridge.faults import FaultKind
from firmware_bridge.gpio_backend import GpioDevice
from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.selftest import PUT, TAKE, BoardTest, BoardTestReport, parse_cells
from firmware_bridge.simulated import SimulatedDevice

ROOT = Path(__file__).resolve().parents[2]
EVERY = [(r, c) for r in range(8) for c in range(8)]


class Person:
    """Does what the self-test's LEDs ask (only in the piece steps), answers the LED question, on the
    board's switch matrix; between two looks the board's clock moves on."""

    def __init__(self, board: Any, matrix: SwitchMatrix, test: BoardTest, dark: str = "") -> None:
        self.board, self.matrix, self.test, self.dark = board, matrix, test, dark

    def lines(self) -> list[str]:
        return [self.dark] if self.test.awaiting_answer else []

    def act(self, seconds: float) -> None:
        if self.test.phase in ("fill", "clear"):
            lights = self.board.frame.as_dict()
            for cell in [c for c, light in lights.items() if light == TAKE and c in self.matrix.magnets]:
                self.matrix.lift(cell)
            for cell in [c for c, light in lights.items() if light == PUT and c not in self.matrix.magnets]:
                self.matrix.place(cell)
        self.board.clock.advance(max(seconds, 0.05))   # a look every 50 ms is enough for a person
        if isinstance(self.board, SimulatedDevice):
            self.board.advance(0.0)
        else:
            self.board.scan_once()


def self_test(board: Any, matrix: SwitchMatrix, dark: str = "") -> BoardTestReport:
    test = BoardTest(8, 8, EVERY, wire_map(board), pieces=24, patience=2.0)
    person = Person(board, matrix, test, dark)
    return run(board, test, say=lambda text: None, lines=person.lines, clock=board.clock, wait=person.act)


def found(report: BoardTestReport) -> set[tuple[str, tuple[Any, ...]]]:
    """Each finding as (kind, what it names): the lines of a line fault, the squares (and diodes) else."""
    out = set()
    for f in report.faults:
        if f.kind in (FaultKind.STUCK, FaultKind.DEAD):
            out.add((f.kind.value, f.cells))
        elif f.kind is FaultKind.GHOST:
            out.add((f.kind.value, f.vias))
        else:
            out.add((f.kind.value, f.rows or f.cols))
    return out


@pytest.mark.parametrize(("faults", "expected"), [
    ("stuck b8, dead e4, open-col 2, short-cols 6 7",
     {("stuck", ((7, 1),)), ("dead", ((3, 4),)), ("open column", (2,)), ("shorted columns", (6, 7))}),
    ("cross-rows 4 5, no-diode a1", {("crossed rows", (4, 5)), ("ghost", ((0, 0),))}),
    ("no-diode c5, short-rows 0 1", {("shorted rows", (0, 1)), ("ghost", ((4, 2),))}),
    ("cross-cols 1 2, open-row 6", {("crossed columns", (1, 2)), ("open row", (6,))}),
    ("", set()),
])
def test_the_self_test_finds_each_planted_fault_and_nothing_else(faults: str, expected: set[Any]) -> None:
    matrix = SwitchMatrix(8, 8)
    plant(matrix, faults)
    report = self_test(SimulatedDevice(8, 8, matrix=matrix), matrix)
    assert found(report) == expected and report.finished and report.sensors == 64


def test_the_leds_the_person_saw_stay_dark_are_reported() -> None:
    matrix = SwitchMatrix(8, 8)
    report = self_test(SimulatedDevice(8, 8, matrix=matrix), matrix, dark="c3, h8")
    assert report.dark_leds == ((2, 2), (7, 7)) and not report.faults
    lines = report.lines(wire_map(SimulatedDevice(8, 8)))
    assert len(lines) == 2 and lines[0].startswith("The LED under c3 stayed dark")
    with pytest.raises(ValueError, match="'k9' is not a square of this 8x8 board"):
        parse_cells("a1 k9", 8, 8)


class LeavingPerson(Person):
    """Does as asked for the first ``steps`` piece steps, then walks away: the test times out on the rest."""

    def __init__(self, board: Any, matrix: SwitchMatrix, test: BoardTest, steps: int) -> None:
        super().__init__(board, matrix, test)
        self.steps = steps

    def act(self, seconds: float) -> None:
        if len(self.test.steps) > self.steps:
            self.board.clock.advance(max(seconds, 0.05))
            self.board.advance(0.0)
        else:
            super().act(seconds)


def test_squares_nobody_touched_are_not_tested_not_faults() -> None:
    """Issue 28 item 19: after --patience the untouched squares were reported as 22 dead sensors. The person
    fills 42 squares (one of them dead) and leaves: e4 is dead, the 22 others are "not tested"."""
    matrix = SwitchMatrix(8, 8)
    plant(matrix, "dead e4")
    board = SimulatedDevice(8, 8, matrix=matrix)
    test = BoardTest(8, 8, EVERY, wire_map(board), pieces=64, patience=2.0)
    person = LeavingPerson(board, matrix, test, steps=42)
    report = run(board, test, say=lambda text: None, lines=person.lines, clock=board.clock, wait=person.act)
    assert found(report) == {("dead", ((3, 4),))} and report.finished
    assert report.untested == tuple(sorted(EVERY[42:]))
    text = report.text(wire_map(board)).splitlines()
    assert text[0] == "Board test finished: 64 sensors, 1 fault found, 22 not tested."
    assert text[1].startswith("- The sensor under e4 seems dead")
    assert text[2] == ("Not tested (22 squares, no piece seen there before the test stopped or went on): "
                       "c6 d6 e6 f6 g6 h6 a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8. Run the test "
                       "again to check them.")
    assert report.to_json(wire_map(board))["untested_line"] == text[2]


def test_a_test_stopped_early_names_the_squares_it_did_not_reach() -> None:
    matrix = SwitchMatrix(4, 4)
    board = SimulatedDevice(4, 4, matrix=matrix)
    cells = [(r, c) for r in range(4) for c in range(4)]
    test = BoardTest(4, 4, cells, wire_map(board), pieces=16, patience=2.0)
    person = Person(board, matrix, test)
    test.start(board.clock.now())
    while len(test.steps) < 6:
        test.reading(board.snapshot().squares, board.clock.now())
        for line in person.lines():
            test.answer(line, board.clock.now())
        test.tick(board.clock.now())
        if test.frame != board.frame:
            board.show(test.frame)
        person.act(0.02)
    report = test.report()
    assert not report.finished and not report.faults and report.untested == tuple(cells[5:])


def test_on_a_gpio_board_the_report_names_the_pins() -> None:
    matrix = SwitchMatrix(8, 8)
    matrix.open_row(6)
    matrix.stick((0, 3))
    rows, cols = [4, 5, 6, 12, 13, 16, 19, 20], [21, 26, 17, 18, 22, 23, 24, 25]
    board = GpioDevice(8, 8, rows, cols, gpio=GPIOModel(matrix, rows, cols), spi=False,
                       clock=ManualClock(0.0), debounce=0.01)
    board.open()
    report = self_test(board, matrix)
    assert found(report) == {("open row", (6,)), ("stuck", ((0, 3),))}
    text = report.text(wire_map(board))
    assert "No sensor on row wire R6 (GPIO 19) reads anything although pieces stand on a7, b7" in text
    assert "The sensor under d1 seems stuck closed" in text and "column C3 (GPIO 18)" in text


def test_dboard_board_test_at_the_terminal_end_to_end(tmp_path: Path) -> None:
    """The command on a small simulated board with planted faults; a person at the terminal answers the LED
    question and moves the pieces as each prompt asks; the report names each fault; exit code 1."""
    profile = tmp_path / "4x4.toml"
    profile.write_text('name = "4x4"\nrows = 4\ncols = 4\n')
    command = [sys.executable, "-m", "controller.cli", "board-test", "--profile", str(profile), "--plant",
               "stuck a4, dead c2", "--pieces", "5", "--settle", "0.05", "--patience", "0.4",
               "--led-step", "0.01"]
    proc = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    transcript = []
    for line in proc.stdout:
        transcript.append(line.rstrip())
        if proc.stdin.closed:
            continue
        squares = re.findall(r"\(([a-p]\d+)\)", line)      # the red square first, then the green one
        if line.startswith("Did every LED light"):
            proc.stdin.write("b3\n")
        elif line.startswith("Move the piece"):
            proc.stdin.write(f"lift {squares[0]}\nplace {squares[1]}\n")
        elif line.startswith("Put a piece"):
            proc.stdin.write(f"place {squares[0]}\n")
        elif line.startswith("Take the piece"):
            proc.stdin.write(f"lift {squares[0]}\n")
        proc.stdin.flush()
        if line.startswith("Board test finished"):
            proc.stdin.close()
    assert proc.wait(timeout=60) == 1, proc.stderr.read() if proc.stderr else ""
    report = "\n".join(transcript[transcript.index("Board test finished: 16 sensors, 3 faults found."):])
    assert "The sensor under a4 seems stuck closed" in report and "row R3 and column C0" in report
    assert "The sensor under c2 seems dead" in report and "The LED under b3 stayed dark" in report
    # Issue 28 item 19: the LED sentence once, then short lines (which steps: the manual-clock test below)
    assert sum("watch every LED light" in line for line in transcript) == 1
    assert any(line.startswith("  LED test: ") for line in transcript)
    assert any("press Enter" in line for line in transcript)   # the terminal's way to go on


def test_the_led_test_is_said_once_then_one_short_line_per_step() -> None:
    """Issue 28 item 19: the console repeated the whole LED-test sentence for every LED and colour."""
    matrix = SwitchMatrix(8, 8)
    board = SimulatedDevice(8, 8, matrix=matrix)
    test = BoardTest(8, 8, EVERY, wire_map(board), pieces=24, patience=2.0)
    person, said = Person(board, matrix, test), []
    run(board, test, say=said.append, lines=person.lines, clock=board.clock, wait=person.act)
    assert said[0] == ("LED test: watch every LED light white in turn, then the whole board red, green, blue "
                       "and white.")
    assert said[1:69] == [f"  LED test: {chr(ord('a') + c)}{r + 1}" for r in range(8) for c in range(8)] + [
        f"  LED test: {color}" for color in ("red", "green", "blue", "white")]
    assert said[69].startswith("Did every LED light") and "press Enter" in said[69]
    assert not any("watch every LED" in line for line in said[1:])
