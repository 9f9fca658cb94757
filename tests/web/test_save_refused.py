"""A move the card cannot save, in real Chromium (issue 20 item 3): the page says so, the LEDs on the virtual
board show the refused move, and the move is saved once the card takes writes again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import Playwright
from web_harness import arranged, browser, by_hand, click_square, live_server, open_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "controller"))
from card import FaultCard  # the card helpers of the controller tests

from controller.machine import RETRY_SECONDS


def test_the_page_says_a_move_cannot_be_saved_and_saves_it_when_it_can(
        pw: Playwright, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrapper (not a tmpfs, whose last block still takes a few moves) fails the very next write."""
    card = FaultCard(tmp_path).install(monkeypatch)
    with live_server(card.path, variant="english", opponent="person", human_color="both",
                     settle_ms=0) as live, browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        by_hand(page)   # piece by piece, as on a real board
        ctl = live.session.controller
        shape = ctl.exp.shape_of(ctl.game.board.parse_move("9-13"))
        card.fill()
        click_square(page, *shape.origin)
        click_square(page, *shape.target)
        page.wait_for_selector("#messages li:has-text(\"Refused: can't save the move: the card is full\")")
        lit = {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col")))
               for e in page.query_selector_all("#board .sq[data-led]")}
        assert {shape.origin, shape.target} <= lit
        assert live.view()["moves"] == [] and live.view()["turn"] == "black"
        card.free()
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 1",
                               timeout=(RETRY_SECONDS + 10) * 1000)   # saved by the next retry
        assert [m["text"] for m in live.view()["moves"]] == ["9-13"]
