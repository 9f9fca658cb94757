"""Sensor faults: the faults that explain the electrical model's own readings; chatter history."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_bridge.faults import FaultKind, SensorHistory, WireMap, explain
from firmware_bridge.gpio_model import SwitchMatrix
from firmware_bridge.orientation import Orientation
from firmware_bridge.types import Cell

# an English start position on the physical board (dark squares: row + col even)
START = frozenset((r, c) for r in (0, 1, 2, 5, 6, 7) for c in range(8) if (r + c) % 2 == 0)
WIRES = WireMap(8, 8, tuple(f"R{i} (GPIO {p})" for i, p in enumerate([4, 5, 6, 12, 13, 16, 19, 20])))
EVERY = frozenset((r, c) for r in range(8) for c in range(8))


def read(plant: Callable[[SwitchMatrix], None], pieces: frozenset[Cell] = START) -> frozenset[Cell]:
    matrix = SwitchMatrix(8, 8)
    matrix.set_occupancy(pieces)
    plant(matrix)
    return matrix.reading()


@pytest.mark.parametrize(("plant", "kind", "cells", "rows", "cols"), [
    (lambda m: m.stick((3, 3)), FaultKind.STUCK, [(3, 3)], (3,), (3,)),
    (lambda m: m.stick((2, 4), False), FaultKind.DEAD, [(2, 4)], (2,), (4,)),
    (lambda m: m.open_row(5), FaultKind.OPEN_ROW, [(5, 1), (5, 3), (5, 5), (5, 7)], (5,), ()),
    (lambda m: m.open_col(2), FaultKind.OPEN_COLUMN, [(0, 2), (2, 2), (6, 2)], (), (2,)),
    (lambda m: m.short_cols(2, 3), FaultKind.SHORTED_COLUMNS,
     [(0, 3), (1, 2), (2, 3), (5, 2), (6, 3), (7, 2)], (), (2, 3)),
    # rows 0, 2 and 6 carry the same start pieces: row 3 could touch any of them
    (lambda m: m.short_rows(2, 3), FaultKind.SHORTED_ROWS, [(3, 0), (3, 2), (3, 4), (3, 6)],
     (0, 2, 3, 6), ()),
    (lambda m: m.cross_rows(1, 2), FaultKind.CROSSED_ROWS,
     [(1, 1), (1, 3), (1, 5), (1, 7), (2, 0), (2, 2), (2, 4), (2, 6)], (1, 2), ()),
])
def test_each_fault_is_named_with_its_squares_and_wires(
        plant: Callable[[SwitchMatrix], None], kind: FaultKind, cells: list[Cell], rows: tuple[int, ...],
        cols: tuple[int, ...]) -> None:
    [fault] = explain(read(plant), START, WIRES, frozen=EVERY)  # type: ignore[misc]
    assert (fault.kind, list(fault.cells), fault.rows, fault.cols) == (kind, cells, rows, cols)


def test_a_ghost_names_the_switch_whose_diode_is_missing() -> None:
    pieces = frozenset({(0, 5), (3, 1), (3, 5)})
    [fault] = explain(read(lambda m: m.remove_diode((3, 5)), pieces), pieces, WIRES, frozen=())  # type: ignore[misc]
    assert fault.kind is FaultKind.GHOST and fault.cells == ((0, 1),) and fault.vias == ((3, 5),)
    assert "diode under e4 seems missing" in fault.describe(lambda c: "e4" if c == (3, 5) else str(c), WIRES)


def test_a_square_that_never_changed_is_its_own_reed_unless_one_diode_explains_it() -> None:
    """A full start position: any extra square has many rectangles around it. If it never changed, its own
    reed is stuck; if it just started to read, a ghost, naming every diode that could carry it."""
    extra = START | {(4, 2), (4, 4)}
    stuck = explain(extra, START, WIRES, frozen=EVERY)
    assert stuck is not None and [(f.kind, f.cells) for f in stuck] == [
        (FaultKind.STUCK, ((4, 2),)), (FaultKind.STUCK, ((4, 4),))]
    with_piece = START | {(4, 0)}      # a man on (4, 0): rows 0, 2, 6 share its columns through it
    [ghost] = explain(with_piece | {(4, 2)}, with_piece, WIRES, frozen=EVERY - {(4, 2)})  # type: ignore[misc]
    assert ghost.kind is FaultKind.GHOST and ghost.vias == ((0, 0), (2, 0), (6, 0))
    assert "the diode under a1 (or c1 or g1) seems missing" in ghost.describe(
        lambda c: "aceg"[c[0] // 2] + "1" if c[1] == 0 else str(c), WIRES)


def test_a_difference_that_changed_is_a_person_not_a_fault() -> None:
    moved = START - {(2, 2)} | {(3, 3)}
    assert explain(moved, START, WIRES, frozen=EVERY - {(2, 2), (3, 3)}) is None
    assert explain(START, START, WIRES, frozen=()) == []


def test_words_name_the_square_and_both_wires_through_the_orientation() -> None:
    north = Orientation(8, 8, "north")
    wires = WireMap(8, 8, WIRES.row_names, to_wiring=north.to_wiring, to_logical=north.to_logical)
    logical = frozenset(north.to_logical(c) for c in START)
    reading = logical - {(7, 7)}
    [fault] = explain(reading, logical, wires, frozen=EVERY)  # type: ignore[misc]
    text = fault.describe(lambda cell: "18", wires)
    assert text.startswith("The sensor under 18 seems dead") and "row R0 (GPIO 4) and column C0" in text


def test_a_square_that_keeps_flipping_back_chatters_and_is_held_at_its_settled_reading() -> None:
    health = SensorHistory(blip=0.25, flips=3, window=5.0, hold=0.6)
    piece = frozenset({(4, 4)})
    health.note(piece, 0.0)
    started = []
    t = 1.0
    for _ in range(3):                       # off for 40 ms every 0.4 s
        started += health.note(frozenset(), t)
        started += health.note(piece, t + 0.04)
        t += 0.4
    assert started == [(4, 4)] and health.chatter_count == 1
    assert health.steady(frozenset(), t) == piece              # a flip never reaches the game
    assert health.next_deadline(frozenset()) == pytest.approx(t - 0.4 + 0.04 + 0.6)
    health.note(frozenset(), t)
    assert health.steady(frozenset(), t + 0.7) == frozenset()   # lifted for real: believed once it holds


def test_a_square_left_by_one_move_and_filled_by_the_next_is_play_not_chatter() -> None:
    """A fast game: the piece on e5 leaves and another lands there 0.1 s later, three times in a row. With a
    move made in between each time, that is play; the same flickers with no move are chatter."""
    fast, flicker = SensorHistory(), SensorHistory()
    piece = frozenset({(4, 4)})
    for health in (fast, flicker):
        health.note(piece, 0.0)
    for t in (1.0, 2.0, 3.0):
        for health in (fast, flicker):
            health.note(frozenset(), t)
        fast.moved(t + 0.05)                 # the move that left e5 was committed
        for health in (fast, flicker):
            health.note(piece, t + 0.1)
    assert fast.chatter_count == 0 and flicker.chatter_count == 1
