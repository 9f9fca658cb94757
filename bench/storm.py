"""Storm: human gestures around legal moves on the simulated board, judged by what the controller records.

Each trial sets up a position (a start position played on for a few random plies, or kings and men scattered
at random) in one of the variants, then scripted hands make one legal move the way people do: slides brushing
the corner sensors, knocks, contact flickers, pauses, touch-downs on landing squares, captured pieces taken
off by a second hand, a wrong piece lifted first, a knock onto a legal square put back, a change of mind, a
flying king resting on the squares it passes, the opponent brushing a piece or answering (see
controller/hands.py). The oracle: the moves meant are recorded, or the board asks which move it was - never
a silent wrong move.

Prints the shares (intended, asked, wrong, stuck) and trials per second for this controller and for a named
peer measured in the same run: the controller before the Table (commit 1119bcb: its controller/, hands
included, unpacked from git into a temporary directory and run in a subprocess on this tree's rules core).
The peer runs its own hands.py, so its trials are the same as long as the storm's gestures are. Goal: 0 wrong
and 0 stuck in 10,000.

    .venv/bin/python bench/storm.py [--trials 10000] [--seed 1] [--peer 1119bcb | --no-peer]
                                    [--save-failures DIR]
"""

from __future__ import annotations

import argparse
import collections
import inspect
import json
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if "--worker" not in sys.argv:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _peer import run_in_peer  # noqa: E402

from rules import VARIANT_IDS  # noqa: E402

VARIANTS = VARIANT_IDS
"""Every variant, the orthogonal ones (Turkish, Dameo, Alquerque, Hawaii) included."""
COMPUTER_SHARE = 0.3
"""The share of trials played against the computer: the person's hands on the board while it thinks, then
its move carried out."""
PEER = "1119bcb"
PEER_NAME = "the controller before the Table"
OUTCOMES = ("intended", "asked", "wrong", "stuck")


def load_hands(tree: Path | None) -> ModuleType:
    """controller/hands.py of ``tree``'s controller (this checkout's when None)."""
    sys.path.insert(0, str(tree or ROOT))
    import controller.hands

    assert Path(controller.hands.__file__).is_relative_to(tree or ROOT)
    return controller.hands


def one(hands: ModuleType, seed: int, index: int, log: Any = None) -> Any:
    """Trial ``index`` of the storm with ``seed``: the same position, gesture and debounce whoever runs it."""
    rng = random.Random(f"{seed}:{index}")
    variant = VARIANTS[index % len(VARIANTS)]
    fen = hands.random_position(variant, rng, kings=rng.random() < 0.35)
    debounce = rng.choice([0.0, 0.004, 0.03])
    computer = rng.random() < COMPUTER_SHARE
    if computer and "computer" in inspect.signature(hands.trial).parameters:   # a peer may not have them
        return hands.trial(variant, fen, hands.RandomChooser(rng), debounce=debounce, log=log, computer=True)
    return hands.trial(variant, fen, hands.RandomChooser(rng), debounce=debounce, log=log)


def run(hands: ModuleType, trials: int, seed: int, progress: bool) -> dict[str, Any]:
    """Every trial in turn: the counts by outcome, the seconds taken, the trials that went wrong or stuck."""
    counts: collections.Counter[str] = collections.Counter()
    failures: list[tuple[int, str]] = []
    started = time.perf_counter()
    for index in range(trials):
        try:
            result = one(hands, seed, index)
            outcome, text = result.outcome, repr(result)
        except Exception as exc:   # a crash is a stuck board
            outcome, text = "stuck", f"trial {index} crashed: {exc!r}"
        counts[outcome] += 1
        if outcome in ("wrong", "stuck"):
            failures.append((index, text))
        if progress and (index + 1) % 1000 == 0:
            print(f"  {index + 1}/{trials} trials", file=sys.stderr, flush=True)
    return {"counts": dict(counts), "seconds": time.perf_counter() - started, "failures": failures}


def run_peer(commit: str, trials: int, seed: int) -> dict[str, Any]:
    """The same trials on the controller of ``commit`` (its tree unpacked from git), in a subprocess."""
    _, out = run_in_peer(commit, [sys.executable, __file__, "--worker", "{tree}", "--trials", str(trials),
                                  "--seed", str(seed)], "storm-peer-")
    if out.returncode != 0:
        raise SystemExit(f"the peer ({commit}) failed:\n{out.stderr}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def line(name: str, result: dict[str, Any], trials: int) -> str:
    counts = result["counts"]
    shares = "".join(f"{100 * counts.get(o, 0) / trials:9.2f}%" for o in OUTCOMES)
    return f"{name:<44}{shares}{trials / result['seconds']:11.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peer", default=PEER, help=f"git commit of the peer controller (default {PEER})")
    parser.add_argument("--no-peer", action="store_true", help="measure this controller only")
    parser.add_argument("--save-failures", type=Path, metavar="DIR",
                        help="write the sensor log of every wrong or stuck trial of this controller to DIR")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        print(json.dumps(run(load_hands(args.worker), args.trials, args.seed, progress=False)))
        return 0
    hands = load_hands(None)
    print(f"storm: {args.trials} trials over {len(VARIANTS)} variants ({', '.join(VARIANTS)}), "
          f"seed {args.seed}")
    mine = run(hands, args.trials, args.seed, progress=True)
    peer = None if args.no_peer else run_peer(args.peer, args.trials, args.seed)
    print(f"{'':<44}" + "".join(f"{o:>10}" for o in OUTCOMES) + f"{'trials/s':>11}")
    print(line("this controller", mine, args.trials))
    if peer is not None:
        print(line(f"peer: {PEER_NAME} ({args.peer})", peer, args.trials))
        ratio = (args.trials / mine["seconds"]) / (args.trials / peer["seconds"])
        print(f"speed, this controller / peer: {ratio:.2f}x")
    for index, text in mine["failures"][:20]:
        print(f"FAILED trial {index}: {text}")
    if args.save_failures is not None and mine["failures"]:
        args.save_failures.mkdir(parents=True, exist_ok=True)
        for index, _ in mine["failures"]:
            with open(args.save_failures / f"storm-{args.seed}-{index}.jsonl", "w", encoding="utf-8") as log:
                one(hands, args.seed, index, log)
        print(f"sensor logs of the failed trials: {args.save_failures}")
    return 1 if mine["counts"].get("wrong") or mine["counts"].get("stuck") else 0


if __name__ == "__main__":
    raise SystemExit(main())
