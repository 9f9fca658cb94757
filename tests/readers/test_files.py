"""Whole files read only when they are regular and small enough (readers/files.py): a FIFO, a device, a
directory, a link to /dev/zero, an oversized or non-UTF-8 file is one ReadError line naming it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from readers import ReadError, read_bytes, read_text


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"é": 1}\n', encoding="utf-8")
    assert read_text(path) == '{"é": 1}\n'
    assert read_bytes(path, limit=len('{"é": 1}\n'.encode())) == '{"é": 1}\n'.encode()


def special_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    zero = tmp_path / "zero"
    zero.symlink_to("/dev/zero")
    folder = tmp_path / "folder"
    folder.mkdir()
    return {"a FIFO": fifo, "a device": zero, "a directory": folder}


def test_special_files_are_refused_without_hanging_or_filling_memory(tmp_path: Path) -> None:
    for kind, path in special_files(tmp_path).items():
        with pytest.raises(ReadError) as raised:
            read_text(path, what="exercise progress")
        assert str(raised.value) == f"{path}: the exercise progress is {kind}, not a regular file"


def test_size_encoding_and_absence_are_named(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(ReadError, match=r"big: the log has 101 bytes, more than the 100 it may have$"):
        read_text(big, what="log", limit=100)
    latin = tmp_path / "latin"
    latin.write_bytes(b"ab\xe9")
    with pytest.raises(ReadError, match=r"latin: the file is not UTF-8 text \(byte 2\)$"):
        read_text(latin)
    with pytest.raises(ReadError, match=r"missing: cannot read the file: No such file or directory$"):
        read_text(tmp_path / "missing")
