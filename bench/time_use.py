"""How much of a fixed per-move budget the engine's search spends (issue: it stopped at 0.6-0.9 s of 1 s).

Usage: python bench/time_use.py [--times 1,0.2] [--positions 6] [--pure]

From seeded international middlegames (bench/search.py's), a fresh engine searches each position with
`SearchLimits(time=budget)`, as `dboard dxp` and the levels do; then the same over a game (`--game-moves`
moves a side of two engines playing each other, as in a DXP match: the tables stay warm between moves;
forced moves are not searched and not counted). Printed: the wall-clock seconds each search took over its
budget (mean, min, max) and the mean depth. 1.0 means the whole budget was used; a little above 1.0 is the
time the search needs to notice its deadline and unwind.

Measured (2 shared cores, native search, 8 positions; a game of 20 moves a side), used/budget mean (min):
  stop after 60% of the budget (before):  fresh 1 s 0.89 (0.72), 0.2 s 0.89 (0.66); game 1 s 0.89 (0.61),
                                          0.2 s 0.89 (0.61); depth fresh 13.4 / 11.5, game 13.1 / 11.0
  growth-predicted stop (now):            fresh 1 s 1.00 (1.00), 0.2 s 1.00 (1.00); game 1 s 0.97 (0.62),
                                          0.2 s 0.97 (0.56); depth fresh 13.4 / 11.5, game 13.7 / 11.6
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search import middlegames

from engine import Engine, SearchLimits
from engine.search import Searcher
from rules import Board


def shares(boards: list, budget: float, pure: bool) -> tuple[list[float], float]:
    """(seconds used / budget per position, mean depth) of fresh engines over `boards`."""
    used, depths = [], []
    for board in boards:
        engine = Engine("international")
        if pure:
            engine.searcher = Searcher(engine.evaluator)
        start = time.perf_counter()
        result = engine.search(board, SearchLimits(time=budget))
        used.append((time.perf_counter() - start) / budget)
        depths.append(result.depth)
    return used, sum(depths) / len(depths)


def game_shares(budget: float, moves: int, pure: bool) -> tuple[list[float], float]:
    """(seconds used / budget per move, mean depth) over a game from the start between two engines."""
    engines = [Engine("international"), Engine("international")]
    if pure:
        for engine in engines:
            engine.searcher = Searcher(engine.evaluator)
    board = Board("international")
    used, depths = [], []
    for ply in range(2 * moves):
        if not board.legal_moves:
            break
        engine = engines[ply % 2]
        if len(board.legal_moves) == 1:
            board.push(next(iter(board.legal_moves)))
            continue
        start = time.perf_counter()
        result = engine.search(board, SearchLimits(time=budget))
        used.append((time.perf_counter() - start) / budget)
        depths.append(result.depth)
        assert result.move is not None
        board.push(result.move)
    return used, sum(depths) / max(1, len(depths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", default="1,0.2", help="budgets in seconds, comma-separated")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--game-moves", type=int, default=20, help="moves per side of the game (0: none)")
    parser.add_argument("--pure", action="store_true", help="the pure-Python searcher")
    args = parser.parse_args(argv)
    boards = middlegames("international", args.positions)
    kind = "pure-Python" if args.pure else "engine's default (native when built)"
    print(f"{args.positions} international middlegames, {kind} searcher, fresh engine each")
    print(f"{'budget s':>9}{'used/budget mean':>18}{'min':>7}{'max':>7}{'depth':>7}")
    for budget in (float(t) for t in args.times.split(",")):
        used, depth = shares(boards, budget, args.pure)
        print(f"{budget:>9g}{sum(used) / len(used):>18.2f}{min(used):>7.2f}{max(used):>7.2f}{depth:>7.1f}",
              flush=True)
    if args.game_moves:
        print(f"a game of up to {args.game_moves} moves a side from the start, tables kept between moves")
        for budget in (float(t) for t in args.times.split(",")):
            used, depth = game_shares(budget, args.game_moves, args.pure)
            print(f"{budget:>9g}{sum(used) / len(used):>18.2f}{min(used):>7.2f}{max(used):>7.2f}"
                  f"{depth:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
