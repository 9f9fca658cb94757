"""`dboard play --script`: a game on the simulated board, driven by a script, printed to the console."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
