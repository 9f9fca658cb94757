"""Variant options on the web page (docs/rules/README.md#options), in Chromium against the real Session: the
new-game form shows the chosen variant's options preset to their defaults; Thai with White first and Turkish
crowned during a capture are started, played, reloaded (page and server) with the same options, and their
PDN downloads carry them; a bad option is one error line; Alquerque's board is drawn with its lines."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import LiveServer, browser, cell, live_server, open_page, wait_plies, wait_state

import rules
from controller.config import Config
from rules.options import SPECS
from rules.pdn import read_games, variant_of
from rules.pdn.validate import validate_game
from web.messages import CHOICE_LABELS

TURKISH = "W:Wd6:Bd7,e8,a2"   # d6 takes d7 onto d8; crowned at once, it goes on as a king over e8 to f8-h8


def start_game(page: Page, variant: str, options: dict[str, str | bool], fen: str | None = None) -> None:
    """Choose a variant in the new-game form, set its options, start it and set the pieces up."""
    page.select_option("#ng-variant", variant)
    page.wait_for_selector(f"#ng-options[data-variant='{variant}']")
    for name, value in options.items():
        if isinstance(value, bool):
            page.set_checked(f"#ng-option-{name}", value)
        else:
            page.select_option(f"#ng-option-{name}", value)
    page.select_option("#ng-opponent", "person")
    page.select_option("#ng-color", "both")
    page.fill("#ng-fen", fen or "")
    page.click("#btn-new-game")
    page.wait_for_selector(f"#variant-name:has-text('{rules.get_variant(variant).name}')")
    page.click("#btn-arrange")
    wait_state(page, "person.idle")


def play_first(page: Page, live: LiveServer) -> str:
    """Play the first legal move by clicks (the piece, then each landing square: a removal is the piece
    clicked twice); its text."""
    state = live.view()
    path = state["legal_paths"][0]
    page.click(cell(*path["path"][0]))
    for landing in path["path"][1:]:
        page.click(cell(*landing))
    wait_plies(page, len(state["moves"]) + 1)
    return str(path["text"])


def download_pdn(page: Page) -> str:
    """Resign (unless the game is over), and download the finished game from the library."""
    if page.is_enabled("#btn-resign"):
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#tab-library")
    page.wait_for_selector("#games tr.game")
    with page.expect_download() as info:
        page.click("#games tr.game:first-child a.download")
    return Path(info.value.path()).read_text(encoding="utf-8")


def test_options_start_play_reload_and_download(pw: Playwright, tmp_path: Path) -> None:
    config = Config(data_dir=str(tmp_path), variant="english", opponent="person", human_color="both")
    live = LiveServer(config)
    live.start()
    try:
        with browser(pw) as context:
            page = open_page(context, live.url)
            page.select_option("#ng-variant", "thai")
            page.wait_for_selector("#ng-options[data-variant='thai']")
            assert options_shown(page) == [n for n in rules.get_variant("thai").options
                                           if SPECS[n].kind != "text"]   # a draw's name is no rule to set
            assert page.input_value("#ng-option-first") == "black", "Thai's default is preselected"
            assert page.is_checked("#ng-option-allow_180")
            page.select_option("#ng-variant", "hawaii")
            page.wait_for_selector("#ng-options[data-variant='hawaii']")
            assert options_shown(page) == ["first"]

            start_game(page, "thai", {"first": "white"})
            state = live.view()
            assert state["first"] == "white" and state["variant_options"] == {"first": "white"}
            assert state["turn"] == "white"
            text = play_first(page, live)

            page.reload()
            page.wait_for_selector("#conn[data-state='up']")
            wait_plies(page, 1)
            assert page.input_value("#ng-variant") == "thai"
            assert page.input_value("#ng-option-first") == "white"
    finally:
        live.stop()

    again = LiveServer(config)   # the program restarted: the journal resumes the game with its options
    again.start()
    try:
        state = again.view()
        assert state["variant"] == "thai" and state["variant_options"] == {"first": "white"}
        assert [m["text"] for m in state["moves"]] == [text] and state["turn"] == "black"
        with browser(pw) as context:
            page = open_page(context, again.url)
            wait_plies(page, 1)
            assert page.input_value("#ng-option-first") == "white"
            page.click("#btn-arrange")   # the board of the restarted program is set up as the game stands
            wait_state(page, "person.idle")
            pdn = download_pdn(page)
            (game,) = read_games(pdn)
            assert game.tags["GameType"] == "31,W,8,8,N2,0" and game.tags["VariantOptions"] == "first=white"
            assert variant_of(game) == rules.get_variant("thai", first="white") and validate_game(game) == []

            page.click("[data-tab='live']")
            start_game(page, "turkish", {"promotion_mid_capture": "continue_as_king"}, fen=TURKISH)
            assert live_paths(again) == ["d6xf8", "d6xg8", "d6xh8"], "a king from d8 (by default d6xf8 only)"
            assert play_first(page, again) == "d6xf8"
            page.wait_for_selector("#result[data-result='1-0']")   # a single king against a single man wins
            page.reload()
            page.wait_for_selector("#conn[data-state='up']")
            wait_plies(page, 1)
            assert page.input_value("#ng-option-promotion_mid_capture") == "continue_as_king"
            pdn = download_pdn(page)
            turkish = [g for g in read_games(pdn) if g.tags.get("VariantOptions", "").startswith("promotion")]
            assert turkish and turkish[0].tags["VariantOptions"] == "promotion_mid_capture=continue_as_king"
            assert validate_game(turkish[0]) == []

            page.click("[data-tab='live']")   # a bad option typed in: one error line, nothing changes
            before = again.view()["variant"]
            page.select_option("#ng-variant", "spanish")
            page.wait_for_selector("#ng-options[data-variant='spanish']")
            page.fill("#ng-option-repetition", "1")
            page.click("#btn-new-game")
            page.wait_for_selector("#messages li:has-text('option repetition expects a whole number')")
            message = page.text_content("#messages li:has-text('option repetition')") or ""
            assert "\n" not in message.strip() and again.view()["variant"] == before

            start_game(page, "alquerque", {})   # the board of points: 25 points, 56 lines between them
            assert len(page.query_selector_all("#board .sq")) == 25
            assert len(page.query_selector_all("#board svg.lines line")) == 56
    finally:
        again.stop()


def test_a_brainking_game_with_an_option(pw: Playwright, tmp_path: Path) -> None:
    """Hawaiian checkers (Konane) chosen in the form with White first: White's and Black's opening removals
    (a piece clicked twice: lifted, nothing put down), then a capture; the reloaded page keeps the option and
    the PDN download carries it (docs/rules/hawaii.md)."""
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        start_game(page, "hawaii", {"first": "white"})
        state = live.view()
        assert state["turn"] == "white" and state["variant_options"] == {"first": "white"}
        assert sorted(live_paths(live)) == ["a1xa1", "d4xd4", "e5xe5", "h8xh8"], "White's own corners"
        white = play_first(page, live)
        assert live.view()["turn"] == "black" and [m["text"] for m in live.view()["moves"]] == [white]
        assert len(page.query_selector_all("#board .sq[data-piece]")) == 63, "nothing put down"
        black = play_first(page, live)
        assert all(p["captures"] and p["path"][0] != p["path"][-1] for p in live.view()["legal_paths"])
        jump = play_first(page, live)
        assert len(page.query_selector_all("#board .sq[data-piece]")) == 61, "two removed, one captured"
        page.reload()
        page.wait_for_selector("#conn[data-state='up']")
        wait_plies(page, 3)
        assert page.input_value("#ng-variant") == "hawaii"
        assert page.input_value("#ng-option-first") == "white"
        pdn = download_pdn(page)
        (game,) = read_games(pdn)
        assert game.tags["GameType"] == "62,W,8,8,A0,0" and game.tags["VariantOptions"] == "first=white"
        assert variant_of(game) == rules.get_variant("hawaii", first="white")
        assert validate_game(game) == []
        assert f"1. {white} {black} 2. {jump}" in " ".join(pdn.split())


def options_shown(page: Page) -> list[str]:
    """The options the new-game form shows, in order."""
    inputs = page.query_selector_all("#ng-options [data-option]")
    return [e.get_attribute("data-option") or "" for e in inputs]


def live_paths(live: LiveServer) -> list[str]:
    return [p["text"] for p in live.view()["legal_paths"]]


def test_item11_the_form_offers_each_options_allowed_values_in_words(pw: Playwright, tmp_path: Path) -> None:
    """Issue 28 item 11: the form showed ``max_pieces``, ``repetition,no_progress`` and ``{n} king moves
    each`` as text to edit; now a choice is a select and a list a checkbox a value, in the server's words."""
    assert all(v in CHOICE_LABELS for spec in SPECS.values() for v in spec.choices)   # every value has words
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        page.select_option("#ng-variant", "italian")
        page.wait_for_selector("#ng-options[data-variant='italian']")
        shown = page.locator("#ng-options")
        assert shown.locator("input[type='text'], input:not([type])").count() == 0
        text = shown.text_content() or ""
        assert "_" not in text and "{" not in text, text
        precedence = shown.locator("#ng-option-precedence input[data-choice]")
        italian = list(rules.get_variant("italian").precedence)   # the variant's order, every one checked
        assert [precedence.nth(i).get_attribute("data-choice") for i in range(precedence.count())] == italian
        assert all(precedence.nth(i).is_checked() for i in range(precedence.count()))
        assert shown.locator("#ng-option-precedence").text_content() == "".join(
            CHOICE_LABELS[c] for c in italian)
        policy = shown.locator("#ng-option-missed_capture_policy option")
        assert [policy.nth(i).text_content() for i in range(policy.count())] == [
            CHOICE_LABELS[c] for c in SPECS["missed_capture_policy"].choices]
        assert shown.locator("#ng-option-first option").all_text_contents() == ["White", "Black"]
        assert page.get_attribute("#ng-option-repetition", "min") == str(SPECS["repetition"].minimum)

        page.uncheck("#ng-option-precedence input[data-choice='earliest_king']")
        page.select_option("#ng-color", "both")
        page.select_option("#ng-opponent", "person")
        page.click("#btn-new-game")
        page.wait_for_selector("#variant-name:has-text('Italian')")
        live.call(live.session.idle)
        assert live.view()["variant_options"] == {"precedence": italian[:3]}

        page.select_option("#ng-variant", "english")
        page.wait_for_selector("#ng-options[data-variant='english']")
        claims = page.locator("#ng-option-draw_claims input[data-choice]")
        assert [claims.nth(i).is_checked() for i in range(claims.count())] == [True, True]
        assert page.text_content("#ng-option-draw_claims") == "by repetitionby moves without progress"
        page.uncheck("#ng-option-draw_claims input[data-choice='no_progress']")
        page.click("#btn-new-game")
        page.wait_for_selector("#variant-name:has-text('English')")
        live.call(live.session.idle)
        assert live.view()["variant_options"] == {"draw_claims": ["repetition"]}
