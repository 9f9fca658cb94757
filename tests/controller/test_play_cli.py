"""`dboard play --script`: a game on the simulated board, driven by a script, printed to the console."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from rig import Rig

from firmware_bridge.emulator import BoardEmulator

ROOT = Path(__file__).resolve().parents[2]


def test_play_script_person_against_person(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text("# moves by text and by physical actions\nhelp\n9-13\nlift 2 2\nplace 3 1\n"
                      "show\nlift 0 0\nwait 0.1\nplace 0 0\nresign white\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "controller.cli", "-q", "play", "--variant", "english",
                          "--opponent", "person", "--human-color", "both", "--no-journal", "--no-web",
                          "--script", str(script)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "takeback [N]" in text and "retract | accept | huff" in text   # the help list
    assert "move 1: 9-13 (black)" in text
    assert "move 2: 22-17 (white)" in text  # lift 2 2 / place 3 1 is c3-b4, 22-17 in English numbering
    assert "game over: 0-1 (resignation)" in text
    assert '[Result "0-1"]' in text and "1. 9-13 22-17 0-1" in text


def test_play_says_it_resumes_an_unfinished_game(tmp_path: Path) -> None:
    """The resume message is said while the session starts; the console must still show it."""
    def play(lines: str) -> str:
        script = tmp_path / "lines.txt"
        script.write_text(lines, encoding="utf-8")
        out = subprocess.run([sys.executable, "-m", "controller.cli", "-q", "play", "--variant", "english",
                              "--opponent", "person", "--human-color", "both", "--no-web",
                              "--data-dir", str(tmp_path / "data"), "--script", str(script)],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout

    first = play("9-13\n22-17\n")
    assert "Resuming" not in first and "move 2: 22-17 (white)" in first
    second = play("pdn\n")
    assert "[info] Resuming the game of English draughts after 2 plies." in second
    assert "1. 9-13 22-17 *" in second


def test_play_on_a_serial_board(tmp_path: Path) -> None:
    """`dboard play --profile 8x8-serial`: the emulated MCU on a pty is the board; a move made on its switches
    is committed, and the console refuses to move pieces it cannot reach."""
    english = Rig("english")   # the controller's own square <-> (row, col) mapping and start position
    start, rc = english.ctl.exp.base, english.sq
    script = tmp_path / "lines.txt"
    script.write_text("9-13\nwait 4\npdn\nquit\n", encoding="utf-8")
    with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=3) as emu:
        emu.set_occupancy(start)

        def black_plays_9_13() -> None:   # by hand, once the host has shown its first LED frame
            deadline = time.monotonic() + 20
            while emu.leds is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.3)
            emu.lift(rc("9"))
            time.sleep(0.1)
            emu.place(rc("13"))

        hand = threading.Thread(target=black_plays_9_13)
        hand.start()
        out = subprocess.run([sys.executable, "-m", "controller.cli", "-q", "play", "--variant", "english",
                              "--profile", "8x8-serial", "--serial-port", emu.port, "--opponent", "person",
                              "--human-color", "both", "--no-journal", "--no-web", "--script", str(script)],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
        hand.join()
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Board: SerialBoard(" in text
    assert "error: '9-13': on a real board, move the pieces by hand" in text
    assert "move 1: 9-13 (black)" in text
    assert "1. 9-13 *" in text


def test_play_refuses_a_profile_of_the_wrong_size(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--variant", "international",
                          "--profile", "8x8-serial", "--no-journal", "--no-web", "--script", "/dev/null"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 1
    assert out.stderr.strip().endswith("board profile '8x8-serial' is 8x8, but international is played on "
                                       "10x10: choose a 10x10 profile or another variant")
