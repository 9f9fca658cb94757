"""The GPIO scan: CPU time per full 10x10 scan, and the live scan thread's rhythm beside a busy thread.

Run: ``./dev bench scan`` or ``.venv/bin/python bench/scan.py [--scans N] [--live SECONDS]``.

1. CPU per scan (target < 2 ms, scan + debounce) against the peer ``naive_scan``, which sets up, drives and
   releases a row for every single switch. The stand-in's electrical model is in both figures.
2. The scan thread (200 scans/s, the profiles' 12 ms debounce, 8x8) running for ``--live`` seconds, quiet
   and then beside one busy pure-Python thread (the peer is the quiet run): the gap between scans and the
   time from a magnet moving to the LED frame that shows it (a listener lights the changed square, as the
   controller would), p50/p99; and 10 ms glitches and 20 ms lifts, counted as the time-based debounce saw
   them and as a count-of-scans debounce (3 equal scans, the old rule) would have seen the same recorded
   scans. The figures depend on the machine's load: a scan held up inside a 20 ms lift can lose it.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.gpio_backend import GpioDevice
from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.profile import SensorSettings
from firmware_bridge.scanner import Debouncer, MatrixScanner, naive_scan
from firmware_bridge.types import GREEN, RED, CellChange, LedFrame, Light, Pattern
from firmware_bridge.ws2812 import SpiModel, chain_order

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


ROWS8 = [5, 6, 12, 13, 16, 19, 20, 21]
COLS8 = [4, 17, 18, 22, 23, 24, 25, 27]
GLITCH, LIFT = 0.010, 0.020        # a 10 ms flicker must never count, a 20 ms lift must
DEBOUNCE = SensorSettings().debounce_ms / 1000


class TimedMatrix(SwitchMatrix):
    """A matrix whose contacts open during scheduled windows of the monotonic clock: the physical world keeps
    its own time, whatever the threads of the process do."""

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__(rows, cols)
        self.openings: list[tuple[tuple[int, int], float, float]] = []

    def contact(self, square: tuple[int, int], sample: bool = False) -> bool:
        now = time.monotonic()
        if any(sq == square and start <= now < end for sq, start, end in self.openings[-4:]):
            return False
        return super().contact(square, sample)


class TimedSpi(SpiModel):
    """The WS2812 model, noting when each transfer happened."""

    def __init__(self, leds: int) -> None:
        super().__init__(leds)
        self.sent: list[tuple[float, list[tuple[int, int, int]]]] = []

    def writebytes2(self, data: bytes) -> None:  # type: ignore[override]
        super().writebytes2(data)
        self.sent.append((time.monotonic(), list(self.colors)))


Opening = tuple[tuple[int, int], float, float]
"""A square's contact held open from one time to another."""


@dataclass
class LiveRun:
    """What one live run saw."""

    gaps: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    scans: list[tuple[float, list[int]]] = field(default_factory=list)
    glitches: list[Opening] = field(default_factory=list)
    lifts: list[Opening] = field(default_factory=list)
    changes: list[tuple[float, tuple[int, int], bool]] = field(default_factory=list)


def busy_work(stop: threading.Event) -> None:
    """A thread that never sleeps: pure-Python work holding the GIL between switches."""
    total = 0
    while not stop.is_set():
        total += sum(i * i for i in range(2000))


def live(seconds: float, busy: bool) -> LiveRun:
    matrix = TimedMatrix(8, 8)
    spi = TimedSpi(64)
    spi.open(0, 0)
    board = GpioDevice(8, 8, ROWS8, COLS8, gpio=GPIOModel(matrix, ROWS8, COLS8), spi=spi, rate=200,
                       debounce=DEBOUNCE)
    run = LiveRun()
    scan = board.scanner.scan

    def timed_scan() -> list[int]:
        masks = scan()
        run.scans.append((time.monotonic(), masks))
        return masks

    board.scanner.scan = timed_scan  # type: ignore[method-assign]

    def lit(change: CellChange) -> None:       # what the controller would do: light the square at once
        run.changes.append((time.monotonic(), change.square, change.occupied))
        board.show(LedFrame.of(8, 8, {change.square: Light(GREEN if change.occupied else RED, Pattern.ON)}))

    board.on_change(lit)
    stop = threading.Event()
    worker = threading.Thread(target=busy_work, args=(stop,), daemon=True) if busy else None
    chain = chain_order(8, 8, "serpentine")
    red = (round(255 * board.brightness / 255), 0, 0)
    with board:
        if worker:
            worker.start()
        end = time.monotonic() + seconds
        square = 0
        while time.monotonic() < end:
            cell = (square // 8, square % 8)
            square = (square + 1) % 64
            matrix.place(cell)
            time.sleep(0.05)
            for hold, seen_list in ((GLITCH, run.glitches), (LIFT, run.lifts)):
                start = time.monotonic() + 0.002
                matrix.openings.append((cell, start, start + hold))     # exact, whoever holds the GIL
                seen_list.append((cell, start, start + hold))
                time.sleep(hold + 0.05)
            moved = time.monotonic()               # a real lift: how long until its LED shows it
            matrix.lift(cell)
            time.sleep(0.1)
            index = chain.index(cell)
            shown = [t for t, colors in spi.sent if t >= moved and colors[index] == red]
            if shown:
                run.latencies.append(shown[0] - moved)
        stop.set()
    if worker:
        worker.join()
    times = [t for t, _ in run.scans]
    run.gaps = [b - a for a, b in pairwise(times)]
    return run


def seen(events: list[Opening], changes: list[tuple[float, tuple[int, int], bool]]) -> int:
    """How many of the openings ``events`` produced a debounced 'empty' change of their square during them
    (or soon after: the change is stamped when its scan is handled)."""
    return sum(1 for cell, start, end in events
               if any(sq == cell and start <= t <= end + 0.04 and not occ for t, sq, occ in changes))


def count_rule(scans: list[tuple[float, list[int]]], n: int = 3) -> list[tuple[float, tuple[int, int], bool]]:
    """The old rule on the same recorded scans: a state counts after ``n`` equal consecutive scans."""
    stable = [0] * 8
    count: dict[tuple[int, int], int] = {}
    out = []
    for t, masks in scans:
        for r in range(8):
            for c in range(8):
                bit = masks[r] >> c & 1
                if bit != stable[r] >> c & 1:
                    count[(r, c)] = count.get((r, c), 0) + 1
                    if count[(r, c)] >= n:
                        stable[r] ^= 1 << c
                        count.pop((r, c))
                        out.append((t, (r, c), bool(bit)))
                else:
                    count.pop((r, c), None)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def live_report(seconds: float) -> None:
    runs = {"quiet": live(seconds, busy=False), "beside a busy thread": live(seconds, busy=True)}
    print(f"\nlive scan thread, 8x8 at 200 scans/s, {DEBOUNCE * 1000:g} ms debounce, {seconds:g} s each "
          f"(the peer is the quiet run):")
    for name, run in runs.items():
        print(f"  {name:21s} scan gap p50 {pct(run.gaps, 0.5):5.1f} ms p99 {pct(run.gaps, 0.99):5.1f} ms | "
              f"change-to-LED p50 {pct(run.latencies, 0.5):5.1f} ms p99 {pct(run.latencies, 0.99):5.1f} ms "
              f"({len(run.latencies)} moves)")
        old = count_rule(run.scans)
        print(f"  {'':21s} {len(run.glitches)} glitches of {GLITCH * 1000:g} ms: "
              f"{seen(run.glitches, run.changes)} let through by time, {seen(run.glitches, old)} by the "
              f"3-scan count | {len(run.lifts)} lifts of {LIFT * 1000:g} ms: {seen(run.lifts, run.changes)} "
              f"seen by time, {seen(run.lifts, old)} by the count")
    quiet, busy = runs["quiet"], runs["beside a busy thread"]
    print(f"  ratio busy/quiet: scan gap p99 {pct(busy.gaps, 0.99) / pct(quiet.gaps, 0.99):.2f}x, "
          f"change-to-LED p99 {pct(busy.latencies, 0.99) / pct(quiet.latencies, 0.99):.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scans", type=int, default=400, help="scans per round (5 rounds)")
    parser.add_argument("--live", type=float, default=20.0, help="seconds of each live run (0: none)")
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
    if args.live > 0:
        live_report(args.live)
    return 0


if __name__ == "__main__":
    sys.exit(main())
