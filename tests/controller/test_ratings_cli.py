"""`dboard ratings` through the real argparse entry point: which database it reads, and what it prints."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.cli import main
from engine.ratings import RATINGS_FILE, RatingStore


def test_ratings_lists_the_stored_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "ratings.sqlite3"
    RatingStore(db).close()
    assert main(["ratings", "--db", str(db)]) == 0
    assert "no ratings yet" in capsys.readouterr().out
    assert main(["ratings", "--db", str(db), "--add", "zoe"]) == 0
    assert "player 'zoe' added" in capsys.readouterr().out
    with RatingStore(db) as store:
        assert store.players() == ["zoe"]
        new = store.record_engine_game("zoe", "english", 3, 0.5)
    assert main(["ratings", "--db", str(db)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].split()[:3] == ["zoe", "english", f"{new.rating:.1f}"]


def test_ratings_reads_the_data_dir_of_the_config_file(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The same ratings `dboard play --config F` updates: F's data_dir, unless --data-dir names another."""
    data = tmp_path / "board-data"
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{data}"\n', encoding="utf-8")
    with RatingStore(data / RATINGS_FILE) as store:
        store.add_player("ann")
        store.record_engine_game("ann", "spanish", 5, 1.0)
    assert main(["ratings", "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:2] == ["ann", "spanish"]
    assert main(["ratings", "--config", str(config), "--data-dir", str(tmp_path / "other")]) == 0
    assert f"no ratings yet in {tmp_path / 'other' / RATINGS_FILE}" in capsys.readouterr().out
    assert main(["ratings", "--config", str(tmp_path / "missing.toml")]) == 1
    assert "config file not found" in capsys.readouterr().err


def test_adding_a_player_takes_the_data_directorys_lock(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """One writer per data directory (issue 20): while `dboard play` holds it, `ratings --add` is refused in
    one line naming the holder; listing (a read) is not."""
    from controller.datadir import DataDirLock

    with DataDirLock(tmp_path, "dboard play", 8080):
        assert main(["ratings", "--data-dir", str(tmp_path), "--add", "zoe"]) == 1
        err = capsys.readouterr().err
        assert err.splitlines() == [f"dboard ratings: error: the data directory {tmp_path} is in use by "
                                    f"dboard play (PID {os.getpid()}, web port 8080): stop it first, or give "
                                    f"this one another --data-dir"]
        assert main(["ratings", "--data-dir", str(tmp_path)]) == 0
    assert main(["ratings", "--data-dir", str(tmp_path), "--add", "zoe"]) == 0
    assert "player 'zoe' added" in capsys.readouterr().out


def test_item_14_an_added_player_is_listed_and_added_once(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "ratings.sqlite3"
    assert main(["ratings", "--db", str(db), "--add", "alice"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"player 'alice' added to {db}"
    assert out[2].split() == ["alice", "-", "-", "-", "-", "0"]  # listed before any rated game
    assert main(["ratings", "--db", str(db), "--add", "alice"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"player 'alice' already exists in {db}"
    with RatingStore(db) as store:
        assert store.players() == ["alice"]
        store.add_player("bob")
        new = store.record_engine_game("bob", "english", 3, 1.0)
    assert main(["ratings", "--db", str(db)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert rows == [["alice", "-", "-", "-", "-", "0"],
                    ["bob", "english", f"{new.rating:.1f}", f"{new.rd:.1f}", f"{new.volatility:.5f}", "1"]]


def test_a_missing_database_given_by_db_is_an_error_naming_it(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 20: `--db /nonexistent/x.db` said "no ratings yet", exit 0 (and made the folder)."""
    missing = tmp_path / "nonexistent" / "x.db"
    assert main(["ratings", "--db", str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"dboard ratings: error: no ratings database {missing} (--db names an existing file; --add NAME "
        "creates one)\n")
    assert not missing.parent.exists()
    assert main(["ratings", "--data-dir", str(tmp_path / "fresh")]) == 0   # a data directory without games
    assert capsys.readouterr().out == f"no ratings yet in {tmp_path / 'fresh' / RATINGS_FILE}\n"
    assert not (tmp_path / "fresh").exists()
