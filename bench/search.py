"""Search speed per variant: the native search against the pure-Python one, and against dame-rs.

Usage: python bench/search.py [--time 1.0] [--positions 5] [--variants all|a,b,...] [--no-peer]

From five seeded middlegame positions per variant, each searcher gets `--time` seconds on a fresh engine:
nodes per second of CPU time (the process's own, so that other load on the machine does not skew the
ratios) and depth reached. Peers measured in the same run on the same positions:
  * the pure-Python Searcher (the reference; same node definition: one node per searched position);
  * dame-rs (PyPI `dame-rs`, Rust, in .bench-venv), international only; its node count is its own.
ratio = native nps / peer nps.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _dame
from _pydraughts_venv import peer_python

from engine import Engine, SearchLimits
from engine.native import NativeSearcher
from engine.search import Searcher
from rules import Board
from rules.native import native_variant_ids

TARGET = 30.0   # native / pure-Python nodes per second


def middlegames(variant: str, count: int, seed: int = 2024) -> list[Board]:
    """`count` positions after 14-22 seeded random plies that still have moves."""
    rng = random.Random(f"{seed}-{variant}")
    found: list[Board] = []
    while len(found) < count:
        board = Board(variant)
        for _ in range(rng.randint(14, 22)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if len(board.legal_moves) >= 2 and not board.has_capture():  # a real choice, not a forced reply
            found.append(Board(variant, board.fen()))
    return found


def rate(variant: str, boards: list[Board], seconds: float, native: bool) -> tuple[float, float]:
    """(nodes per CPU second, mean depth) of fresh searchers over `boards`."""
    nodes = cpu = 0.0
    depths = []
    for board in boards:
        engine = Engine(variant)
        engine.searcher = NativeSearcher(engine.evaluator) if native else Searcher(engine.evaluator)
        start = time.process_time()
        result = engine.search(board, SearchLimits(time=seconds))
        cpu += time.process_time() - start
        nodes += result.nodes
        depths.append(result.depth)
    return nodes / cpu, sum(depths) / len(depths)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per search (default 1)")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--variants", default="all", help="ids, or all: every variant the native core plays")
    parser.add_argument("--no-peer", action="store_true", help="skip dame-rs")
    args = parser.parse_args(argv)
    variants = native_variant_ids() if args.variants == "all" else tuple(args.variants.split(","))
    print(f"{args.positions} middlegame positions per variant, {args.time:g} s a search, fresh engine each")
    print(f"{'variant':<22}{'native nps':>12}{'depth':>7}{'python nps':>12}{'depth':>7}{'ratio':>8}")
    ratios = []
    boards_by_variant = {}
    for variant in variants:
        boards = boards_by_variant[variant] = middlegames(variant, args.positions)
        native_nps, native_depth = rate(variant, boards, args.time, True)
        pure_nps, pure_depth = rate(variant, boards, args.time, False)
        ratios.append(native_nps / pure_nps)
        print(f"{variant:<22}{native_nps:>12,.0f}{native_depth:>7.1f}{pure_nps:>12,.0f}{pure_depth:>7.1f}"
              f"{native_nps / pure_nps:>8.1f}", flush=True)
    mean = sum(ratios) / len(ratios)
    print(f"native / pure-Python nodes per second: min {min(ratios):.1f}, mean {mean:.1f} "
          f"(target >= {TARGET:g}: {'met' if min(ratios) >= TARGET else 'NOT met'})")
    if args.no_peer or "international" not in boards_by_variant:
        return 0
    boards = boards_by_variant["international"]
    rows, version = _dame.search(peer_python(), [b.fen() for b in boards], args.time)
    native_nps, native_depth = rate("international", boards, args.time, True)
    dame_nps = sum(r[0] for r in rows) / sum(r[1] for r in rows)
    dame_depth = sum(r[2] for r in rows) / len(rows)
    print(f"\ninternational, same positions: native {native_nps:,.0f} nps depth {native_depth:.1f}; "
          f"dame-rs {version} {dame_nps:,.0f} nps depth {dame_depth:.1f}; ratio {native_nps / dame_nps:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
