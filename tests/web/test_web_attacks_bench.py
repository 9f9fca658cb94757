"""The attack benchmark runs end to end on its smallest setting: a real panel process, an attacker process,
the normal client before and during the attack, and the table printed (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "web_attacks.py"


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=180, check=False)


def test_bench_prints_a_row_per_scenario() -> None:
    done = run_bench("--quick", "--scenarios", "ping", "--seconds", "1", "--probes", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:4] == ["scenario", "ping", "p50", "ms"]
    [row] = [line for line in lines if line.startswith("ping ")]
    numbers = row.split()[1:11]
    assert numbers[1] == ">" and numbers[9] == "0"   # quiet > attack, and no failed request
    assert "pings sent" in row and "answered" in row
    assert lines[-1].startswith("normal client's ping under attack / quiet (same run), p50: ping ")


def test_bench_refuses_an_unknown_scenario() -> None:
    done = run_bench("--scenarios", "ping,teapot")
    assert done.returncode == 2
    assert "unknown scenario(s) teapot" in done.stderr
