"""Fixtures of the web tests: one Playwright driver per test session (browsers are started per test)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Playwright, sync_playwright


@pytest.fixture(scope="session")
def pw() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright
