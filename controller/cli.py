"""The `dboard` command: one argparse parser whose subcommands come from each package's `register()`."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import select
import signal
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from .extras import MissingExtra

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

# Each module defines `register(subparsers)`; listed here in the order `dboard --help` shows them.
COMMAND_MODULES: tuple[str, ...] = (
    "controller.play_cli",
    "controller.speak_cli",
    "firmware_bridge.cli",
    "firmware_bridge.board_test_cli",
    "rules.cli",
    "rules.pdn.cli",
    "engine.cli",
    "controller.ratings_cli",
    "controller.journal_cli",
    "controller.lessons_cli",
    "controller.sensorlog_cli",
    "controller.service_cli",
    "web.stats_cli",
    "hall.cli",
)


def package_version() -> str:
    """The installed distribution's version (or the source tree's marker when run uninstalled)."""
    try:
        return version("draughts-board")
    except PackageNotFoundError:
        return "0+unknown"


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, naming what was wrong, with exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Print help and usage like any output: a closed pipe is not silently ignored (see `main`)."""
        if message:
            (file or sys.stderr).write(message)


def build_parser() -> argparse.ArgumentParser:
    """The full command-line parser with every registered subcommand."""
    parser = _Parser(prog="dboard", description="A draughts board that knows the rules of every variant.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    verbosity = parser.add_mutually_exclusive_group()
    verbosity.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    verbosity.add_argument("-q", "--quiet", action="store_true", help="log only errors")
    sub = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def configure_logging(verbose: bool, quiet: bool) -> None:
    """Route the standard `logging` module to stderr at the chosen level."""
    level = logging.DEBUG if verbose else logging.ERROR if quiet else logging.INFO
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `dboard` console script."""
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()  # a reader that went away shows here, not in the interpreter's last flush
    except BrokenPipeError:
        return _output_closed()


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    configure_logging(args.verbose, args.quiet)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except MissingExtra as exc:
        print(f"dboard {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as exc:
        if isinstance(exc, BrokenPipeError) and stdout_closed():
            raise  # (not a connection of the command's own: our reader went away)
        print(f"dboard {args.command}: error: {exc}", file=sys.stderr)
        return 1


def stdout_closed() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (poll says error or hang-up)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError):  # no file descriptor (a test's capture): not a pipe
        return False


def _output_closed() -> int:
    """`dboard ... | head`: the reader of our output has gone. Stop without a word, with the status a Unix
    tool killed by SIGPIPE has (141), as Python ignores the signal and raises BrokenPipeError instead."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # what is still buffered goes nowhere, quietly, at exit
    os.close(devnull)
    return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
