"""`dboard exercises` and `dboard replay` from the command line: lists, a position, a blunder check, and
one-line errors for bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from controller.cli import main
from controller.lessons_cli import source_words
from engine.exercises import collection_path, load

GAME = ('[Event "Manchester 1841"]\n[GameType "21"]\n\n'
        '1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 *\n')


def test_exercises_lists_the_collection_with_the_players_progress(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    first = load("english", verify_engine=False).exercises[0]
    (tmp_path / "exercises.json").write_text(json.dumps(
        {"ann": {"english": {"solved": [first.id], "tries": {first.id: 1}}}}), encoding="utf-8")
    assert main(["exercises", "--variant", "english", "--player", "ann", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("english: ") and "1 solved by ann" in out[0]
    assert out[1].startswith(first.id) and out[1].endswith("solved")
    assert main(["exercises", "--variant", "english", "--show", first.id, "--solution"]) == 0
    shown = capsys.readouterr().out
    assert first.task in shown and f"FEN {first.board().fen()}" in shown
    assert f"solution {first.solution}" in shown


def test_exercises_show_names_the_game_an_exercise_comes_from(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 20: `--show` named a test file (a PDN file of tests/data) as the source, not the game."""
    first = load("international", verify_engine=False).exercises[0]
    assert main(["exercises", "--variant", "international", "--show", first.id]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("source: Tweekamp Wereldkampioenschap: Sijbrands, Ton - Andreiko, Andris, after ply 65 "
                      "(game 1 of the collection international-sijbrands-andreiko-1973)")
    for variant in ("international", "english", "russian", "spanish", "italian", "brazilian", "turkish"):
        for exercise in load(variant, verify_engine=False).exercises:
            words = source_words(exercise.source)
            assert "tests/" not in words and ".pdn" not in words and " of the collection " in words, words
    assert source_words("tests/data/brazilian-openings.pdn, game 3, after ply 4") == \
        "game 3 of the collection brazilian-openings, after ply 4"
    assert source_words("The Yearbook 1980, diagram 7") == "The Yearbook 1980, diagram 7"   # kept as written


def test_exercises_check_names_the_wrong_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(collection_path("english").read_text(encoding="utf-8"))
    data["exercises"][0]["solution"] = "1-2"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["exercises", "--check", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("dboard exercises: error: mine.json: exercise 1 (english-01): solution 1-2 is not "
                          "legal")
    assert "\n" not in err
    assert main(["exercises", "--check", str(collection_path("english"))]) == 0
    assert "every one confirmed" in capsys.readouterr().out


def test_replay_prints_each_move_with_the_engines_view(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.pdn"
    path.write_text(GAME, encoding="utf-8")
    assert main(["replay", str(path), "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Event 'Manchester 1841': 8 plies, English draughts, result *"
    assert lines[1].startswith("   1. 11-15: ") and lines[8].startswith("   8. 25x18: ")
    assert lines[-1].endswith("mistakes")


def test_replay_refuses_a_game_that_does_not_validate_in_one_line(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(GAME.replace("4. 15x22", "4. 15-19"), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dboard replay: error: cannot replay bad.pdn:4:")
    assert "game 1 (Event 'Manchester 1841'): move 4. 15-19" in err and err.count("\n") == 1
    assert main(["replay", str(tmp_path / "missing.pdn")]) == 1
    assert "missing.pdn: cannot read the PDN file: No such file or directory" in capsys.readouterr().err


def test_replay_of_a_fifo_is_one_error_line_not_a_hang(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30: a FIFO given as the record would block the read for ever."""
    fifo = tmp_path / "game.pdn"
    os.mkfifo(fifo)
    assert main(["replay", str(fifo)]) == 1
    said = capsys.readouterr().err
    assert said == f"dboard replay: error: {fifo}: the PDN file is a FIFO, not a regular file\n"
