"""Every sensor log under tests/data/sensor-logs/ replays to the same moves, refusals, messages and final LEDs
as it did through the Controller before the Table (issue 29): ``replays.txt`` is that output of
``dboard replay-sensors``, taken before the Table existed, without its timing line (since issue 31 the side
named in "Not your turn" is capitalised, "White is to move", as every sentence names the sides)."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

from controller import sensorlog_cli

LOGS = Path(__file__).resolve().parents[1] / "data" / "sensor-logs"


def replayed(path: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        sensorlog_cli.run(argparse.Namespace(log=path, expect=None, quiet_messages=False))
    return "".join(line + "\n" for line in out.getvalue().splitlines() if "replayed in" not in line)


def test_every_sensor_log_replays_as_before() -> None:
    now = "".join(f"== {path.relative_to(LOGS.parents[2])}\n{replayed(path)}"
                  for path in sorted(LOGS.glob("*/*.jsonl")))
    expected = (LOGS / "replays.txt").read_text(encoding="utf-8")
    assert now.splitlines() == expected.splitlines()
