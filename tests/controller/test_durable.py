"""Files and directories that must survive a power cut, and write failures said in plain words."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from controller.durable import SaveError, durable_replace, keep_copy, make_dir


def _record_fsyncs(monkeypatch: pytest.MonkeyPatch, show: Path | None = None) -> list[tuple[str, str]]:
    """Every fsync from now on: ("dir", its path) or ("file", what ``show`` holds at that moment)."""
    synced: list[tuple[str, str]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.append(("dir", os.readlink(f"/proc/self/fd/{fd}")))
        else:
            synced.append(("file", show.read_text(encoding="utf-8") if show else ""))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def test_durable_replace_syncs_the_file_before_the_rename_and_the_directory_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.pdn"
    target.write_text("old", encoding="utf-8")
    synced = _record_fsyncs(monkeypatch, show=target)
    durable_replace(target, "new")
    # The temporary file is on disk before the rename (the name still shows the old text), the directory
    # entry after it: a power cut finds the old file or the whole new one.
    assert synced == [("file", "old"), ("dir", str(tmp_path))]
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.pdn"]


def test_a_failed_replace_leaves_the_old_file_and_no_temporary_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.pdn"
    target.write_text("old", encoding="utf-8")

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        durable_replace(target, "new")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old" and sorted(tmp_path.iterdir()) == [target]


def test_creating_the_data_directory_fsyncs_each_parent(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20 item 7: the data directory and games/ were created without fsyncing their parent, so a power
    cut could lose them, and the files written into them, after the game was confirmed."""
    synced = _record_fsyncs(monkeypatch)
    make_dir(tmp_path / "share" / "draughts-board" / "games")
    assert synced == [("dir", str(tmp_path)), ("dir", str(tmp_path / "share")),
                      ("dir", str(tmp_path / "share" / "draughts-board"))]
    synced.clear()
    make_dir(tmp_path / "share" / "draughts-board" / "games")
    assert synced == []   # already there: nothing to do


def test_keep_copy_links_or_copies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "game.journal"
    source.write_bytes(b"journal")
    keep_copy(source, tmp_path / "linked")
    assert os.stat(tmp_path / "linked").st_ino == os.stat(source).st_ino

    def no_links(a: object, b: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)   # e.g. a FAT card
    keep_copy(source, tmp_path / "copied")
    assert (tmp_path / "copied").read_bytes() == b"journal"
    assert os.stat(tmp_path / "copied").st_ino != os.stat(source).st_ino


@pytest.mark.parametrize("code,words", [
    (errno.ENOSPC, "the card is full"),
    (errno.EROFS, "the card is read-only"),
    (errno.EIO, "the card failed (input/output error)"),
    (errno.EACCES, "the data directory is not writable (permission denied)"),
    (errno.ENAMETOOLONG, "File name too long"),
])
def test_save_errors_say_why_in_plain_words(code: int, words: str) -> None:
    exc = SaveError.of("save the move", OSError(code, os.strerror(code), "/data/game.journal"))
    assert str(exc) == f"can't save the move: {words}" and exc.reason == words
    assert isinstance(exc, ValueError)
