"""Fixtures of the web tests: one Playwright driver per test module (browsers are started per test).

Module scope, not session scope: the sync driver keeps an event loop running in the main thread while it
lives, which would break any later test (outside tests/web) that calls asyncio.run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Playwright, sync_playwright


@pytest.fixture(scope="module")
def pw() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright
