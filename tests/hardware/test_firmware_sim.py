"""The real firmware on simavr, seen through the real serial backend (firmware_bridge.serial_backend).

Every wait is bounded; times asserted are never wall-clock durations.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import serial
from board_sim import BUILD, BoardSim, serpentine_index

from firmware_bridge import protocol as p
from firmware_bridge.serial_backend import SerialDevice, led_message
from firmware_bridge.types import BLUE, GREEN, RED, CellChange, LedFrame, Light, Pattern

WAIT = 10.0  # generous bound for anything that should take milliseconds of simulated time


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


class Rig:
    """A simulated board plus a SerialDevice connected to its pty, with every change queued."""

    def __init__(self, sim: BoardSim, board: SerialDevice) -> None:
        self.sim, self.board = sim, board
        self.changes: queue.Queue[CellChange] = queue.Queue()
        board.on_change(self.changes.put)

    def next_changes(self, count: int) -> list[tuple[tuple[int, int], bool]]:
        out = []
        for _ in range(count):
            try:
                change = self.changes.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"got {out}, then no change within {WAIT} s") from None
            out.append((change.square, change.occupied))
        return out

    def no_more_changes(self, settle: float = 0.3) -> list[tuple[tuple[int, int], bool]]:
        time.sleep(settle)
        extra = []
        while not self.changes.empty():
            change = self.changes.get_nowait()
            extra.append((change.square, change.occupied))
        return extra


@contextmanager
def open_rig(elf_name: str = "firmware.elf", rows: int = 10, cols: int = 10) -> Iterator[Rig]:
    with BoardSim(BUILD / elf_name, rows=rows, cols=cols) as sim:
        board = SerialDevice(sim.port, rows=rows, cols=cols, brightness=255)
        board.start()
        try:
            assert board.wait_synced(WAIT), f"{board!r} never synced"
            yield Rig(sim, board)
        finally:
            board.close()


@pytest.fixture
def rig() -> Iterator[Rig]:
    with open_rig() as r:
        yield r


def test_hello_reports_geometry_and_boot(rig: Rig) -> None:
    hello = rig.board.hello
    assert hello is not None
    assert (hello.rows, hello.cols, hello.fw_major) == (10, 10, 1)
    assert rig.board.snapshot().squares == frozenset()


def test_every_placement_and_lift_is_seen(rig: Rig) -> None:
    sim = rig.sim
    moves = [((0, 0), True), ((9, 9), True), ((0, 9), True), ((9, 0), True), ((4, 5), True),
             ((0, 0), False), ((4, 5), False), ((5, 4), True), ((9, 9), False)]
    for (row, col), occupied in moves:
        (sim.place if occupied else sim.lift)(row, col)
        assert rig.next_changes(1) == [((row, col), occupied)]
    assert rig.board.snapshot().squares == frozenset({(0, 9), (9, 0), (5, 4)})
    assert rig.no_more_changes() == []


def test_squares_sharing_rows_and_columns_do_not_ghost(rig: Rig) -> None:
    # three corners of a rectangle: without a diode per switch the fourth, (6, 7), would read closed
    for square in [(2, 2), (2, 7), (6, 2)]:
        rig.sim.place(*square)
    got = rig.next_changes(3)
    assert sorted(got) == [((2, 2), True), ((2, 7), True), ((6, 2), True)]
    assert rig.no_more_changes() == []
    assert rig.board.snapshot().squares == frozenset({(2, 2), (2, 7), (6, 2)})


def test_a_whole_row_placed_at_once_arrives_in_scan_order(rig: Rig) -> None:
    for col in range(10):
        rig.sim.place(3, col)
    assert rig.next_changes(10) == [((3, col), True) for col in range(10)]
    assert rig.board.stats.gaps == 0


def test_filling_and_clearing_the_whole_board(rig: Rig) -> None:
    # 100 CHANGEs in a burst are more than the firmware's TX ring holds: none may be lost or reordered
    squares = [(r, c) for r in range(10) for c in range(10)]
    for square in squares:
        rig.sim.place(*square)
    assert sorted(rig.next_changes(100)) == [(sq, True) for sq in squares]
    assert rig.board.snapshot().squares == frozenset(squares)
    for square in squares:
        rig.sim.lift(*square)
    assert sorted(rig.next_changes(100)) == [(sq, False) for sq in squares]
    assert rig.board.snapshot().squares == frozenset()
    assert (rig.board.stats.gaps, rig.board.stats.duplicates) == (0, 0)


def test_led_frame_is_shown_on_the_ws2812_chain(rig: Rig) -> None:
    frame = LedFrame.of(10, 10, {(2, 3): Light(RED, Pattern.ON), (1, 0): Light(GREEN, Pattern.ON),
                                 (7, 8): Light(BLUE, Pattern.FAST_BLINK)})
    rig.board.show(frame)
    red_at, green_at, blue_at = (serpentine_index(r, c, 10) for r, c in [(2, 3), (1, 0), (7, 8)])

    def shows_frame() -> bool:
        leds = rig.sim.leds()
        return leds.leds == 100 and leds.rgb(red_at) == (255, 0, 0) and leds.rgb(green_at) == (0, 255, 0)

    wait_for(shows_frame, "the LED frame on the chain")
    leds = rig.sim.leds()
    lit = {i for i in range(100) if leds.rgb(i) != (0, 0, 0)}
    assert lit <= {red_at, green_at, blue_at}

    # the firmware blinks by itself: the fast-blinking square is seen both lit and dark
    seen = set()
    wait_for(lambda: seen.add(rig.sim.leds().rgb(blue_at)) or len(seen) >= 2, "the square to blink")
    assert seen == {(0, 0, 255), (0, 0, 0)}
    stats = rig.sim.stats()
    assert stats["led_bad_bits"] == 0, "WS2812 high times outside the datasheet window"
    assert stats["led_bad_frames"] == 0
    assert stats["led_max_low_cycles"] < 800, "a gap inside a frame would latch the chain early"


def test_reset_loses_no_change(rig: Rig) -> None:
    sim, board = rig.sim, rig.board
    sim.place(4, 4)
    sim.place(6, 1)
    assert sorted(rig.next_changes(2)) == [((4, 4), True), ((6, 1), True)]
    boot_before = board.boot_id

    sim.reset()
    # while the MCU reboots: these changes happen before it debounces its initial state, so the firmware
    # sends no CHANGE for them; the host must recover them from the SNAPSHOT after the new boot_id
    sim.place(5, 5)
    sim.lift(4, 4)
    wait_for(lambda: board.boot_id != boot_before, "the new boot_id")
    assert sorted(rig.next_changes(2)) == [((4, 4), False), ((5, 5), True)]

    sim.place(8, 8)   # after the reboot: an ordinary CHANGE, event_seq restarting at 1
    assert rig.next_changes(1) == [((8, 8), True)]
    assert rig.no_more_changes() == []
    assert board.snapshot().squares == frozenset({(6, 1), (5, 5), (8, 8)})
    assert board.stats.resets == 1


def test_scan_rate_meets_requirement(rig: Rig) -> None:
    first = rig.sim.stats()
    wait_for(lambda: rig.sim.stats()["sim_ms"] - first["sim_ms"] >= 500, "half a simulated second")
    second = rig.sim.stats()
    rate = (second["scans"] - first["scans"]) / ((second["sim_ms"] - first["sim_ms"]) / 1000)
    assert rate >= 100, f"{rate:.0f} full scans per simulated second, requirement is 100"
    rows_driven = second["row_activations"] - first["row_activations"]
    assert abs(rows_driven - 10 * (second["scans"] - first["scans"])) <= 10, "each scan drives all 10 rows"


@pytest.mark.parametrize(("image", "size"), [("firmware-8x8.elf", 8), ("firmware-5x5.elf", 5)])
def test_smaller_builds(image: str, size: int) -> None:
    """The 8x8 image, and the 5x5 one of the Alquerque board (hardware/profiles/5x5-serial.toml): its
    geometry, sensing at the far corner, and its LED chain."""
    last = size - 1
    with open_rig(image, rows=size, cols=size) as rig:
        hello = rig.board.hello
        assert hello is not None and (hello.rows, hello.cols) == (size, size)
        rig.sim.place(last, last)
        rig.sim.place(0, 3)
        assert sorted(rig.next_changes(2)) == [((0, 3), True), ((last, last), True)]
        rig.board.show(LedFrame.of(size, size, {(last, last): Light(RED, Pattern.ON)}))
        at = serpentine_index(last, last, size)
        sim = rig.sim
        wait_for(lambda: sim.leds().leds == size * size and sim.leds().rgb(at) == (255, 0, 0),
                 f"{size}x{size} LED frame")


def test_serial_input_survives_led_refreshes() -> None:
    # LED frames sent back to back at line rate: every accepted frame makes the firmware rewrite the chain
    # (~3 ms with interrupts off, longer than USART0's two-byte buffer lasts at 115200 baud) while the next
    # frame is arriving. Every frame must still be ACKed intact: the firmware polls the receiver between
    # LED bytes, and the harness models the USART's data overrun.
    squares = [(r, c) for r in range(10) for c in range(10)]
    frames = [LedFrame.of(10, 10, dict.fromkeys(squares, Light(color, Pattern.FAST_BLINK)))
              for color in (BLUE, RED, GREEN)]
    count = 24
    with BoardSim() as sim, serial.Serial(sim.port, 115200, timeout=0.02) as ser:
        reader = p.FrameReader()
        replies: list[p.Message] = []

        def read_until(done: Callable[[], bool], what: str) -> None:
            def poll() -> bool:
                replies.extend(msg for _, msg in reader.feed(ser.read(4096)))
                return done()
            wait_for(poll, what)

        ser.write(p.encode(p.Hello(), 0))   # (pyserial flushes what arrived before it opened the port)
        read_until(lambda: any(isinstance(m, p.HelloReply) for m in replies), "the HELLO_REPLY")
        before = sim.stats()
        noise = reader.dropped   # bytes the board sent before the port was opened (a frame cut at the front)
        ser.write(b"".join(p.encode(led_message(frames[seq % 3], 255), seq) for seq in range(1, count + 1)))
        acks = lambda: [m.acked_frame_seq for m in replies if isinstance(m, p.Ack)]  # noqa: E731
        read_until(lambda: len(acks()) >= count or any(isinstance(m, p.Error) for m in replies), "every ACK")
        after = sim.stats()
    assert [m for m in replies if isinstance(m, p.Error)] == []
    assert acks() == list(range(1, count + 1))
    assert after["uart_overruns"] == 0
    assert after["led_frames"] - before["led_frames"] >= count, "each new frame is shown at once"
    assert reader.dropped == noise, "a reply was garbled while the LEDs were rewritten"
