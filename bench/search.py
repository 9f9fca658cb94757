"""Search speed: nodes per second and depth reached in 1 s from five seeded middlegame positions per variant.

Two named peers, measured in the same run from the same positions: a plain push/pop walk of the full tree
(same node definition as the search, no evaluation) and `rules.perft` (leaf count, may bulk-count the last
ply). The ratios say how much of the raw move-generation speed the search keeps.
Usage: python bench/search.py [--time 1.0] [--positions 5] [--variants all|a,b,...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Engine, SearchLimits
from rules import VARIANT_IDS, Board, perft


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


def perft_rate(board: Board, budget: float) -> float:
    """Perft nodes per second at the deepest depth whose run fits the budget."""
    nodes, seconds, depth = 0, 0.0, 1
    while True:
        t0 = time.perf_counter()
        n = perft(board, depth)
        dt = time.perf_counter() - t0
        nodes, seconds = nodes + n, seconds + dt
        if seconds > budget / 4 or depth >= 8:
            return nodes / seconds if seconds > 0 else 0.0
        depth += 1


def _walk(board: Board, depth: int) -> int:
    """Every position of the full tree to `depth` plies, visited by push/pop (no bulk counting)."""
    if depth == 0:
        return 1
    nodes = 1
    for move in board.legal_moves:
        board.push(move)
        nodes += _walk(board, depth - 1)
        board.pop()
    return nodes


def walk_rate(board: Board, budget: float) -> float:
    """Nodes per second of the plain tree walk, deepening until the budget's quarter is used."""
    nodes, seconds, depth = 0, 0.0, 1
    while True:
        t0 = time.perf_counter()
        nodes += _walk(board, depth)
        seconds += time.perf_counter() - t0
        if seconds > budget / 4 or depth >= 8:
            return nodes / seconds if seconds > 0 else 0.0
        depth += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per search (default 1)")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--variants", default="all")
    args = parser.parse_args(argv)
    variants = VARIANT_IDS if args.variants == "all" else tuple(args.variants.split(","))
    print(
        f"{'variant':<16} {'search nps':>10} {'depth':>5} {'walk nps':>9} {'ratio':>5} "
        f"{'perft nps':>10} {'ratio':>5}"
    )
    all_ratio = []
    walk_ratio = []
    for variant in variants:
        engine = Engine(variant)
        nodes = seconds = 0.0
        depths = []
        perft_nps = []
        walk_nps = []
        for board in middlegames(variant, args.positions):
            engine.new_game()
            result = engine.search(board, SearchLimits(time=args.time))
            nodes += result.nodes
            seconds += result.seconds
            depths.append(result.depth)
            perft_nps.append(perft_rate(board, args.time))
            walk_nps.append(walk_rate(board, args.time))
        nps = nodes / seconds if seconds else 0.0
        peer = sum(perft_nps) / len(perft_nps)
        ratio = nps / peer if peer else 0.0
        walk = sum(walk_nps) / len(walk_nps)
        wratio = nps / walk if walk else 0.0
        all_ratio.append(ratio)
        walk_ratio.append(wratio)
        print(
            f"{variant:<16} {nps:10.0f} {sum(depths) / len(depths):5.1f} {walk:9.0f} {wratio:5.2f} "
            f"{peer:10.0f} {ratio:5.2f}   depths {depths}",
            flush=True,
        )
    print(
        f"mean ratio search / plain push-pop walk nodes per second: {sum(walk_ratio) / len(walk_ratio):.2f}"
    )
    print(f"mean ratio search / rules.perft leaves per second:        {sum(all_ratio) / len(all_ratio):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
