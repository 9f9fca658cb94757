"""`dboard analyse | hint | hub | dxp`: the engine's command-line entry points."""

from __future__ import annotations

import argparse
import math

from engine.core import Engine
from engine.dxp import BETWEEN_MOVES, FIRST_RECORD, HANDSHAKE, MARGIN
from engine.endgame import DEFAULT_DATA_DIR
from engine.limits import SearchLimits, SearchProgress, format_score
from engine.native import MAX_THREADS
from rules import VARIANT_IDS, Board, Color, get_variant
from rules.cli import quiet_by_default


def _board(args: argparse.Namespace) -> Board:
    variant = get_variant(args.variant)
    return Board(variant, args.fen) if args.fen else Board(variant)


@quiet_by_default
def _analyse(args: argparse.Namespace) -> int:
    board = _board(args)
    if args.depth is None and args.time is None:
        args.time = 2.0
    limits = SearchLimits(depth=args.depth, time=args.time)

    def show(p: SearchProgress) -> None:
        print(
            f"depth {p.depth:2d}  score {format_score(p.score):>10}  nodes {p.nodes:8d}  "
            f"nps {p.nps:7d}  pv {' '.join(p.pv_text)}",
            flush=True,
        )

    result = Engine(board.variant, threads=args.threads).search(board, limits, on_progress=show)
    if result.move is None:
        print("no legal move: the game is over")
        return 0
    print(
        f"best {board.move_text(result.move)}  score {format_score(result.score)}  depth {result.depth}  "
        f"line {' '.join(result.pv_text)}"
    )
    return 0


@quiet_by_default
def _hint(args: argparse.Namespace) -> int:
    from engine.hint import hint

    board = _board(args)
    found = hint(board, args.time)
    print("no legal move: the game is over" if found is None else f"hint: {found}")
    return 0


def _hub(args: argparse.Namespace) -> int:
    from engine.hub import main

    return main(args.variant, args.level)


def _dxp(args: argparse.Namespace) -> int:
    from engine import dxp

    if (args.listen is None) == (args.connect is None):
        raise SystemExit("dboard dxp: error: give exactly one of --listen PORT or --connect HOST:PORT")
    if args.listen is not None:

        def ready(port: int) -> None:
            print(f"DXP listening on {args.host}:{port}", flush=True)

        dxp.listen(args.listen, args.host, args.level, args.time, ready=ready, once=not args.forever,
                   first=args.request_timeout, between=args.idle_timeout)
        return 0
    host, _, port = args.connect.rpartition(":")
    if not host or not port.isdigit():
        raise SystemExit(f"dboard dxp: error: --connect expects HOST:PORT, got {args.connect!r}")
    color = Color.WHITE if args.color == "white" else Color.BLACK
    outcome = dxp.connect(host, int(port), color, args.level, args.time, args.handshake, args.margin)
    print(f"game over: {outcome.result} ({outcome.reason})" if outcome else "game ended without a result")
    return 0


def _endgame(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from engine.endgame import (
        VALUE_NAMES,
        EndgameTables,
        board_signature,
        piece_limit,
        signatures_upto,
        tables_unsupported,
    )
    words = args.words
    build = words[0] == "build"
    if len(words) != 2:
        raise SystemExit("dboard endgame: error: give VARIANT FEN, or build VARIANT")
    try:
        variant = get_variant(words[1] if build else words[0])
    except ValueError as exc:
        raise SystemExit(f"dboard endgame: error: {exc}") from None
    reason = tables_unsupported(variant)
    if reason is not None:
        raise SystemExit(f"dboard endgame: error: no endgame tables for {variant.id}: {reason}")
    limit = piece_limit(variant)

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    directory = Path(args.data_dir) if args.data_dir else DEFAULT_DATA_DIR
    tables = EndgameTables(variant, directory, progress=progress)
    if build:
        pieces = args.pieces if args.pieces is not None else limit
        if not 2 <= pieces <= limit:
            raise SystemExit(f"dboard endgame: error: --pieces must be 2..{limit} for {variant.id}")
        tables.ensure_upto(pieces)
        made = [r for r in tables.reports if r.built]
        print(f"{variant.id}: {len(signatures_upto(pieces))} tables of up to {pieces} pieces in {directory} "
              f"({len(made)} built, {sum(r.bytes for r in tables.reports)} bytes, "
              f"{sum(r.seconds for r in made):.1f} s)")
        return 0
    try:
        board = Board(variant, words[1])
    except ValueError as exc:
        raise SystemExit(f"dboard endgame: error: {exc}") from None
    sig = board_signature(board)
    if sig.pieces > limit:
        raise SystemExit(f"dboard endgame: error: {sig.pieces} pieces; the tables of {variant.id} go up to "
                         f"{limit}")
    w, b, _ = board.bitboards()
    if w and b:
        tables.ensure(sig)
    value = tables.value(board)
    if not value:
        raise SystemExit(f"dboard endgame: error: the tables do not hold {board.fen()} "
                         f"(a man on its crowning row?)")
    print(VALUE_NAMES[value])
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the engine's subcommands to `dboard`."""
    variants = ", ".join(VARIANT_IDS)
    p = sub.add_parser("analyse", help="print the engine's best line and score for a position",
                       description="Search a position with the built-in engine, printing the best line and "
                                   "score at each depth, then the best move.")
    p.add_argument("variant", choices=VARIANT_IDS, metavar="VARIANT", help=f"the rules: {variants}")
    p.add_argument("--fen", help="position (PDN FEN); default the start position")
    p.add_argument("--time", type=_seconds, help="seconds to think (default 2 unless --depth)")
    p.add_argument("--depth", type=int, help="plies to search")
    p.add_argument("--threads", type=int, default=1, choices=range(1, MAX_THREADS + 1),
                   metavar=f"1-{MAX_THREADS}",
                   help="search threads (default 1; more search deeper on more cores, not reproducibly)")
    p.set_defaults(func=_analyse)

    p = sub.add_parser("hint", help="suggest a move for the side to move",
                       description="The move the built-in engine suggests for the side to move, with its "
                                   "score and the line it expects.")
    p.add_argument("variant", choices=VARIANT_IDS, metavar="VARIANT", help=f"the rules: {variants}")
    p.add_argument("--fen", help="position (PDN FEN); default the start position")
    p.add_argument("--time", type=_seconds, default=1.0, help="seconds to think (default 1)")
    p.set_defaults(func=_hint)

    p = sub.add_parser("endgame", help="win, draw or loss of a position with few pieces, from endgame tables",
                       description="Print win, draw or loss for the side to move in FEN, from the engine's "
                                   "own endgame tables (built on first use into the data directory, progress "
                                   "on stderr), or build them: dboard endgame build VARIANT --pieces N. The "
                                   "value is the game's with best play and no move counter: the draw rules "
                                   "that count moves or repetitions can still draw a won ending.")
    p.add_argument("words", nargs="+", metavar="VARIANT FEN | build VARIANT",
                   help=f"the rules ({variants}) and a position (PDN FEN), or build and the rules")
    p.add_argument("--pieces", type=int, help="with build: tables of up to this many pieces (default: the "
                                              "variant's limit, 4 on boards over 32 squares, else 5)")
    p.add_argument("--data-dir", help=f"where the tables are kept (default {DEFAULT_DATA_DIR})")
    p.set_defaults(func=_endgame)

    p = sub.add_parser("hub", help="run the engine under the Hub protocol on stdin/stdout (as Scan)",
                       description="Speak the Hub protocol (Scan's) on standard input and output, so that a "
                                   "GUI or a match runner can play the built-in engine.")
    p.add_argument("--variant", default="international", choices=VARIANT_IDS, metavar="VARIANT",
                   help=f"the rules until the GUI sets them: {variants} (default international)")
    p.add_argument("--level", type=int, default=10, choices=range(1, 11), metavar="1-10",
                   help="engine strength, 1 (beginner) to 10 (strongest; default 10)")
    p.set_defaults(func=_hub)

    p = sub.add_parser("dxp", help="play 10x10 games over the DamExchange protocol (TCP)",
                       description="Play international draughts with another program over DamExchange: wait "
                                   "for its game request (--listen) or send one (--connect).")
    p.add_argument(
        "--listen",
        type=int,
        metavar="PORT",
        help="wait for a GAMEREQ on this port (follower); 0 picks a free port",
    )
    p.add_argument("--connect", metavar="HOST:PORT", help="request a game from a DXP follower (initiator)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--color", choices=("white", "black"), default="white", help="our color with --connect")
    p.add_argument("--level", type=int, default=10, choices=range(1, 11), metavar="1-10",
                   help="engine strength, 1 (beginner) to 10 (strongest; default 10)")
    p.add_argument("--time", type=_seconds, default=1.0, help="seconds per move (default 1)")
    p.add_argument("--forever", action="store_true", help="with --listen: keep accepting games")
    p.add_argument("--request-timeout", type=_seconds, default=FIRST_RECORD, metavar="SECONDS",
                   help=f"with --listen: a new peer's time to send its GAMEREQ (default {FIRST_RECORD:g})")
    p.add_argument("--idle-timeout", type=_seconds, default=BETWEEN_MOVES, metavar="SECONDS",
                   help=f"with --listen: a peer's time for each move (default {BETWEEN_MOVES:g})")
    p.add_argument("--handshake", type=_seconds, default=HANDSHAKE, metavar="SECONDS",
                   help=f"with --connect: time to connect and have the game accepted (default {HANDSHAKE:g})")
    p.add_argument("--margin", type=_seconds, default=MARGIN, metavar="SECONDS",
                   help=f"with --connect: the peer's time per move beyond --time (default {MARGIN:g})")
    p.set_defaults(func=_dxp)


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value

