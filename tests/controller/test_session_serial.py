"""A serial board's cable pulled mid-game through the Session: the person is told, the move made while it
was out is read when it is back, and nothing is lost (the emulated MCU on a pseudo-terminal)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from rig import Rig, until

from controller import commands as cmd
from controller.config import Config
from controller.session import Session
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.gpio_model import SwitchMatrix
from firmware_bridge.ports import PortInfo
from firmware_bridge.serial_backend import SerialDevice, led_message


def test_a_pulled_cable_is_announced_and_the_move_made_meanwhile_counts(tmp_path: Path) -> None:
    english = Rig("english")   # the controller's own square <-> (row, col) mapping and start position
    config = Config(variant="english", human_color="both", opponent="person", settle_ms=50)

    async def main() -> None:
        with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=2) as emu:
            emu.set_occupancy(english.ctl.exp.base)
            board = SerialDevice(emu.port, rows=8, cols=8, heartbeat=0.1, silence=0.4, retry=0.05)
            try:
                async with Session(config, board, board, tmp_path) as session:
                    ctl = session.controller
                    await until("the start position", lambda: ctl.state == "person.idle")
                    assert session.view()["board_connected"] is True
                    emu.unplug()
                    await until("the drop to be told", lambda: ctl.board_lost)
                    await session.idle()
                    state = session.view()
                    assert state["board_connected"] is False
                    assert "The board is disconnected" in state["messages"][-1]["text"]
                    emu.lift(english.sq("9"))   # Black moves while the cable is out
                    emu.place(english.sq("13"))
                    emu.replug()
                    await until("the move to be read", lambda: [r.text for r in ctl.records] == ["9-13"])
                    await session.idle()
                    state = session.view()
                    assert state["board_connected"] is True and ctl.state == "person.idle"
                    assert any(m["text"] == "The board is connected again." for m in state["messages"])
            finally:
                board.close()

    asyncio.run(main())


def test_a_board_that_stops_taking_data_never_freezes_the_game(tmp_path: Path) -> None:
    """Issue 24, failure 1: the MCU stops reading, the pty fills and LED writes block. The game must go on
    (the loop handles commands, the person is told the board is not responding) and, once the board takes
    data again, reconnect and resend the LEDs; the moves made meanwhile are recorded."""
    english = Rig("english")
    config = Config(variant="english", human_color="both", opponent="person", settle_ms=50)

    async def main() -> None:
        with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=3) as emu:
            emu.set_occupancy(english.ctl.exp.base)
            board = SerialDevice(emu.port, rows=8, cols=8, heartbeat=0.1, silence=0.4, retry=0.05)
            safety = threading.Timer(15.0, emu.resume_reading)   # the old code blocks until the board reads
            try:
                async with Session(config, board, board, tmp_path) as session:
                    ctl = session.controller
                    await until("the start position", lambda: ctl.state == "person.idle")
                    emu.stop_reading()
                    safety.start()
                    man = english.sq("9")
                    for _ in range(60):   # every lift and put-back lights a new LED frame: the pty fills
                        emu.lift(man)
                        emu.place(man)
                    emu.lift(man)
                    emu.place(english.sq("13"))    # a real move, made while the board takes no data
                    await until("the move to be read", lambda: [r.text for r in ctl.records] == ["9-13"])
                    await session.send(cmd.Hint())  # the loop is free: commands are handled
                    await session.idle()
                    await until("the person to be told", lambda: any(
                        "not responding" in m["text"] for m in session.view()["messages"]))
                    assert emu.reading_stopped, "told only after the board took data again"
                    assert session.view()["board_connected"] is False
                    emu.resume_reading()
                    await until("the board to answer again", lambda: session.view()["board_connected"])
                    await until("the LEDs to be resent", lambda: emu.leds == led_message(
                        ctl.frame.dimmed(config.brightness), board.brightness), timeout=10.0)
                    assert [r.text for r in ctl.records] == ["9-13"]
            finally:
                safety.cancel()
                board.close()

    asyncio.run(main())


def test_a_board_at_the_wrong_speed_is_shown_not_responding_once(tmp_path: Path) -> None:
    """Issue 24, failure 5: the page must not show a board that never answers as connected; the person is
    told once what to check, however many times the link is tried again."""
    config = Config(variant="english", human_color="both", opponent="person")

    async def main() -> None:
        with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=4) as emu:
            board = SerialDevice(emu.port, baud=9600, heartbeat=0.05, silence=0.3, answer=0.4, retry=0.02)
            try:
                async with Session(config, board, board, tmp_path) as session:
                    await until("three attempts", lambda: board.stats.not_responding >= 3)
                    await session.idle()
                    state = session.view()
                    assert state["board_connected"] is False
                    assert state["board_link"]["state"] == "not responding"
                    told = [m["text"] for m in state["messages"] if "not responding" in m["text"]]
                    assert len(told) == 1 and "serial.baud" in told[0]
                    assert "wrong speed or firmware?" in told[0]
                    assert session.controller.turn_state == "setup" and session.controller.records == []
            finally:
                board.close()

    asyncio.run(main())


def test_a_board_back_under_another_name_plays_on(tmp_path: Path) -> None:
    """Issue 24, failure 4: ttyACM0 comes back as ttyACM1 mid-game; the person hears where it is now and
    the move made meanwhile is recorded (the port list with USB ids is what the test presents)."""
    english = Rig("english")
    config = Config(variant="english", human_color="both", opponent="person", settle_ms=50)
    acm0, acm1 = str(tmp_path / "ttyACM0"), str(tmp_path / "ttyACM1")

    def finder() -> list[PortInfo]:
        return [PortInfo(path, 0x2341, 0x0042, "A1") for path in (acm0, acm1) if Path(path).exists()]

    async def main() -> None:
        with BoardEmulator(8, 8, link=acm0, seed=6) as emu:
            emu.set_occupancy(english.ctl.exp.base)
            board = SerialDevice(acm0, heartbeat=0.05, silence=0.4, retry=0.02, search=0.05, finder=finder)
            try:
                async with Session(config, board, board, tmp_path) as session:
                    ctl = session.controller
                    await until("the start position", lambda: ctl.state == "person.idle")
                    emu.unplug()
                    await until("the drop to be told", lambda: ctl.board_lost)
                    emu.lift(english.sq("9"))
                    emu.place(english.sq("13"))
                    emu.replug(link=acm1)
                    await until("the move to be read", lambda: [r.text for r in ctl.records] == ["9-13"])
                    await session.idle()
                    texts = [m["text"] for m in session.view()["messages"]]
                    assert f"The board is now on {acm1} (it was {acm0})." in texts
                    assert session.view()["board_connected"] is True
            finally:
                board.close()

    asyncio.run(main())


def test_a_stuck_reed_on_a_serial_board_is_named_with_the_megas_pins(tmp_path: Path) -> None:
    """Sensor health is the same on every board type: the MCU reports a welded reed as a piece."""
    english = Rig("english")
    config = Config(variant="english", human_color="both", opponent="person", sensor_check_ms=300)
    matrix = SwitchMatrix(8, 8)
    matrix.stick(english.sq("18"))

    async def main() -> None:
        with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=8, matrix=matrix) as emu:
            emu.set_occupancy(english.ctl.exp.base)
            board = SerialDevice(emu.port, heartbeat=0.1, silence=0.4, retry=0.05)
            try:
                async with Session(config, board, board, tmp_path) as session:
                    said = lambda: [m["text"] for m in session.view()["messages"]  # noqa: E731
                                    if "seems stuck closed" in m["text"]]
                    await until("the stuck reed to be named", lambda: bool(said()))
                    assert said()[0].startswith("The sensor under 18 seems stuck closed")
                    assert "row R3 (Mega D25) and column C3 (Mega D43)" in said()[0]
                    await session.send(cmd.MaskSquares(((3, 3),)))
                    await session.idle()
                    assert session.controller.state == "person.idle"
            finally:
                board.close()

    asyncio.run(main())
