"""Issue 28 items 15 and 7 in real Chromium: what the board renderer (web/static/board.js) draws on a square -
a king unmistakable at desktop and phone width, and a legend naming every light and mark it can show."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import browser, live_server, markers, open_page, set_up

from controller import lights
from controller.events import frame_to_json
from firmware_bridge.types import LedFrame, Light, Pattern, Rgb

PHONE = {"width": 390, "height": 844}
KINGS = "W:WK14,K15,6:BK27,K26,29"   # Spanish: two kings and a man a side

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


CSS = Path(__file__).resolve().parents[2] / "web" / "static" / "style.css"
NOT_MARKS = {"dark", "light", "play", "white", "black", "dragged", "ghost"}
"""Classes of style.css that draw no sign to explain: the squares' and pieces' colors, the pointer over a
playable square, the piece being dragged and the fading ghost of a captured one."""


def drawn_marks() -> set[str]:
    """Every class style.css gives a square or a piece of the board, but for those in NOT_MARKS."""
    text = CSS.read_text(encoding="utf-8")
    return set(re.findall(r"\.(?:sq|piece)\.([a-z][a-z-]*)", text)) - NOT_MARKS


def hint_colours() -> dict[str, tuple[int, int, int]]:
    """The LED colours the controller's light policy lights, by name."""
    return {name.lower(): (value.r, value.g, value.b) for name, value in vars(lights).items()
            if isinstance(value, Rgb)}


def led_patterns() -> set[str]:
    """The pattern names the page receives for every lit pattern (controller/events.py)."""
    frames = (LedFrame.of(1, 1, {(0, 0): Light(lights.GREEN, p)}) for p in Pattern if p is not Pattern.OFF)
    return {frame_to_json(frame)[0]["pattern"] for frame in frames}


def test_item7_the_legend_names_every_light_and_mark_the_board_shows(pw: Playwright, tmp_path: Path) -> None:
    assert {"captured", "fix", "lifted", "unknown", "king", "last-to"} <= drawn_marks()   # the CSS was read
    assert {"green", "orange", "purple", "cyan"} <= set(hint_colours())
    css_patterns = set(re.findall(r"\.led\.([a-z]+)", CSS.read_text(encoding="utf-8")))
    assert css_patterns <= led_patterns()
    with live_server(tmp_path, variant="spanish", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        assert page.is_hidden("#legend-colours")   # compact: closed until asked
        page.click("#legend summary")
        assert page.is_visible("#legend-colours")
        names = "(es) => es.map((e) => e.dataset.legend)"
        shown = set(page.eval_on_selector_all("#legend [data-legend]", names))
        for name, rgb in hint_colours().items():
            assert f"led-{name}" in shown, name
            swatch = page.locator(f"#legend [data-legend='led-{name}'] .led")
            color = swatch.evaluate("(e) => getComputedStyle(e).backgroundColor")
            assert color == "rgb({}, {}, {})".format(*rgb), name
            assert name in page.text_content(f"#legend [data-legend='led-{name}']")
        for pattern in led_patterns():
            assert f"pattern-{pattern}" in shown, pattern
            assert page.locator(f"#legend [data-legend='pattern-{pattern}'] .led.{pattern}").count() == 1
        for mark in drawn_marks():   # each drawn by the board renderer with the very class it explains
            assert f"mark-{mark}" in shown, mark
            drawn = f"#legend [data-legend='mark-{mark}'] :is(.sq.{mark}, .piece.{mark})"
            assert page.locator(drawn).count() == 1, mark
        assert page.locator("#legend [data-legend='mark-captured']").text_content().startswith("\u00d7")
