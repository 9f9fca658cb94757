"""Issue 28 items 2, 3, 5 and 6 in real Chromium, on the virtual board as a new user finds it: no "Arrange
pieces" click anywhere - the start, a new game of another size, a FEN set-up, an exercise and a replay stand
at once; a takeback puts the pieces back itself and no fault is reported afterwards; the messages say what
the board did; Konane's removal and a capture that may stop early each take one click."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import LiveServer, browser, cell, live_server, markers, open_page, wait_plies, wait_state

from engine.exercises import load
from firmware_bridge.gpio_model import SwitchMatrix

REPLAY = ('[Event "Manchester 1841"]\n[White "Wyllie, J."]\n[Black "Moorhead, W."]\n[Result "*"]\n'
          '[GameType "21"]\n\n1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 *\n')
KONANE = ("B:Wa1,c1,g1,b2,f2,h2,a3,e3,g3,b4,d4,f4,h4,a5,c5,e5,b6,d6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
          ":Bb1,d1,f1,h1,a2,c2,e2,g2,b3,f3,h3,a4,c4,g4,b5,h5,a6,c6,e6,b7,d7,f7,h7,a8,c8,e8,g8")


def standing(page: Page, live: LiveServer, state: str) -> None:
    """The game is in ``state`` and the virtual board holds exactly the game's pieces, as the page shows."""
    wait_state(page, state, timeout=30_000)
    s = live.view()
    assert sorted(map(tuple, s["occupancy"])) == sorted((p["row"], p["col"]) for p in s["pieces"])
    assert len(page.query_selector_all("#board .sq[data-occupied='1']")) == len(s["pieces"])


def new_game(page: Page, variant: str, color: str, opponent: str, fen: str = "") -> None:
    page.select_option("#ng-variant", variant)
    page.select_option("#ng-color", color)
    page.select_option("#ng-opponent", opponent)
    page.fill("#ng-level", "1")
    page.fill("#ng-fen", fen)
    page.click("#btn-new-game")
    page.wait_for_function(f"() => document.querySelector('#variant-name').textContent.length > 0 && "
                           f"document.querySelectorAll('#moves .ply').length === 0 && "
                           f"document.querySelector('#ng-variant').value === '{variant}'")


def messages(page: Page) -> str:
    return page.text_content("#messages") or ""


def test_the_virtual_board_moves_its_own_pieces(pw: Playwright, tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "club.pdn").write_text(REPLAY, encoding="utf-8")
    exercise = next(e for e in load("english").exercises if e.kind == "shot")
    with live_server(tmp_path, variant="international", opponent="engine", human_color="white", level=1,
                     engine_time=0.05, settle_ms=100, sensor_check_ms=200,
                     matrix=SwitchMatrix(10, 10)) as live, browser(pw) as context:   # reeds that could fail
        live.session.lessons.review_depth = 1
        page = open_page(context, live.url)
        standing(page, live, "person.idle")                        # the start, set up by itself

        # A new game of another size: Black, the computer, moves first in English and moves itself.
        new_game(page, "english", "white", "engine")
        page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 64")
        page.wait_for_selector("#messages li:has-text('The computer (black) played')", timeout=30_000)
        standing(page, live, "person.idle")
        path = live.view()["legal_paths"][0]
        page.click(cell(*path["path"][0]))
        page.click(cell(*path["path"][-1]))
        wait_plies(page, 3)
        standing(page, live, "person.idle")

        # The takeback plays itself, and the board's health finds nothing afterwards.
        page.click("#btn-takeback")
        wait_plies(page, 1)
        standing(page, live, "person.idle")
        page.wait_for_timeout(1000)                                 # five check times of a still board
        assert live.view()["board_health"]["faults"] == [] and "seems" not in messages(page)
        assert live.view()["state"] == "person.idle"
        assert "move the piece as the LEDs show" not in messages(page)
        assert "Took back 2 plies." in messages(page) and "put the pieces back" not in messages(page)

        # A FEN set-up, an exercise and a replay: each stands at once.
        page.click("#setup-panel summary")
        page.fill("#setup-fen-text", "W:W18,22,K30:B11,14")
        page.click("#btn-setup-fen")
        page.wait_for_function("() => document.querySelectorAll('#board .sq[data-piece]').length === 5")
        standing(page, live, "person.idle")
        (king,) = [p for p in markers(page) if p["king"]]    # item 15: the king on 30 is unmistakable
        assert king["mark"] >= 0.6 * king["piece"]
        assert all(not p["mark"] for p in markers(page) if not p["king"])
        page.click("#exercises-panel summary")
        page.select_option("#ex-variant", "english")
        page.fill("#ex-id", exercise.id)
        page.click("#ex-start")
        page.wait_for_selector("#lesson-panel[data-kind='exercise']:not([hidden])")
        standing(page, live, "person.idle")
        page.click("#tab-library")
        page.click("#games tr.game:has-text('Moorhead')")   # not the English game saved meanwhile
        page.click("#v-replay")
        page.wait_for_selector("#lesson-panel[data-kind='replay']:not([hidden])")
        standing(page, live, "computer.showing")
        page.click("#lesson-forward")
        page.wait_for_selector("#messages li:has-text('Move 1: 11-15.')", state="attached")
        standing(page, live, "computer.showing")
        assert "set up the" not in messages(page).lower()
        assert not [m for m in live.view()["messages"] if m["level"] == "error"]

        # Konane: the opening removals take one click each; a capture that may stop stops on one click.
        page.click("nav .tab[data-tab='live']")
        new_game(page, "hawaii", "both", "person")
        standing(page, live, "person.idle")
        for ply in (1, 2):
            removal = live.view()["legal_paths"][0]
            assert removal["captures"] == [removal["path"][0]]             # a piece taken off, nothing lands
            page.click(cell(*removal["path"][0]))                           # once
            wait_plies(page, ply)
        page.fill("#setup-fen-text", KONANE)
        page.click("#btn-setup-fen")
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 0")
        standing(page, live, "person.idle")
        [short] = [p for p in live.view()["legal_paths"] if p["text"] == "b5xd5"]
        page.click(cell(*short["path"][0]))
        page.click(cell(*short["path"][1]))                         # d5: one click stops there
        wait_plies(page, 1)
        assert [m["text"] for m in live.view()["moves"]] == ["b5xd5"]
        assert "You may stop here or jump again: b5xd5 stops on d5; b5xf5 jumps on." in messages(page)
