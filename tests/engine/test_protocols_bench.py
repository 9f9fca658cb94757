"""The protocols benchmark runs end to end on small inputs and prints each table (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_prints_parsing_splitting_and_the_wedged_engine() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "protocols.py"), "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.splitlines()[1].split() == ["line", "chars", "parse_message", "shlex.split", "str.split", "vs",
                                           "shlex", "vs", "split"]
    assert out.count("many words") == 2 and "bytes without a NUL: RecordReader refuses it" in out
    assert "ask -> built-in move: median" in out and "the deadline (the peer) 300 ms" in out
