"""The `dboard` command frame: help, version and one-line errors, through the installed console script."""

import subprocess
import sys
from pathlib import Path

DBOARD = Path(sys.executable).with_name("dboard")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(DBOARD), *args], capture_output=True, text=True, timeout=120)


def test_help_lists_subcommands() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("play",):
        assert command in result.stdout


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("dboard ")


def test_unknown_subcommand_is_one_line_naming_it() -> None:
    result = run("frobnicate")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "frobnicate" in lines[0]


def test_bad_option_is_one_line_naming_it() -> None:
    result = run("play", "--levl", "3")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "--levl" in lines[0]
