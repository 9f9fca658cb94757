"""The page's board-health panel against the real Session and Chromium: a stuck sensor is named, masked with
one click, a move the board cannot show is confirmed, and the board's self-test runs from the page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Playwright
from web_harness import browser, live_server, open_page, wait_state

from firmware_bridge.gpio_model import SwitchMatrix


def test_stuck_sensor_masked_a_move_confirmed_the_board_tested(pw: Playwright, tmp_path: Path) -> None:
    matrix = SwitchMatrix(8, 8)
    matrix.stick((3, 3))                                   # the reed under English 18, welded closed
    with live_server(tmp_path, variant="english", opponent="person", human_color="both", sensor_check_ms=300,
                     matrix=matrix) as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#btn-arrange")                         # the start position; 18 reads a piece too
        page.wait_for_selector("#health-faults li:has-text('The sensor under 18 seems stuck closed')")
        assert page.text_content("#health-badge") == "board: 1 problem"
        page.click("#health-faults li button.mask")
        wait_state(page, "person.idle")
        assert "18" in page.text_content("#health-masked-names")
        hand = live.hand
        for lift, place in (((5, 5), (4, 4)), ((2, 2), (3, 3))):   # 11-15, then 22-18 onto the masked square
            live.call(lambda lift=lift, place=place: (hand.lift(lift), hand.place(place)))
        page.click("#health-unseen button:has-text('Confirm 22-18')")
        page.wait_for_selector("#moves td:has-text('22-18')")

        page.click("#btn-board-test")
        page.wait_for_selector("#board-test-prompt:has-text('LED test')")
        page.wait_for_selector("#board-test-prompt:has-text('Now: ')")   # the LED lit now, after the sentence
        page.fill("#board-test-text", "c3")
        page.click("#board-test-answer button")
        page.wait_for_selector("#board-test-prompt:has-text('Take every piece off')")
        prompt = page.text_content("#board-test-prompt") or ""
        assert "click Next if a square keeps reading" in prompt and "Enter" not in prompt   # the page's way
        live.call(lambda: hand.set_occupancy(set()))
        page.click("#btn-board-test-next")                 # d4 keeps reading on the empty board: go on
        page.wait_for_selector("#board-test-prompt:has-text('Put a piece on the green square (a1)')")
        assert "Click Next if nothing more happens" in (page.text_content("#board-test-prompt") or "")
        page.click("#btn-board-test-stop")
        page.wait_for_selector("#board-test-report li:has-text('The sensor under d4 seems stuck closed')")
        assert "The LED under c3 stayed dark" in page.text_content("#board-test-report")
        # issue 28 item 19: the squares the test did not reach are not tested, not faults
        items = page.locator("#board-test-report li").all_text_contents()
        assert items[0] == "Board test stopped early: 2 faults found, 63 squares not tested."
        assert items[-1].startswith("Not tested (63 squares, no piece seen there before the test stopped or "
                                    "went on): a1 b1 ") and " d4 " not in items[-1]   # d4: stuck, a fault
        assert [r["text"] for r in live.view()["moves"]] == ["11-15", "22-18"]
