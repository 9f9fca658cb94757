"""One writer per data directory (issue 13 item 4, issue 20): the lock, who holds it, the start checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from card import FaultCard

from controller.datadir import LOCK_NAME, DataDirBusy, DataDirLock, holder, prepare


def test_a_second_writer_is_told_who_holds_the_data_directory(tmp_path: Path) -> None:
    with DataDirLock(tmp_path / "data", "dboard play", 8080):
        assert holder(tmp_path / "data") == f"dboard play (PID {os.getpid()}, web port 8080)"
        with pytest.raises(DataDirBusy) as busy:
            DataDirLock(tmp_path / "data", "dboard ratings --add").acquire()
        assert str(busy.value) == (f"the data directory {tmp_path / 'data'} is in use by dboard play (PID "
                                   f"{os.getpid()}, web port 8080): stop it first, or give this one another "
                                   f"--data-dir")
    assert holder(tmp_path / "data") is None
    with DataDirLock(tmp_path / "data", "dboard ratings --add"):   # released: the next one gets it
        assert holder(tmp_path / "data") == f"dboard ratings --add (PID {os.getpid()})"


def test_the_lock_of_another_process_and_its_end(tmp_path: Path) -> None:
    code = ("import sys; from controller.datadir import DataDirLock; "
            "lock = DataDirLock(sys.argv[1], 'dboard play', 8081).acquire(); print('held', flush=True); "
            "sys.stdin.read()")
    other = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    assert other.stdout is not None and other.stdout.readline() == "held\n"
    with pytest.raises(DataDirBusy, match=f"in use by dboard play \\(PID {other.pid}, web port 8081\\)"):
        DataDirLock(tmp_path, "dboard play").acquire()
    other.kill()   # a killed holder leaves its file behind, but not its lock
    other.wait()
    assert holder(tmp_path) is None
    DataDirLock(tmp_path, "dboard play").acquire().release()


def test_looking_for_the_holder_writes_nothing(tmp_path: Path) -> None:
    assert holder(tmp_path / "nowhere") is None and not (tmp_path / "nowhere").exists()
    assert holder(tmp_path) is None and not (tmp_path / LOCK_NAME).exists()


def test_on_a_read_only_card_nobody_can_write_so_the_board_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    card = FaultCard(tmp_path).install(monkeypatch)
    card.path.mkdir()
    card.read_only()
    lock = DataDirLock(card.path, "dboard play").acquire()   # no lock file can be made: none is needed
    lock.release()
    card.writable()
    with DataDirLock(card.path, "dboard play"):
        card.read_only()   # the lock file exists now: it is locked through a read-only descriptor
        with pytest.raises(DataDirBusy):
            DataDirLock(card.path, "dboard play").acquire()


def test_prepare_makes_the_directories(tmp_path: Path) -> None:
    assert prepare(tmp_path / "new" / "data") == []
    assert (tmp_path / "new" / "data" / "games").is_dir()
    assert not (tmp_path / "new" / "data" / ".write-test").exists()
