"""The page's controls against the real Session: hint, teaching mode, draw by agreement, missed-capture
choice, and setting up a position from FEN or by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Playwright
from web_harness import (
    LiveServer,
    arranged,
    browser,
    by_hand,
    cell,
    click_square,
    live_server,
    open_page,
    set_up,
    square,
    wait_state,
)

import rules
from controller import commands as cmd
from controller.config import Config
from controller.session import LinkChanged
from engine.ratings import level_rating


def test_hint_teaching_and_draw(pw: Playwright, tmp_path: Path) -> None:
    """The Hint button lights the engine's move for the person (issue 13 item 6): from, path and landing."""
    board = rules.Board("international")
    with live_server(tmp_path, opponent="person", human_color="both") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#btn-arrange")
        wait_state(page, "person.idle")
        page.click("#btn-hint")
        page.wait_for_selector("#messages li:has-text('Hint: ')")
        text = page.text_content("#messages li:has-text('Hint: ')").split("Hint: ")[1].split(".")[0]
        move = board.parse_move(text)
        wanted = {board.variant.geometry.rc(sq) for sq in move.path}
        lit_count = "document.querySelectorAll('#board .sq[data-led]').length"
        page.wait_for_function(f"() => {lit_count} === {len(wanted)}")
        lit = {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col")))
               for e in page.query_selector_all("#board .sq[data-led]")}
        assert lit == wanted, "only the hinted move is lit, not every legal move"
        assert {(light["row"], light["col"]) for light in live.view()["leds"]} == lit
        page.check("#teaching")
        page.wait_for_function("() => true")
        live.call(live.session.idle)
        assert live.view()["teaching"] is True
        page.click("#btn-offer-draw")
        page.wait_for_selector("#messages li:has-text('offers a draw')")
        page.click("#btn-accept-draw")
        page.wait_for_selector("#result[data-result='1/2-1/2']")
        assert "agreement" in page.text_content("#result")


def test_missed_capture_choice_huff(pw: Playwright, tmp_path: Path) -> None:
    variant = "spanish-traditional"
    fen = "W:W16,10:B20"
    board = rules.Board(variant, fen)
    assert [board.move_text(m) for m in board.legal_moves] == ["16x23"]
    quiet_from, quiet_to = square(variant, "10"), square(variant, "14")
    with live_server(tmp_path, variant=variant, opponent="person", human_color="both", settle_ms=100,
                     grace_ms=400) as live, browser(pw) as context:
        page = open_page(context, live.url)
        set_up(page, variant, fen)
        by_hand(page)   # piece by piece, as on a real board: the page itself offers only legal moves
        click_square(page, *quiet_from)   # a quiet move although 16x23 was compulsory
        click_square(page, *quiet_to)
        wait_state(page, "person.missed_capture")
        assert page.is_visible("#missed-capture button[data-choice='huff']")
        assert page.is_visible("#missed-capture button[data-choice='retract']")
        assert not page.is_visible("#missed-capture button[data-choice='accept']")
        page.click("#missed-capture button[data-choice='huff']")
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 1")
        assert "huff" in page.text_content("#moves .ply")
        page.click("#btn-arrange")   # take the huffed man off, as the LEDs show
        page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 2")
        wait_state(page, "person.idle")
        state = live.view()
        assert state["turn"] == "black" and square(variant, "16") not in \
            [(p["row"], p["col"]) for p in state["pieces"]]


def test_setup_by_hand(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="spanish", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        geometry = rules.get_variant("spanish").geometry
        white_king, white_man, black_man = (geometry.rc(geometry.parse_square(s)) for s in ("14", "6", "27"))
        page.click("#setup-panel summary")
        page.check("#edit-mode")
        page.click("#btn-edit-clear")
        assert page.locator("#board .piece").count() == 0
        for square, clicks in ((white_king, 2), (white_man, 1), (black_man, 3)):
            for _ in range(clicks):
                page.click(f"#board .sq[data-row='{square[0]}'][data-col='{square[1]}']")
        page.select_option("#edit-turn", "black")
        page.click("#btn-edit-apply")
        page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 3")
        live.call(live.session.idle)
        expected = rules.Board("spanish", "B:W6,K14:B27")
        assert rules.Board("spanish", live.view()["fen"]).pieces() == expected.pieces()
        assert live.view()["turn"] == "black"
        assert page.locator("#board .piece.king.white").count() == 1


def test_rating_is_shown_and_updated_after_a_game_against_the_engine(pw: Playwright, tmp_path: Path) -> None:
    # English: Black (the person) moves first, so resigning at once never wakes the engine
    with live_server(tmp_path, variant="english", opponent="engine", human_color="black", level=5,
                     player="ann") as live, browser(pw) as context:
        page = open_page(context, live.url)
        level_5 = round(level_rating("english", 5).rating)   # a new player is rated from the level chosen
        page.wait_for_selector(f"#rating:has-text('ann: english rating {level_5} (RD 350)')")
        page.click("#btn-arrange")
        wait_state(page, "person.idle")
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
        page.wait_for_selector(f"#messages li:has-text('Your english rating: {level_5} ->')")
        live.call(live.session.idle)
        rating = live.view()["rating"]
        assert rating["player"] == "ann" and level_5 - 250 < rating["rating"] < level_5 and rating["rd"] < 350
        page.wait_for_selector(f"#rating:has-text('english rating {round(rating['rating'])} "
                               f"(RD {round(rating['rd'])})')")


def test_claim_draw_button_follows_the_rules(pw: Playwright, tmp_path: Path) -> None:
    """English: the Claim draw button is enabled only while a repetition may be claimed; a click ends it."""
    board = rules.Board("english", "W:WK30:BK4")
    with live_server(tmp_path, variant="english", opponent="person", human_color="both",
                     settle_ms=100) as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.select_option("#ng-variant", "english")
        page.select_option("#ng-color", "both")
        page.select_option("#ng-opponent", "person")
        page.fill("#ng-fen", board.fen())
        page.click("#btn-new-game")
        page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 2")
        wait_state(page, "person.idle")   # the virtual board sets the position up itself
        assert page.is_disabled("#btn-claim-draw")
        for ply, text in enumerate(("30-26", "4-8", "26-30", "8-4") * 2, 1):
            move = board.parse_move(text)
            page.click(cell(*board.variant.geometry.rc(move.from_square)))   # the piece, then its square
            page.click(cell(*board.variant.geometry.rc(move.to_square)))
            board.push(move)
            page.wait_for_function(f"() => document.querySelectorAll('#moves .ply').length === {ply}")
        page.wait_for_selector("#btn-claim-draw:not([disabled])")
        assert "threefold repetition" in page.get_attribute("#btn-claim-draw", "title")
        page.click("#btn-claim-draw")
        page.wait_for_selector("#result[data-result='1/2-1/2']")
        assert "threefold repetition, claimed" in page.text_content("#result")
        assert page.is_disabled("#btn-claim-draw")


def test_a_real_board_is_not_clickable(pw: Playwright, tmp_path: Path) -> None:
    """With a GPIO or serial board the page hides the virtual-board note and Arrange pieces; moves made on
    the pieces still show up."""
    board = rules.Board("english")
    rc = board.variant.geometry.rc
    with live_server(tmp_path, variant="english", opponent="person", human_color="both",
                     real_board=True) as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.wait_for_selector("#variant-name:has-text('English draughts')")
        assert page.is_hidden("#btn-arrange") and page.is_hidden("#virtual-note")
        live.call(lambda: live.hand.set_occupancy(rc(sq) for sq in board.pieces()))
        wait_state(page, "person.idle")
        move = board.parse_move("9-13")
        live.call(lambda: live.hand.lift(rc(move.from_square)))
        live.call(lambda: live.hand.place(rc(move.to_square)))
        page.wait_for_selector("#moves .ply:has-text('9-13')")
        assert page.is_hidden("#board-link")
        live.call(lambda: live.session.inbox.put(LinkChanged(False)))   # a serial board whose cable is out
        page.wait_for_selector("#board-link:has-text('board disconnected')")
        live.call(lambda: live.session.inbox.put(LinkChanged(True)))
        page.wait_for_selector("#board-link", state="hidden")


def test_a_refusal_stands_as_the_alert_until_the_board_is_right(pw: Playwright, tmp_path: Path) -> None:
    """Issue 13 item 8: one message, the true reason first, cleared when resolved."""
    variant, fen = "international", "W:W27,33:B22"

    def rc(name: str) -> tuple[int, int]:
        return square(variant, name)

    with live_server(tmp_path, variant=variant, opponent="person", human_color="both",
                     grace_ms=60_000) as live, browser(pw) as context:
        page = open_page(context, live.url)
        set_up(page, variant, fen)
        by_hand(page)
        assert page.is_hidden("#alert")
        click_square(page, *rc("33"))
        click_square(page, *rc("23"))            # not a step of the man at all (and 27x18 is compulsory)
        page.wait_for_selector("#alert:not([hidden])")
        text = page.text_content("#alert")
        assert text.startswith("Refused: 33-23 is not a legal move: the piece on 33 cannot go to 23"), text
        assert page.locator("#messages li.refusal").count() == 1
        click_square(page, *rc("23"))            # the man goes back: nothing to fix any more
        click_square(page, *rc("33"))
        page.wait_for_selector("#alert[hidden]", state="attached")
        assert live.view()["alert"] is None and live.view()["state"] == "person.idle"


def test_the_computers_moves_play_themselves_on_the_virtual_board(pw: Playwright, tmp_path: Path) -> None:
    """Issue 13 item 2: the default on the simulated board, and a switch on the page."""
    with live_server(tmp_path, variant="english", opponent="engine", human_color="white", level=1,
                     engine_time=0.1) as live, browser(pw) as context:
        page = open_page(context, live.url)
        assert page.is_checked("#auto-computer")
        page.click("#btn-arrange")                # Black, the computer, moves first in English
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 1", timeout=30_000)
        wait_state(page, "person.idle")
        page.uncheck("#auto-computer")
        live.call(live.session.idle)
        assert live.view()["auto_computer"] is False
        live.play("22-18" if "22-18" in live.view()["legal_moves"] else live.view()["legal_moves"][0])
        wait_state(page, "computer.showing", timeout=30_000)   # now it waits for a hand on the board
        assert len(live.view()["moves"]) == 2


def test_new_game_against_a_dxp_engine_from_the_form(pw: Playwright, tmp_path: Path) -> None:
    """The form offers the DXP engine of the config (here `dboard dxp --listen`), which then plays White."""
    command = [sys.executable, "-m", "controller.cli", "-q", "dxp", "--listen", "0", "--level", "1",
               "--time", "0.05"]
    follower = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        port = int(follower.stdout.readline().rsplit(":", 1)[1])  # type: ignore[union-attr]
        with live_server(tmp_path, opponent="person", human_color="both",
                         dxp_engine=f"127.0.0.1:{port}") as live, browser(pw) as context:
            page = open_page(context, live.url)
            assert page.text_content("#ng-opponent option[value='dxp']") == "DXP engine (network)"
            page.select_option("#ng-variant", "international")
            page.select_option("#ng-color", "black")
            page.select_option("#ng-opponent", "dxp")
            page.click("#btn-new-game")   # the virtual board sets itself up; White's moves play themselves
            page.wait_for_selector("#messages li:has-text('The computer (white) played')")
            assert live.view()["engine"]["opponent"] == "dxp"
            assert "failed" not in page.text_content("#messages")
    finally:
        follower.kill()
        follower.wait()


def test_an_amended_move_and_the_start_position_set_up_early_are_said_on_the_page(pw: Playwright,
                                                                                  tmp_path: Path) -> None:
    """Issue 23: a man moved on before the opponent touches the board amends the move, said on the page; the
    start position set up after a few plies asks: new game, or take the moves back?"""
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#btn-arrange")
        wait_state(page, "person.idle")
        assert not page.is_visible("#start-question")
        paths = {p["text"]: p["path"] for p in live.view()["legal_paths"]}
        live.play("9-13")
        live.send(cmd.Lift(*paths["9-13"][-1]))   # moved on from 13 to 14: a change of mind
        live.send(cmd.Place(*paths["9-14"][-1]))
        page.wait_for_function("() => document.querySelector('#messages').textContent"
                               ".includes('Amended: 9-14, not 9-13.')")
        assert [r["text"] for r in live.view()["moves"]] == ["9-14"]
        live.play("22-18")
        assert live.session is not None
        start = live.session.controller.start_occupancy
        live.call(lambda: live.hand.set_occupancy(start))
        page.wait_for_selector("#start-question:not([hidden])")
        assert page.text_content("#btn-start-takeback") == "Take back 2 plies"
        assert page.is_visible("#start-question button[data-choice='new_game']")
        page.click("#btn-start-takeback")
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 0")
        wait_state(page, "person.idle")
        assert not page.is_visible("#start-question")
        assert "Took back 2 plies" in page.text_content("#messages")


def test_item20_the_level_field_shows_the_level_of_a_resumed_game(pw: Playwright, tmp_path: Path) -> None:
    """Issue 28 item 20: after a restart the form said level 3 while the game went on at level 5."""
    first = LiveServer(Config(data_dir=str(tmp_path), variant="english", opponent="engine",
                              human_color="black", level=5, settle_ms=0))
    first.start()
    try:
        with browser(pw) as context:
            arranged(open_page(context, first.url))
            first.play("11-15")
    finally:
        first.stop()
    again = LiveServer(Config(data_dir=str(tmp_path), variant="english", opponent="engine",
                              human_color="white", settle_ms=0))   # level 3 and White: not the game's
    again.start()
    try:
        state = again.view()
        assert state["engine"]["level"] == 5 and state["human_color"] == "black" and state["moves"]
        with browser(pw) as context:
            page = open_page(context, again.url)
            page.wait_for_function("() => document.querySelector('#ng-level').value === '5'")
            assert page.input_value("#ng-color") == "black"
            page.fill("#ng-level", "7")   # the person's own choice stays while the game's state changes
            again.send(cmd.SetTeaching(True))
            page.wait_for_selector("#teaching:checked")
            assert page.input_value("#ng-level") == "7"
    finally:
        again.stop()


def test_item20_hint_and_take_back_are_disabled_once_the_game_is_over(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        assert page.is_disabled("#btn-takeback") and page.is_enabled("#btn-hint")   # nothing to take back yet
        live.play("11-15")
        page.wait_for_selector("#btn-takeback:enabled")
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
        page.wait_for_selector("#result[data-result]")
        assert page.is_disabled("#btn-hint") and page.is_disabled("#btn-takeback")
        live.send(cmd.NewGame("english", "both", "person", 3))   # hints again, nothing to take back
        page.wait_for_selector("#result", state="hidden")
        page.wait_for_selector("#btn-hint:enabled")
        assert page.is_disabled("#btn-takeback")
