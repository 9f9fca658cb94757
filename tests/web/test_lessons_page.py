"""Lessons in headless Chromium: an exercise set up square by square as the lit squares show and solved on the
virtual board; a game of the library replayed on the board from the viewer's Replay button."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import arranged, browser, by_hand, cell, click_square, live_server, open_page, wait_state

import rules
from engine.exercises import load


def lit_squares(page: Page) -> set[tuple[int, int]]:
    cells = page.query_selector_all("#board .sq[data-led]")
    return {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col"))) for e in cells}


def test_an_exercise_is_set_up_by_the_lit_squares_and_solved_on_the_virtual_board(pw: Playwright,
                                                                                 tmp_path: Path) -> None:
    exercise = next(e for e in load("english").exercises if e.kind == "shot")
    position = rules.Board("english", exercise.fen)
    rc = position.variant.geometry.rc
    with live_server(tmp_path, variant="english", human_color="white", opponent="person",
                     auto_computer=False) as live, browser(pw) as context:   # set up by hand, as a real board
        page = open_page(context, live.url)
        arranged(page)                                   # the start position stands on the board
        page.click("#exercises-panel summary")
        page.select_option("#ex-variant", "english")
        page.fill("#ex-id", exercise.id)
        page.click("#ex-start")
        wait_state(page, "setup")
        page.wait_for_selector("#lesson-panel:not([hidden])")
        assert exercise.task in page.text_content("#lesson-status")
        by_hand(page)
        target = {rc(sq) for sq in position.occupied()}
        while True:                                      # follow the lights, one square at a time
            todo = lit_squares(page)
            if not todo:
                break
            r, c = sorted(todo, key=lambda cell: (cell in target, cell))[0]   # empty first, then fill
            occupied = page.get_attribute(cell(r, c), "data-occupied") == "1"
            assert occupied != ((r, c) in target), f"lit {r, c} needs no change"
            click_square(page, r, c)
            if page.get_attribute("#machine", "data-state") == "person.idle":
                break
        wait_state(page, "person.idle")
        page.check("#auto-computer")                     # set up by hand; the line's replies play themselves
        page.click("#lesson-hint")
        solution = position.parse_move(exercise.solution)
        page.wait_for_selector(f"{cell(*rc(solution.from_square))}[data-led]")
        click_square(page, *rc(solution.from_square))
        page.click(cell(*rc(solution.to_square)))        # the line's reply may take the piece off at once
        page.wait_for_selector("#lesson-status[data-solved='yes']")
        assert f"Right: {exercise.solution} is the solution" in page.text_content("#messages")
        # issue 28 item 13: the line's reply is played by itself, and Next exercise sets up the next one
        page.wait_for_function(f"() => document.querySelector('#messages').textContent.includes("
                               f"'The computer (black) played {exercise.line[1]}')")
        wait_state(page, "person.idle")                  # the line's reply played by itself
        following = live.session.view()["lesson"]["next_exercise"]
        page.click("#lesson-next")
        page.wait_for_selector(f"#lesson-title:has-text('Exercise {following} ')")
    assert exercise.id in (tmp_path / "journal" / "exercises.json").read_text()


def test_a_library_game_is_replayed_from_the_viewer(pw: Playwright, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    # the opening of Wyllie - Moorhead, Manchester 1841 (tests/data/pdn-corpus/succeed/OCA_2.0.pdn)
    (games / "club.pdn").write_text('[Event "Manchester 1841"]\n[White "Wyllie, J."]\n'
                                    '[Black "Moorhead, W."]\n[Result "*"]\n[GameType "21"]\n\n'
                                    '1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 *\n',
                                    encoding="utf-8")
    with live_server(tmp_path, variant="english", human_color="white", opponent="person") as live, \
            browser(pw) as context:
        live.session.lessons.review_depth = 2
        page = open_page(context, live.url)
        arranged(page)
        page.click("#tab-library")
        page.click("#games tr.game")
        page.click("#v-replay")
        page.wait_for_selector("#lesson-panel[data-kind='replay']:not([hidden])")
        page.click("#btn-arrange")
        wait_state(page, "computer.showing")
        assert "Next: 11-15." in page.text_content("#lesson-status")
        for ply in range(1, 8):
            page.click("#lesson-forward")
            page.wait_for_function(f"() => /Move {ply} of 8/.test(document.querySelector('#lesson-status')"
                                   f".textContent)")
        assert "Next: 25x18." in page.text_content("#lesson-status")
        page.click("#lesson-back")
        page.wait_for_function("() => /Move 6 of 8/.test(document.querySelector('#lesson-status')"
                               ".textContent)")
        assert "Next: 15x22." in page.text_content("#lesson-status")
        page.wait_for_function("() => /engine review/.test(document.querySelector('#lesson-status')"
                               ".textContent) === false")
        assert "for White" in page.text_content("#lesson-status")
        page.click("#lesson-stop")                       # issue 28 item 1: Stop ends it at once
        page.wait_for_selector("#lesson-panel", state="hidden")
        wait_state(page, "person.idle")                  # the position reached, for free play
        assert "The replay stopped after 6 plies" in page.text_content("#messages")
        assert "restart" not in page.text_content("#messages")
        assert len(live.session.controller.records) == 0


def test_item20_a_replay_is_titled_by_its_players_date_and_variant(pw: Playwright, tmp_path: Path) -> None:
    """Issue 28 item 20: the title read "Replay: Event 'draughts-board game', White 'player', ..."."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "20261130-203000-english.pdn").write_text(
        '[Event "draughts-board game"]\n[Date "2026.11.30"]\n[White "Ann"]\n[Black "Computer (level 5)"]\n'
        '[Result "*"]\n[GameType "21"]\n\n1. 11-15 24-20 *\n', encoding="utf-8")
    with live_server(tmp_path, variant="english", human_color="white", opponent="person") as live, \
            browser(pw) as context:
        live.session.lessons.review_depth = 1
        page = open_page(context, live.url)
        page.click("#tab-library")
        page.click("#games tr.game")
        page.click("#v-replay")
        page.wait_for_selector("#lesson-panel[data-kind='replay']:not([hidden])")
        title = "Ann \u2013 Computer (level 5), 2026.11.30, English draughts"
        assert page.text_content("#lesson-title") == f"Replay: {title}"
        assert live.view()["lesson"]["title"] == title
