"""The simulated board: gestures become debounced changes and snapshots, deterministically."""

from __future__ import annotations

import pytest

from firmware_bridge import CellChange, LedFrame, Light, ManualClock, Occupancy, Pattern, SimulatedDevice
from firmware_bridge.base import FrameSizeError, SquareError
from firmware_bridge.gpio_model import SwitchMatrix
from firmware_bridge.types import RED, Rgb


def record(board: SimulatedDevice) -> tuple[list[CellChange], list[Occupancy]]:
    changes: list[CellChange] = []
    snaps: list[Occupancy] = []
    board.on_change(changes.append)
    board.on_snapshot(snaps.append)
    return changes, snaps


def test_place_and_lift_are_delivered_synchronously() -> None:
    board = SimulatedDevice(8, 8)
    changes, snaps = record(board)
    board.place((2, 3))
    assert [(c.square, c.occupied, c.seq) for c in changes] == [((2, 3), True, 1)]
    assert snaps[-1].squares == {(2, 3)} and snaps[-1].seq == 1
    board.lift((2, 3))
    assert snaps[-1].squares == frozenset() and snaps[-1].seq == 2
    assert board.snapshot() == snaps[-1]


def test_set_occupancy_emits_each_difference_then_one_snapshot() -> None:
    board = SimulatedDevice(8, 8)
    board.set_occupancy({(0, 0), (1, 1)})
    changes, snaps = record(board)
    board.set_occupancy({(1, 1), (2, 2), (3, 3)})
    got = sorted((c.square, c.occupied) for c in changes)
    assert got == [((0, 0), False), ((2, 2), True), ((3, 3), True)]
    assert len(snaps) == 1 and snaps[0].squares == {(1, 1), (2, 2), (3, 3)} and snaps[0].seq == 5


def test_knock_is_filtered_but_counted_as_bounce() -> None:
    board = SimulatedDevice(8, 8)
    board.set_occupancy({(4, 4)})
    changes, snaps = record(board)
    board.knock((4, 4))
    board.knock((5, 5))
    assert changes == [] and snaps == []
    assert board.bounces == 2 and len(board.raw_log) == 4


def test_noise_is_swallowed_by_the_debounce() -> None:
    board = SimulatedDevice(8, 8, debounce=0.03)
    changes, _ = record(board)
    board.noise((5, 5), edges=3)
    assert changes == [] and board.bounces == 3 and len(board.raw_log) == 6
    undebounced = SimulatedDevice(8, 8, debounce=0.0)
    changes, _ = record(undebounced)
    undebounced.noise((5, 5), edges=2)
    assert len(changes) == 4


def test_slide_touches_intermediates_only_briefly() -> None:
    board = SimulatedDevice(10, 10)
    board.set_occupancy({(0, 0)})
    changes, _ = record(board)
    board.slide([(0, 0), (1, 1), (2, 2), (3, 3)])
    assert [(c.square, c.occupied) for c in changes] == [((0, 0), False), ((3, 3), True)]
    touched = {e.square for e in board.raw_log}
    assert {(1, 1), (2, 2)} <= touched


def test_slow_slide_registers_the_intermediate_squares() -> None:
    board = SimulatedDevice(8, 8, debounce=0.02)
    board.set_occupancy({(0, 0)})
    changes, _ = record(board)
    board.slide([(0, 0), (1, 1), (2, 2)], dwell=0.05)
    assert [(c.square, c.occupied) for c in changes] == [
        ((0, 0), False), ((1, 1), True), ((1, 1), False), ((2, 2), True)]


def test_bounce_chatter_yields_one_change_with_manual_time() -> None:
    clock = ManualClock(100.0)
    board = SimulatedDevice(8, 8, debounce=0.03, bounce=4, clock=clock, auto_settle=False)
    changes, _ = record(board)
    board.place((6, 1))
    assert changes == []            # nothing until time passes
    board.advance(0.02)
    assert changes == []            # still inside the debounce interval
    board.advance(0.05)
    assert [(c.square, c.occupied) for c in changes] == [((6, 1), True)]
    assert changes[0].time == pytest.approx(100.0 + 8 * 0.001 + 0.03)
    assert board.bounces > 0


def test_zero_debounce_counts_every_edge() -> None:
    board = SimulatedDevice(8, 8, debounce=0.0)
    changes, _ = record(board)
    board.knock((0, 1))
    assert [(c.square, c.occupied) for c in changes] == [((0, 1), True), ((0, 1), False)]


def test_start_republishes_current_snapshot() -> None:
    board = SimulatedDevice(8, 8)
    board.set_occupancy({(7, 7)})
    _, snaps = record(board)
    with board:
        assert board.started
    assert snaps == [board.snapshot()] and board.closed


def test_led_frames_and_errors() -> None:
    board = SimulatedDevice(8, 8)
    seen: list[LedFrame] = []
    board.on_frame(seen.append)
    frame = LedFrame.of(8, 8, {(1, 2): Light(RED, Pattern.FAST_BLINK)})
    board.show(frame)
    board.show(frame)
    assert board.frame == frame and seen == [frame]
    with pytest.raises(FrameSizeError, match="10x10"):
        board.show(LedFrame.of(10, 10))
    with pytest.raises(SquareError, match=r"\(8, 0\).*8x8"):
        board.place((8, 0))
    assert "[" in board.render()


def test_dimmed_frame_scales_colors_and_keeps_patterns() -> None:
    lights = {(0, 0): Light(Rgb(255, 100, 0), Pattern.FAST_BLINK), (1, 1): Light(RED, Pattern.ON)}
    frame = LedFrame.of(2, 2, lights)
    assert frame.dimmed(1.0) is frame
    half = frame.dimmed(0.5)
    assert half.light((0, 0)) == Light(Rgb(128, 50, 0), Pattern.FAST_BLINK)
    assert half.light((1, 1)) == Light(Rgb(128, 0, 0), Pattern.ON)
    assert all(light.rgb == Rgb(0, 0, 0) for _, light in frame.dimmed(0.0).lights)


def test_faults_planted_in_its_switch_matrix_read_as_on_a_real_board() -> None:
    """A stuck reed reads a piece nobody put there; a dead one never reads the piece put on it; a missing
    diode makes a ghost across the rectangle; the board notices a planted fault as soon as time passes."""
    matrix = SwitchMatrix(8, 8)
    board = SimulatedDevice(8, 8, matrix=matrix)
    board.set_occupancy({(0, 5), (3, 1)})
    matrix.stick((6, 6))
    matrix.stick((2, 2), closed=False)
    matrix.remove_diode((3, 5))
    board.advance(0.1)
    assert board.occupied == {(0, 5), (3, 1), (6, 6)}
    board.place((2, 2))
    board.place((3, 5))
    assert board.occupied == {(0, 5), (3, 1), (6, 6), (3, 5), (0, 1)}   # (2, 2) dead, (0, 1) a ghost
    board.knock((6, 6))                   # a stuck reed ignores the magnet
    board.lift((3, 5))
    assert board.occupied == {(0, 5), (3, 1), (6, 6)}
    assert "stuck (6, 6)" in repr(board)
