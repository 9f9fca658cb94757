"""Runs the host build of the firmware's logic tests (hardware/firmware/test/test_logic.c)."""

from __future__ import annotations

import re
import subprocess

from board_sim import BUILD


def test_host_unit_tests_pass() -> None:
    done = subprocess.run([str(BUILD / "test_logic")], capture_output=True, text=True, timeout=60,
                          check=False)
    summary = re.search(r"^(\d+) passed, (\d+) failed$", done.stdout, re.MULTILINE)
    assert summary, f"no summary line in:\n{done.stdout}"
    passed, failed = int(summary[1]), int(summary[2])
    assert (failed, done.returncode) == (0, 0), done.stdout
    assert passed >= 20
