"""Latency from a sensor reading to the LED frame, through the real input path, state machine and rules core.

Plays seeded random games of international and spanish draughts (from the start and from king-rich
positions, so long flying-king captures occur) as physical events: lift, take off captured pieces one by one,
touch intermediate landing squares, place. Each reading goes in as a board's would: ``Table.feed`` (board
health's view, the Controller, the follow-up), timed until the frame reaches the Table's Ports. Prints the
median and 99th percentile over 10,000 events, with two peers measured in the same run on the same events:

- the bare rules-core legal-move generation (``list(board.legal_moves)`` on a board freshly set from the FEN);
- the input path before the Table (commit 1119bcb: its controller, firmware bridge and readers unpacked from
  git, run in a subprocess on this tree's rules core: the Session's health view, ``Controller.snapshot`` and
  health's follow-up, as ``Session._handle`` did them).

    .venv/bin/python bench/latency.py [--events 10000] [--seed 1] [--peer 1119bcb | --no-peer]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEER = "1119bcb"
PEER_NAME = "the input path before the Table"
if "--worker" not in sys.argv:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _peer import run_in_peer  # noqa: E402

from controller.config import Config  # noqa: E402
from controller.machine import Controller  # noqa: E402
from controller.settings import GameSettings  # noqa: E402
from firmware_bridge.clock import ManualClock  # noqa: E402
from firmware_bridge.faults import WireMap  # noqa: E402
from rules import Board  # noqa: E402

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


Feed = Callable[[frozenset[tuple[int, int]], float], None]


def board_of(config: Config, clock: ManualClock, settings: GameSettings,
             shown: list[float]) -> tuple[Controller, Feed, Callable[[float], None]]:
    """The game, how a reading goes in, and how time passes: through a Table when this tree has one, else as
    the Session fed the Controller before it (health's view, ``snapshot``, health's follow-up)."""
    import controller

    if not (Path(controller.__file__).parent / "table.py").exists():
        from controller.health import BoardHealth

        ctl = Controller(config, clock=clock, settings=settings,
                         show=lambda f: shown.append(time.perf_counter()))
        health = BoardHealth(ctl, say=ctl.say, show=lambda f: None, clock=clock,
                             wires=WireMap(ctl.variant.height, ctl.variant.width))

        def feed(squares: frozenset[tuple[int, int]], now: float) -> None:
            ctl.snapshot(health.reading(squares, now))
            health.after_input(now)

        def tick(now: float) -> None:
            ctl.tick()
            health.after_input(now)

        return ctl, feed, tick

    from controller.offline import OfflinePorts
    from controller.table import Table

    class Timed(OfflinePorts):
        def show(self, frame: Any) -> None:
            shown.append(time.perf_counter())

    table = Table(config, Timed(clock), clock=clock, settings=settings)
    return table.controller, table.feed, table.tick


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
        ctl, feed, tick = board_of(config.replace(variant=variant), clock,
                                   GameSettings(variant, "both", "person", 3, fen, False), shown)
        ctl.new_game()
        occ = set(ctl.exp.base)
        feed(frozenset(occ), clock.now())
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
                feed(frozenset(occ), clock.now())
                t1 = shown[0] if shown else time.perf_counter()
                latencies.append(t1 - t0)
            clock.advance(0.5)
            tick(clock.now())
            if ctl.state not in ("person.idle", "game_over"):
                break
    return latencies[:events], peer, long_captures


def run_peer(commit: str, events: int, seed: int) -> dict[str, Any]:
    """The same events through the input path of ``commit`` (its tree unpacked from git), in a subprocess."""
    tree, out = run_in_peer(commit, [sys.executable, __file__, "--worker", "--events", str(events),
                                     "--seed", str(seed)], "latency-peer-")
    if out.returncode != 0:
        raise SystemExit(f"the peer ({commit}) failed:\n{out.stderr}")
    result: dict[str, Any] = json.loads(out.stdout)
    if not Path(result["controller"]).is_relative_to(tree):
        raise SystemExit(f"the peer ran this tree's controller ({result['controller']}), not {commit}'s")
    if not result["native"]:
        raise SystemExit(f"the peer ({commit}) ran the pure-Python rules core: an unfair ratio")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peer", default=PEER, help=f"git commit of the peer input path (default {PEER})")
    parser.add_argument("--no-peer", action="store_true", help="measure this tree and the rules core only")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    latencies, peer, long_captures = run(args.events, args.seed)
    med, p99 = statistics.median(latencies), percentile(latencies, 0.99)
    if args.worker:
        import controller
        import rules.native

        print(json.dumps({"median": med, "p99": p99, "controller": controller.__file__,
                          "native": rules.native.available()}))
        return 0
    peer_med, peer_p99 = statistics.median(peer), percentile(peer, 0.99)
    print(f"events: {len(latencies)} (international + spanish; {long_captures} captures of 3+ pieces)")
    print(
        f"reading -> LED frame: median {med * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms (target p99 < 5 ms: "
        f"{'met' if p99 < 0.005 else 'NOT met'})"
    )
    print(
        f"peer, bare rules-core legal-move generation (same positions, {len(peer)} samples): "
        f"median {peer_med * 1e3:.3f} ms, p99 {peer_p99 * 1e3:.3f} ms"
    )
    print(f"ratio this/rules core: median {med / peer_med:.1f}x, p99 {p99 / peer_p99:.1f}x")
    if not args.no_peer:
        old = run_peer(args.peer, args.events, args.seed)
        print(f"peer, {PEER_NAME} ({args.peer}, same events): median {old['median'] * 1e3:.3f} ms, "
              f"p99 {old['p99'] * 1e3:.3f} ms")
        print(f"ratio this/{PEER_NAME}: median {med / old['median']:.2f}x, p99 {p99 / old['p99']:.2f}x "
              f"(goal: p99 at most 1.2x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
