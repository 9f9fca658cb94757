"""Issue 13's whole new-user path in real Chromium: start on international, switch to spanish and turkish from
the page, 20 plies in each with the computer's moves playing themselves, a capture made by clicks on its
landing squares, a hint, a takeback, a resignation with its confirmation, the game in the library with its
name and how it ended, and the page at a phone's 390 px with no sideways scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright
from web_harness import LiveServer, browser, cell, live_server, open_page, wait_state

import rules
from rules.pdn import read_games

PLIES = 20


def new_game_from_the_page(page: Page, variant: str) -> None:
    """The New game form: the variant, White against the built-in engine at level 1."""
    page.select_option("#ng-variant", variant)
    page.select_option("#ng-color", "white")
    page.select_option("#ng-opponent", "engine")
    page.fill("#ng-level", "1")
    page.fill("#ng-fen", "")
    page.click("#btn-new-game")
    page.wait_for_function("() => document.querySelector('#variant-name').textContent.length > 0 && "
                           "document.querySelectorAll('#moves .ply').length === 0")
    wait_state(page, "person.idle")   # the virtual board sets itself up (issue 28 item 3)


def choose(state: dict[str, Any]) -> dict[str, Any]:
    """The person's move: a capture when there is one (to click its landing squares), else one that offers an
    exchange (every reply captures and White can take back after each), else the first."""
    paths = state["legal_paths"]
    board = rules.Board(state["variant"], state["fen"])
    return next((p for p in paths if p["captures"]), None) or \
        next((p for p in paths if offers_exchange(board, board.parse_move(p["text"]))), paths[0])


def offers_exchange(board: rules.Board, move: rules.Move) -> bool:
    """After ``move`` the opponent must capture, and after any of its captures White has one in turn."""
    after = board.copy()
    after.push(move)
    replies = list(after.legal_moves)
    if not replies or not all(r.is_capture for r in replies):
        return False
    for reply in replies:
        after.push(reply)
        answer = any(m.is_capture for m in after.legal_moves)
        after.pop()
        if not answer:
            return False
    return True


def play_by_clicks(page: Page, live: LiveServer, plies: int) -> int:
    """The person (White) plays by clicks until ``plies`` plies stand, the computer answering by itself;
    returns how many of the person's moves were captures."""
    captures = 0
    while len(live.view()["moves"]) < plies and live.view()["result"] is None:
        wait_state(page, "person.idle", timeout=30_000)
        state = live.view()
        move = choose(state)
        captures += bool(move["captures"])
        done = len(state["moves"]) + 1
        page.click(cell(*move["path"][0]))                 # the piece, then each landing square in turn
        for landing in move["path"][1:]:
            page.click(cell(*landing))
        page.wait_for_function(f"() => document.querySelectorAll('#moves .ply').length >= {done + 1} || "
                               f"document.querySelector('#result:not([hidden])') !== null", timeout=30_000)
    return captures


def test_a_new_user_plays_three_variants_from_the_page(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="international", opponent="engine", human_color="white", level=1,
                     engine_time=0.05, settle_ms=100) as live, browser(pw) as context:
        page = open_page(context, live.url)
        assert len(page.query_selector_all("#board .sq")) == 100    # the default: 10x10
        assert page.is_checked("#auto-computer")

        captures = 0
        for variant in ("spanish", "turkish"):
            new_game_from_the_page(page, variant)
            page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 64")
            captures += play_by_clicks(page, live, PLIES)
            assert len(live.view()["moves"]) >= PLIES, variant
            errors = [m for m in live.view()["messages"] if m["level"] == "error"]
            assert errors == [], errors
        assert captures >= 1, "no capture came up to be made by clicks"

        # A hint: the engine's move for the person, lit on the board.
        wait_state(page, "person.idle", timeout=30_000)
        page.click("#btn-hint")
        page.wait_for_selector("#messages li:has-text('Hint: ')", timeout=30_000)
        assert page.query_selector_all("#board .sq[data-led]")

        # A takeback to the person's own turn, then the pieces put back as the LEDs show.
        before = len(live.view()["moves"])
        page.click("#btn-takeback")
        page.wait_for_function(f"() => document.querySelectorAll('#moves .ply').length === {before - 2}")
        wait_state(page, "person.idle")   # the pieces went back by themselves (issue 28 item 2)

        # Resign: asked first, and No means no.
        page.click("#btn-resign")
        page.wait_for_selector("#resign-confirm:not([hidden])")
        page.click("#btn-resign-no")
        assert live.view()["result"] is None
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
        page.wait_for_selector("#result[data-result='0-1']")

        # The game library: the game under its players' names, and how it ended.
        page.click("#tab-library")
        page.wait_for_selector("#games tr.game")
        row = page.text_content("#games tr.game")
        assert "turkish" in row.lower() and "player" in row and "0-1" in row, row
        [turkish] = (tmp_path / "journal" / "games").glob("*-turkish.pdn")
        text = turkish.read_text(encoding="utf-8")
        [game] = read_games(text, validate=True)
        tags = game.tags
        assert (tags["White"], tags["Result"], tags["Termination"]) == ("player", "0-1", "Normal")
        assert "resignation" in text
        [spanish] = (tmp_path / "journal" / "games").glob("*-spanish.pdn")   # saved when turkish began
        assert read_games(spanish.read_text(encoding="utf-8"))[0].result == "*"

        # A phone: 390 px wide, nothing to scroll sideways, on the live tab and on the library.
        page.set_viewport_size({"width": 390, "height": 844})
        for tab in ("live", "library"):
            page.click(f"nav .tab[data-tab='{tab}']")
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), tab
