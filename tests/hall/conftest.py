"""Fixtures of the hall's tests: a real mosquitto per test, stopped afterwards."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from broker import Mosquitto


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    mosquitto = Mosquitto(tmp_path / "broker")
    mosquitto.start()
    try:
        yield mosquitto
    finally:
        mosquitto.stop()


@pytest.fixture
def ram_path(tmp_path: Path) -> Iterator[Path]:
    """A folder in RAM when the machine has one (the boards' journals: their fsyncs are not under test
    here, and fifty boards' fsyncs would dominate the run), else ``tmp_path``."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(prefix="dboard-hall-", dir=shm) as folder:
        yield Path(folder)
