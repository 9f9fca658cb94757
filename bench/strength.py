"""Matches between engine levels (1 vs 5, 5 vs 10) from varied openings; each step up must score >= 75%.

Usage: python bench/strength.py [--games 100] [--time 0.2] [--jobs 2] [--variants international,spanish,...]
With --ladder it plays every adjacent pair (1-2 ... 9-10) instead and prints each level's rating, level 1 at
the anchor and each step the Elo difference its score implies: the fixed ratings of engine/ratings.py come
from such a run (the ratio printed per step is the higher level's expected score against the lower).
Each opening (a few seeded random plies from the start) is played twice with colors swapped. Games that
reach --max-plies are adjudicated on material (two men's worth ahead wins), else drawn.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Engine
from engine.evaluation import king_value
from rules import Board, Color, Game, get_variant

DEFAULT_VARIANTS = ("international", "spanish", "english", "russian")


@dataclass(frozen=True)
class Job:
    variant: str
    low: int
    high: int
    opening_seed: int
    high_is_white: bool
    move_time: float
    max_plies: int


def _opening(variant: str, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(rng.randint(2, 4)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def _material(board: Board, color: Color) -> int:
    kv = king_value(board.variant)
    return 100 * len(board.men(color)) + kv * len(board.kings(color))


def play(job: Job) -> tuple[Job, float, str, int]:
    """Play one game; returns (job, score of the higher level, result text, plies)."""
    opening = _opening(job.variant, job.opening_seed)
    claims = {"draw_claims": []} if "draw_claims" in get_variant(job.variant).options else {}
    game = Game(get_variant(job.variant, **claims), opening.fen())   # engines claim every draw at once
    engine = Engine(job.variant)
    rng = random.Random(job.opening_seed * 7919 + job.high_is_white)
    high_color = Color.WHITE if job.high_is_white else Color.BLACK
    plies = 0
    while game.outcome() is None and plies < job.max_plies:
        level = job.high if game.board.turn == high_color else job.low
        game.push(engine.choose_move(game.board, level, rng=rng, time_limit=job.move_time))
        plies += 1
    outcome = game.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return job, 0.5, f"draw ({outcome.reason})", plies
        return job, 1.0 if outcome.winner == high_color else 0.0, outcome.reason, plies
    diff = _material(game.board, high_color) - _material(game.board, high_color.opponent)
    if abs(diff) >= 200:
        return job, 1.0 if diff > 0 else 0.0, "adjudicated on material", plies
    return job, 0.5, "adjudicated draw", plies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=100, help="games per level pair and variant (default 100)"
    )
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move cap (default 0.2)")
    parser.add_argument("--jobs", type=int, default=max(1, mp.cpu_count()), help="parallel games")
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    parser.add_argument("--pairs", default="1-5,5-10", help="level pairs low-high (default 1-5,5-10)")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ladder", action="store_true", help="adjacent pairs 1-2 ... 9-10, and the ratings")
    parser.add_argument("--anchor", type=float, default=700.0, help="level 1's rating in the ladder")
    args = parser.parse_args(argv)
    if args.ladder:
        args.pairs = ",".join(f"{n}-{n + 1}" for n in range(1, 10))
    pairs = [tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",")]
    jobs = []
    for variant in args.variants.split(","):
        for low, high in pairs:
            for g in range(args.games):
                jobs.append(
                    Job(
                        variant,
                        low,
                        high,
                        args.seed * 100_003 + g // 2,
                        g % 2 == 0,
                        args.time,
                        args.max_plies,
                    )
                )
    totals: dict[tuple[str, int, int], list[float]] = {}
    start = time.perf_counter()
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for done, (job, score, why, plies) in enumerate(pool.imap_unordered(play, jobs), 1):
            key = (job.variant, job.low, job.high)
            totals.setdefault(key, []).append(score)
            s = totals[key]
            print(
                f"[{done}/{len(jobs)} {time.perf_counter() - start:6.0f}s] "
                f"{job.variant} L{job.high} vs L{job.low}"
                f" ({'white' if job.high_is_white else 'black'}): {score:g} {why}, {plies} plies;"
                f" running {100 * sum(s) / len(s):.0f}% of {len(s)}",
                flush=True,
            )
    print("\nlevel step                      games  score of the higher level")
    ok = True
    for (variant, low, high), scores in sorted(totals.items()):
        pct = 100 * sum(scores) / len(scores)
        ok &= pct >= 75
        print(
            f"{variant:<16} L{high:<2} vs L{low:<2}       {len(scores):5d}  {pct:5.1f}%  "
            f"{'ok' if pct >= 75 else 'FAIL'}"
        )
    if args.ladder:
        print_ladder(totals, args.anchor)
        return 0
    print("all steps >= 75%" if ok else "some step is below 75%")
    return 0 if ok else 1


def elo_gap(score: float, games: int) -> float:
    """The rating difference a score implies; a clean sweep counts as half a game short of it."""
    p = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return -400 * math.log10(1 / p - 1)


def print_ladder(totals: dict[tuple[str, int, int], list[float]], anchor: float) -> None:
    """Each variant's level ratings from its adjacent-pair scores, and the mean ladder over the variants."""
    ladders: dict[str, list[float]] = {}
    for (variant, _, _), scores in sorted(totals.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        ladder = ladders.setdefault(variant, [anchor])
        ladder.append(ladder[-1] + elo_gap(sum(scores) / len(scores), len(scores)))
    print(f"\nlevel ratings (level 1 = {anchor:.0f})")
    for variant, ladder in ladders.items():
        print(f"{variant:<16} " + " ".join(f"{r:6.0f}" for r in ladder))
    mean = [sum(col) / len(col) for col in zip(*ladders.values(), strict=True)]
    print(f"{'mean':<16} " + " ".join(f"{r:6.0f}" for r in mean))
    for variant, ladder in ladders.items():
        offset = sum(r - m for r, m in zip(ladder, mean, strict=True)) / len(mean)
        print(f"{variant:<16} offset from the mean {offset:+.0f}")


if __name__ == "__main__":
    sys.exit(main())
