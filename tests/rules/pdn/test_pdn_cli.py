"""`dboard pdn check|show|convert`, run in-process through the real argparse entry point."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _pdnhelpers import CORPUS, read_text
from _rulestest import playout

from controller.cli import main
from rules.pdn import game_from_board, variant_of, write_game
from rules.pdn.cli import ReadProgress

FAIL = CORPUS / "fail"
SUCCEED = CORPUS / "succeed"


def test_check_lists_every_failure_and_exits_1(capsys) -> None:
    assert main(["pdn", "check", str(FAIL / "Cat.A1.pdn"), str(FAIL / "nested_comment.pdn")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{FAIL / 'Cat.A1.pdn'}:405:36: game 30 (Event 'I.Ivatsko'): unexpected '.': a '.' that is not " \
           "part of a move number" in out
    assert any(line.startswith(f"{FAIL / 'nested_comment.pdn'}:1:34: game 1: ") for line in out)
    assert out[-1] == "total: 36 games, 2 failed"


def test_check_succeed_with_variant_and_syntax_only(capsys) -> None:
    assert main(["pdn", "check", "--variant", "russian", str(SUCCEED / "ussr1947.pdn")]) == 0
    assert capsys.readouterr().out.strip().endswith("153 games, 0 failed")
    # the Czech file is syntactically fine but its alphanumeric moves are not international (PDN's default)
    assert main(["pdn", "check", "--syntax-only", str(FAIL / "mrdrcd08.pdn")]) == 0
    capsys.readouterr()
    assert main(["pdn", "check", str(FAIL / "mrdrcd08.pdn")]) == 1
    assert "mrdrcd08.pdn:10:4: game 1 (Event 'MR Ceska Dama Druzstev'" in capsys.readouterr().out
    assert main(["pdn", "check", "--variant", "czech", str(FAIL / "mrdrcd08.pdn")]) == 0


def test_check_warnings_and_bad_arguments(capsys) -> None:
    assert main(["pdn", "check", "--warnings", str(SUCCEED / "PROF2.pdn")]) == 0
    assert "warning: " in capsys.readouterr().out
    assert main(["pdn", "check", str(SUCCEED / "missing.pdn")]) == 1
    assert capsys.readouterr().out == f"{SUCCEED / 'missing.pdn'}: cannot read: No such file or directory\n"
    with pytest.raises(SystemExit, match=r"chess"):
        main(["pdn", "check", "--variant", "chess", str(SUCCEED / "PROF2.pdn")])


def test_item_19_check_reports_every_file_and_goes_on_after_a_bad_one(tmp_path, capsys) -> None:
    overflow = tmp_path / "overflow.pdn"
    overflow.write_text(f"1. 32-28 ${'9' * 5000} *\n", encoding="utf-8")
    missing, folder, good = tmp_path / "missing.pdn", tmp_path, SUCCEED / "variation.pdn"
    assert main(["pdn", "check", str(overflow), str(missing), str(folder), str(good)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{overflow}:1:10: game 1: NAG '${'9' * 11}... (5,001 characters)' is out of range: at most 5 digits",
        f"{overflow}: 1 games, 1 failed",
        f"{missing}: cannot read: No such file or directory",
        f"{folder}: cannot read: Is a directory",
        f"{good}: 1 games, 0 failed",
        "total: 2 games, 1 failed, 2 files not read"]
    assert main(["pdn", "check", str(good), str(good)]) == 0


def test_show_prints_moves_and_final_diagram(capsys) -> None:
    assert main(["pdn", "show", str(SUCCEED / "variation.pdn")]) == 0
    out = capsys.readouterr().out
    assert "1. 32-28 19-23 (1... 18-23" in out
    assert "Position after 4 of 4 moves (" in out
    assert "10 " in out and "a b c d e f g h i j" in out
    assert "White to move. FEN W:" in out
    with pytest.raises(SystemExit, match=r"has no game 2 \(it holds 1; --game counts from 1\)"):
        main(["pdn", "show", str(SUCCEED / "variation.pdn"), "--game", "2"])


def test_convert_to_algebraic_and_back(capsys) -> None:
    source = SUCCEED / "kurnik.pdn"
    assert main(["pdn", "convert", str(source), "--to", "algebraic"]) == 0
    algebraic = capsys.readouterr().out
    games = read_text(algebraic, validate=True)
    assert len(games) == 4 and not any(g.errors for g in games)
    assert games[0].moves[0].text == "d4-e5"
    original = read_text(source.read_text(encoding="utf-8"), validate=True)
    assert [[n.move for n in g.moves] for g in games] == [[n.move for n in g.moves] for g in original]


def test_convert_russian_to_numeric(capsys, tmp_path) -> None:
    path = tmp_path / "r.pdn"
    path.write_text('[GameType "25"]\n1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. e3-f4 b6-a5 4. f2-e3 c7-b6 '
                    "5. c1-b2 b6-c5 6. d4:b6 a5:c7 *\n", encoding="utf-8")
    assert main(["pdn", "convert", str(path), "--to", "numeric"]) == 0
    out = capsys.readouterr().out
    assert "1. 10-14 22-19 2. 5-10 27-22" in out  # a1 = 1 (PDN numbering of GameType 25, A0)
    assert "6. 14x21 17x26" in " ".join(out.split()) and ":" not in out.split("\n\n")[1]   # PDN 3.0's `x`
    assert '[GameType "25,W,8,8,N0,0"]' in out   # says numbers, counted from a1 (White's bottom left)
    (game,) = read_text(out, validate=True)
    assert not game.errors and len(game.moves) == 12


@pytest.mark.parametrize(("variant", "to", "gametype"), [
    ("english", "algebraic", "21,B,8,8,A0,0"),
    ("english", "numeric", "21,B,8,8,N1,0"),
    ("russian", "algebraic", "25,W,8,8,A0,0"),
    ("thai", "algebraic", "31,B,8,8,A0,0"),
    ("hawaii", "numeric", "62,B,8,8,N3,0"),   # Black first: a1, square 1, is the top right Black sees
])
def test_convert_writes_a_gametype_that_names_its_notation(capsys, tmp_path, variant: str, to: str,
                                                           gametype: str) -> None:
    """The GameType's notation field (A/N and square 1's corner) follows the conversion (issue 28 item 4);
    read back, the game is the same variant and the same moves."""
    board = playout(variant, 12, f"convert {variant}")
    path = tmp_path / "g.pdn"
    path.write_text(write_game(game_from_board(board)), encoding="utf-8")
    assert main(["pdn", "convert", str(path), "--to", to]) == 0
    out = capsys.readouterr().out
    assert f'[GameType "{gametype}"]' in out
    (game,) = read_text(out, validate=True)
    assert not game.errors and variant_of(game).id == variant
    assert [node.move for node in game.moves] == board.move_stack


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_counts_on_one_terminal_line_and_wipes_it() -> None:
    screen = _Terminal()
    progress = ReadProgress(screen, every=0.0)
    progress.update("big.pdn", 4200)
    progress.update("big.pdn", 8400)
    progress.clear()
    assert screen.getvalue() == ("\rbig.pdn: 4,200 games read\x1b[K\rbig.pdn: 8,400 games read\x1b[K"
                                 "\r\x1b[K")
    quiet = io.StringIO()            # not a terminal (a pipe, a log file): nothing at all
    ReadProgress(quiet, every=0.0).update("big.pdn", 1)
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("action", ["show", "check"])
def test_show_and_check_print_only_what_was_asked_unless_verbose(tmp_path, action: str) -> None:
    """Issue 28 item 20: INFO lines ("parachute plays on the pure-Python core") were logged by default."""
    path = tmp_path / "p.pdn"
    path.write_text(write_game(game_from_board(playout("parachute", 6, "quiet"))), encoding="utf-8")
    dboard = str(Path(sys.executable).with_name("dboard"))
    native = {**os.environ, "DBOARD_PURE_PYTHON": "0"}   # the INFO line comes from the native core's check
    quiet = subprocess.run([dboard, "pdn", action, str(path)], capture_output=True, text=True, timeout=120,
                           env=native)
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout.startswith("[Result" if action == "show" else f"{path}: 1 games, 0 failed")
    verbose = subprocess.run([dboard, "-v", "pdn", action, str(path)], capture_output=True, text=True,
                             timeout=120, env=native)
    assert "INFO rules.native: draughts-board: parachute plays on the pure-Python core" in verbose.stderr
