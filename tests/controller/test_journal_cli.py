"""`dboard journal DATA_DIR`: what a journal holds, for a person looking into a problem; nothing changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from journals import begin, old_format, play

from controller.cli import main
from controller.journal import JOURNAL_NAME


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_the_journal_is_shown_line_by_line_with_its_checksums(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    record = begin(tmp_path)
    moves = play(record, 3)
    record.take_back(1)
    record.finish("1/2-1/2", "agreement")
    before = _files(tmp_path)
    assert main(["journal", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    size = (tmp_path / JOURNAL_NAME).stat().st_size
    assert out[0] == f"journal: {tmp_path / JOURNAL_NAME} ({size} bytes, checksummed)"
    assert out[1] == ("game: english, white: person, black: person, started 2026-12-01T10:43:21, library "
                      "file 20261201-104321-english.pdn")
    crcs = [line[:8] for line in (tmp_path / JOURNAL_NAME).read_text().splitlines()]
    assert out[2:8] == [f"     1  {crcs[0]}  start english",
                        f"     2  {crcs[1]}  move {moves[0]} (black)",
                        f"     3  {crcs[2]}  move {moves[1]} (white)",
                        f"     4  {crcs[3]}  move {moves[2]} (black)",
                        f"     5  {crcs[4]}  takeback 1",
                        f"     6  {crcs[5]}  end 1/2-1/2 (agreement)"]
    assert out[8:] == ["standing: 2 plies, ended 1/2-1/2 (agreement)", "nothing was changed"]
    assert _files(tmp_path) == before


def test_damage_is_shown_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    play(begin(tmp_path), 2)
    with open(tmp_path / JOURNAL_NAME, "ab") as fh:
        fh.write(b"\x00\x00\x00\x00")
    before = _files(tmp_path)
    assert main(["journal", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert ("damage: line 4: zero bytes: a write the card never finished; a start keeps lines 1-3 and sets "
            "the journal aside, dropped 1 line (4 bytes): b'\\x00\\x00\\x00\\x00'") in out
    assert "standing: 2 plies, in progress" in out
    assert _files(tmp_path) == before


def test_an_old_journal_and_no_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    play(begin(tmp_path / "old"), 1)
    journal = tmp_path / "old" / JOURNAL_NAME
    journal.write_bytes(old_format(journal.read_bytes()))
    assert main(["journal", str(tmp_path / "old")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "the first release's format, no checksums" in out[0]
    assert out[3].startswith("     2  --------  move")
    (tmp_path / "empty").mkdir()
    assert main(["journal", str(tmp_path / "empty")]) == 1
    assert capsys.readouterr().out.splitlines() == [f"no journal in {tmp_path / 'empty'}",
                                                    "nothing was changed"]
    assert main(["journal", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"no journal: {tmp_path / 'none'} does not exist (expected a data directory, holding {JOURNAL_NAME}, "
        "or a journal file)", "nothing was changed"]


def test_a_journal_file_is_read_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 20: `dboard journal FILE` answered "[Errno 20] Not a directory"."""
    play(begin(tmp_path), 2)
    assert main(["journal", str(tmp_path)]) == 0
    from_dir = capsys.readouterr().out
    copy = tmp_path / "elsewhere.jsonl"
    copy.write_bytes((tmp_path / JOURNAL_NAME).read_bytes())
    assert main(["journal", str(tmp_path / JOURNAL_NAME)]) == 0
    assert capsys.readouterr().out == from_dir
    assert main(["journal", str(copy)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"journal: {copy} (") and out[1:] == from_dir.splitlines()[1:]
