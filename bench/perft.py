"""Perft speed of the rules core for every variant, and against py-draughts on the same positions.

Usage: .venv/bin/python bench/perft.py [--quick] [--no-peer] [--variants id,id]

Prints leaf nodes per second (nps) of `rules.perft` for every variant at a fixed depth from the start,
checked against docs/rules/reference-data.md where it has a number. For international and english it then
measures the py-draughts peer (PyPI `py-draughts`, own venv .bench-venv, in a subprocess) in the same run,
counting the same way on both sides:
  * api   - public API at every node: generate the legal moves (Move objects), push/pop, count the moves
            of the depth-1 nodes as leaves (ours: rules.Board.legal_moves; peer: Board.legal_moves);
  * own   - each library's own perft routine (ours: rules.perft; peer: draughts.engines.turbo.perft,
            which exists for the 10x10 board only).
ratio = our nps / peer nps (> 1 means we are faster). Note: py-draughts' AmericanBoard makes captures
optional, so its english leaf counts differ from ours (which follow the compulsory-capture rules).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _pydraughts_venv import measure, peer_python  # noqa: E402

import rules  # noqa: E402

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
    ("international", 6): 167140,
    ("international", 7): 1049442,
    ("russian", 7): 190146,
    ("russian", 8): 929899,
    ("czech", 7): 179740,
    ("giveaway", 7): 179740,
}
PEERS = (("international", "standard", 6), ("english", "american", 7))
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


def timed(fn, repeat: int) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    """(result, best wall time of `repeat` runs)."""
    best = float("inf")
    result = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return result, best


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one depth less everywhere, one repetition")
    parser.add_argument("--no-peer", action="store_true", help="skip the py-draughts comparison")
    parser.add_argument("--deep", action="store_true", help="also check deep keep/drop reference counts")
    parser.add_argument("--variants", default=",".join(rules.VARIANT_IDS), help="comma-separated ids")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else 2
    rounds = 1 if args.quick else 3
    drop = 1 if args.quick else 0

    print(f"rules core perft from the start position (best of {repeat}; nps = leaf nodes per second)")
    print(f"{'variant':<22}{'depth':>6}{'leaves':>14}{'seconds':>10}{'nps':>12}  reference")
    for vid in args.variants.split(","):
        depth = DEPTHS[vid] - drop
        nodes, secs = timed(lambda v=vid, d=depth: rules.perft(rules.Board(v), d), repeat)
        ref = REFERENCE.get((vid, depth))
        check = "-" if ref is None else ("ok" if ref == nodes else f"MISMATCH (expected {ref})")
        print(f"{vid:<22}{depth:>6}{nodes:>14,}{secs:>10.3f}{nodes / secs:>12,.0f}  {check}")

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
    target = None
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
            for _ in range(rounds):  # interleaved, best of `rounds` each: load on the machine hits both
                n_ours, t = timed(ours_fn, 1)
                t_ours = min(t_ours, t)
                n_peer, t, version = measure(python, peer_variant, depth, peer_method)
                t_peer = min(t_peer, t)
            ratio = (n_ours / t_ours) / (n_peer / t_peer)
            print(
                f"{vid:<15}{depth:>6}{method:>7}{n_ours:>13,}{n_ours / t_ours:>12,.0f}"
                f"{n_peer:>13,}{n_peer / t_peer:>12,.0f}{ratio:>8.2f}"
            )
            if vid == "international" and method == "api":
                target = (depth, n_ours / t_ours, n_peer / t_peer, ratio, version)
    if target is not None:
        depth, ours, peer, ratio, version = target
        print(
            f"\ntarget: international perft({depth}) from the start, public API at every node: "
            f"ours {ours:,.0f} nps vs py-draughts {version} {peer:,.0f} nps -> ratio {ratio:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
