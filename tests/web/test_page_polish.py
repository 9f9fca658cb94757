"""Issue 13 items 9 (web part) and 13: Resign asks first; the page is usable 390 px wide (a phone reaching the
Pi's page) with nothing cut off; Accept/Decline draw only when there is an offer to answer, and the answer
shown when it comes; errors in a player's words, not the program's field and class names."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import arranged, browser, live_server, open_page

PHONE = {"width": 390, "height": 844}

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

OPTIONS_CUT = """(sel) => {   // options whose text is wider than the closed select can show
    const s = document.querySelector(sel);
    const style = getComputedStyle(s);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return [...s.options].filter(o => ctx.measureText(o.text).width > room).map(o => o.text); }"""


def outside(page: Page, selector: str, width: int) -> list[str]:
    """The visible elements under ``selector`` whose box reaches past ``width`` pixels."""
    return page.evaluate(f"""() => [...document.querySelectorAll('{selector} *')].filter(e => {{
        const r = e.getBoundingClientRect(); return r.width > 0 && r.right > {width} + 0.5; }})
        .map(e => e.id || e.className || e.tagName)""")


LONG_NAMES = """[Event "club evening"]
[White "Computer (level 10) from the club's Raspberry Pi"]
[Black "Alexandra Konstantinopoulou-Wetherington"]
[Result "0-1"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 0-1
"""


def test_item13_usable_at_390px_without_sideways_scrolling(pw: Playwright, tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "20250101-120000-international.pdn").write_text(LONG_NAMES, encoding="utf-8")
    with live_server(tmp_path, variant="international", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        page.set_viewport_size(PHONE)
        page.wait_for_function(f"() => ({SIDEWAYS})() <= 0")
        assert outside(page, "#live", PHONE["width"]) == []
        board = page.locator("#board").bounding_box()
        assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
        assert board["width"] > 0.8 * PHONE["width"]   # the board uses the width it has
        assert page.evaluate(OPTIONS_CUT, "#ng-variant") == []
        page.click("#tab-library")
        page.click("#games tr.game")   # the list and the game viewer, with long player names
        page.wait_for_selector("#v-ply[data-ply='0']")
        assert page.evaluate(SIDEWAYS) <= 0
        assert outside(page, "#library", PHONE["width"]) == []


def test_item13_variant_names_are_not_cut_off(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path) as live, browser(pw) as context:
        page = open_page(context, live.url)
        assert page.locator("#ng-variant option").count() >= 16
        assert page.evaluate(OPTIONS_CUT, "#ng-variant") == []


def test_item13_accept_and_decline_only_for_an_offer_to_answer(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        assert page.is_hidden("#btn-accept-draw") and page.is_hidden("#btn-decline-draw")
        page.click("#btn-offer-draw")   # Black (to move) offers; White answers
        page.wait_for_selector("#btn-decline-draw:visible")
        assert page.is_visible("#btn-accept-draw")
        assert "Black offers a draw" in page.text_content("#draw-status")
        page.click("#btn-decline-draw")
        page.wait_for_selector("#btn-decline-draw", state="hidden")
        assert page.is_hidden("#btn-accept-draw")
        page.wait_for_selector("#draw-status:has-text('White declines the draw')")
        assert live.view()["draw_offer"] is None


def test_item13_an_offer_to_the_computer_waits_for_its_answer(pw: Playwright, tmp_path: Path) -> None:
    """Against the computer the person cannot answer their own offer: no Accept/Decline, a note instead."""
    with live_server(tmp_path, variant="english", opponent="engine", human_color="black",
                     engine_time=0.1) as live, browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        page.click("#btn-offer-draw")
        page.wait_for_function("() => /offers a draw|declines|accepts/.test("
                               "document.querySelector('#draw-status').textContent)")
        note = page.text_content("#draw-status")
        if "offers" in note:   # until the computer answers, the page says it waits for the answer
            assert "Black offers a draw" in note and "waiting for the answer" in note
            assert page.is_disabled("#btn-offer-draw")
        assert page.is_hidden("#btn-accept-draw") and page.is_hidden("#btn-decline-draw")


def test_item13_errors_in_a_players_words(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path) as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.fill("#ng-time", "five minutes")
        page.click("#btn-new-game")
        error = page.wait_for_selector("#messages li.error").text_content()
        assert "time control" in error and "5+3" in error and "'five minutes'" in error
        for internal in ("new_game", "field", "time_control", "NewGame"):
            assert internal not in error
        page.fill("#ng-time", "")
        page.fill("#ng-fen", "W:W99:B1")
        page.click("#btn-new-game")
        page.wait_for_function("() => document.querySelectorAll('#messages li.error').length === 2")
        error = page.text_content("#messages li.error")
        assert "99" in error and error.startswith("New game: ")
        assert "NewGame" not in error and "new_game" not in error
        assert live.view()["variant"] == "international"


def test_item9_resign_asks_for_confirmation(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        assert page.is_hidden("#resign-confirm")
        page.click("#btn-resign")
        page.wait_for_selector("#resign-confirm:visible")
        assert "Black" in page.text_content("#resign-confirm")   # Black is to move and would resign
        page.click("#btn-resign-no")
        page.wait_for_selector("#resign-confirm", state="hidden")
        page.click("#btn-hint")   # commands go in order: "No" sent nothing
        page.wait_for_selector("#board .sq[data-led]")
        assert live.view()["result"] is None
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
        page.wait_for_selector("#result[data-result='1-0']")
        assert page.is_hidden("#resign-confirm")
