"""`dboard analyse | hint` through the real argparse entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from rules import Board


def test_analyse_prints_each_depth_and_the_best_line(capsys) -> None:
    assert main(["analyse", "english", "--depth", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in out if line.startswith("depth")] == ["1", "2", "3"]
    best = out[-1]
    assert best.startswith("best ") and "score" in best and "line" in best
    Board("english").parse_move(best.split()[1])  # the printed move is legal


def test_analyse_from_a_fen_finds_the_forced_capture(capsys) -> None:
    assert main(["analyse", "international", "--fen", "W:W28,45:B23,5", "--depth", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("best 28x19  score +")


def test_analyse_searches_with_two_threads(capsys) -> None:
    fen = "W:W28,45:B23,5"
    assert main(["analyse", "international", "--fen", fen, "--depth", "6", "--threads", "2"]) == 0
    best = capsys.readouterr().out.splitlines()[-1]   # the helpers' deeper entries may already see the win
    assert best.startswith(("best 28x19  score +", "best 28x19  score win in")), best


def test_hint_prints_a_legal_move(capsys) -> None:
    assert main(["hint", "russian", "--time", "0.2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("hint: ")
    Board("russian").parse_move(text.split()[1])


def test_bad_fen_is_a_one_line_error(capsys) -> None:
    assert main(["analyse", "english", "--fen", "X:Wzz"]) == 1
    assert "dboard analyse: error:" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["analyse", "english"], ["hint", "english"], ["dxp", "--listen", "0"]])
@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-1", "soon"])
def test_a_time_that_is_not_a_positive_number_of_seconds_is_refused(command: list[str], seconds: str,
                                                                    capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--time", seconds])
    assert exit_.value.code == 2
    assert f"expected a positive number of seconds, got '{seconds}'" in capsys.readouterr().err


def test_hint_prints_only_the_hint_unless_verbose() -> None:
    """Issue 28 item 20: INFO lines ("parachute plays on the pure-Python core") came before the hint."""
    dboard = [str(Path(sys.executable).with_name("dboard"))]
    native = {**os.environ, "DBOARD_PURE_PYTHON": "0"}   # the INFO line comes from the native core's check
    quiet = subprocess.run([*dboard, "hint", "parachute", "--time", "0.1"], capture_output=True, text=True,
                           timeout=120, env=native)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout.startswith("hint: ")
    assert len(quiet.stdout.splitlines()) == 1
    verbose = subprocess.run([*dboard, "-v", "hint", "parachute", "--time", "0.1"], capture_output=True,
                             text=True, timeout=120, env=native)
    assert "INFO rules.native: draughts-board: parachute plays on the pure-Python core" in verbose.stderr
