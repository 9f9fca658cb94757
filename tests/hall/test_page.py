"""The hall's page in real Chromium (Debian's, through playwright): every board of the round on one projector
screen with its mini board, last move, clocks and result; a move shows within the long poll; a click opens
the whole game; the arbiter corrects a result with a note and enters the pairings; the standings follow."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from boards import EVENT, HallHarness, LoopThread, SimBoard, wait_for
from broker import Mosquitto
from playwright.sync_api import Playwright, sync_playwright

from rules.pdn import read_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))   # the web tests' Chromium settings
from web_harness import CHROMIUM, CHROMIUM_ARGS

BOARDS = 12


@pytest.fixture(scope="module")
def pw() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


def test_the_round_on_a_projector(pw: Playwright, broker: Mosquitto, tmp_path: Path) -> None:
    loop = LoopThread()
    hall = HallHarness(tmp_path, broker.address)
    sims = [SimBoard(tmp_path, broker.address, n) for n in range(1, BOARDS + 1)]

    async def start() -> None:
        await hall.__aenter__()
        await asyncio.gather(*(s.start() for s in sims))
        await asyncio.gather(*(s.play(2, resign=False) for s in sims))
        await wait_for(lambda: all(hall.has(s) for s in sims), "every board in the hall")

    loop.run(start())
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.set_default_timeout(15_000)
        base = f"http://127.0.0.1:{hall.server.port}/"
        page.goto(base)   # one round: the page goes to it by itself
        page.wait_for_function(f"document.querySelectorAll('.tile').length === {BOARDS}")
        for tile in page.query_selector_all(".tile"):   # all on one screen: nothing to scroll on a projector
            box = tile.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
        one = ".tile[data-board='1']"
        assert page.text_content(f"{one} .players") == "White 1 - Black 1"
        records = sims[0].session.controller.records   # English: Black's ply, then White's - move 1
        assert page.text_content(f"{one} .lastmove") == f"1. \u2026 {records[-1].text}"   # as on the board
        assert len(page.query_selector_all(f"{one} .pc")) == 24
        assert ":" in (page.text_content(f"{one} .clock") or "")
        text = loop.run(sims[0].move())
        page.wait_for_function(f"document.querySelector(\"{one} .lastmove\")?.textContent === '2. {text}'")
        assert len(page.query_selector_all(f"{one} .sq.last")) == 2

        page.click(one)   # the whole game
        page.wait_for_selector("#game #moves .ply[data-ply='3']")
        plies = page.eval_on_selector_all("#moves .ply", "es => es.map((e) => e.textContent)")
        assert plies == [f"1. {records[0].text}", records[1].text, f"2. {text}"]   # numbered by moves
        page.click("#moves .ply[data-ply='1']")
        page.wait_for_selector("#moves .ply.sel[data-ply='1']")
        first = sims[0].session.controller.records[0].fen
        pieces = page.eval_on_selector_all("#game .sq[data-piece]", "e => e.length")
        assert pieces == len(first.split(":")[1].split(",")) + len(first.split(":")[2].split(","))

        page.goto(base + f"#/{EVENT}/1/arbiter")   # the arbiter: a corrected result, the pairings
        page.wait_for_selector("#arbiter tr[data-board='2'] select")
        page.select_option("#arbiter tr[data-board='2'] select", "0-1")
        page.fill("#arbiter tr[data-board='2'] input", "White's flag fell")
        page.click("#arbiter tr[data-board='2'] button")
        page.wait_for_function("document.querySelector('#arbiter-msg')?.textContent === 'Saved.'")
        page.fill("#pairings", "1 Ann - Bob\n2 Cid - Dee")
        page.click("#save-pairings")
        page.goto(base + f"#/{EVENT}/1")
        two = ".tile[data-board='2']"
        page.wait_for_function(f"document.querySelector(\"{two} .players\")?.textContent === 'Cid - Dee'")
        assert page.text_content(f"{two} .result") == "0-1"
        pdn = loop.run(hall.pdn(2))
        [game] = read_games(pdn)
        assert game.tags["Result"] == "0-1" and game.tags["White"] == "Cid"
        assert "White's flag fell" in pdn
        page.goto(base + f"#/{EVENT}/standings")
        page.wait_for_selector("#standings tr:nth-child(2)")
        assert page.text_content("#standings tr:nth-child(2) td:nth-child(2)") == "Dee"
    finally:
        browser.close()

        async def stop() -> None:
            await asyncio.gather(*(s.stop() for s in sims))
            await hall.__aexit__(None, None, None)
        loop.run(stop())
        loop.close()


def test_the_hall_page_in_the_spectators_language(pw: Playwright, broker: Mosquitto, tmp_path: Path) -> None:
    """Issue 31: the hall's page speaks the spectator's browser's language (Accept-Language), from the same
    catalogue as the board's page."""
    loop = LoopThread()
    hall = HallHarness(tmp_path, broker.address)
    sim = SimBoard(tmp_path, broker.address, 1)

    async def start() -> None:
        await hall.__aenter__()
        await sim.start()
        await sim.play(2, resign=False)
        await wait_for(lambda: hall.has(sim), "the board in the hall")

    loop.run(start())
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        german = browser.new_context(locale="de-DE")
        page = german.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"http://127.0.0.1:{hall.server.port}/")
        page.wait_for_selector(".tile[data-board='1']")
        assert page.get_attribute("html", "lang") == "de"
        assert page.text_content(".tile[data-board='1'] .head span") == "Brett 1"
        assert "Runde" in page.text_content("#title") and "round" not in page.text_content("#title")
        assert page.text_content("#nav a:nth-child(2)") == "Live-PDN"
        english = browser.new_context(locale="en-GB").new_page()
        english.goto(f"http://127.0.0.1:{hall.server.port}/")
        english.wait_for_selector(".tile[data-board='1']")
        assert english.text_content(".tile[data-board='1'] .head span") == "Board 1"
    finally:
        browser.close()

        async def stop() -> None:
            await sim.stop()
            await hall.__aexit__(None, None, None)

        loop.run(stop())
        loop.close()
