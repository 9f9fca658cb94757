"""Perft speed of the rules core for every variant (native and pure Python), and against two peers.

Usage: .venv/bin/python bench/perft.py [--quick] [--no-peer] [--deep] [--variants id,id]

Prints leaf nodes per second (nps) of `rules.perft` from the start position for every variant, on the
pure-Python core (the reference) and on the compiled one (which counts deeper, to run at least 0.1 s),
checked against docs/rules/reference-data.md where it has a number. Then the peers, measured in the same
run, interleaved, in their own venv (.bench-venv, subprocesses), counting the same way on both sides:
  * py-draughts (PyPI `py-draughts`), international and english:
      api - public API at every node: generate the legal moves (Move objects), push/pop, count the moves of
            the depth-1 nodes as leaves (ours: rules.Board.legal_moves; peer: Board.legal_moves);
      own - each library's own perft routine (ours: rules.perft; peer: draughts.engines.turbo.perft, which
            exists for the 10x10 board only);
  * dame-rs (PyPI `dame-rs`, Rust), international only: own perft (dame.perft).
Times are CPU seconds of the process doing the work (ours, or the peer's subprocess), so that other load on
a shared machine does not skew the ratios. ratio = our nps / peer nps (> 1 means we are faster).
Note: py-draughts' AmericanBoard makes captures optional, so its english leaf counts differ from ours (which
follow the compulsory-capture rules).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _dame  # noqa: E402
from _pydraughts_venv import measure, peer_python  # noqa: E402

import rules  # noqa: E402
from rules import native  # noqa: E402
from rules.movegen import MoveGen  # noqa: E402

DEPTHS = {  # fixed depth per variant (runs of roughly 0.2-5 s each)
    "spanish": 7,
    "spanish-traditional": 7,
    "spanish-german": 7,
    "spanish-nordic": 8,
    "portuguese": 7,
    "international": 6,
    "polish": 6,
    "brazilian": 7,
    "canadian": 5,
    "russian": 7,
    "english": 7,
    "giveaway": 7,
    "italian": 7,
    "czech": 7,
    "thai": 6,
    "turkish": 6,
}
REFERENCE = {  # drop-duplicates counts of docs/rules/reference-data.md#perft-counts
    ("english", 7): 179740,
    ("english", 8): 845931,
    ("english", 9): 3963680,
    ("english", 10): 18391564,
    ("international", 6): 167140,
    ("international", 7): 1049442,
    ("international", 8): 6483961,
    ("international", 9): 41022423,
    ("russian", 7): 190146,
    ("russian", 8): 929899,
    ("russian", 9): 4570586,
    ("russian", 10): 22444032,
    ("czech", 7): 179740,
    ("giveaway", 7): 179740,
}
PEERS = (("international", "standard", 6), ("english", "american", 7))
DAME_DEPTHS = (6, 7)   # international perft depths measured against dame-rs
# --deep: reference counts where keep and drop differ (variant, depth, keep, drop); minutes of CPU.
DEEP = (
    ("russian", 8, 929905, 929899),
    ("russian", 9, 4570667, 4570586),
    ("english", 9, 3963680, 3963680),
    ("international", 8, 6483971, 6483961),
)


def api_perft(board: rules.Board, depth: int) -> int:
    """Perft through the public API only: legal moves generated (as Move objects) at every node."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += api_perft(board, depth - 1)
        board.pop()
    return total


def pure_board(variant: str) -> rules.Board:
    """A board on the pure-Python move generator, whether or not the native core is built."""
    board = rules.Board(variant)
    board._gen = MoveGen(board.variant)
    return board


def timed(fn, repeat: int) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    """(result, best CPU time of `repeat` runs)."""
    best = float("inf")
    result = 0
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return result, best


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one depth less everywhere, one repetition")
    parser.add_argument("--no-peer", action="store_true", help="skip the py-draughts and dame-rs comparisons")
    parser.add_argument("--deep", action="store_true", help="also check deep keep/drop reference counts")
    parser.add_argument("--variants", default=",".join(native.native_variant_ids()),
                        help="comma-separated ids (default: every variant the native core plays)")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else 2
    rounds = 1 if args.quick else 3
    drop = 1 if args.quick else 0

    print(f"rules core perft from the start position, native core: {native.available()} (best of {repeat}; "
          f"nps = leaf nodes per second; the native core counts deeper, to run at least 0.1 s)")
    print(f"{'variant':<22}{'depth':>6}{'python nps':>12}{'depth':>7}{'native leaves':>15}{'native nps':>13}"
          f"{'ratio':>7}  reference")
    for vid in args.variants.split(","):
        depth = DEPTHS.get(vid, 6) - drop
        pure_nodes, pure_secs = timed(lambda v=vid, d=depth: rules.perft(pure_board(v), d), 1)
        deep = depth
        while True:
            nodes, secs = timed(lambda v=vid, d=deep: rules.perft(rules.Board(v), d), repeat)
            if secs >= 0.1 or deep >= depth + 3:
                break
            deep += 1
        checks = []
        for d, count in ((depth, pure_nodes), (deep, nodes)):
            ref = REFERENCE.get((vid, d))
            if ref is not None:
                checks.append(f"d{d} " + ("ok" if ref == count else f"MISMATCH (expected {ref:,})"))
        nps, pure_nps = nodes / secs, pure_nodes / pure_secs
        print(f"{vid:<22}{depth:>6}{pure_nps:>12,.0f}{deep:>7}{nodes:>15,}{nps:>13,.0f}"
              f"{nps / pure_nps:>7.1f}  {', '.join(checks) or '-'}")

    if args.deep:
        print("\ndeep reference checks (keep = every capture path, drop = one per from/to/captured set)")
        for vid, depth, keep, drop_ref in DEEP:
            for mode, ref in (("keep", keep), ("drop", drop_ref)):
                nodes, secs = timed(
                    lambda v=vid, d=depth, m=mode: rules.perft(
                        rules.Board(v), d, keep_duplicates=m == "keep"
                    ),
                    1,
                )
                check = "ok" if nodes == ref else f"MISMATCH (expected {ref:,})"
                print(f"{vid:<15}{depth:>4} {mode}{nodes:>14,}{secs:>9.1f}s  {check}")
    if args.no_peer:
        return 0
    python = peer_python()
    print()
    print(
        f"versus py-draughts (PyPI py-draughts, own venv, subprocess), same start positions, same run, "
        f"interleaved, best of {rounds}"
    )
    print(
        f"{'variant':<15}{'depth':>6}{'method':>7}{'our leaves':>13}{'our nps':>12}"
        f"{'peer leaves':>13}{'peer nps':>12}{'ratio':>8}"
    )
    target = own_target = None
    for vid, peer_variant, depth in PEERS:
        depth -= drop
        methods = ["api"] + (["own"] if peer_variant == "standard" else [])  # turbo perft: 10x10 only
        for method in methods:
            ours_fn = (
                (lambda v=vid, d=depth: api_perft(rules.Board(v), d))
                if method == "api"
                else (lambda v=vid, d=depth: rules.perft(rules.Board(v), d))
            )
            peer_method = "api" if method == "api" else "turbo"
            t_ours = t_peer = float("inf")
            n_ours = n_peer = 0
            version = "?"
            runs = 3 if method == "own" else 1   # our own perft(6) takes milliseconds: best of a few
            for _ in range(rounds):  # interleaved, best of `rounds` each: load on the machine hits both
                n_ours, t = timed(ours_fn, runs)
                t_ours = min(t_ours, t)
                n_peer, t, version = measure(python, peer_variant, depth, peer_method, repeat=runs)
                t_peer = min(t_peer, t)
            ratio = (n_ours / t_ours) / (n_peer / t_peer)
            print(
                f"{vid:<15}{depth:>6}{method:>7}{n_ours:>13,}{n_ours / t_ours:>12,.0f}"
                f"{n_peer:>13,}{n_peer / t_peer:>12,.0f}{ratio:>8.2f}"
            )
            if vid == "international" and method == "api":
                target = (depth, n_ours / t_ours, n_peer / t_peer, ratio, version)
            if vid == "international" and method == "own":
                own_target = (depth, n_ours / t_ours, n_peer / t_peer, ratio, version)
    print(f"\nversus dame-rs (PyPI dame-rs, Rust, own venv, subprocess), international from the start, own "
          f"perft, interleaved, best of {rounds} rounds of 3")
    print(f"{'variant':<15}{'depth':>6}{'our leaves':>13}{'our nps':>12}{'peer leaves':>13}{'peer nps':>12}"
          f"{'ratio':>8}")
    dame_target = None
    for depth in DAME_DEPTHS:
        depth -= drop
        t_ours = t_peer = float("inf")
        n_ours = n_peer = 0
        dame_version = "?"
        for _ in range(rounds):
            n_ours, t = timed(lambda d=depth: rules.perft(rules.Board("international"), d), 3)
            t_ours = min(t_ours, t)
            n_peer, t, dame_version = _dame.perft(python, depth, repeat=3)
            t_peer = min(t_peer, t)
        ratio = (n_ours / t_ours) / (n_peer / t_peer)
        print(f"{'international':<15}{depth:>6}{n_ours:>13,}{n_ours / t_ours:>12,.0f}{n_peer:>13,}"
              f"{n_peer / t_peer:>12,.0f}{ratio:>8.2f}")
        if dame_target is None:
            dame_target = (depth, n_ours / t_ours, n_peer / t_peer, ratio, dame_version)
    print()
    for label, goal, found in (("public API at every node", None, target),
                               ("own perft vs py-draughts", 10.0, own_target),
                               ("own perft vs dame-rs", 0.5, dame_target)):
        if found is None:
            continue
        depth, ours, peer, ratio, version = found
        peer_name = "dame-rs" if "dame" in label else "py-draughts"
        goal_text = "" if goal is None else f" (target >= {goal:g}: {'met' if ratio >= goal else 'NOT met'})"
        print(f"international perft({depth}), {label}: ours {ours:,.0f} nps, {peer_name} {version} "
              f"{peer:,.0f} nps -> ratio {ratio:.2f}{goal_text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
