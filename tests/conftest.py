"""Fixtures shared by the engine and controller tests: misbehaving Hub engines and their process groups."""

from __future__ import annotations

import os
import select
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

FAKE_HUB = Path(__file__).parent / "engine" / "fake_hub.py"


def group_members(pgid: int) -> list[int]:
    """Running (not zombie) processes of process group `pgid`, read from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


@dataclass
class FakeHub:
    """One fake engine's command line and the pid file it appends "pid pgid" to when it starts."""

    mode: str
    pidfile: Path

    @property
    def argv(self) -> list[str]:
        return [sys.executable, str(FAKE_HUB), self.mode, str(self.pidfile)]

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @property
    def asked(self) -> Path:
        """The file the engine writes to when it is asked for a move (`go`)."""
        return Path(f"{self.pidfile}.go")

    def groups(self) -> set[int]:
        """The process groups of every start of this engine so far (each in its own group)."""
        if not self.pidfile.exists():
            return set()
        pairs = [line.split() for line in self.pidfile.read_text().splitlines()]
        return {int(pgid) for _pid, pgid in pairs}

    def assert_gone(self, timeout: float = 5.0) -> None:
        """Every process of every group this engine started has ended (waiting on each one's pidfd)."""
        groups = self.groups()
        assert groups, f"the {self.mode} engine never started"
        assert os.getpgrp() not in groups, "the engine ran in the test's own process group"
        deadline = time.monotonic() + timeout
        for pid in [pid for group in groups for pid in group_members(group)]:
            try:
                fd = os.pidfd_open(pid)
            except ProcessLookupError:
                continue
            try:
                ended, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            finally:
                os.close(fd)
            assert ended, f"process {pid} of the {self.mode} engine is still running"


@pytest.fixture
def fake_hub(tmp_path: Path) -> Callable[[str], FakeHub]:
    """`fake_hub(mode)`: a FakeHub whose pid file lives in the test's tmp_path."""
    count = iter(range(1000))
    return lambda mode: FakeHub(mode, tmp_path / f"{mode}-{next(count)}.pids")
