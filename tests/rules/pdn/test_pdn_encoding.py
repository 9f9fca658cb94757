"""Decoding PDN files: byte-order marks (UTF-8, UTF-16, UTF-32), the cp1252 fallback, lines of any ending."""

from __future__ import annotations

import io

import pytest

from controller.cli import main
from rules.pdn import PdnReader
from rules.pdn.encoding import DecodedLines
from rules.pdn.limits import OverlongLine

TEXT = '[Event "Ступени"]\n[White "Müller"]\n\n1. 32-28 {é 中} 19-23 2-0\n\n[Event "b"]\n1. 33-29 *\n'


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_item_20_utf16_and_utf32_files_with_a_bom_are_decoded(encoding: str) -> None:
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00",
           "utf-32-be": b"\x00\x00\xfe\xff"}.get(encoding, b"")  # (plain utf-16/32 write their own)
    raw = bom + TEXT.replace("\n", "\r\n").encode(encoding)
    lines = DecodedLines(io.BytesIO(raw))
    games = list(PdnReader(lines))
    assert [g.tags for g in games] == [{"Event": "Ступени", "White": "Müller"}, {"Event": "b"}]
    assert games[0].moves[0].comments == ["é 中"] and not any(g.errors for g in games)
    assert lines.encoding.startswith(encoding[:6]) and lines.notices == []
    assert (games[1].line, games[1].moves[0].line) == (6, 7)  # lines counted as in the file


def test_item_20_pdn_check_reads_a_utf16_file(tmp_path, capsys) -> None:
    path = tmp_path / "windows.pdn"
    path.write_bytes(TEXT.encode("utf-16"))
    assert main(["pdn", "check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: 2 games, 0 failed\n"


def test_item_20_bad_utf16_bytes_are_noted_not_fatal() -> None:
    lone_surrogate = b"\x00\xd8"
    raw = ("\ufeff[Round \"1\"]\n[Event \"a".encode("utf-16-le") + lone_surrogate
           + "\"]\n1. 32-28 *\n".encode("utf-16-le"))
    lines = DecodedLines(io.BytesIO(raw))
    (game,) = PdnReader(lines)
    assert game.tags == {"Round": "1", "Event": "a\ufffd"} and game.moves[0].text == "32-28"
    assert [str(n) for n in lines.notices] == ["2:10: bytes that are not valid UTF-16 (read as U+FFFD)"]


def test_lines_end_at_lf_crlf_or_a_lone_cr() -> None:
    raw = b"a\r\nb\rc\nd\r\re"
    assert list(DecodedLines(io.BytesIO(raw))) == ["a", "b", "c", "d", "", "e"]
    wide = list(DecodedLines(io.BytesIO(raw.decode().encode("utf-16"))))
    assert wide == ["a", "b", "c", "d", "", "e"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_line_over_the_limit_is_never_read_whole(encoding: str) -> None:
    raw = ("short\n" + "x" * 5000 + "\nnext\n").encode(encoding)
    lines = list(DecodedLines(io.BytesIO(raw), max_line=1000))
    assert lines[0] == "short" and lines[2] == "next" and len(lines) == 3
    assert isinstance(lines[1], OverlongLine) and lines[1].startswith("xxx") and len(lines[1]) < 1000
