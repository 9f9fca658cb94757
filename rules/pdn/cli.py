"""`dboard pdn ...`: check, show and convert PDN files (the only module of rules.pdn that opens files)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import rules
from rules.cli import quiet_by_default
from rules.pdn.convert import NOTATIONS, convert_game
from rules.pdn.encoding import DecodedLines
from rules.pdn.reader import PdnReader
from rules.pdn.validate import final_board
from rules.pdn.writer import write_game


@contextmanager
def open_pdn(path: str) -> Iterator[DecodedLines]:
    """The lines of a PDN file, decoded (a BOM's UTF-8/16/32, or UTF-8 with a cp1252 fallback); SystemExit
    if it cannot be opened."""
    try:
        handle = Path(path).open("rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise SystemExit(f"error: cannot read {path}: {exc.strerror}") from None
    with handle:
        yield DecodedLines(handle)


class ReadProgress:
    """A running count on one terminal line ("file: 4,200 games read"), for files that take a while.

    Written only to a terminal, at most every ``every`` seconds, and wiped before the next real output line.
    """

    def __init__(self, stream: TextIO, every: float = 0.5) -> None:
        self.stream = stream
        self.every = every
        self.live = stream.isatty()
        self._next = time.monotonic() + every
        self._shown = False

    def update(self, path: str, games: int) -> None:
        if self.live and time.monotonic() >= self._next:
            self.stream.write(f"\r{path}: {games:,} games read\x1b[K")
            self.stream.flush()
            self._shown = True
            self._next = time.monotonic() + self.every

    def clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


def _check_variant(variant: str | None) -> None:
    """Exit naming the problem if --variant names no variant."""
    if variant is not None:
        try:
            rules.get_variant(variant)
        except rules.RulesError as exc:
            raise SystemExit(f"error: {exc}") from None


@quiet_by_default
def cmd_check(args: argparse.Namespace) -> int:
    """Parse every game of every file, validate it (unless --syntax-only), list every failure.

    A file that cannot be read is reported and the next one is checked; the exit code is 1 if any failed.
    """
    _check_variant(args.variant)
    failed_total = games_total = unread = 0
    progress = ReadProgress(sys.stderr)
    for path in args.files:
        try:
            with Path(path).open("rb") as handle:
                games, failed = _check_lines(path, DecodedLines(handle), args, progress)
        except OSError as exc:  # missing, a folder, unreadable: say so and go on with the next file
            progress.clear()
            print(f"{path}: cannot read: {exc.strerror or exc}")
            unread += 1
            continue
        print(f"{path}: {games} games, {failed} failed")
        failed_total += failed
        games_total += games
    if len(args.files) > 1:
        not_read = f", {unread} files not read" if unread else ""
        print(f"total: {games_total} games, {failed_total} failed{not_read}")
    return 1 if failed_total or unread else 0


def _check_lines(path: str, lines: DecodedLines, args: argparse.Namespace,
                 progress: ReadProgress) -> tuple[int, int]:
    """Check one file's games, printing their errors (and warnings); (games, failed games)."""
    games = failed = 0
    for game in PdnReader(lines, validate=not args.syntax_only, variant=args.variant):
        games += 1
        if game.errors or (game.warnings and args.warnings):
            progress.clear()
        for error in game.errors:
            print(error.describe(path))
        for warning in game.warnings if args.warnings else ():
            print("warning: " + warning.describe(path))
        failed += bool(game.errors)
        progress.update(path, games)
    progress.clear()
    for notice in lines.notices if args.warnings else ():
        print(f"warning: {path}:{notice}")
    return games, failed


def diagram(board: rules.Board) -> str:
    """The position as text, White at the bottom: w/b men, W/B kings, '.' empty dark squares."""
    height = board.variant.height
    rows = [f"{height - i:>2} {text}" for i, text in enumerate(str(board).splitlines())]  # top row first
    files = " ".join(chr(ord("a") + c) for c in range(board.variant.width))
    rows.append("   " + files)
    turn = "White" if board.turn == rules.Color.WHITE else "Black"
    rows.append(f"{turn} to move. FEN {board.fen()}")
    return "\n".join(rows)


@quiet_by_default
def cmd_show(args: argparse.Namespace) -> int:
    """Print one game (canonical text) and the final position of its main line as a diagram."""
    _check_variant(args.variant)
    number = 0
    with open_pdn(args.file) as lines:
        for number, game in enumerate(PdnReader(lines, validate=True, variant=args.variant), 1):
            if number != args.game:
                continue
            print(write_game(game))
            for error in game.errors:
                print(error.describe(args.file))
            try:
                board = final_board(game, args.variant)
            except rules.RulesError as exc:
                print(f"no diagram: {exc}")
                return 1
            played = sum(1 for node in game.moves if node.move is not None)
            print(f"Position after {played} of {len(game.moves)} moves ({board.variant.name}):")
            print(diagram(board))
            return 1 if game.errors else 0
    raise SystemExit(f"error: {args.file} has no game {args.game} (it holds {number}; --game counts from 1)")


@quiet_by_default
def cmd_convert(args: argparse.Namespace) -> int:
    """Rewrite every game's moves in numeric or algebraic notation (canonical PDN on stdout)."""
    _check_variant(args.variant)
    status = 0
    out = sys.stdout
    with open_pdn(args.file) as lines:
        for number, game in enumerate(PdnReader(lines, validate=True, variant=args.variant), 1):
            if game.errors:
                for error in game.errors:
                    print(error.describe(args.file), file=sys.stderr)
                status = 1
            else:
                convert_game(game, args.to, args.variant)
            if number > 1:
                out.write("\n")
            out.write(write_game(game))
    return status


def register(sub: argparse._SubParsersAction) -> None:
    """Add `dboard pdn check|show|convert`."""
    pdn = sub.add_parser("pdn", help="check, show and convert PDN game files",
                         description="Read PDN game files (UTF-8, cp1252, or UTF-16/32 with a byte-order "
                                     "mark) and check, show or convert their games.")
    pdn_sub = pdn.add_subparsers(dest="pdn_command", metavar="ACTION", required=True)

    check = pdn_sub.add_parser("check", help="parse and validate every game; exit 1 if any fails",
                               description="Parse every game of every file and replay its moves by the "
                                           "rules; list each failure with its line and column.")
    check.add_argument("files", nargs="+", metavar="FILE", help="PDN files to check")
    check.add_argument("--variant", help="variant of games without a GameType tag (default international)")
    check.add_argument("--syntax-only", action="store_true", help="stop after parsing (no rules check)")
    check.add_argument("--warnings", action="store_true",
                       help="also list warnings (move numbers, encoding fallbacks, ambiguous captures)")
    check.set_defaults(func=cmd_check)

    show = pdn_sub.add_parser("show", help="print a game and its final position",
                              description="Print one game of a file in canonical PDN and the position at "
                                          "the end of its main line as a diagram.")
    show.add_argument("file", metavar="FILE", help="the PDN file")
    show.add_argument("--game", type=int, default=1, metavar="N", help="1-based game number (default 1)")
    show.add_argument("--variant", help="variant of games without a GameType tag")
    show.set_defaults(func=cmd_show)

    convert = pdn_sub.add_parser("convert", help="rewrite moves in numeric or algebraic notation",
                                 description="Write every game of a file to standard output with its moves "
                                             "and FEN in the notation asked for, captures joined by x, and a "
                                             "GameType that says which notation it is.")
    convert.add_argument("file", metavar="FILE", help="the PDN file")
    convert.add_argument("--to", choices=NOTATIONS, required=True,
                         help="numeric (square numbers) or algebraic (square names like c3)")
    convert.add_argument("--variant", help="variant of games without a GameType tag")
    convert.set_defaults(func=cmd_convert)
