"""BrainKing's seven games to depth 5: the rules core against the deliberately simple generator of the tests.

Usage: .venv/bin/python bench/perft_brainking.py [--depth 5] [--games corner,dameo,...]

For each game it walks the tree of the rules core from the start to the depth (each position once, the counts
of transpositions reused), and at every position compares its legal moves with those of the simple generator
(tests/rules/simple_movegen.py) and the position after each move; at the last level it compares the number of
moves. It prints perft(depth) of both (they must agree: docs/rules/reference-data.md has the table), the
positions compared, and the time of each generator: ratio = simple generator's time / the rules core's (> 1:
the rules core is faster). Dameo at depth 5 compares about two million positions: tens of minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "rules"))

from simple_movegen import Simple, SimpleMove, play, position_of  # noqa: E402

import rules  # noqa: E402

GAMES = ("corner", "one-way", "parachute", "alquerque", "hawaii", "gothic", "dameo")


class Walk:
    """One game's tree, both generators timed separately."""

    def __init__(self, game: str) -> None:
        self.simple = Simple(game)
        self.memo: dict[tuple[int, int, int, int, int], int] = {}
        self.core_time = self.simple_time = 0.0
        self.compared = 0

    def count(self, board: rules.Board, depth: int) -> int:
        w, b, k = board.bitboards()
        key = (w, b, k, int(board.turn), depth)
        if key in self.memo:
            return self.memo[key]
        start = time.perf_counter()
        moves = list(board.legal_moves)
        self.core_time += time.perf_counter() - start
        pos, turn = position_of(board)
        start = time.perf_counter()
        theirs = self.simple.moves(pos, turn)
        self.simple_time += time.perf_counter() - start
        self.compared += 1
        g = board.variant.geometry
        mine = {SimpleMove(g.rc(m.from_square), g.rc(m.to_square), frozenset(g.rc(c) for c in m.captures),
                           m.promotion): m for m in moves}
        if set(mine) != set(theirs):
            raise SystemExit(f"{board.variant.id} {board.fen()}: the generators differ: core only "
                             f"{set(mine) - set(theirs)}, simple only {set(theirs) - set(mine)}")
        total = len(moves)
        if depth > 1:
            total = 0
            for simple_move, move in mine.items():
                board.push(move)
                if play(pos, simple_move) != position_of(board)[0]:
                    raise SystemExit(f"{board.variant.id}: the position after {move} differs")
                total += self.count(board, depth - 1)
                board.pop()
        self.memo[key] = total
        return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    print(f"{'game':<10} {'depth':>5} {'perft (core)':>14} {'perft (simple)':>15} {'positions':>10} "
          f"{'core s':>8} {'simple s':>9} {'ratio':>6}")
    for game in args.games.split(","):
        board = rules.Board(game)
        start = time.perf_counter()
        core = rules.perft(board, args.depth)
        perft_time = time.perf_counter() - start
        walk = Walk(game)
        simple = walk.count(board, args.depth)
        ratio = walk.simple_time / max(walk.core_time, 1e-9)
        print(f"{game:<10} {args.depth:>5} {core:>14,} {simple:>15,} {walk.compared:>10,} "
              f"{walk.core_time:>8.1f} {walk.simple_time:>9.1f} {ratio:>6.1f}"
              f"{'' if core == simple else '  DIFFERENT'}   (rules.perft alone: {perft_time:.1f} s)",
              flush=True)
        if core != simple:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
