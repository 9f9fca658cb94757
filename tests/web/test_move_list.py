"""Issue 13 item 5: the move list is a scrolling table (move number, first mover, second mover) that follows
the game and whose moves, clicked, show earlier positions read-only on the board while the game goes on; the
library's viewer numbers moves the same way. Games where Black moves first and set-ups with the second
mover to move start with "1. ... move"."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, Playwright
from web_harness import (
    arranged,
    board_pieces,
    browser,
    cell,
    live_server,
    open_page,
    position_pieces,
    wait_plies,
)

import rules

# 30 plies of international draughts, captures included (each ply the middle legal move by text).
PLIES = ["33-28", "18-23", "34-29", "23x34", "40x29", "17-22", "28x17", "12x21", "35-30", "20-25", "32-28",
         "25x32", "38x27", "21x32", "37x28", "16-21", "41-37", "19-23", "28x19", "14x23", "42-38", "21-26",
         "44-40", "15-20", "40-35", "20-24", "45-40", "23-28", "40-34", "24-29"]

HEAD = "els => els.map(e => e.textContent)"
ROWS = """() => [...document.querySelectorAll('#moves tbody tr')].map(tr =>
    [...tr.children].map(td => td.textContent.trim()))"""


def table_rows(page: Page, selector: str = "#moves") -> list[list[str]]:
    return page.evaluate(ROWS.replace("#moves", selector))


def fen_after(variant: str, plies: list[str], start: str | None = None) -> str:
    board = rules.Board(variant, start)
    for text in plies:
        board.push(board.parse_move(text))
    return board.fen()


def test_item5_move_list_is_a_table_that_follows_and_views_earlier_positions(pw: Playwright,
                                                                             tmp_path: Path) -> None:
    with live_server(tmp_path, opponent="person", human_color="both", settle_ms=0) as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        for text in PLIES[:-1]:
            live.play(text)
        wait_plies(page, len(PLIES) - 1)

        # One row per move: number, White's ply, Black's ply; every ply in its own cell, none clipped.
        rows = table_rows(page)
        assert [r[0] for r in rows] == [f"{n}." for n in range(1, 16)]
        assert [r[1] for r in rows] == PLIES[0::2] and [r[2] for r in rows[:-1]] == PLIES[1:-1:2]
        assert rows[-1][2] == ""
        assert page.eval_on_selector_all("#moves thead th", HEAD) == ["", "White", "Black"]
        boxes = page.evaluate("""() => [...document.querySelectorAll('#moves td.ply')].map(td => {
            const r = td.getBoundingClientRect(); return [r.left, r.width, r.height]; })""")
        white_x = {round(b[0]) for b in boxes[0::2]}
        black_x = {round(b[0]) for b in boxes[1::2]}
        assert len(white_x) == 1 and len(black_x) == 1 and min(white_x) < min(black_x), (white_x, black_x)
        assert all(w > 0 and h > 0 for _, w, h in boxes)

        # It scrolls by itself to follow the game: the last ply is in view, the first scrolled away.
        def in_view(ply: int) -> bool:
            return page.evaluate(f"""() => {{
                const box = document.querySelector('#moves').getBoundingClientRect();
                const td = document.querySelector('#moves td.ply[data-ply="{ply}"]').getBoundingClientRect();
                return td.top >= box.top - 1 && td.bottom <= box.bottom + 1; }}""")
        assert page.evaluate("() => { const m = document.querySelector('#moves'); "
                             "return m.scrollHeight > m.clientHeight; }")
        page.wait_for_function("() => { const m = document.querySelector('#moves'); "
                               "return m.scrollTop + m.clientHeight >= m.scrollHeight - 1; }")
        assert in_view(len(PLIES) - 1) and not in_view(1)

        # A click on a ply shows the position after it, read-only, with the way back to the game.
        assert page.is_hidden("#history-bar")
        page.click("#moves td.ply[data-ply='4']")
        page.wait_for_selector("#board[data-view='4']")
        assert board_pieces(page) == position_pieces("international", fen_after("international", PLIES[:4]))
        assert page.is_visible("#history-bar") and page.is_visible("#btn-live")
        assert "2. … 23x34" in page.text_content("#history-bar")
        assert page.get_attribute("#moves td.ply[data-ply='4']", "class").split().count("current") == 1
        assert page.query_selector_all("#board .sq.play") == []

        # The game goes on meanwhile: the list grows, the board stays on the position viewed.
        live.play(PLIES[-1])
        page.wait_for_selector(f"#moves td.ply[data-ply='{len(PLIES)}']")
        assert board_pieces(page) == position_pieces("international", fen_after("international", PLIES[:4]))
        page.click(cell(3, 3))   # read-only: no piece is lifted (checked after the next command)

        # The arrow keys step through the game; the start position is ply 0.
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#board[data-view='3']")
        page.keyboard.press("Home")
        page.wait_for_selector("#board[data-view='0']")
        assert board_pieces(page) == position_pieces("international", rules.Board("international").fen())

        page.click("#btn-live")
        page.wait_for_selector("#board:not([data-view])")
        assert page.is_hidden("#history-bar")
        state = live.view()
        assert board_pieces(page) == position_pieces("international", state["fen"])
        assert len(state["moves"]) == len(PLIES)
        page.click("#btn-hint")   # commands go in order: the click on the viewed board sent nothing
        page.wait_for_selector("#board .sq[data-led]")
        assert live.view()["occupancy"] == state["occupancy"]


def test_item5_black_first_and_set_up_with_the_second_mover_to_move(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both",
                     settle_ms=0) as live, browser(pw) as context:
        page = open_page(context, live.url)
        arranged(page)
        for text in ("11-15", "22-18", "15x22"):
            live.play(text)
        wait_plies(page, 3)
        # English: Black moves first, so Black's column comes first.
        assert page.eval_on_selector_all("#moves thead th", HEAD) == ["", "Black", "White"]
        assert table_rows(page) == [["1.", "11-15", "22-18"], ["2.", "15x22", ""]]

        # A set-up with White (the second mover) to move: the first row is "1. … 21-17".
        page.select_option("#ng-variant", "english")
        page.fill("#ng-fen", "W:W21:B1")
        page.click("#btn-new-game")
        wait_plies(page, 0)
        arranged(page)
        live.play("21-17")
        wait_plies(page, 1)
        assert table_rows(page) == [["1.", "…", "21-17"]]


LIBRARY_GAME = """[Event "library test"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[GameType "20"]
[FEN "B:W28,33,34:B23,19,18"]

1... 23x32 2. 34-29 18-22 3. 29-23 1-0
"""


def test_item5_library_viewer_numbers_moves_not_plies(pw: Playwright, tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "20250101-120000-international.pdn").write_text(LIBRARY_GAME, encoding="utf-8")
    with live_server(tmp_path, opponent="person", human_color="both") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#tab-library")
        page.click("#games tr.game")
        page.wait_for_selector("#v-ply[data-ply='0']")
        assert table_rows(page, "#viewer-moves") == [["1.", "…", "23x32"], ["2.", "34-29", "18-22"],
                                                     ["3.", "29-23", ""]]
        page.click("#viewer-moves td.ply[data-ply='3']")
        page.wait_for_selector("#v-ply[data-ply='3']")
        fen = fen_after("international", ["23x32", "34-29", "18-22"], "B:W28,33,34:B23,19,18")
        assert board_pieces(page, "#viewer-board") == position_pieces("international", fen)
        assert "current" in page.get_attribute("#viewer-moves td.ply[data-ply='3']", "class")
        assert live.view()["moves"] == []
