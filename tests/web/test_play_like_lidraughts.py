"""What a lidraughts player expects of the virtual board (issue 13): moves by two clicks or by drag and drop,
a capture by one click per landing square with the captured pieces coming off by themselves, the move
animated, a move sound (muted until switched on), coordinates on the board, and copying FEN and PDN."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Playwright
from web_harness import (
    arranged,
    browser,
    cell,
    live_server,
    open_page,
    set_up,
    square,
    wait_plies,
    wait_state,
)

import rules
from rules.pdn import read_games

SPIES = """
window.__anims = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const sq = this.closest('.sq');
  if (sq) window.__anims.push({row: +sq.dataset.row, col: +sq.dataset.col, first: frames[0]});
  return animate.call(this, frames, options);
};
window.__sounds = 0;
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.__sounds++;
  return start.apply(this, args);
};
"""


def test_two_clicks_and_one_click_per_landing_square(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, opponent="person", human_color="both", settle_ms=100) as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        # Two clicks: the piece, then where it goes; the legal destinations are marked on selection.
        page.click(cell(*square("international", "32")))
        page.wait_for_selector(f"{cell(*square('international', '32'))}.selected")
        dests = {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col")))
                 for e in page.query_selector_all("#board .sq.dest")}
        assert dests == {square("international", "27"), square("international", "28")}
        page.click(cell(*square("international", "28")))
        wait_plies(page, 1)
        assert page.text_content("#moves .ply") == "32-28"
        assert page.query_selector_all("#board .sq.selected, #board .sq.dest") == []

        # A click on a square the piece cannot reach drops the selection and sends nothing.
        page.click(cell(*square("international", "19")))
        page.click(cell(*square("international", "30")))
        assert page.query_selector_all("#board .sq.selected") == []

        # Two captures share their first two landing squares: one click per landing square, then the
        # last one decides; the captured pieces come off by themselves.
        fen = "W:W49:B43,33,34,24,1"
        set_up(page, "international", fen)
        for name in ("49", "38", "29"):
            page.click(cell(*square("international", name)))
        dests = {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col")))
                 for e in page.query_selector_all("#board .sq.dest")}
        assert dests == {square("international", "20"), square("international", "40")}
        page.click(cell(*square("international", "20")))
        wait_plies(page, 1)
        assert page.text_content("#moves .ply") == "49x20"
        wait_state(page, "person.idle")
        state = live.view()
        left = {tuple(c) for c in state["occupancy"]}
        assert left == {square("international", n) for n in ("20", "34", "1")}
        assert {(p["row"], p["col"]) for p in state["pieces"]} == left


def test_drag_and_drop_animation_and_sound(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, opponent="person", human_color="both", settle_ms=50) as live, \
            browser(pw) as context:
        context.add_init_script(SPIES)
        page = open_page(context, live.url)
        arranged(page)
        assert not page.is_checked("#sound")   # muted until asked for

        def drag(origin: str, target: str) -> None:
            a = page.locator(cell(*square("international", origin))).bounding_box()
            b = page.locator(cell(*square("international", target))).bounding_box()
            assert a is not None and b is not None
            page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
            page.mouse.down()
            page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
            assert page.query_selector("#drag-ghost") is not None   # the piece follows the pointer
            page.mouse.up()

        drag("33", "29")
        wait_plies(page, 1)
        wait_state(page, "person.idle")
        assert page.evaluate("window.__sounds") == 0

        # The other side moves on the board itself: the page animates it from its origin to its target.
        live.play("18-23")
        wait_plies(page, 2)
        origin, target = square("international", "18"), square("international", "23")
        anims = page.evaluate("window.__anims")
        moved = [a for a in anims if (a["row"], a["col"]) == target]
        assert moved and "translate" in moved[0]["first"]["transform"], anims
        dragged = square("international", "29")
        assert not [a for a in anims if (a["row"], a["col"]) == dragged]   # dragged: no animation
        assert (origin[0], origin[1]) not in [(a["row"], a["col"]) for a in anims]

        # Sound on: each move clicks; the choice is remembered across a reload.
        page.check("#sound")
        drag("29", "18")   # a capture by drag, dropped on its final square: 29x18 over 23
        wait_plies(page, 3)
        assert page.text_content("#moves td.ply[data-ply='3']") == "29x18"
        page.wait_for_function("() => window.__sounds >= 1")
        page.reload()
        page.wait_for_selector("#conn[data-state='up']")
        assert page.is_checked("#sound")


def test_coordinates_on_the_board_edge(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="russian", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        # Algebraic notation: files along the bottom edge, ranks along the left, nothing inside.
        files = page.eval_on_selector_all("#board .coord.file", "els => els.map(e => e.textContent)")
        ranks = page.eval_on_selector_all("#board .coord.rank", "els => els.map(e => e.textContent)")
        assert files == list("abcdefgh") and ranks == [str(n) for n in range(8, 0, -1)]
        assert page.text_content(f"{cell(0, 0)} .coord.file") == "a"
        assert page.query_selector_all("#board .sq .name") == []
        page.click("#btn-flip")
        files = page.eval_on_selector_all("#board .coord.file", "els => els.map(e => e.textContent)")
        assert files == list("hgfedcba")

        # Numbered notation: the number of every playing square, on the square.
        page.select_option("#ng-variant", "international")
        page.click("#btn-new-game")
        page.wait_for_selector("#variant-name:has-text('International')")
        page.wait_for_function("() => document.querySelectorAll('#board .sq .name').length === 50")
        names = page.eval_on_selector_all("#board .sq.dark .name", "els => els.map(e => +e.textContent)")
        assert sorted(names) == list(range(1, 51))
        assert page.query_selector_all("#board .sq.light .name, #board .coord") == []
        assert live.view()["variant"] == "international"


def test_copy_fen_and_pdn(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both",
                     settle_ms=0) as live, browser(pw) as context:
        page = open_page(context, live.url)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        arranged(page)
        live.play("11-15")
        live.play("22-18")
        wait_plies(page, 2)
        clipboard = "() => navigator.clipboard.readText()"
        page.click("#btn-copy-fen")
        page.wait_for_selector("#copy-note:has-text('FEN copied')")
        assert page.evaluate(clipboard) == live.view()["fen"]
        page.click("#btn-copy-pdn")
        page.wait_for_selector("#copy-note:has-text('PDN copied')")
        (game,) = read_games(page.evaluate(clipboard), validate=True, variant="english")
        assert [node.text for node in game.moves] == ["11-15", "22-18"] and game.result == "*"
        # Viewing an earlier position, Copy FEN copies that position.
        page.click("#moves td.ply[data-ply='1']")
        page.click("#btn-copy-fen")
        board = rules.Board("english")
        board.push(board.parse_move("11-15"))
        page.wait_for_function(f"async () => (await navigator.clipboard.readText()) === '{board.fen()}'")
