"""The `dboard` command frame: help, version and one-line errors, through the installed console script."""

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller import cli

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


PDN = Path(__file__).resolve().parents[1] / "data" / "pdn-corpus" / "succeed" / "wk2003.pdn"


@pytest.mark.parametrize("args", [
    ("--help",), ("--version",), ("moves", "international"), ("perft", "english", "3"),
    ("pdn", "convert", str(PDN), "--to", "algebraic"), ("pdn", "check", "--warnings", str(PDN)),
    ("pdn", "show", str(PDN)), ("ratings", "--data-dir", "{tmp}"),
    ("hint", "english", "--time", "0.1"), ("rules", "english"),
], ids=lambda args: " ".join(args[:2]))
def test_item_14_output_to_a_closed_pipe_ends_quietly_as_on_sigpipe(tmp_path: Path,
                                                                    args: tuple[str, ...]) -> None:
    """`dboard ... | head`: once the reader has gone, stop without a word, with SIGPIPE's status (141)."""
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first byte: every write fails with EPIPE
    try:
        result = subprocess.run([str(DBOARD), *(a.format(tmp=tmp_path) for a in args)], stdout=writer,
                                stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (128 + signal.SIGPIPE, "")


def test_item_14_only_a_closed_standard_output_counts_as_sigpipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken connection of the command's own (a DXP peer, an engine) is still an error message."""
    reader, writer = os.pipe()
    with os.fdopen(writer, "w") as out:
        monkeypatch.setattr(sys, "stdout", out)
        assert not cli.stdout_closed()
        os.close(reader)
        assert cli.stdout_closed()


def _parsers(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.ArgumentParser]]:
    """The parser and every subcommand's parser below it, by their command line ("dboard pdn check")."""
    out = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _parsers(sub, f"{path} {name}")
    return out


def test_item_12_every_subcommand_has_a_description_and_every_option_a_help() -> None:
    """Issue 28 item 12: `play --help` listed 45 settings with no help; analyse, hint, pdn, hub and dxp had no
    description line."""
    parsers = _parsers(cli.build_parser(), "dboard")
    names = {"dboard play", "dboard hall", "dboard pdn convert", "dboard hub", "dboard dxp", "dboard analyse"}
    assert names <= dict(parsers).keys()
    for path, parser in parsers:
        assert (parser.description or "").strip(), f"{path}: no description"
        for action in parser._actions:
            if isinstance(action, (argparse._SubParsersAction, argparse._HelpAction)):
                continue
            name = action.option_strings[0] if action.option_strings else action.dest
            assert (action.help or "").strip(), f"{path} {name}: no help"
            parser.format_help()   # every help formats (a stray % would raise here)

