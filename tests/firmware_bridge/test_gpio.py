"""The GPIO backend through the shipped RPi.GPIO stand-in wired to an electrical model of the matrix."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import pytest

from firmware_bridge.clock import ManualClock, MonotonicClock
from firmware_bridge.gpio_backend import GpioDevice
from firmware_bridge.gpio_model import GPIOModel, GPIOModelError, SwitchMatrix
from firmware_bridge.scanner import MatrixScanner, ambiguous, naive_scan
from firmware_bridge.types import RED, WHITE, CellChange, LedFrame, Light, Pattern
from firmware_bridge.ws2812 import SPI_HZ, SpiModel, chain_order

ROWS8 = [5, 6, 12, 13, 16, 19, 20, 21]
COLS8 = [4, 17, 18, 22, 23, 24, 25, 27]


SCAN = 0.005      # seconds between two scans of these tests (200 scans/s); debounce 10 ms = 3 scans


def rig(diodes: bool = True, bounce: int = 0, **kw: object) -> tuple[GpioDevice, SwitchMatrix, SpiModel]:
    """A board on the electrical model with a manual clock (``board.clock``) that ``scans`` moves on."""
    matrix = SwitchMatrix(8, 8, diodes=diodes, bounce_samples=bounce)
    gpio = GPIOModel(matrix, ROWS8, COLS8)
    spi = SpiModel(64)
    spi.open(0, 0)
    kw.setdefault("clock", ManualClock(0.0))
    kw.setdefault("debounce", 0.010)
    board = GpioDevice(8, 8, ROWS8, COLS8, gpio=gpio, spi=spi, diodes=diodes, **kw)  # type: ignore[arg-type]
    board.open()
    return board, matrix, spi


def scans(board: GpioDevice, count: int) -> list[CellChange]:
    """``count`` scans, SCAN seconds apart on the board's manual clock."""
    out: list[CellChange] = []
    for _ in range(count):
        out += board.scan_once()
        board.clock.advance(SCAN)  # type: ignore[attr-defined]
    return out


def test_stand_in_enforces_the_gpio_api() -> None:
    gpio = GPIOModel(SwitchMatrix(2, 2), [1, 2], [3, 4])
    with pytest.raises(GPIOModelError, match="setmode"):
        gpio.setup(1, gpio.OUT)
    gpio.setmode(gpio.BCM)
    with pytest.raises(GPIOModelError, match="setup"):
        gpio.input(3)
    gpio.setup(1, gpio.IN)
    with pytest.raises(GPIOModelError, match="OUTPUT"):
        gpio.output(1, gpio.LOW)


def test_column_level_follows_the_driven_row() -> None:
    matrix = SwitchMatrix(2, 2)
    gpio = GPIOModel(matrix, [1, 2], [3, 4])
    scanner = MatrixScanner(gpio, [1, 2], [3, 4])
    scanner.setup()
    matrix.place((1, 0))
    assert scanner.scan() == [0b00, 0b01]
    gpio.setup(2, gpio.OUT, initial=gpio.HIGH)   # a row driven high pulls nothing down
    assert gpio.input(3) == gpio.HIGH
    gpio.setup(2, gpio.OUT, initial=gpio.LOW)
    assert gpio.input(3) == gpio.LOW and gpio.input(4) == gpio.HIGH


def test_missing_pull_up_reads_noise() -> None:
    gpio = GPIOModel(SwitchMatrix(2, 2), [1, 2], [3, 4], seed=5)
    gpio.setmode(gpio.BCM)
    gpio.setup(3, gpio.IN)               # forgot pull_up_down=PUD_UP
    values = {gpio.input(3) for _ in range(50)}
    assert values == {0, 1} and gpio.floating_reads == 50


def test_place_and_lift_once_the_reading_held_for_the_debounce_time() -> None:
    board, matrix, _ = rig()
    seen: list[CellChange] = []
    board.on_change(seen.append)
    matrix.place((2, 5))
    assert scans(board, 2) == []
    assert [(c.square, c.occupied) for c in scans(board, 1)] == [((2, 5), True)]
    matrix.lift((2, 5))
    assert [(c.square, c.occupied) for c in scans(board, 5)] == [((2, 5), False)]
    assert board.snapshot().squares == frozenset() and board.snapshot().seq == 2 and len(seen) == 2


def test_contact_bounce_is_filtered_and_counted() -> None:
    board, matrix, _ = rig(bounce=5)
    matrix.place((0, 0))
    changes = scans(board, 12)
    assert [(c.square, c.occupied) for c in changes] == [((0, 0), True)]
    assert board.diagnostics.bounces >= 2
    assert board.diagnostics.bounce_by_square[(0, 0)] == board.diagnostics.bounces


def test_full_board_with_diodes_reads_exactly() -> None:
    board, matrix, _ = rig(diodes=True)
    everything = {(r, c) for r in range(8) for c in range(8) if (r + c) % 3}
    matrix.set_occupancy(everything)
    scans(board, 3)
    assert board.snapshot().squares == everything
    assert board.diagnostics.ghosts == 0


def test_without_diodes_a_sneak_path_makes_a_ghost() -> None:
    matrix = SwitchMatrix(8, 8, diodes=False)
    scanner = MatrixScanner(GPIOModel(matrix, ROWS8, COLS8), ROWS8, COLS8)
    scanner.setup()
    for sq in [(1, 1), (1, 4), (5, 1)]:
        matrix.place(sq)
    masks = scanner.scan()
    assert masks[5] >> 4 & 1, "the fourth corner (5, 4) must read closed through the sneak path"
    assert ambiguous(masks, 8) == {(1, 1), (1, 4), (5, 1), (5, 4)}


def test_ghost_detection_holds_the_suspect_squares() -> None:
    trusting, m1, _ = rig(diodes=False)
    trusting.debouncer.diodes = True            # misconfigured: believes diodes are fitted
    careful, m2, _ = rig(diodes=False)
    for board, matrix in ((trusting, m1), (careful, m2)):
        for sq in [(1, 1), (1, 4)]:
            matrix.place(sq)
            scans(board, 3)
        matrix.place((5, 1))
        scans(board, 3)
    assert trusting.snapshot().squares == {(1, 1), (1, 4), (5, 1), (5, 4)}      # ghost reported
    assert (5, 4) not in careful.snapshot().squares                             # ghost held back
    assert careful.diagnostics.ghosts > 0 and (5, 4) in careful.diagnostics.ghost_squares
    m2.lift((1, 4))                                  # rectangle broken: (5, 1) is unambiguous again
    scans(careful, 4)
    assert careful.snapshot().squares == {(1, 1), (5, 1)}


def test_stuck_switch_warns(caplog: pytest.LogCaptureFixture) -> None:
    board, matrix, _ = rig(stuck_changes=10)
    matrix.stick((7, 7))
    scans(board, 3)
    with caplog.at_level(logging.WARNING, logger="firmware_bridge.scanner"):
        for i in range(6):
            matrix.place((0, i))
            scans(board, 3)
            matrix.lift((0, i))
            scans(board, 3)
    assert board.diagnostics.stuck == 1 and board.diagnostics.stuck_squares == {(7, 7)}
    assert "(7, 7)" in caplog.text and "stuck" in caplog.text
    matrix.place((7, 7))                             # a magnet changes nothing on a welded reed
    matrix.lift((7, 7))
    scans(board, 3)
    assert (7, 7) in board.snapshot().squares


def test_inverted_polarity() -> None:
    board, matrix, _ = rig(polarity="open-occupied")
    matrix.set_occupancy({(r, c) for r in range(8) for c in range(8)} - {(3, 3)})
    scans(board, 3)
    assert board.snapshot().squares == {(3, 3)}


def test_leds_serpentine_and_blinking() -> None:
    board, _, spi = rig(brightness=255)
    assert spi.max_speed_hz == SPI_HZ
    frame = LedFrame.of(8, 8, {(0, 0): Light(RED, Pattern.ON), (1, 0): Light(WHITE, Pattern.FAST_BLINK)})
    board.show(frame)
    chain = chain_order(8, 8, "serpentine")
    assert board.refresh_leds(0.0)
    assert spi.colors[0] == (255, 0, 0)
    assert chain[15] == (1, 0) and spi.colors[15] == (255, 255, 255)
    assert not board.refresh_leds(0.05)               # nothing changed: no SPI transfer
    assert board.refresh_leds(0.2)                    # fast blink off phase
    assert spi.colors[15] == (0, 0, 0) and spi.colors[0] == (255, 0, 0)
    board.close()
    assert spi.colors[0] == (0, 0, 0) and spi.opened is None


def test_scan_thread_runs_on_its_own() -> None:
    board, matrix, _ = rig(rate=500, clock=MonotonicClock())
    got: list[CellChange] = []
    board.on_change(got.append)
    with board:
        matrix.place((4, 4))
        deadline = time.monotonic() + 5
        while not got and time.monotonic() < deadline:
            time.sleep(0.005)
    assert [(c.square, c.occupied) for c in got] == [((4, 4), True)]
    assert board.diagnostics.scans >= 3


def test_naive_peer_agrees_with_the_scanner() -> None:
    matrix = SwitchMatrix(8, 8)
    gpio = GPIOModel(matrix, ROWS8, COLS8)
    scanner = MatrixScanner(gpio, ROWS8, COLS8)
    scanner.setup()
    matrix.set_occupancy({(0, 0), (3, 5), (7, 7), (7, 0)})
    assert naive_scan(gpio, ROWS8, COLS8) == scanner.scan()


def test_a_catch_up_burst_of_scans_does_not_let_a_glitch_through() -> None:
    """Issue 24, failure 6: a busy thread stalls the scan thread, which then scans several times at once; the
    debounce must count time on the clock, not scans, so a 10 ms glitch never passes and a 20 ms lift does."""
    clock = ManualClock(0.0)
    board, matrix, _ = rig(clock=clock, debounce=0.012)
    matrix.place((3, 3))
    scans(board, 4)
    assert board.snapshot().squares == {(3, 3)}
    matrix.lift((3, 3))                 # a 10 ms glitch, seen only by a burst of scans after a stall
    clock.advance(0.004)
    burst = [c for _ in range(4) for c in board.scan_once()]
    matrix.place((3, 3))
    clock.advance(0.006)
    burst += board.scan_once()
    assert burst == [] and board.snapshot().squares == {(3, 3)}
    matrix.lift((3, 3))                 # a real 20 ms lift, seen by scans 8 ms apart
    for _ in range(3):
        clock.advance(0.008)
        board.scan_once()
    assert board.snapshot().squares == frozenset()


@pytest.mark.parametrize("size", [8, 10])
def test_without_diodes_every_piece_of_a_start_position_can_be_lifted_unseen(size: int) -> None:
    """Why ``diodes = false`` is refused (issue 24, failure 3): the start position's rows share their columns,
    so whichever piece is lifted, the three around it close a sneak path and its square still reads closed.
    No resolution from the expected position can see the first move."""
    pins = list(range(2, 2 + 2 * size))
    matrix = SwitchMatrix(size, size, diodes=False)
    scanner = MatrixScanner(GPIOModel(matrix, pins[:size], pins[size:]), pins[:size], pins[size:])
    scanner.setup()
    men = (size - 2) // 2
    start = {(r, c) for r in [*range(men), *range(size - men, size)] for c in range(size) if (r + c) % 2 == 0}

    def reading() -> set[tuple[int, int]]:
        return {(r, c) for r, mask in enumerate(scanner.scan()) for c in range(size) if mask >> c & 1}

    matrix.set_occupancy(start)
    assert reading() == start
    for piece in sorted(start):
        matrix.set_occupancy(start - {piece})
        assert reading() == start, f"lifting {piece} is seen"


def read_with(matrix: SwitchMatrix) -> set[tuple[int, int]]:
    """One full scan of ``matrix`` through the real scanner and the RPi.GPIO stand-in."""
    scanner = MatrixScanner(GPIOModel(matrix, ROWS8, COLS8), ROWS8, COLS8)
    scanner.setup()
    cells = {(r, c) for r, mask in enumerate(scanner.scan()) for c in range(8) if mask >> c & 1}
    assert cells == matrix.reading(), "the model's own full-scan reading agrees with the scanner"
    return cells


PIECES = {(0, 0), (0, 4), (2, 2), (3, 1), (3, 5), (6, 4)}


@pytest.mark.parametrize(("plant", "reads"), [
    (lambda m: None, PIECES),
    (lambda m: m.stick((5, 5)), PIECES | {(5, 5)}),                         # welded reed: closed, no magnet
    (lambda m: m.stick((2, 2), False), PIECES - {(2, 2)}),                  # dead reed under a piece
    (lambda m: m.open_row(3), PIECES - {(3, 1), (3, 5)}),                   # row 3 never driven
    (lambda m: m.open_col(4), PIECES - {(0, 4), (6, 4)}),                   # column 4 reads its pull-up only
    (lambda m: m.short_cols(4, 5), PIECES | {(0, 5), (3, 4), (6, 5)}),     # the two columns read the OR
    (lambda m: m.short_rows(0, 3), PIECES | {(0, 1), (0, 5), (3, 0), (3, 4)}),
    (lambda m: m.cross_rows(2, 3), {(0, 0), (0, 4), (3, 2), (2, 1), (2, 5), (6, 4)}),
    (lambda m: m.cross_cols(0, 1), {(0, 1), (0, 4), (2, 2), (3, 0), (3, 5), (6, 4)}),
])
def test_wiring_faults_read_as_the_electrics_say(plant: Callable[[SwitchMatrix], None],
                                                 reads: set[tuple[int, int]]) -> None:
    matrix = SwitchMatrix(8, 8)
    matrix.set_occupancy(PIECES)
    plant(matrix)
    assert read_with(matrix) == reads


def test_a_missing_diode_makes_a_ghost_across_the_rectangle_only() -> None:
    """Current flows back through the diode-less switch (3, 5): with (0, 5) and (3, 1) closed too, the
    square across the rectangle, (0, 1), reads closed although empty; with any corner open, no ghost."""
    matrix = SwitchMatrix(8, 8)
    matrix.remove_diode((3, 5))
    matrix.set_occupancy({(0, 5), (3, 1), (3, 5)})
    assert read_with(matrix) == {(0, 5), (3, 1), (3, 5), (0, 1)}
    matrix.lift((3, 5))
    assert read_with(matrix) == {(0, 5), (3, 1)}
    healthy = SwitchMatrix(8, 8)
    healthy.set_occupancy({(0, 5), (3, 1), (3, 5)})
    assert read_with(healthy) == {(0, 5), (3, 1), (3, 5)}
    assert "no diode (3, 5)" in repr(matrix)


def test_a_scan_held_up_half_way_does_not_make_a_flicker_look_long() -> None:
    """A reading counts from the end of the scan that first saw it to the start of the one that sees it
    still. A 10 ms flicker seen by a quick scan, then by a scan whose rows were read 2 ms later but which was
    held up 11 ms before its time was read (a busy thread), must not pass a 12 ms debounce."""
    clock = ManualClock(0.0)
    board, matrix, _ = rig(clock=clock, debounce=0.012)
    matrix.place((2, 2))
    scans(board, 4)
    matrix.lift((2, 2))                        # the flicker starts
    clock.advance(0.001)
    assert board.scan_once() == []             # a quick scan sees it
    scan = board.scanner.scan

    def held_up() -> list[int]:                # the rows are read now; the scan ends 11 ms later
        masks = scan()
        clock.advance(0.011)
        return masks

    board.scanner.scan = held_up  # type: ignore[method-assign]
    clock.advance(0.002)
    assert board.scan_once() == [], "2 ms of flicker taken for 13 ms"
    board.scanner.scan = scan  # type: ignore[method-assign]
    matrix.place((2, 2))                       # (it ended meanwhile)
    clock.advance(0.005)
    board.scan_once()
    assert board.snapshot().squares == {(2, 2)} and board.diagnostics.bounces == 1
