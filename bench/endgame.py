"""Endgame tables: build time and size per signature, the C builder against the Python reference, and a
small match of the engine with the tables against the same engine without them.

Usage: python bench/endgame.py [--variants international:4,russian:4] [--data-dir DIR] [--games 10]
                               [--time 0.1] [--match-pieces 6]

Part 1 builds every table of up to N pieces of each variant into --data-dir (default a new temporary folder,
so the build is measured, not read) and prints the five slowest tables and the totals. Part 2 builds one
3-piece table with both builders and prints their ratio (the peer: engine.endgame.build_reference, the same
run). Part 3 plays --games random positions of --match-pieces pieces per variant twice, colors swapped, with
tables against without, --time seconds a move; the game ends by the rules (Game) or after 200 plies
(a draw), and prints the score of the side with tables.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Engine, SearchLimits
from engine.endgame import EndgameTables, Signature, build_reference, native_builder
from rules import Board, Color, Game, get_variant


def build(variant_id: str, pieces: int, directory: Path) -> EndgameTables:
    v = get_variant(variant_id)
    tables = EndgameTables(v, directory)
    start = time.perf_counter()
    tables.ensure_upto(pieces)
    wall = time.perf_counter() - start
    made = tables.reports
    positions = sum(r.positions for r in made)
    print(f"{variant_id} up to {pieces} pieces: {len(made)} tables, {positions} positions, "
          f"{sum(r.bytes for r in made)} bytes, {wall:.1f} s")
    for r in sorted(made, key=lambda r: -r.seconds)[:5]:
        print(f"  {r.signature!s:14} {r.positions:10d} positions {r.bytes:9d} bytes {r.seconds:6.2f} s")
    return tables


def builders(variant_id: str) -> None:
    v = get_variant(variant_id)
    native = native_builder()
    if native is None:
        print("the C builder is not built: no ratio")
        return
    sig = Signature(0, 2, 0, 1)
    small = EndgameTables(v)   # the smaller ones, then time only this one
    small.ensure(sig)
    tables = {s: d for s, d in small.tables.items() if s != sig}
    t0 = time.perf_counter()
    a = native(v, sig, tables)
    t1 = time.perf_counter()
    b = build_reference(v, sig, tables)
    t2 = time.perf_counter()
    ratio = (t2 - t1) / (t1 - t0)
    print(f"{variant_id} {sig}: C {t1 - t0:.3f} s, reference {t2 - t1:.3f} s, ratio {ratio:.0f}x, "
          f"same table: {a == b}")


def random_position(variant_id: str, pieces: int, rng: random.Random) -> Board:
    v = get_variant(variant_id)
    while True:
        squares = rng.sample(sorted(v.geometry.squares), pieces)
        white = rng.randint(1, pieces - 1)
        board = Board(v)
        parts = {Color.WHITE: [], Color.BLACK: []}
        crown = {c: set(v.crown_squares(c)) for c in Color}
        for i, sq in enumerate(squares):
            color = Color.WHITE if i < white else Color.BLACK
            king = sq in crown[color] or rng.random() < 0.4
            parts[color].append(("K" if king else "") + v.geometry.name(sq))
        fen = f"W:W{','.join(parts[Color.WHITE])}:B{','.join(parts[Color.BLACK])}"
        board = Board(v, fen)
        if board.legal_moves and not board.has_capture():
            return board


def match(variant_id: str, tables: EndgameTables, games: int, seconds: float, pieces: int) -> None:
    rng = random.Random(11)
    score = 0.0
    played = 0
    for _ in range(games):
        start = random_position(variant_id, pieces, rng)
        for tables_side in (Color.WHITE, Color.BLACK):
            engines = {c: Engine(tables.variant) for c in Color}
            engines[tables_side].searcher.set_endgames(tables)
            game = Game(tables.variant, start.fen())
            plies = 0
            while game.outcome() is None and plies < 200:
                board = game.board
                result = engines[board.turn].search(board, SearchLimits(time=seconds))
                if result.move is None:
                    break
                game.push(result.move)
                plies += 1
            outcome = game.outcome()
            winner = outcome.winner if outcome is not None else None
            points = 0.5 if winner is None else (1.0 if winner == tables_side else 0.0)
            score += points
            played += 1
    print(f"{variant_id} {played} games from {pieces}-piece positions at {seconds} s a move: with tables "
          f"{score:.1f}/{played} = {100 * score / max(played, 1):.0f}%")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="international:4,russian:4")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--match-pieces", type=int, default=6)
    args = parser.parse_args()
    directory = args.data_dir or Path(tempfile.mkdtemp(prefix="dboard-endgame-"))
    for item in args.variants.split(","):
        variant_id, _, pieces = item.partition(":")
        tables = build(variant_id, int(pieces or 4), directory)
        builders(variant_id)
        if args.games:
            match(variant_id, tables, args.games, args.time, args.match_pieces)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
