"""CPU time per full 10x10 matrix scan through the RPi.GPIO stand-in, against a naive per-switch poll.

Run: ``./dev bench scan`` or ``.venv/bin/python bench/scan.py [--scans N]``. Target: < 2 ms CPU per scan
(scan + debounce). The peer, ``naive_scan``, sets up, drives and releases a row for every single switch.
The stand-in's own electrical model is included in both figures (it is the same for both).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.scanner import Debouncer, MatrixScanner, naive_scan

ROWS = [4, 5, 6, 12, 13, 16, 19, 20, 21, 26]
COLS = [17, 18, 22, 23, 24, 25, 27, 14, 15, 7]


def cpu_per_call(fn: Callable[[], object], count: int) -> float:
    """Median over 5 rounds of process CPU seconds per call."""
    rounds = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(count):
            fn()
        rounds.append((time.process_time() - start) / count)
    return sorted(rounds)[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scans", type=int, default=400, help="scans per round (5 rounds)")
    args = parser.parse_args()
    matrix = SwitchMatrix(10, 10, diodes=True)
    # an international draughts opening position: 40 pieces on the dark squares of rows 0-3 and 6-9
    matrix.set_occupancy(
        {(r, c) for r in range(10) for c in range(10) if (r + c) % 2 == 0 and not 4 <= r <= 5}
    )
    gpio = GPIOModel(matrix, ROWS, COLS)
    scanner = MatrixScanner(gpio, ROWS, COLS)
    scanner.setup()
    debouncer = Debouncer(10, 10, debounce=0.015)
    assert naive_scan(gpio, ROWS, COLS) == scanner.scan(), "peer and scanner disagree"

    def ours() -> None:
        debouncer.feed(scanner.scan(), time.monotonic())

    def naive() -> None:
        naive_scan(gpio, ROWS, COLS)

    ours_s = cpu_per_call(ours, args.scans)
    naive_s = cpu_per_call(naive, args.scans)
    print(
        f"10x10 scan+debounce (MatrixScanner): {ours_s * 1e3:.3f} ms CPU per scan "
        f"({1 / ours_s:.0f} scans/s per core)"
    )
    print(f"peer naive per-switch poll:          {naive_s * 1e3:.3f} ms CPU per scan")
    verdict = "met" if ours_s < 0.002 else "MISSED"
    print(f"ratio naive/ours: {naive_s / ours_s:.2f}x   target < 2 ms: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
