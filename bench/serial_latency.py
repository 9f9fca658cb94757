"""Latency from a change on the emulated board to the host's snapshot, over a real pseudo-terminal.

Run: ``./dev bench serial`` or ``.venv/bin/python bench/serial.py [--changes N]``. Target: p99 < 10 ms.
The peer: a plain pyserial ``readline()`` of a line written into the same kind of pty (the floor any protocol
over this link can reach).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

# this file is called serial.py: keep its folder off the path so `import serial` finds pyserial
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

import serial  # noqa: E402

from firmware_bridge.emulator import BoardEmulator  # noqa: E402
from firmware_bridge.serial_backend import SerialDevice  # noqa: E402
from firmware_bridge.types import Occupancy  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_board(changes: int) -> list[float]:
    link = os.path.join(tempfile.mkdtemp(prefix="dboard-bench-"), "tty")
    latencies: list[float] = []
    with BoardEmulator(10, 10, link=link, seed=1) as emu, SerialDevice(link, rows=10, cols=10) as host:
        if not host.wait_synced(5):
            raise SystemExit("host did not sync with the emulator within 5 s")
        seen = threading.Event()
        target: list[frozenset[tuple[int, int]]] = [frozenset()]

        def on_snapshot(snap: Occupancy) -> None:
            if snap.squares == target[0]:
                seen.set()

        host.on_snapshot(on_snapshot)
        for i in range(changes):
            sq = (i % 10, (i // 10) % 10)
            occupied = set(emu.occupied) ^ {sq}
            target[0] = frozenset(occupied)
            seen.clear()
            start = time.perf_counter()
            emu.place(sq) if sq in occupied else emu.lift(sq)
            if not seen.wait(2):
                raise SystemExit(f"change {i} on {sq} not seen by the host within 2 s")
            latencies.append(time.perf_counter() - start)
    return latencies


def bench_readline(count: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 115200, timeout=2)
    latencies: list[float] = []
    try:
        for i in range(count):
            line = f"CHANGE {i}\n".encode()
            start = time.perf_counter()
            os.write(master, line)
            if port.readline() != line:
                raise SystemExit("readline peer lost a line")
            latencies.append(time.perf_counter() - start)
    finally:
        port.close()
        os.close(master)
        os.close(slave)
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=400)
    args = parser.parse_args()
    ours = bench_board(args.changes)
    peer = bench_readline(args.changes)
    rows = (("board emulator -> SerialDevice snapshot", ours), ("peer pyserial readline echo", peer))
    for name, values in rows:
        print(
            f"{name:40s} median {statistics.median(values) * 1e3:7.3f} ms   "
            f"p99 {pct(values, 0.99) * 1e3:7.3f} ms"
        )
    ratio_med = statistics.median(ours) / statistics.median(peer)
    ratio_p99 = pct(ours, 0.99) / pct(peer, 0.99)
    print(
        f"ratio ours/peer: median {ratio_med:.2f}x, p99 {ratio_p99:.2f}x   "
        f"target p99 < 10 ms: {'met' if pct(ours, 0.99) < 0.010 else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
