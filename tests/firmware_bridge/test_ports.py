"""Which ports are worth probing for a board that left its own (pure logic; the probing is in test_serial)."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.ports import PortInfo, candidates, identify

MEGA, CLONE, GPS = (0x2341, 0x0042), (0x1A86, 0x7523), (0x1546, 0x01A7)


def port(name: str, ids: tuple[int, int] | None, serial: str | None = None) -> PortInfo:
    return PortInfo(f"/dev/{name}", *(ids or (None, None)), serial)


def test_the_known_board_is_tried_first_and_strangers_never() -> None:
    known = port("ttyACM0", MEGA, "A1")
    found = [port("ttyACM2", MEGA, "B2"), port("ttyACM3", MEGA), port("ttyACM1", MEGA, "A1"),
             port("ttyACM0", MEGA, "A1"), port("ttyUSB0", GPS), port("ttyS0", None)]
    assert [p.device for p in candidates("/dev/ttyACM0", known, found)] == ["/dev/ttyACM1", "/dev/ttyACM3"]


def test_before_it_ever_answered_only_known_board_ids_are_tried() -> None:
    found = [port("ttyUSB0", GPS), port("ttyUSB1", CLONE), port("ttyACM0", MEGA), port("ttyS0", None)]
    assert [p.device for p in candidates("/dev/ttyACM0", None, found)] == ["/dev/ttyUSB1"]


def test_a_symlink_is_identified_as_the_port_it_points_to(tmp_path: Path) -> None:
    target = tmp_path / "ttyACM5"
    target.touch()
    link = tmp_path / "draughts-board"
    link.symlink_to(target)
    info = PortInfo(str(target), *MEGA, "A1")
    assert identify(str(link), [port("ttyS0", None), info]) == info
    assert info.usb_id == "2341:0042/A1" and port("ttyS0", None).usb_id == ""
