"""Files that must survive a power cut: the journal's start and the finished games' PDN are replaced whole."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from controller.journal import durable_replace


def test_durable_replace_syncs_the_file_before_the_rename_and_the_directory_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.pdn"
    target.write_text("old", encoding="utf-8")
    synced: list[tuple[str, str]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        kind = "dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        synced.append((kind, target.read_text(encoding="utf-8")))   # what the name shows at that moment
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    durable_replace(target, "new")
    # The temporary file is on disk before the rename (the name still shows the old text), the directory
    # entry after it: a power cut finds the old file or the whole new one.
    assert synced == [("file", "old"), ("dir", "new")]
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.pdn"]
