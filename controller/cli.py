"""The `dboard` command: one argparse parser whose subcommands come from each package's `register()`."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

# Each module defines `register(subparsers)`; listed here in the order `dboard --help` shows them.
COMMAND_MODULES: tuple[str, ...] = (
    "controller.play_cli",
    "firmware_bridge.cli",
    "rules.cli",
    "rules.pdn.cli",
    "engine.cli",
    "controller.ratings_cli",
    "controller.journal_cli",
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
    except (ValueError, OSError) as exc:
        print(f"dboard {args.command}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
