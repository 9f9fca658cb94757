"""Two settings of the compiled search against each other: node rate, depth in a given time, and a match.

Usage: python bench/parallel.py [--a threads=2] [--b threads=1] [--variant international] [--time 1.0]
                                [--positions 5] [--depth 0] [--games 40] [--move-time 0.2] [--jobs 1]
                                [--max-plies 200]

A and B are NativeSearcher keyword settings (`threads=2`, `reductions=0`, several joined by commas); the
defaults measure the parallel search against the single thread. Part 1: on bench/search.py's seeded
middlegames, each setting searches `--time` seconds on a fresh engine: nodes per wall-clock second (the
threads share the clock, so CPU time would hide what they add), depth reached, and A / B; with --depth,
the nodes each needs to finish that depth (what selectivity saves, whatever else the machine runs).
Part 2: A's top level against B's at `--move-time` a move, from bench/match.py's balanced openings, each
played twice with the colors swapped; prints every result and A's score with its 95% interval. With
threads > 1 play one game at a time (`--jobs 1`): a game's two engines move in turn, so a 2-thread
search has both cores while it thinks.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing as mp
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from match import _material, interval, openings
from search import middlegames

from engine import Engine, SearchLimits
from engine.native import NativeSearcher, Selectivity
from rules import Board, Color, Game, get_variant


def parse_setting(text: str) -> dict[str, int]:
    """'threads=2,reductions=0' -> {'threads': 2, 'reductions': 0} (booleans as 0/1)."""
    out: dict[str, int] = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        out[name.strip()] = int(value)
    return out


def engine_with(variant: str, setting: dict[str, int]) -> Engine:
    """A fresh Engine whose searcher is the compiled one with `setting` (Selectivity's fields among them)."""
    engine = Engine(variant)
    fields = Selectivity.__dataclass_fields__
    chosen = {k: v for k, v in setting.items() if k in fields}
    rest = {k: v for k, v in setting.items() if k not in fields}
    selectivity = dataclasses.replace(Selectivity(), **chosen)
    engine.searcher = NativeSearcher(engine.evaluator, selectivity=selectivity, **rest)   # type: ignore[arg-type]
    return engine


def rate(variant: str, boards: list[Board], seconds: float,
         setting: dict[str, int]) -> tuple[float, list[int]]:
    """(nodes per wall-clock second, depths) of fresh engines with `setting` over `boards`."""
    nodes = wall = 0.0
    depths = []
    for board in boards:
        engine = engine_with(variant, setting)
        start = time.perf_counter()
        result = engine.search(board, SearchLimits(time=seconds))
        wall += time.perf_counter() - start
        nodes += result.nodes
        depths.append(result.depth)
    return nodes / wall, depths


@dataclass(frozen=True)
class Job:
    """One game: A (the player whose score is reported) against B from `opening`."""

    variant: str
    a: str
    b: str
    opening: str
    a_is_white: bool
    move_time: float
    max_plies: int


def play(job: Job) -> tuple[Job, float, str, int]:
    """One game; returns (job, A's score, how it ended, plies)."""
    variant = get_variant(job.variant, draw_claims=[])   # draws by rule end the game at once
    game = Game(variant, job.opening)
    engines = {True: engine_with(job.variant, parse_setting(job.a)),
               False: engine_with(job.variant, parse_setting(job.b))}
    a_color = Color.WHITE if job.a_is_white else Color.BLACK
    plies = 0
    while game.outcome() is None and plies < job.max_plies:
        engine = engines[game.board.turn == a_color]
        game.push(engine.choose_move(game.board, 10, time_limit=job.move_time))
        plies += 1
    outcome = game.outcome()
    diff = _material(game.board, a_color) - _material(game.board, a_color.opponent)
    if outcome is not None:
        if outcome.winner is None:
            return job, 0.5, f"draw ({outcome.reason}, material {diff:+d} for A)", plies
        return job, 1.0 if outcome.winner == a_color else 0.0, outcome.reason, plies
    if abs(diff) >= 200:
        return job, 1.0 if diff > 0 else 0.0, f"adjudicated on material ({diff:+d})", plies
    return job, 0.5, f"adjudicated draw ({diff:+d})", plies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="threads=2", help="setting A (NativeSearcher keywords)")
    parser.add_argument("--b", default="threads=1", help="setting B, the peer")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a search in part 1")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--depth", type=int, default=0,
                        help="also the nodes each setting needs to finish this depth (not timed: load-proof)")
    parser.add_argument("--games", type=int, default=40, help="games in part 2 (0: none)")
    parser.add_argument("--move-time", type=float, default=0.2)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args(argv)
    a, b = parse_setting(args.a), parse_setting(args.b)
    boards = middlegames(args.variant, args.positions)
    print(f"{args.variant}: A = {args.a or 'default'}, B = {args.b or 'default'}; {args.positions} "
          f"middlegame positions, {args.time:g} s a search, fresh engine each", flush=True)
    rate_a, depths_a = rate(args.variant, boards, args.time, a)
    rate_b, depths_b = rate(args.variant, boards, args.time, b)
    for name, nps, depths in (("A", rate_a, depths_a), ("B", rate_b, depths_b)):
        print(f"  {name}: {nps:>12,.0f} nodes/s  depth mean {sum(depths) / len(depths):.1f}  {depths}")
    print(f"  node rate A / B: {rate_a / rate_b:.2f}", flush=True)
    if args.depth:
        counts = [[engine_with(args.variant, setting).search(board, SearchLimits(depth=args.depth)).nodes
                   for board in boards] for setting in (a, b)]
        total_a, total_b = sum(counts[0]), sum(counts[1])
        print(f"  nodes to depth {args.depth}: A {total_a:,} {counts[0]}\n"
              f"                    B {total_b:,} {counts[1]}; A / B {total_a / total_b:.2f}", flush=True)
    if args.games <= 0:
        return 0
    jobs = [Job(args.variant, args.a, args.b, fen, white, args.move_time, args.max_plies)
            for fen in openings(args.variant, (args.games + 1) // 2) for white in (True, False)][: args.games]
    print(f"\n{len(jobs)} games A vs B at {args.move_time:g} s a move, {args.jobs} at a time", flush=True)
    scores: list[float] = []
    start = time.perf_counter()
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for done, (job, score, why, plies) in enumerate(pool.imap_unordered(play, jobs), 1):
            scores.append(score)
            side = "white" if job.a_is_white else "black"
            print(f"[{done}/{len(jobs)} {time.perf_counter() - start:5.0f}s] A ({side}): {score:g} {why}, "
                  f"{plies} plies; running {100 * sum(scores) / len(scores):.1f}%", flush=True)
    mean, half = interval(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    print(f"A vs B: {len(scores)} games, +{wins} ={draws} -{len(scores) - wins - draws}: "
          f"A scores {100 * mean:.1f}% +- {100 * half:.1f}% (95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
