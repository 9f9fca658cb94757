"""The Broadcast panel (issue 17): a broadcasting board's event, round, board number and players are set from
the page, kept in the data directory, and a bad value is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Playwright
from web_harness import browser, live_server, open_page

from controller.broadcast.place import PLACE_FILE


def test_the_broadcast_place_is_set_from_the_page(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both", broadcast=True,
                     broadcast_event="club", broadcast_round="1", broadcast_board="4") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        page.wait_for_selector("#broadcast-panel:not([hidden])")
        page.click("#broadcast-panel summary")
        assert page.input_value("#bc-board") == "4" and page.input_value("#bc-event") == "club"
        page.fill("#bc-board", "3/4")
        page.click("#btn-broadcast")
        page.wait_for_selector("#messages li:has-text(\"board: '3/4' cannot be a topic level\")")
        assert live.view()["broadcast"]["board"] == "4"
        entries = (("round", "2"), ("board", "11"), ("white", "Ann Smit"), ("black", "Bob de Vries"))
        for field, value in entries:
            page.fill(f"#bc-{field}", value)
        page.click("#btn-broadcast")
        page.wait_for_selector("#messages li:has-text('Broadcasting as club, round 2, board 11: "
                               "Ann Smit - Bob de Vries')")
        place = {"event": "club", "round": "2", "board": "11", "white": "Ann Smit", "black": "Bob de Vries"}
        assert live.view()["broadcast"] == place
        assert json.loads((live.config.data_path / "journal" / PLACE_FILE).read_text()) == place


def test_no_panel_when_the_board_does_not_broadcast(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english") as live, browser(pw) as context:
        page = open_page(context, live.url)
        assert page.is_hidden("#broadcast-panel") and live.view()["broadcast"] is None
