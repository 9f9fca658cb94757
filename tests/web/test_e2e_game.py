"""End to end in headless Chromium against the real Session: a whole (short) game against the built-in
engine played by clicking the virtual board, with a refused move, a takeback, a capture whose captured piece
is taken off first, game over, the game library and the PDN download."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, Playwright
from web_harness import browser, by_hand, cell, click_square, live_server, open_page, wait_state

import rules
from rules.pdn import read_games

# Start positions near the end: White (the person) plays FIRST, the engine's answer is forced, and White
# then captures Black's last man.
GAMES = {
    "spanish": ("W:W13,15:B25", "13-18"),
    "international": ("W:W23,37:B36", "23-18"),
}


def rc_of(board: rules.Board, square: int) -> tuple[int, int]:
    return board.variant.geometry.rc(square)


def play_move(page: Page, board: rules.Board, move: rules.Move, *, captured_first: bool = False) -> None:
    """Make ``move`` on the virtual board by clicks: lift, (take off captured pieces,) put down."""
    origin, target = rc_of(board, move.from_square), rc_of(board, move.to_square)
    if captured_first:
        for sq in move.captures:
            click_square(page, *rc_of(board, sq))
    click_square(page, *origin)
    click_square(page, *target)
    if not captured_first:
        for sq in move.captures:
            click_square(page, *rc_of(board, sq))


def illegal_target(board: rules.Board, origin: int) -> int:
    """An empty playing square the piece on ``origin`` cannot move to."""
    legal = {m.to_square for m in board.legal_moves if m.from_square == origin}
    for sq in board.variant.geometry.squares:
        if board.piece_at(sq) is None and sq not in legal:
            return sq
    raise AssertionError("no illegal target found")


def engine_reply(page: Page, board: rules.Board) -> rules.Move:
    """Wait until the computer announces its move, then return it (parsed by the rules core)."""
    page.wait_for_function("() => /plays /.test(document.querySelector('#engine').textContent)",
                           timeout=30_000)
    text = page.text_content("#engine").split("plays ")[1].split()[0]
    return board.parse_move(text)


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_full_game_against_engine(pw: Playwright, tmp_path: Path, variant: str) -> None:
    fen, first = GAMES[variant]
    board = rules.Board(variant, fen)
    m1 = board.parse_move(first)
    settings = {"variant": variant, "level": 1, "engine_time": 0.2, "grace_ms": 400, "settle_ms": 150,
                "auto_computer": False}   # the computer's moves made by clicks, as by hand on a real board
    with live_server(tmp_path, **settings) as live, browser(pw) as context:
        page = open_page(context, live.url)
        # A new game from the page, with the start FEN near the end.
        page.select_option("#ng-variant", variant)
        page.select_option("#ng-color", "white")
        page.select_option("#ng-opponent", "engine")
        page.fill("#ng-level", "1")
        page.fill("#ng-fen", fen)
        page.click("#btn-new-game")
        wait_state(page, "setup")
        count = len(board.pieces())
        page.wait_for_function(f"() => document.querySelectorAll('#board .piece').length === {count}")
        page.click("#btn-arrange")
        wait_state(page, "person.idle")
        by_hand(page)   # single pieces lifted and put down, as on a real board

        # A refused move: the message names what is wrong; then the piece goes back.
        bad = illegal_target(board, m1.from_square)
        click_square(page, *rc_of(board, m1.from_square))
        click_square(page, *rc_of(board, bad))
        refusal = page.wait_for_selector("#messages li.refusal")
        assert board.variant.geometry.name(bad) in refusal.text_content()
        page.wait_for_selector(f"{cell(*rc_of(board, bad))}[data-led]")   # the LEDs show the refused move
        click_square(page, *rc_of(board, bad))
        click_square(page, *rc_of(board, m1.from_square))
        wait_state(page, "person.idle")

        # White's move, the engine's answer made on the board as the LEDs show, then take both back.
        play_move(page, board, m1)
        board.push(m1)
        reply = engine_reply(page, board)
        page.wait_for_selector("#board .sq[data-led]")
        play_move(page, board, reply)
        board.push(reply)
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 2")
        wait_state(page, "person.idle")
        page.click("#btn-takeback")
        page.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 0")
        board.pop()
        board.pop()
        page.click("#btn-arrange")
        wait_state(page, "person.idle")
        page.wait_for_selector("#board .sq.fix", state="detached")

        # Replay, and finish with a capture whose captured man is taken off first.
        play_move(page, board, m1)
        board.push(m1)
        reply = engine_reply(page, board)
        play_move(page, board, reply)
        board.push(reply)
        wait_state(page, "person.idle")
        (capture,) = list(board.legal_moves)
        assert capture.is_capture
        capture_text = board.move_text(capture)
        play_move(page, board, capture, captured_first=True)
        board.push(capture)
        assert board.is_game_over()
        page.wait_for_selector("#result[data-result='1-0']", timeout=15_000)
        assert page.locator("#moves .ply").count() == 3
        assert page.locator("#moves tbody tr").count() == 2   # numbered in pairs: 1. white black 2. white
        assert page.locator("#moves .ply").nth(2).text_content() == capture_text

        # The game library: the finished game, viewed move by move, downloaded as PDN and validated.
        page.click("#tab-library")
        row = page.wait_for_selector("#games tr.game")
        assert rules.get_variant(variant).name in row.text_content() and "1-0" in row.text_content()
        row.click()
        page.wait_for_selector("#v-ply[data-ply='0']")
        page.click("#v-next")
        page.wait_for_selector("#v-ply[data-ply='1']")
        origin = rc_of(board, m1.from_square)
        target = rc_of(board, m1.to_square)
        viewer = "#viewer-board .sq[data-row='{}'][data-col='{}'] .piece"
        assert page.query_selector(viewer.format(*target))
        assert not page.query_selector(viewer.format(*origin))
        page.click("#v-last")
        page.wait_for_selector("#v-ply[data-ply='3']")
        with page.expect_download() as info:
            page.click("#games tr.game a.download")
        text = Path(info.value.path()).read_text(encoding="utf-8")
        (game,) = read_games(text, validate=True, variant=variant)
        assert not game.errors, game.errors
        assert game.tags.get("Result") == "1-0" and game.result == "1-0"
        replayed = rules.Board(variant, game.tags.get("FEN", fen))
        for node in game.moves:
            replayed.push(replayed.parse_move(node.text))
        assert replayed.move_stack == board.move_stack
        assert replayed.is_game_over()
        everything = page.evaluate("async () => (await fetch('/api/games.pdn')).text()")
        games = read_games(everything, validate=True, variant=variant)
        assert [g.tags.get("Result") for g in games] == ["1-0"]
