"""Fixtures for the firmware tests: the firmware is built once per session (make is incremental)."""

from __future__ import annotations

import pytest
from board_sim import build_firmware


@pytest.fixture(scope="session", autouse=True)
def firmware_built() -> None:
    build_firmware()
