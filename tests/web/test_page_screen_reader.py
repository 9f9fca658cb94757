"""Issue 31: the page for a screen reader and the keyboard alone, in the page's language: every playing
square says its name and piece, a live region says each move, "Read the position" reads the pieces, and a
move typed as text is played (a wrong one is answered with the legal moves)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Playwright
from web_harness import browser, live_server, open_page


def test_a_game_by_keyboard_and_live_region_in_english_and_russian(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        assert page.get_attribute("#board .sq[data-name='22']", "aria-label") == "22: white man"
        assert page.get_attribute("#board .sq[data-name='15']", "aria-label") == "15: empty"
        page.focus("#type-move-text")
        page.keyboard.type("9-13")
        page.keyboard.press("Enter")
        page.wait_for_selector("#announce:has-text('Black played 9-13')")
        assert page.get_attribute("#board .sq[data-name='13']", "aria-label") == "13: black man"
        page.fill("#type-move-text", "22-14")
        page.keyboard.press("Enter")
        page.wait_for_selector("#messages li.error:has-text('22-14 is not a legal move now; legal moves:')")
        assert "22-18" in page.text_content("#messages li.error")
        page.click("#btn-read-position")
        page.wait_for_selector("#announce:has-text('White to move.')")
        said = page.text_content("#announce")
        assert said.startswith("White: 21, 22, 23, 24, 25,") and "Black: 1, 2, 3," in said, said
        assert "8, 10, 11, 12, 13." in said
        assert said.endswith("White to move.")
        page.fill("#type-move-text", "22")   # a square alone: what is on it and where it may go
        page.keyboard.press("Enter")
        page.wait_for_selector("#announce:has-text('22, white man: 22 to 17 or 22 to 18')")
        page.fill("#type-move-text", "77")
        page.keyboard.press("Enter")
        page.wait_for_selector("#announce:has-text(\"'77' is not a playing square: expected a number 1-32\")")
        page.select_option("#language", "ru")
        page.wait_for_selector("html[lang='ru']")
        page.wait_for_selector("#board .sq[data-name='13']")
        label = page.get_attribute("#board .sq[data-name='13']", "aria-label")
        assert label.startswith("13: ") and "black" not in label, label
        page.fill("#type-move-text", "22-18")
        page.keyboard.press("Enter")
        page.wait_for_selector("#announce:has-text('22-18')")
        assert "played" not in page.text_content("#announce")
        assert len(live.view()["moves"]) == 2
