"""Board profiles: shipped ones load, bad ones fail naming file and key, open_device builds each backend."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_bridge.device import MappedDevice, open_device
from firmware_bridge.gpio_backend import GpioDevice
from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.orientation import Orientation
from firmware_bridge.profile import ProfileError, load_profile, parse_profile, profile_dirs
from firmware_bridge.serial_backend import SerialDevice
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.types import GREEN, LedFrame, Light, Occupancy, Pattern
from firmware_bridge.ws2812 import SpiModel

SHIPPED = ["8x8", "10x10", "8x8-gpio", "10x10-gpio", "8x8-serial", "10x10-serial", "5x5", "5x5-gpio",
           "5x5-serial"]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profiles_load(name: str) -> None:
    profile = load_profile(name)
    assert profile.name == name
    assert profile.rows == profile.cols == int(name.split("x")[0])
    assert len(profile.sensor_squares()) == profile.rows * profile.cols
    assert profile.backend == ("gpio" if "gpio" in name else "serial" if "serial" in name else "simulated")


def test_profiles_live_in_hardware() -> None:
    assert any(d.parts[-2:] == ("hardware", "profiles") and (d / "8x8.toml").is_file()
               for d in profile_dirs())


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("text", "message"), [
    ("rows = 8\ncols = 8\nbackend = 'usb'",
     r"board.toml: key backend must be one of simulated, gpio, serial"),
    ("rows = 8\ncols = 8\n[leds]\nbrightness = 300",
     r"key leds.brightness must be between 0 and 255, got 300"),
    ("rows = 8\ncols = 8\n[sensors]\ndiodes = 'yes'", r"key sensors.diodes must be true or false"),
    ("rows = 8\ncols = 8\n[sensors]\ndiodes = false",
     r"sensors.diodes = false cannot work: .* a piece lifted from the start position .* fit one diode"),
    ("rows = 8\ncols = 8\n[leds]\ncolor = 1", r"unknown key leds.color"),
    ("cols = 8", r"missing key rows"),
    ("rows = 8\ncols = 8\nbackend = 'gpio'\n[gpio]\nrow_pins = [1,2]\ncol_pins = []",
     r"key gpio.row_pins lists 2 pins, the board has 8 rows"),
    ("rows = 2\ncols = 2\nbackend = 'gpio'\n[gpio]\nrow_pins = [4, 5]\ncol_pins = [5, 6]", r"GPIO 5 twice"),
    ("rows = 2\ncols = 2\nbackend = 'gpio'\n[gpio]\nrow_pins = [4, 10]\ncol_pins = [5, 6]",
     r"GPIO 10 .*SPI0"),
    ("rows = 8\ncols = 10\n[orientation]\nwhite_side = 'west'", r"needs a square board"),
    ("rows = 8\ncols = 8\n[serial]\nheartbeat = 2.0", r"serial.silence \(1.5\) must exceed"),
    ("rows = [8", r"board\.toml: Unclosed array \(at end of document\)"),
    ("rows = " + "9" * 5000, r"line 1, column 8: a number of 5,000 digits"),
    ("rows = 8\ncols = 8\n[sensors]\ndebounce_ms = 10\ndebounce_scans = 2",
     r"debounce_ms and sensors.debounce_scans"),
])
def test_bad_profiles_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        load_profile(write(tmp_path, text))


def test_debounce_is_a_time_and_an_old_count_of_scans_is_read_as_the_time_it_meant() -> None:
    assert load_profile("8x8-gpio").sensors.debounce_ms == 12.0
    old = parse_profile({"rows": 2, "cols": 2, "backend": "gpio",
                         "gpio": {"row_pins": [4, 5], "col_pins": [6, 12]},
                         "sensors": {"debounce_scans": 5, "scan_hz": 400}})
    assert old.sensors.debounce_ms == 10.0       # 5 equal readings span 4 periods of 2.5 ms
    gpio = GPIOModel(SwitchMatrix(2, 2), [4, 5], [6, 12])
    board = open_device(old, gpio=gpio, spi=False)
    assert isinstance(board, GpioDevice) and board.debouncer.debounce == 0.010


def test_unknown_profile_name_lists_known_ones() -> None:
    with pytest.raises(ProfileError, match=r"no profile named 'nope' \(known: .*8x8-gpio"):
        load_profile("nope")


def test_open_board_builds_each_backend() -> None:
    assert isinstance(open_device("8x8"), SimulatedDevice)
    serial = open_device("10x10-serial", port="/dev/null-board")
    assert isinstance(serial, SerialDevice) and serial.port == "/dev/null-board" and serial.rows == 10
    profile = load_profile("10x10-gpio")
    matrix = SwitchMatrix(10, 10)
    gpio = GPIOModel(matrix, profile.gpio.row_pins, profile.gpio.col_pins)
    spi = SpiModel(100)
    spi.open(0, 0)
    with open_device(profile, gpio=gpio, spi=spi) as board:
        assert isinstance(board, GpioDevice) and board.rate == 200
        matrix.place((9, 0))
        deadline = 200
        while board.snapshot().squares != {(9, 0)} and deadline:
            board.scan_once()
            deadline -= 1
        assert board.snapshot().squares == {(9, 0)}


@pytest.mark.parametrize("side", ["south", "north", "west", "east"])
def test_orientation_is_a_bijection(side: str) -> None:
    o = Orientation(10, 10, side)
    squares = [(r, c) for r in range(10) for c in range(10)]
    assert sorted(o.to_logical(sq) for sq in squares) == squares
    assert all(o.to_wiring(o.to_logical(sq)) == sq for sq in squares)


def test_white_on_the_north_edge_and_dark_squares_only() -> None:
    profile = parse_profile({"rows": 8, "cols": 8, "orientation": {"white_side": "north"},
                             "sensors": {"squares": "dark"}}, source="test")
    board = open_device(profile)
    assert isinstance(board, MappedDevice)
    inner: SimulatedDevice = board.inner
    snaps: list[Occupancy] = []
    board.on_snapshot(snaps.append)
    inner.place((7, 7))                  # wiring (7,7) = logical (0,0), a dark square: seen
    assert board.snapshot().squares == {(0, 0)} and len(snaps) == 1
    inner.place((7, 6))                  # logical (0,1): a light square without sensor: ignored
    assert board.snapshot().squares == {(0, 0)} and len(snaps) == 1
    board.show(LedFrame.of(8, 8, {(0, 1): Light(GREEN, Pattern.ON)}))
    assert inner.frame.light((7, 6)) == Light(GREEN, Pattern.ON)
    assert board.frame.light((0, 1)) == Light(GREEN, Pattern.ON)
    board.start()
    assert len(snaps) == 2 and snaps[-1].squares == {(0, 0)}


def test_a_profile_that_is_no_file_is_one_error_line(tmp_path: Path) -> None:
    """A FIFO named as the profile would hang the start (issue 30): one ProfileError line naming it."""
    fifo = tmp_path / "board.toml"
    os.mkfifo(fifo)
    with pytest.raises(ProfileError, match=r"board.toml: the board profile is a FIFO, not a regular file$"):
        load_profile(fifo)
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ProfileError, match=r"deep\.toml: line 1, column 105: arrays and inline tables"):
        load_profile(deep)
