"""Matches of the top level (10): native against dame-rs (international), and native against pure Python.

Usage: python bench/match.py [--games 100] [--time 0.5] [--self-games 20] [--self-time 0.5] [--jobs 2]
                             [--variants english,russian,...] [--no-dame] [--no-self]

Part 1: our top level (the compiled search) against dame-rs (PyPI `dame-rs`, in .bench-venv), international,
`--time` seconds a move each, from varied openings (the first plies of the played games in tests/data, then
seeded random ones that a search of 8 plies finds balanced), every opening twice with the colors swapped.
Part 2: in each variant, our top level on the native core against the same level on the pure-Python core at
equal time. Games end by the rules (Game: no move, repetition, the move-count and endgame rules, draws
applied at once); one reaching --max-plies is adjudicated on material (two men's worth ahead wins). Prints
each result, with the material at its end, and the score of the first player with its 95% interval (normal
approximation over wins, draws and losses).
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _dame import DameEngine
from _pydraughts_venv import peer_python

from engine import Engine, SearchLimits
from engine.evaluation import king_value
from engine.notation import hub_move_text, parse_hub_move
from engine.search import Searcher
from rules import Board, Color, Game, Move, get_variant
from rules.pdn import PdnReader
from rules.pdn.encoding import DecodedLines

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SELF_VARIANTS = ("english", "russian", "spanish", "italian", "brazilian", "turkish")
BALANCE_DEPTH = 8        # plies of the search that judges a random opening
BALANCE_MARGIN = 100     # ... and the score (a man) it must stay under


@dataclass(frozen=True)
class Job:
    """One game: `first` (native, the player whose score is reported) against `second`."""

    variant: str
    second: str            # "dame" or "python"
    opening: str           # FEN
    first_is_white: bool
    move_time: float
    max_plies: int


def openings(variant: str, count: int, seed: int = 7) -> list[str]:
    """`count` distinct opening FENs: after 4 plies of the tests/data games, then seeded random ones."""
    out: list[str] = []
    if variant == "international":
        for name in sorted(DATA.glob("international-*.pdn")):
            with name.open("rb") as handle:
                for game in PdnReader(DecodedLines(handle), validate=True):
                    board = Board(variant)
                    for node in game.moves[:4]:
                        board.push(node.move)  # type: ignore[arg-type]
                    if board.fen() not in out:
                        out.append(board.fen())
    rng = random.Random(f"{seed}-{variant}")
    judge = Engine(variant)
    while len(out) < count:
        board = Board(variant)
        for _ in range(rng.randint(2, 4)):
            board.push(rng.choice(list(board.legal_moves)))
        if board.legal_moves and board.fen() not in out and _balanced(judge, board):
            out.append(board.fen())
    return out[:count]


def _balanced(judge: Engine, board: Board) -> bool:
    """Neither side is a man ahead after a fixed-depth search: random plies can hang men, and an opening
    lost for one color scores 50% for both players whatever their strength (each plays it once each way)."""
    return abs(judge.search(board, SearchLimits(depth=BALANCE_DEPTH)).score) < BALANCE_MARGIN


class _Player:
    def move(self, game: Game, start: str, history: list[Move]) -> Move:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _Ours(_Player):
    """Level 10 on the native core, or on the pure-Python core when `pure`."""

    def __init__(self, variant: str, move_time: float, pure: bool = False) -> None:
        self.engine = Engine(variant)
        if pure:
            self.engine.searcher = Searcher(self.engine.evaluator)
        self.time = move_time

    def move(self, game: Game, start: str, history: list[Move]) -> Move:
        return self.engine.choose_move(game.board, 10, time_limit=self.time)


class _Dame(_Player):
    def __init__(self, move_time: float) -> None:
        self.engine = DameEngine(peer_python())
        self.time = move_time

    def move(self, game: Game, start: str, history: list[Move]) -> Move:
        replay = Board(game.variant, start)
        texts = []
        for m in history:
            texts.append(hub_move_text(replay, m))
            replay.push(m)
        text = self.engine.play(start, texts, self.time)
        if text is None:
            raise RuntimeError(f"dame-rs has no move in {game.board.fen()}")
        return parse_hub_move(game.board, text)

    def close(self) -> None:
        self.engine.close()


def _material(board: Board, color: Color) -> int:
    return 100 * len(board.men(color)) + king_value(board.variant) * len(board.kings(color))


def play(job: Job) -> tuple[Job, float, str, int]:
    """One game; returns (job, score of the first player, how it ended, plies)."""
    variant = get_variant(job.variant, draw_claims=[])   # draws by rule end the game at once
    game = Game(variant, job.opening)
    first = _Ours(job.variant, job.move_time)
    second = _Dame(job.move_time) if job.second == "dame" else _Ours(job.variant, job.move_time, pure=True)
    first_color = Color.WHITE if job.first_is_white else Color.BLACK
    history: list[Move] = []
    try:
        while game.outcome() is None and len(history) < job.max_plies:
            player = first if game.board.turn == first_color else second
            history.append(game.push(player.move(game, job.opening, history)))
    finally:
        second.close()
    outcome = game.outcome()
    diff = _material(game.board, first_color) - _material(game.board, first_color.opponent)
    if outcome is not None:
        if outcome.winner is None:
            return job, 0.5, f"draw ({outcome.reason}, material {diff:+d} for native)", len(history)
        return job, 1.0 if outcome.winner == first_color else 0.0, outcome.reason, len(history)
    if abs(diff) >= 200:
        return job, 1.0 if diff > 0 else 0.0, f"adjudicated on material ({diff:+d})", len(history)
    return job, 0.5, f"adjudicated draw ({diff:+d})", len(history)


def interval(scores: list[float]) -> tuple[float, float]:
    """(mean score, half-width of its 95% interval), normal approximation."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / n
    return mean, 1.96 * math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games against dame-rs (default 100)")
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move against dame-rs")
    parser.add_argument("--self-games", type=int, default=20, help="native vs Python games per variant")
    parser.add_argument("--self-time", type=float, default=0.5, help="seconds a move, native vs Python")
    parser.add_argument("--variants", default=",".join(SELF_VARIANTS))
    parser.add_argument("--jobs", type=int, default=max(1, mp.cpu_count()))
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--no-dame", action="store_true")
    parser.add_argument("--no-self", action="store_true")
    args = parser.parse_args(argv)
    jobs: list[Job] = []
    if not args.no_dame:
        peer_python()   # create the peers' venv before the workers start
        for fen in openings("international", (args.games + 1) // 2):
            for white in (True, False):
                jobs.append(Job("international", "dame", fen, white, args.time, args.max_plies))
        jobs = jobs[: args.games]
    if not args.no_self:
        for variant in args.variants.split(","):
            for fen in openings(variant, (args.self_games + 1) // 2):
                for white in (True, False):
                    jobs.append(Job(variant, "python", fen, white, args.self_time, args.max_plies))
    print(f"{len(jobs)} games, {args.jobs} at a time", flush=True)
    totals: dict[tuple[str, str], list[float]] = {}
    start = time.perf_counter()
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for done, (job, score, why, plies) in enumerate(pool.imap_unordered(play, jobs), 1):
            scores = totals.setdefault((job.variant, job.second), [])
            scores.append(score)
            running = 100 * sum(scores) / len(scores)
            print(f"[{done}/{len(jobs)} {time.perf_counter() - start:6.0f}s] {job.variant} native "
                  f"({'white' if job.first_is_white else 'black'}) vs {job.second}: {score:g} {why}, "
                  f"{plies} plies; running {running:.1f}% of {len(scores)}", flush=True)
    print(f"\n{'match':<40}{'games':>6}{'W':>5}{'D':>5}{'L':>5}  score of the native top level")
    for (variant, second), scores in sorted(totals.items()):
        mean, half = interval(scores)
        peer = "dame-rs" if second == "dame" else "pure-Python top level"
        wins, draws = scores.count(1.0), scores.count(0.5)
        losses = len(scores) - wins - draws
        print(f"{variant + ' vs ' + peer:<40}{len(scores):>6}{wins:>5}{draws:>5}{losses:>5}"
              f"  {100 * mean:5.1f}% +- {100 * half:.1f}% (95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
