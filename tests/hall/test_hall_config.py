"""The hall's settings file is read as the board's config is (one loader, readers.toml): hostile TOML, bytes
that are not UTF-8, a file that is no file, an unknown key, a wrong type or a refused value is one
HallConfigError line naming the file, the line and what was expected - never a RecursionError, a
UnicodeDecodeError or a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller import cli
from hall.config import HallConfig, HallConfigError, from_args, load

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_hall_config_loads() -> None:
    loaded = load(ROOT / "hardware/hall/hall.toml")
    assert (loaded.user, loaded.listen, loaded.site) == ("hall", "0.0.0.0", "Hall of the NK 2026")
    assert load(None) == HallConfig()


@pytest.mark.parametrize(("text", "where", "says"), [
    ("port = 8090\nx = " + "[" * 2_000 + "]" * 2_000 + "\n", "line 2, column 105",
     "arrays and inline tables nested more than 100 deep"),
    ("x = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n", "line 1, column 505",
     "arrays and inline tables nested more than 100 deep"),
    ('site = "hall"  # a comment [[[[\nport = ' + "9" * 5000 + "\n", "line 2, column 8",
     "a number of 5,000 digits: a setting has at most 19"),
    ('site = "Caf\xe9 hall"\n', "line 1, column 12",
     "byte 0xE9 is not UTF-8: the hall config must be UTF-8 text"),
    ('site = "hall\n', "", "Illegal character '\\n' (at line 1, column 13)"),
])
def test_hostile_toml_is_one_line_naming_file_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, says: str) -> None:
    path = tmp_path / "hall.toml"
    path.write_bytes(text.encode("latin-1"))
    expected = f"{path}: {where}: {says}" if where else f"{path}: {says}"
    with pytest.raises(HallConfigError) as info:
        load(path)
    assert str(info.value) == expected
    assert cli.main(["hall", "--config", str(path)]) == 1   # through the command: one line, no traceback
    assert capsys.readouterr().err == f"dboard hall: error: {expected}\n"


@pytest.mark.parametrize(("text", "says"), [
    ('site = "hall"\nport = "eighty"\n', "line 2: key 'port' expects int, got str 'eighty'"),
    ('site = "hall"\n\ntls = "yes"\n', "line 3: key 'tls' expects bool, got str 'yes'"),
    ("port = true\n", "line 1: key 'port' expects int, got a boolean"),
    ('"port" = [1, 2]\n', "line 1: key 'port' expects int, got list [1, 2]"),
    ("site = " + '"' + "x" * 200 + '"\n' + "port = " + '"' + "y" * 5000 + '"\n',
     "line 2: key 'port' expects int, got str '" + "y" * 59 + "..."),
    ('site = "hall"\nbrokr = "hall.local"\n', "line 2: unknown key 'brokr' (known keys: broker, ca, "),
    ("[broker]\nhost = 1\n", "line 1: key 'broker' expects str, got dict {'host': 1}"),
    ("site = 'hall'\nport = 70000\n", "line 2: port: must be 0-65535, got 70000"),
    ('token = "short"\n', "line 1: token: must be at least 16 characters long, got 5"),
])
def test_a_wrong_key_type_or_value_names_its_line(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "hall.toml"
    path.write_text(text)
    with pytest.raises(HallConfigError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: {says}"), str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory", "missing"])
def test_a_hall_config_that_is_no_file_is_one_error_line(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "hall.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    with pytest.raises(HallConfigError) as raised:
        load(path)
    message = str(raised.value)
    assert message.startswith(f"{path}: ") and "hall config" in message and "\n" not in message


def test_the_command_line_overrides_the_file_and_a_bad_option_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hall.toml"
    path.write_text('site = "hall"\nport = 8091\n')
    loaded = from_args(cli.build_parser().parse_args(["hall", "--config", str(path), "--port", "0", "--tls"]))
    assert (loaded.site, loaded.port, loaded.tls) == ("hall", 0, True)
    assert cli.main(["hall", "--config", str(path), "--port", "70000"]) == 1
    assert capsys.readouterr().err == "dboard hall: error: command line: port: must be 0-65535, got 70000\n"
