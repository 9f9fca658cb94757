"""Latency of a spoken announcement: from the computer's move reaching the Controller to the first audio
sample of its announcement, through the real path (the Controller's event, the Announcer, the translator, a
fresh espeak-ng process writing the speech to a pipe with ``--stdout``: the time until the first non-zero
sample arrives). A board's audio output adds the sound card's own buffer to this.

The peer, measured in the same run on the same texts: espeak-ng's own time to render the whole announcement
(the same process, until its output ends), i.e. what the board would wait if it rendered a WAV first and
then played it. Positions are from seeded random games of three variants, the computer to move.

    .venv/bin/python bench/speech.py [--announcements 200] [--seed 1] [--language en]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller import events as ev  # noqa: E402
from controller.announcer import Announcer  # noqa: E402
from controller.config import Config  # noqa: E402
from controller.machine import Controller  # noqa: E402
from controller.settings import EngineJob, GameSettings  # noqa: E402
from controller.speech import voice_settings  # noqa: E402
from firmware_bridge.clock import ManualClock  # noqa: E402
from firmware_bridge.speaker import EspeakNg  # noqa: E402
from i18n import translator  # noqa: E402
from rules import Color, Game  # noqa: E402

VARIANTS = ("international", "english", "russian")
PEER_NAME = "espeak-ng's own time to render the whole announcement"
WAV_HEADER = 44


def positions(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """(variant, FEN) pairs with black (the computer) to move and a legal move, from random games."""
    found: list[tuple[str, str]] = []
    while len(found) < count:
        variant = rng.choice(VARIANTS)
        game = Game(variant)
        for _ in range(rng.randrange(1, 60)):
            if game.outcome() is not None:
                break
            game.push(rng.choice(list(game.board.legal_moves)))
        if game.outcome() is None and game.board.turn == Color.BLACK:
            found.append((variant, game.board.fen()))
    return found


def first_sample_and_end(argv: list[str], text: str, t0: float) -> tuple[float, float]:
    """Seconds from ``t0`` to espeak-ng's first non-zero sample on its stdout, and to its output's end."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(text.encode("utf-8"))
    process.stdin.close()
    fd, seen, first = process.stdout.fileno(), b"", None
    while chunk := os.read(fd, 65536):
        if first is None:
            seen += chunk
            if any(seen[WAV_HEADER:]):   # a sample with a non-zero byte has arrived
                first = time.perf_counter() - t0
    end = time.perf_counter() - t0
    process.wait()
    assert first is not None, f"espeak-ng said nothing for {text!r}"
    return first, end


def measure(variant: str, fen: str, language: str) -> tuple[float, float, str]:
    """One announcement of the computer's move in ``fen``: (to the first sample, to the end, the text)."""
    config = Config(variant=variant, human_color="white", opponent="engine", language=language)
    events: list[ev.Event] = []
    jobs: list[EngineJob] = []
    ctl = Controller(config, clock=ManualClock(100.0), emit=events.append, request_engine=jobs.append,
                     settings=GameSettings(variant, "white", "engine", 3, fen, False))
    ctl.new_game()
    ctl.snapshot(ctl.exp.base)
    job = jobs[-1]
    move = min(job.board.legal_moves, key=job.board.move_text)
    announcer, render = Announcer(), translator(language).render
    argv = EspeakNg().command(voice_settings(config), "--stdout")
    events.clear()
    t0 = time.perf_counter()
    ctl.computer_moved(job.token, move)
    [text] = [render(a.text) for e in events for a in announcer.hear(e)]
    first, end = first_sample_and_end(argv, text, t0)
    return first, end, text


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--announcements", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    firsts, ends = [], []
    for variant, fen in positions(rng, args.announcements):
        first, end, _ = measure(variant, fen, args.language)
        firsts.append(first)
        ends.append(end)
    ms = 1000
    print(f"{len(firsts)} announcements of the computer's move ({', '.join(VARIANTS)}), language "
          f"{args.language}, espeak-ng to a pipe (--stdout)")
    print(f"  commit -> first audio sample:   median {statistics.median(firsts) * ms:6.1f} ms   "
          f"p90 {percentile(firsts, 0.9) * ms:6.1f} ms")
    print(f"  peer, {PEER_NAME}:")
    print(f"                                  median {statistics.median(ends) * ms:6.1f} ms   "
          f"p90 {percentile(ends, 0.9) * ms:6.1f} ms")
    ratio = statistics.median(f / e for f, e in zip(firsts, ends, strict=True))
    print(f"  first sample / whole render: median ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
