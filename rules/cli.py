"""`dboard perft`, `dboard moves` and `dboard rules`: command-line access to the rules core."""

from __future__ import annotations

import argparse
import functools
import logging
import shutil
import sys
import time
from collections.abc import Callable

from rules.board import Board
from rules.errors import RulesError
from rules.options import parse_text
from rules.perft import divide, perft
from rules.rulebook import LANGUAGES, page, render
from rules.variants import VARIANT_IDS, get_variant

Command = Callable[[argparse.Namespace], int]


def quiet_by_default(command: Command) -> Command:
    """A command that prints only what was asked: while it runs, logging shows warnings and errors, not INFO
    ("corner plays on the pure-Python core"), unless -v asked for detail."""
    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        root = logging.getLogger()
        before = root.level
        if not getattr(args, "verbose", False):
            root.setLevel(max(before, logging.WARNING))
        try:
            return command(args)
        finally:
            root.setLevel(before)
    return run


def _board(args: argparse.Namespace) -> Board:
    try:
        return Board(get_variant(args.variant, **parse_text(args.variant_options)), args.fen)
    except RulesError as exc:
        raise SystemExit(f"error: {exc}") from None


MAX_PERFT_DEPTH = 20
"""Deeper than any perft that ends: international's perft(11) is 1.1 billion nodes, minutes in C."""


def _perft(args: argparse.Namespace) -> int:
    board = _board(args)
    if not 1 <= args.depth <= MAX_PERFT_DEPTH:
        raise SystemExit(f"error: depth must be 1 to {MAX_PERFT_DEPTH}, not {args.depth}")
    if args.divide:
        start = time.perf_counter()
        counts = divide(board, args.depth, args.keep_duplicates)
        elapsed = time.perf_counter() - start
        for move, n in counts.items():
            print(f"{board.move_text(move)}: {n}")
        total = sum(counts.values())
        print(f"moves {len(counts)} total {total} time {elapsed:.3f}s nps {total / max(elapsed, 1e-9):,.0f}")
        return 0
    for d in range(1, args.depth + 1):
        start = time.perf_counter()
        n = perft(board, d, args.keep_duplicates)
        elapsed = time.perf_counter() - start
        print(f"perft({d}) = {n}  time {elapsed:.3f}s  nps {n / max(elapsed, 1e-9):,.0f}")
        if n == 0:
            plies = "1 ply" if d == 2 else f"{d - 1} plies"
            ended = "the side to move has no legal move" if d == 1 else f"every line ends within {plies}"
            print(f"stopped at depth {d}: {ended}, so every deeper count is 0 too")
            break
    return 0


def _moves(args: argparse.Namespace) -> int:
    board = _board(args)
    moves = list(board.legal_moves)
    for move in moves:
        print(board.move_text(move))
    if not moves:
        print(f"({board.turn.name.lower()} has no legal move)")
    return 0


def _rules(args: argparse.Namespace) -> int:
    try:
        doc = page(args.variant, args.language)
        markdown = doc.section(args.section) if args.section else doc.text
    except RulesError as exc:   # an unknown variant, section or language
        print(f"dboard rules: error: {exc}", file=sys.stderr)
        return 2
    width = args.width or shutil.get_terminal_size((80, 24)).columns
    sys.stdout.write(render(markdown, width))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `perft`, `moves` and `rules` subcommands to the dboard parser."""
    variants = ", ".join(VARIANT_IDS)
    p = sub.add_parser("perft", help="count leaf nodes of the move tree (move-generator check and speed)",
                       description=f"Perft for a variant ({variants}).")
    p.add_argument("variant", help="variant id, e.g. international, english, russian")
    p.add_argument("depth", type=int,
                   help=f"search depth in plies, 1 to {MAX_PERFT_DEPTH}; the counts stop at the first depth "
                        "with none")
    p.add_argument("--fen", default=None, help="start from this PDN FEN instead of the initial position")
    p.add_argument("--variant-options", default="", metavar="OPTIONS",
                   help='the variant\'s options, e.g. "first=white" (docs/rules/README.md#options)')
    p.add_argument("--divide", action="store_true", help="print the count below each root move")
    p.add_argument("--keep-duplicates", action="store_true",
                   help="count every capture path (Bik/dctl 'keep' tables) instead of merging duplicates")
    p.set_defaults(func=_perft)
    m = sub.add_parser("moves", help="list the legal moves of a position in the variant's notation",
                       description=f"Legal moves for a variant ({variants}).")
    m.add_argument("variant", help="variant id")
    m.add_argument("--fen", default=None, help="position as a PDN FEN (default: the start position)")
    m.add_argument("--variant-options", default="", metavar="OPTIONS",
                   help='the variant\'s options, e.g. "promotion_mid_capture=stop"')
    m.set_defaults(func=_moves)
    r = sub.add_parser("rules", help="print a variant's rules page (docs/rules) for the terminal",
                       description=f"The rules of a variant ({variants}); without one, the list of pages.")
    r.add_argument("variant", nargs="?", default=None, help="variant id or alias, e.g. international")
    r.add_argument("--section", default=None,
                   help="print one section, by heading or anchor (e.g. 'capture-precedence', crowning)")
    r.add_argument("--width", type=int, default=None,
                   help="wrap at this many columns (default: the terminal's width)")
    r.add_argument("--language", default="en", metavar="LANG",
                   help=f"the page in this language: {', '.join(LANGUAGES)} (sections keep their English "
                        "anchors)")
    r.set_defaults(func=_rules)
