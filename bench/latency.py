"""Latency from a sensor snapshot to the LED frame, through the real state machine and rules core.

Plays seeded random games of international and spanish draughts (from the start and from king-rich
positions, so long flying-king captures occur) as physical events: lift, take off captured pieces one by one,
touch intermediate landing squares, place. Prints the median and 99th percentile of snapshot -> frame over
10,000 events, and the ratio against a named peer measured in the same run on the same positions: the bare
rules-core legal-move generation (``list(board.legal_moves)`` on a board freshly set from the FEN).

    .venv/bin/python bench/latency.py [--events 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.config import Config
from controller.machine import Controller
from controller.settings import GameSettings
from firmware_bridge.clock import ManualClock
from rules import Board

STARTS = {
    "international": [
        None,
        "W:WK46,K47,31,32,33,34,35,36:B5,6,7,8,9,10,14,15,16,17,18,19",
        "W:WK50,K41,36,37,38:B2,3,4,7,8,9,12,13,14,17,18,19,22,23,24",
    ],
    "spanish": [None, "W:WK1,K2,5,6,7,8:B21,22,23,24,25,26,27,28,29,30"],
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(events: int, seed: int) -> tuple[list[float], list[float], int]:
    rng = random.Random(seed)
    latencies: list[float] = []
    peer: list[float] = []
    long_captures = 0
    clock = ManualClock(0.0)
    shown: list[float] = []
    config = Config(human_color="both", opponent="person", takeback=False)
    while len(latencies) < events:
        variant = rng.choice(sorted(STARTS))
        fen = rng.choice(STARTS[variant])
        ctl = Controller(
            config.replace(variant=variant),
            clock=clock,
            show=lambda f: shown.append(time.perf_counter()),
            settings=GameSettings(variant, "both", "person", 3, fen, False),
        )
        ctl.new_game()
        occ = set(ctl.exp.base)
        ctl.snapshot(frozenset(occ))
        for _ply in range(120):
            if ctl.state != "person.idle" or not ctl.exp.shapes:
                break
            shape = rng.choice(ctl.exp.shapes)
            if len(shape.captures) >= 3:
                long_captures += 1
            board = Board(ctl.variant, ctl.game.board.fen())  # fresh: no cached move list
            t0 = time.perf_counter()
            list(board.legal_moves)
            peer.append(time.perf_counter() - t0)
            steps: list[tuple[str, tuple[int, int]]] = [("lift", shape.origin)]
            captured = list(shape.captures)
            for landing in shape.path[1:-1]:
                if landing not in occ and landing != shape.origin:
                    steps += [("place", landing), ("lift", landing)]
                if captured:
                    steps.append(("lift", captured.pop(0)))
            steps += [("lift", sq) for sq in captured]
            steps.append(("place", shape.target))
            for verb, sq in steps:
                if verb == "lift":
                    occ.discard(sq)
                else:
                    occ.add(sq)
                clock.advance(0.02)
                shown.clear()
                t0 = time.perf_counter()
                ctl.snapshot(frozenset(occ))
                t1 = shown[0] if shown else time.perf_counter()
                latencies.append(t1 - t0)
            clock.advance(0.5)
            ctl.tick()
            if ctl.state not in ("person.idle", "game_over"):
                break
    return latencies[:events], peer, long_captures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    latencies, peer, long_captures = run(args.events, args.seed)
    med, p99 = statistics.median(latencies), percentile(latencies, 0.99)
    peer_med, peer_p99 = statistics.median(peer), percentile(peer, 0.99)
    print(f"events: {len(latencies)} (international + spanish; {long_captures} captures of 3+ pieces)")
    print(
        f"snapshot -> LED frame: median {med * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms (target p99 < 5 ms: "
        f"{'met' if p99 < 0.005 else 'NOT met'})"
    )
    print(
        f"peer, bare rules-core legal-move generation (same positions, {len(peer)} samples): "
        f"median {peer_med * 1e3:.3f} ms, p99 {peer_p99 * 1e3:.3f} ms"
    )
    print(f"ratio controller/peer: median {med / peer_med:.1f}x, p99 {p99 / peer_p99:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
