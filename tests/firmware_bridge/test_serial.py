"""The serial backend against the emulated MCU over real pseudo-terminals, through every fault.

After each fault the host's occupancy must equal the emulated board's, and per square the host's sequence of
changes must equal the emulator's log: nothing lost, nothing counted twice. (A square toggled twice inside one
gap cannot be seen by anyone; the tests keep gaps to one change per square, and one test shows the net state.)
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.ports import PortInfo
from firmware_bridge.protocol import Ack, HelloReply
from firmware_bridge.serial_backend import SerialDevice, led_message
from firmware_bridge.types import BLUE, GREEN, Cell, CellChange, LedFrame, Light, LinkStatus, Pattern

TIMEOUT = 5.0


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.005)


class Rig:
    """An emulator on a pty behind a symlink and a SerialDevice reading it, with the host's change log."""

    def __init__(self, tmp: Path, rows: int = 8, cols: int = 8) -> None:
        self.emu = BoardEmulator(rows, cols, link=str(tmp / "board-tty"), seed=7).start()
        self.host = SerialDevice(self.emu.port, rows=rows, cols=cols, heartbeat=0.05, silence=0.4, retry=0.02,
                                ack_timeout=0.1)
        self.changes: list[CellChange] = []
        self._lock = threading.Lock()
        self.host.on_change(self._record)
        self.host.start()
        assert self.host.wait_synced(TIMEOUT)
        self.settle()

    def _record(self, change: CellChange) -> None:
        with self._lock:
            self.changes.append(change)

    def settle(self) -> None:
        """Wait until the host reflects the emulator and has heard its latest event_seq."""
        wait_for(lambda: self.host.snapshot().squares == self.emu.occupied and self.host.connected
                 and not self.host._awaiting and self.host._last_seq == self.emu.event_seq,
                 f"host view {sorted(self.host.snapshot().squares)} == board {sorted(self.emu.occupied)}")

    def check_no_loss_no_duplicate(self, initial: frozenset[Cell] = frozenset()) -> None:
        self.settle()
        truth: dict[Cell, list[bool]] = defaultdict(list)
        for entry in self.emu.log:
            truth[entry.square].append(entry.occupied)
        seen: dict[Cell, list[bool]] = defaultdict(list)
        with self._lock:
            for change in self.changes:
                seen[change.square].append(change.occupied)
            seqs = [c.seq for c in self.changes]
        assert dict(seen) == dict(truth)
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))) if seqs else True

    def close(self) -> None:
        self.host.close()
        self.emu.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.close()


def test_changes_arrive_in_order(rig: Rig) -> None:
    for sq in [(0, 0), (1, 1), (2, 2)]:
        rig.emu.place(sq)
    rig.emu.lift((1, 1))
    rig.check_no_loss_no_duplicate()
    assert [(c.square, c.occupied) for c in rig.changes] == [
        ((0, 0), True), ((1, 1), True), ((2, 2), True), ((1, 1), False)]


def test_initial_state_comes_from_the_snapshot(tmp_path: Path) -> None:
    emu = BoardEmulator(10, 10, link=str(tmp_path / "tty"), seed=3)
    emu._occupied = {(0, 1), (9, 8)}
    with emu, SerialDevice(emu.port, rows=10, cols=10, heartbeat=0.05, retry=0.02) as host:
        assert host.wait_synced(TIMEOUT)
        assert host.snapshot().squares == {(0, 1), (9, 8)}
        assert host.hello is not None and host.hello.boot_id == emu.boot_id


def test_garbage_between_frames(rig: Rig) -> None:
    rig.emu.place((3, 3))
    rig.emu.send_garbage(200)
    rig.emu.place((4, 4))
    rig.emu.send_garbage(50, with_zeros=False)
    rig.emu.lift((3, 3))
    rig.emu.place((5, 5))
    rig.check_no_loss_no_duplicate()
    assert rig.host._reader.dropped > 0


def test_corrupted_crc_mid_stream_is_a_gap(rig: Rig) -> None:
    rig.emu.place((0, 0))
    rig.emu.corrupt_next()
    with rig.emu.atomic():         # no heartbeat reply in between: the next change must reveal the gap
        rig.emu.place((0, 1))      # lost on the wire
        rig.emu.place((0, 2))      # reveals the gap
    rig.check_no_loss_no_duplicate()
    assert rig.host.stats.gaps >= 1


def test_corrupted_last_change_is_found_by_heartbeat(rig: Rig) -> None:
    rig.emu.corrupt_next()
    rig.emu.place((6, 6))
    rig.check_no_loss_no_duplicate()
    assert rig.host.stats.resyncs >= 2


def test_truncated_frames(rig: Rig) -> None:
    rig.emu.truncate_next(2)
    rig.emu.place((1, 0))
    rig.emu.place((1, 2))
    rig.emu.place((1, 4))
    rig.settle()
    rig.emu.lift((1, 0))
    rig.check_no_loss_no_duplicate()


def test_square_toggled_twice_inside_a_gap_keeps_the_net_state(rig: Rig) -> None:
    rig.emu.truncate_next(2)
    rig.emu.place((4, 0))          # both lost: the host can only see that nothing changed
    rig.emu.lift((4, 0))
    rig.emu.place((4, 1))
    rig.settle()
    assert [(c.square, c.occupied) for c in rig.changes] == [((4, 1), True)]


def test_unplug_and_replug(rig: Rig) -> None:
    link: list[bool] = []
    rig.host.on_link(link.append)
    rig.emu.place((2, 0))
    rig.settle()
    rig.emu.unplug()
    wait_for(lambda: not rig.host.connected, "host to notice the unplug")
    wait_for(lambda: link == [False], "the link listener to hear of the drop")
    rig.emu.place((2, 1))          # happens while the cable is out
    rig.emu.lift((2, 0))
    rig.emu.replug()
    rig.check_no_loss_no_duplicate()
    assert rig.host.stats.connects == 2
    wait_for(lambda: link == [False, True], "the link listener to hear the board is back")
    rig.host.close()
    assert link == [False, True]   # closing on purpose is not a drop


def test_mcu_reset_resyncs_and_restores_leds(rig: Rig) -> None:
    frame = LedFrame.of(8, 8, {(0, 0): Light(GREEN, Pattern.ON), (7, 7): Light(BLUE, Pattern.SLOW_BLINK)})
    rig.host.show(frame)
    wait_for(lambda: rig.emu.leds == led_message(frame, rig.host.brightness), "LED frame on the MCU")
    rig.emu.place((5, 0))
    rig.emu.reset()                # LEDs go dark, seq restarts at 0
    rig.emu.place((5, 1))          # seq 1 of the new boot
    rig.check_no_loss_no_duplicate()
    wait_for(lambda: rig.emu.leds == led_message(frame, rig.host.brightness), "LED frame after reset")
    assert rig.host.stats.resets == 1


def test_reset_with_lost_hello_reply(rig: Rig) -> None:
    for sq in [(1, 1), (1, 3), (1, 5)]:
        rig.emu.place(sq)
    rig.settle()
    rig.emu.corrupt_next(kind=HelloReply)
    rig.emu.reset()                # its HELLO_REPLY is corrupted
    rig.emu.lift((1, 3))           # new boot seq 1 <= host's last seq 3: only the heartbeat reveals it
    rig.check_no_loss_no_duplicate()


def test_event_flood(rig: Rig) -> None:
    rig.emu.flood(400)
    rig.check_no_loss_no_duplicate()
    assert len(rig.changes) == 400


def test_silent_device_is_reconnected(rig: Rig) -> None:
    rig.emu.mute(0.8)
    wait_for(lambda: rig.host.stats.silences >= 1, "silence detection")
    rig.emu.place((7, 0))
    rig.check_no_loss_no_duplicate()
    assert rig.host.stats.connects >= 2


def test_led_frame_is_resent_until_acked(rig: Rig) -> None:
    wait_for(lambda: rig.emu.leds is not None and rig.host._led_seq is None, "the first frame acknowledged")
    rig.emu.corrupt_next(kind=Ack)  # pretend the MCU's ACK is damaged
    frame = LedFrame.of(8, 8, {(3, 4): Light(GREEN, Pattern.FAST_BLINK)})
    rig.host.show(frame)
    wait_for(lambda: rig.emu.leds == led_message(frame, rig.host.brightness) and rig.host._led_seq is None,
             "LED frame shown and acknowledged")
    assert rig.host.stats.led_resends >= 1 and rig.host.frame == frame


def test_emulator_answers_bad_frames_with_error(tmp_path: Path) -> None:
    import serial

    from firmware_bridge import protocol as p

    with BoardEmulator(8, 8, link=str(tmp_path / "tty")) as emu:
        port = serial.Serial(emu.port, 115200, timeout=0.05)
        reader = p.FrameReader()
        replies: list[p.Message] = []

        def ask(wire: bytes, want: int) -> None:
            port.write(wire)
            deadline = time.monotonic() + TIMEOUT
            while sum(isinstance(m, p.Error) for m in replies) < want:
                assert time.monotonic() < deadline, "no ERROR reply from the emulator"
                replies.extend(m for _, m in reader.feed(port.read(64)))

        try:
            raw = p.payload(p.Heartbeat(), 1)
            ask(p.cobs_encode(raw[:-1] + bytes([raw[-1] ^ 1])) + b"\x00", 1)
            wrong = p.LedFrameMsg(2, 2, 10, (p.LedCell(),) * 4)
            ask(p.encode(wrong, 2), 2)
            errors = [m for m in replies if isinstance(m, p.Error)]
            assert [(e.code, e.detail) for e in errors] == [
                (p.ErrorCode.BAD_CRC, 0), (p.ErrorCode.BAD_SIZE, p.MsgType.LED_FRAME)]
            assert emu.leds is None
        finally:
            port.close()


def test_emulator_signals_the_first_led_frame_and_forgets_it_on_reset(tmp_path: Path) -> None:
    """Tests wait on `wait_for_leds` (not on a polling loop) for the host's first frame to reach the MCU."""
    import serial

    from firmware_bridge import protocol as p

    with BoardEmulator(2, 2, link=str(tmp_path / "tty")) as emu:
        port = serial.Serial(emu.port, 115200, timeout=0.05)
        try:
            assert not emu.wait_for_leds(0)
            port.write(p.encode(p.LedFrameMsg(2, 2, 10, (p.LedCell(),) * 4), 1))
            assert emu.wait_for_leds(TIMEOUT) and emu.leds is not None
            emu.reset()  # LEDs dark: nothing shown until the host sends a frame again
            assert not emu.wait_for_leds(0) and emu.leds is None
        finally:
            port.close()


def test_a_write_that_does_not_complete_is_a_link_fault_and_the_newest_frame_is_sent(tmp_path: Path) -> None:
    """The MCU stops reading: ``show()`` only keeps the newest frame (it never waits on the port), the write
    that cannot complete times out, the link is "not responding" and reconnects; the newest frame is shown."""
    emu = BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=5).start()
    host = SerialDevice(emu.port, heartbeat=0.05, silence=60.0, answer=60.0, retry=0.02, write_timeout=0.2)
    seen: list[LinkStatus] = []
    host.on_status(seen.append)
    try:
        host.start()
        assert host.wait_synced(TIMEOUT)
        emu.stop_reading()
        frames = [LedFrame.of(8, 8, {(n, n): Light(GREEN, Pattern.ON)}) for n in range(8)]
        shown = 0
        while host.stats.write_timeouts == 0:   # until the pty is full and a write cannot complete
            host.show(frames[shown % 8])
            shown += 1
            wait_for(lambda: not host._led_dirty or host.stats.write_timeouts > 0, "the writer to take it")
            assert shown < 10_000, "the writes never blocked"
        wait_for(lambda: host.status.state == "not responding", "the link fault")
        assert "did not complete in 0.2 s" in host.status.reason and not host.connected
        newest = LedFrame.of(8, 8, {(7, 0): Light(BLUE, Pattern.SLOW_BLINK)})
        host.show(newest)                        # returns at once although nothing can be written
        emu.resume_reading()
        wait_for(lambda: host.connected and emu.leds == led_message(newest, host.brightness),
                 "the newest frame on the board after reconnecting")
        states = [s.state for s in seen]
        assert states[0] == "connecting" and states[-1] == "connected" and "not responding" in states
    finally:
        host.close()
        emu.close()


def test_a_board_at_another_speed_is_not_responding_and_never_connected(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 24, failure 5: at 9600 baud against a 115200 board every byte is garbage. The link must say
    "not responding (wrong speed or firmware?)", never "connected", and read nothing."""
    emu = BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=9)
    emu._occupied = {(0, 0), (7, 7)}
    host = SerialDevice(emu.port, baud=9600, heartbeat=0.05, silence=0.4, answer=0.5, retry=0.02)
    seen: list[LinkStatus] = []
    host.on_status(seen.append)
    with caplog.at_level(logging.DEBUG, logger="firmware_bridge.serial_backend"), emu:
        host.start()
        try:
            wait_for(lambda: host.stats.connects >= 2, "a first attempt")
            emu.flood(40)                  # pieces moving: CHANGE frames the host hears as garbage
            wait_for(lambda: host.stats.not_responding >= 3, "three attempts to be called not responding")
            assert host.status.state == "not responding" and "wrong speed or firmware?" in host.status.reason
            assert not host.connected and host.snapshot().squares == frozenset()
            assert sum(host.stats.bad_frames.values()) > 0 and host.stats.frames_in == 0
        finally:
            host.close()
    assert "connected" not in [s.state for s in seen]
    assert not [r for r in caplog.records if r.getMessage().endswith("connected")]
    warned = [r for r in caplog.records
              if r.levelno == logging.WARNING and "not responding" in r.getMessage()]
    assert len(warned) == 1, "said once, not at every attempt"


def test_a_board_back_under_another_name_is_found_by_its_usb_id_and_hello(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 24, failure 4: the board comes back as ttyACM1. The finder lists the ports with their USB ids;
    the host probes the ones with its board's id, keeps the one whose firmware answers HELLO with its size
    (not a same-make 10x10 board), and reads the move made meanwhile. Failed opens are said at info level."""
    acm0, acm1, acm2 = (str(tmp_path / name) for name in ("ttyACM0", "ttyACM1", "ttyACM2"))
    mega = {"vid": 0x2341, "pid": 0x0042}
    listed = {acm0: PortInfo(acm0, serial_number="95530343", **mega), acm2: PortInfo(acm2, **mega)}

    def finder() -> list[PortInfo]:
        return [info for path, info in listed.items() if Path(path).exists()]

    with BoardEmulator(8, 8, link=acm0, seed=11) as emu, BoardEmulator(10, 10, link=acm2, seed=12), \
            caplog.at_level(logging.INFO, logger="firmware_bridge.serial_backend"):
        host = SerialDevice(acm0, heartbeat=0.05, silence=0.4, retry=0.02, search=0.05, answer=0.5,
                            finder=finder)
        try:
            host.start()
            assert host.wait_synced(TIMEOUT)
            wait_for(lambda: host.usb == listed[acm0], "the board's USB identity learned")
            emu.unplug()
            wait_for(lambda: not host.connected, "the unplug")
            emu.place((3, 3))                    # a move made while the board is away
            listed[acm1] = PortInfo(acm1, serial_number="95530343", **mega)
            emu.replug(link=acm1)
            wait_for(lambda: host.connected and host.port == acm1, "the board found again on ttyACM1")
            wait_for(lambda: host.snapshot().squares == emu.occupied, "the move made meanwhile")
            assert host.stats.renames == 1 and host.status.port == acm1
        finally:
            host.close()
    told = [r for r in caplog.records if "cannot open" in r.getMessage() and acm0 in r.getMessage()]
    assert told and told[0].levelno == logging.INFO and len(told) == 1, "said once, at info level"
    assert any("answers on" in r.getMessage() and acm1 in r.getMessage() for r in caplog.records)
