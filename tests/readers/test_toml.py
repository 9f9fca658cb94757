"""readers.toml: TOML read with the hostile-input guards (both configs read through it), and where each
top-level key is written, for errors that name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from readers import ReadError
from readers.toml import hostile_toml, key_lines, read_toml


def test_item_18_brackets_in_strings_and_comments_are_not_nesting() -> None:
    text = 'a = "\\"[[[" # [[[\nb = \'\'\'[[[\n[[[\'\'\'\nc = ' + "[" * 101
    assert hostile_toml(text) == "line 4, column 105: arrays and inline tables nested more than 100 deep"
    assert hostile_toml(text[:-1]) is None


def test_each_top_level_key_has_its_line() -> None:
    text = ('# a comment\nvariant = "spanish"\n"port" = 8\n  a.b = 1\nmulti = """x\ny = 2\n"""\n'
            "arr = [\n  1, [2],\n  3 ]\nlevel = 3  # [x\n[variant_options]\nfirst = 'white'\nlevel = 9\n"
            "[[tables]]\n")
    assert key_lines(text) == {"variant": 2, "port": 3, "a": 4, "multi": 5, "arr": 8, "level": 11,
                               "variant_options": 12, "tables": 15}


def test_a_file_read_knows_where_its_keys_are(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('\nport = 8\n')
    file = read_toml(path, what="settings file")
    assert file.data == {"port": 8}
    assert (file.where("port"), file.where("site")) == (f"{path}: line 2", str(path))


def test_the_key_scan_of_a_hostile_text_is_one_pass() -> None:
    assert key_lines("x = " + "[" * 100_000 + "]" * 100_000 + "\ny = 1\n") == {"x": 1, "y": 2}


@pytest.mark.parametrize(("data", "says"), [
    (b"x = [1,\nport = 2\n", "Invalid value (at line 2, column 1)"),
    (b"x = 'caf\xc3'\n", "line 1, column 9: byte 0xC3 is not UTF-8: the settings file must be UTF-8 text"),
])
def test_every_failure_is_one_read_error_naming_the_file(tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "s.toml"
    path.write_bytes(data)
    with pytest.raises(ReadError) as raised:
        read_toml(path, what="settings file")
    assert str(raised.value) == f"{path}: {says}"
