"""The web latency benchmark runs end to end on a tiny game: real server, real websocket client process,
every published event matched to its websocket message, and the table printed (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "web_latency.py"


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def test_bench_prints_the_table_for_a_few_actions() -> None:
    done = run_bench("--actions", "20", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["latency", "(ms)", "n", "median", "p95", "p99", "max"]
    rows = {line[:36].strip(): line[36:].split() for line in lines[1:]}
    events = rows["event -> websocket, all events"]
    assert int(events[0]) >= 20   # every lift or place changes the state the page shows
    assert int(rows["ViewChanged"][0]) >= 20
    assert int(rows["peer: websocket echo round trip"][0]) == 20
    assert all(float(v) >= 0 for v in events[1:])
    assert len(rows["ratio event / echo peer"]) == 4
    assert any(line.startswith("target: every update within 100 ms") for line in lines)
    assert not any(line.startswith("international, person v person") for line in lines)   # --quiet


def test_bench_refuses_a_non_positive_action_count() -> None:
    done = run_bench("--actions", "0")
    assert done.returncode == 2
    assert "--actions must be at least 1" in done.stderr
