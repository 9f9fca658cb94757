"""Firmware image size and the scan rate of the simulated board, against the 100 scans/s requirement.

Run: ``./dev bench firmware`` or ``.venv/bin/python bench/firmware.py [--seconds S]``.
Builds hardware/firmware (make), prints avr-size of both images, then runs the real firmware on simavr
(hardware/firmware/build/board_sim) and measures full matrix scans per *simulated* second (row 0 driven low
once per scan, counted by the harness from the pin waveform):
  * idle      - nothing connected, LEDs dark (one chain refresh per second);
  * loaded    - the real serial backend connected (heartbeats every 0.5 s) and all squares fast-blinking,
                so the ~3 ms WS2812 refresh with interrupts off runs 8 times per second.
Peer: the requirement baseline of 100 full scans per second; ratio = measured / 100.
"""

from __future__ import annotations

import argparse
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from firmware_bridge.serial_backend import SerialDevice
from firmware_bridge.types import WHITE, LedFrame, Light, Pattern

ROOT = Path(__file__).resolve().parents[1]

FIRMWARE = ROOT / "hardware" / "firmware"
BUILD = FIRMWARE / "build"
PEER_NAME = "requirement baseline"
PEER_SCANS_PER_S = 100.0


class Sim:
    """A board_sim process with a line-oriented command channel."""

    def __init__(self, elf: Path, rows: int, cols: int, speed: float) -> None:
        self.proc = subprocess.Popen(
            [
                str(BUILD / "board_sim"),
                "--rows",
                str(rows),
                "--cols",
                str(cols),
                "--speed",
                str(speed),
                str(elf),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.port = self._line().split(" ", 1)[1]

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def _line(self) -> str:
        return self.lines.get(timeout=20)

    def stats(self) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("stats\n")
        self.proc.stdin.flush()
        return {k: float(v) for k, v in (item.split("=") for item in self._line().split()[1:])}

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def scan_rate(sim: Sim, sim_seconds: float, wall_limit: float) -> tuple[float, float]:
    """(full scans per simulated second, simulated seconds per wall second) over ``sim_seconds``."""
    first, t0 = sim.stats(), time.monotonic()
    while True:
        time.sleep(0.05)
        now = sim.stats()
        if now["sim_ms"] - first["sim_ms"] >= sim_seconds * 1000 or time.monotonic() - t0 > wall_limit:
            break
    sim_s = (now["sim_ms"] - first["sim_ms"]) / 1000
    return (now["scans"] - first["scans"]) / sim_s, sim_s / (time.monotonic() - t0)


def image_size(elf: Path) -> tuple[int, int]:
    """(flash bytes, static RAM bytes) from avr-size's Berkeley format."""
    out = subprocess.run(["avr-size", str(elf)], capture_output=True, text=True, check=True).stdout
    text, data, bss = (int(x) for x in re.split(r"\s+", out.splitlines()[1].strip())[:3])
    return text + data, data + bss


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="simulated seconds per measurement")
    args = parser.parse_args()
    subprocess.run(["make", "-s", "-C", str(FIRMWARE), "all"], check=True)

    for name in ("firmware.elf", "firmware-8x8.elf"):
        flash, ram = image_size(BUILD / name)
        print(
            f"image {name:18s} flash {flash:6d} B ({flash / 253952:.1%} of 248 KiB app space)  "
            f"RAM {ram:5d} B ({ram / 8192:.1%} of 8 KiB)"
        )

    results = []
    for name, rows in (("firmware.elf", 10), ("firmware-8x8.elf", 8)):
        sim = Sim(BUILD / name, rows, rows, speed=0)
        try:
            rate, speedup = scan_rate(sim, args.seconds, wall_limit=60)
        finally:
            sim.close()
        results.append((f"{rows}x{rows} idle", rate, f"simulator ran at {speedup:.1f}x real time"))

    sim = Sim(BUILD / "firmware.elf", 10, 10, speed=1.0)
    board = SerialDevice(sim.port, rows=10, cols=10, brightness=255)
    try:
        board.start()
        if not board.wait_synced(10):
            raise SystemExit(f"error: the serial backend never synced with the simulated board ({board!r})")
        board.show(
            LedFrame.of(
                10, 10, {(r, c): Light(WHITE, Pattern.FAST_BLINK) for r in range(10) for c in range(10)}
            )
        )
        time.sleep(0.3)
        before = sim.stats()
        rate, _ = scan_rate(sim, args.seconds, wall_limit=60)
        leds = sim.stats()
        frames = leds["led_frames"] - before["led_frames"]
        frames_per_s = frames / ((leds["sim_ms"] - before["sim_ms"]) / 1000)
    finally:
        board.close()
        sim.close()
    results.append(
        (
            "10x10 loaded",
            rate,
            f"{frames_per_s:.1f} LED chain refreshes/s, "
            f"{int(leds['led_bad_bits'])} bits out of WS2812 timing",
        )
    )

    print(f"peer: {PEER_NAME} = {PEER_SCANS_PER_S:.0f} full scans per second")
    for label, rate, note in results:
        print(
            f"scan rate {label:13s} {rate:8.1f} scans/s (simulated time)  ratio vs {PEER_NAME}: "
            f"{rate / PEER_SCANS_PER_S:5.2f}x   [{note}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
