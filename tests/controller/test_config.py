"""The configuration file: the shipped example loads, and mistakes name the key."""

import os
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from controller import cli, config

ROOT = Path(__file__).resolve().parents[2]


def test_example_config_lists_every_key_with_its_default() -> None:
    path = ROOT / "config.example.toml"
    assert set(tomllib.loads(path.read_text())) == {f.name for f in fields(config.Config)}
    assert config.load(path) == config.Config()


def test_unknown_key_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('variant = "spanish"\nlevle = 4\n')
    with pytest.raises(config.ConfigError, match=r"unknown key 'levle'") as info:
        config.load(path)
    assert str(info.value).startswith(f"{path}: line 2: unknown key 'levle' (known keys: accept_alternative,")


def test_wrong_type_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('port = "eighty"\n')
    with pytest.raises(config.ConfigError, match=r"key 'port' expects int, got str") as info:
        config.load(path)
    assert str(info.value) == f"{path}: line 1: key 'port' expects int, got str 'eighty'"


def test_out_of_range_value_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('variant = "spanish"\nlevel = 11\n')
    with pytest.raises(config.ConfigError, match=r"level: must be between 1 and 10") as info:
        config.load(path)
    assert str(info.value) == f"{path}: line 2: level: must be between 1 and 10, got 11"


def test_missing_named_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="not found"):
        config.load(tmp_path / "nope.toml")


def test_command_line_overrides_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('variant = "spanish"\nlevel = 2\nteaching = true\n')
    args = cli.build_parser().parse_args(["play", "--config", str(path), "--level", "7", "--no-teaching"])
    loaded = config.from_args(args)
    assert (loaded.variant, loaded.level, loaded.teaching) == ("spanish", 7, False)


def test_bad_command_line_value_is_a_one_line_error(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "absent.toml"
    code = cli.main(["play", "--config", str(missing)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and "absent.toml" in err[0]


@pytest.mark.parametrize(("changes", "message"), [
    ({"opponent": "scan"}, "opponent: expected one of engine, person, external, dxp, got 'scan'"),
    ({"dxp_engine": "localhost"}, "dxp_engine: expected HOST:PORT"),
    ({"dxp_engine": "localhost:99999"}, "dxp_engine: expected HOST:PORT"),
    ({"external_margin": float("nan")}, "external_margin: must be a positive number of seconds, got nan"),
    ({"dxp_handshake": 0.0}, "dxp_handshake: must be a positive"),
])
def test_engine_settings_are_checked(changes: dict, message: str) -> None:
    with pytest.raises(config.ConfigError, match=message):
        config.Config(**changes)


def test_a_dxp_engine_is_host_and_port() -> None:
    assert config.host_port("[::1]:27531") == ("::1", 27531)
    assert config.Config(opponent="dxp", dxp_engine="scan.local:27531").dxp_engine == "scan.local:27531"


@pytest.mark.parametrize(("text", "where", "says"), [
    ("level = 3\nx = " + "[" * 100_000 + "]" * 100_000 + "\n", "line 2, column 105",
     "arrays and inline tables nested more than 100 deep"),
    ("x = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n", "line 1, column 505",
     "arrays and inline tables nested more than 100 deep"),
    ('variant = "spanish"  # a comment [[[[\nlevel = ' + "9" * 5000 + "\n", "line 2, column 9",
     "a number of 5,000 digits: a setting has at most 19"),
    ('variant = "sp\xe9nish"\n', "line 1, column 14",
     "byte 0xE9 is not UTF-8: the config file must be UTF-8 text"),
])
def test_item_18_hostile_toml_is_one_line_naming_file_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, says: str) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(config.ConfigError) as info:
        config.load(path)
    assert str(info.value) == f"{path}: {where}: {says}"
    assert cli.main(["play", "--config", str(path)]) == 1   # through the command: one line, no traceback
    assert capsys.readouterr().err == f"dboard play: error: {path}: {where}: {says}\n"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_a_config_that_is_no_file_is_one_error_line(tmp_path: Path, kind: str) -> None:
    """A FIFO would hang the start, a link to /dev/zero fill the memory (issue 30): one line naming it."""
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with pytest.raises(config.ConfigError) as raised:
        config.load(path)
    assert str(raised.value).startswith(f"{path}: the config file is a ") and "\n" not in str(raised.value)
