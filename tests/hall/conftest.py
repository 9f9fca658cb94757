"""Fixtures of the hall's tests: a real mosquitto per test, stopped afterwards."""

from __future__ import annotations

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
