"""``dboard doctor`` on every backend, run non-interactively; and the emulator as a separate process."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge import cli
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.faults import SensorHistory
from firmware_bridge.gpio_backend import BackendUnavailable
from firmware_bridge.serial_backend import SerialDevice
from firmware_bridge.simulated import SimulatedDevice

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["doctor", *argv])
    return args.func(args)


def test_doctor_once_on_the_simulated_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--profile", "10x10", "--once"]) == 0
    out = capsys.readouterr().out
    assert "10x10 (simulated)" in out and "10 . . . . . . . . . ." in out and "a b c d e f g h i j" in out
    assert "sensors: 0 chattering" in out


def test_doctor_labels_the_rows_1_to_8_as_the_notation_does(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 20: rows were labelled 0-7 beside columns a-h; a1 (row 0, column a) reads "1 # ..."."""
    board = SimulatedDevice(8, 8)
    with board:
        board.place((0, 0))
        lines = cli.render_view(board, "t").splitlines()
    assert [line[:2] for line in lines[1:9]] == [f"{n:2d}" for n in range(8, 0, -1)]
    assert lines[8] == " 1 # . . . . . . ." and lines[9] == "   a b c d e f g h"


def test_doctor_led_test_shows_every_square_and_color(capsys: pytest.CaptureFixture[str]) -> None:
    frames = list(cli.led_patterns(8, 8))
    assert len(frames) == 64 + 4 + 1
    assert [len(f.lights) for _, f in frames[:64]] == [1] * 64
    assert {f.lights[0][0] for _, f in frames[:64]} == {(r, c) for r in range(8) for c in range(8)}
    assert run(["--once", "--leds"]) == 0
    assert "LED test: 69 steps shown" in capsys.readouterr().out


def test_doctor_reads_a_serial_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=1) as emu:
        emu.set_occupancy({(0, 0), (7, 7), (3, 4)})
        assert run(["--profile", "8x8-serial", "--port", emu.port, "--once"]) == 0
    out = capsys.readouterr().out
    assert " 8 . . . . . . . #" in out and " 4 . . . . # . . ." in out and " 1 # . . ." in out
    assert "connected, MCU 500 scans/s" in out


def test_doctor_duration_runs_and_stops(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--duration", "0.2", "--leds", "--step", "0.05"]) == 0
    assert "LED test: square (0, 0)" in capsys.readouterr().out


def test_doctor_on_the_gpio_stand_in(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--profile", "10x10-gpio", "--stand-in", "--duration", "0.3", "--leds", "--step", "0.05"]
    assert run(argv) == 0
    out = capsys.readouterr().out
    scans = [int(n) for n in re.findall(r"gpio: \d+ scans/s, (\d+) scans", out)]
    assert scans and scans[-1] > 3
    assert "LED test: square (0, 0)" in out


def test_doctor_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="no profile named 'no-such-board'"):
        run(["--profile", "no-such-board", "--once"])
    monkeypatch.setitem(sys.modules, "RPi", None)          # as on a machine without RPi.GPIO
    with pytest.raises(BackendUnavailable, match=r"RPi\.GPIO"):
        run(["--profile", "8x8-gpio", "--once"])


def test_emulator_runs_as_a_separate_process(tmp_path: Path) -> None:
    link = tmp_path / "emu-tty"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "firmware_bridge.emulator", "--pty", "--link", str(link),
                             "--rows", "10", "--cols", "10", "--occupy", "0,0 9,9"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == str(link)
        with SerialDevice(str(link), rows=10, cols=10, heartbeat=0.05, retry=0.02) as host:
            assert host.wait_synced(5)
            assert host.snapshot().squares == {(0, 0), (9, 9)}
            proc.stdin.write("place 4 5\nshow\n")
            proc.stdin.flush()
            assert "(4, 5)" in proc.stdout.readline()
            for _ in range(500):
                if host.snapshot().squares == {(0, 0), (9, 9), (4, 5)}:
                    break
                time.sleep(0.01)
            assert host.snapshot().squares == {(0, 0), (9, 9), (4, 5)}
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)


def test_the_view_names_the_squares_seen_chattering() -> None:
    board = SimulatedDevice(8, 8)
    health = SensorHistory()
    health.note(frozenset({(4, 4)}), 0.0)
    for t in (1.0, 1.4, 1.8):                   # off for 40 ms every 0.4 s
        health.note(frozenset(), t)
        health.note(frozenset({(4, 4)}), t + 0.04)
    assert cli.render_view(board, "t", health).endswith("sensors: 1 chattering [(4, 4)]")
