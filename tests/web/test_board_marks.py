"""Issue 28 items 15 and 7 in real Chromium: what the board renderer (web/static/board.js) draws on a square -
a king unmistakable at desktop and phone width, and a legend naming every light and mark it can show."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import browser, live_server, open_page, set_up

PHONE = {"width": 390, "height": 844}
KINGS = "W:WK14,K15,6:BK27,K26,29"   # Spanish: two kings and a man a side

MARKER = """() => [...document.querySelectorAll('#board .piece')].map((p) => {
    const crown = p.querySelector('.crown');
    const box = p.getBoundingClientRect();
    const mark = crown ? crown.getBoundingClientRect() : null;
    return { king: p.classList.contains('king'), piece: box.width,
             mark: mark ? Math.min(mark.width, mark.height) : 0,
             fill: crown ? getComputedStyle(crown.querySelector('path')).fill : null,
             face: getComputedStyle(p).backgroundImage }; })"""


def markers(page: Page) -> list[dict[str, object]]:
    """Every piece of the live board: whether a king, its width, its marker's smaller side (0: none)."""
    return page.evaluate(MARKER)


def assert_kings_stand_out(page: Page) -> None:
    pieces = markers(page)
    kings = [p for p in pieces if p["king"]]
    men = [p for p in pieces if not p["king"]]
    assert len(kings) == 4 and len(men) == 2
    for king in kings:
        assert isinstance(king["mark"], float | int) and isinstance(king["piece"], float | int)
        assert king["mark"] >= 0.6 * king["piece"], king   # the crown covers most of the piece
        assert king["fill"] == "rgb(226, 182, 46)"   # gold: neither the white nor the black face
    assert all(man["mark"] == 0 for man in men)


def test_item15_a_king_is_unmistakable_at_desktop_and_phone_width(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="spanish", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        set_up(page, "spanish", KINGS)
        assert_kings_stand_out(page)
        desktop = max(p["piece"] for p in markers(page))   # type: ignore[type-var]
        page.set_viewport_size(PHONE)
        page.wait_for_function(f"() => document.querySelector('#board .piece').getBoundingClientRect().width"
                               f" < {desktop}")
        assert_kings_stand_out(page)
