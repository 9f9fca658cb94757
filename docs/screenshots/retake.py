"""Retake the README's pictures of the web page (the PNG files beside this script) in headless Chromium.

    ./dev screenshots            # or: .venv/bin/python docs/screenshots/retake.py [--only NAME]

Each picture is a real Session on the simulated board behind the real web server (the browser tests'
harness, tests/web/web_harness.py), driven as a person would: clicks on the virtual board, the built-in engine
at level 1.
The tests never write here (Chromium's PNGs differ by a few bytes from run to run).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

from playwright.sync_api import Page, Playwright, sync_playwright  # noqa: E402
from web_harness import LiveServer, arranged, browser, cell, live_server, open_page, wait_plies  # noqa: E402

import rules  # noqa: E402

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def save(page: Page, name: str) -> None:
    """Write ``name`` beside this script and check it is a real picture."""
    path = HERE / name
    page.wait_for_function("() => !document.querySelector('.piece.ghost')")   # the captures' fades are over
    page.screenshot(path=str(path))
    data = path.read_bytes()
    if not (data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000):
        raise SystemExit(f"{path}: not a proper PNG")
    print(f"wrote {path.relative_to(ROOT)}")


def opening(variant: str, plies: int) -> list[str]:
    """A reproducible opening: each ply the middle legal move by its text."""
    board = rules.Board(variant)
    texts = []
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=board.move_text)
        move = moves[len(moves) // 2]
        texts.append(board.move_text(move))
        board.push(move)
    return texts


def square(variant: str, name: str) -> str:
    geometry = rules.get_variant(variant).geometry
    return cell(*geometry.rc(geometry.parse_square(name)))


def played(page: Page, live: LiveServer, plies: int) -> None:
    """The pieces arranged on the virtual board and the first ``plies`` of a reproducible opening played."""
    arranged(page)
    for text in opening("international", plies):
        live.play(text)
    wait_plies(page, plies)


def live_board_start(page: Page, live: LiveServer) -> None:
    arranged(page)
    save(page, "live-board-start.png")


def live_board_computer_move(page: Page, live: LiveServer) -> None:
    """The computer's move lit for the person to make (its moves do not play themselves here)."""
    page.uncheck("#auto-computer")
    arranged(page)
    page.click(square("spanish", "10"))   # the piece, then where it goes
    page.click(square("spanish", "14"))
    page.wait_for_function("() => /plays /.test(document.querySelector('#engine').textContent)",
                           timeout=30_000)
    page.wait_for_function("() => document.querySelector('#board .sq[data-led]') !== null")
    save(page, "live-board-computer-move.png")


def live_board_history(page: Page, live: LiveServer) -> None:
    played(page, live, 23)
    page.click("#moves td.ply[data-ply='14']")
    page.wait_for_selector("#board[data-view='14']")
    save(page, "live-board-history.png")


def live_board_phone(page: Page, live: LiveServer) -> None:
    page.set_viewport_size(PHONE)
    played(page, live, 12)
    for piece in page.query_selector_all("#board .sq[data-piece='white']"):   # select one that can move
        piece.click()
        if page.query_selector("#board .sq.selected"):
            break
    save(page, "live-board-phone.png")


def game_library(page: Page, live: LiveServer) -> None:
    played(page, live, 9)
    page.click("#btn-resign")
    page.click("#btn-resign-yes")
    page.wait_for_selector("#result[data-result]")
    page.click("#tab-library")
    page.click("#games tr.game")
    page.click("#v-last")
    page.wait_for_selector("#v-ply[data-ply='9']")
    save(page, "game-library.png")


def rules_page(page: Page, live: LiveServer) -> None:
    page.click("#tab-rules")
    page.wait_for_selector("#rules-page[data-variant='english'] #rules-board .sq[data-piece]")
    page.click("#rules-toc a:text('Set-up')")
    page.wait_for_selector("#rules-set-up.target")
    save(page, "rules-page.png")


def exercise(page: Page, live: LiveServer) -> None:
    """An English shot chosen in the Exercises panel: the lit squares say what to empty and fill."""
    from engine.exercises import load

    shot = next(e for e in load("english").exercises if e.kind == "shot")
    arranged(page)
    page.click("#exercises-panel summary")
    page.select_option("#ex-variant", "english")
    page.fill("#ex-id", shot.id)
    page.click("#ex-start")
    page.wait_for_selector("#lesson-panel:not([hidden])")
    page.wait_for_selector("#board .sq[data-led]")
    page.click("#new-game-panel summary")          # folded: the board and the lesson are what this shows
    page.evaluate("window.scrollTo(0, 0)")
    save(page, "exercise-set-up.png")


def statistics(page: Page, live: LiveServer) -> None:
    """A few games against the engine (the person, Black in English, resigns or plays on) and one draw."""
    from controller import commands as cmd

    for n, level in enumerate((2, 3, 2), start=1):
        if n > 1:
            live.send(cmd.NewGame("english", "black", "engine", level))
            page.wait_for_selector("#result", state="hidden")
        arranged(page)
        page.click("#btn-resign")
        page.click("#btn-resign-yes")
        page.wait_for_function("n => [...document.querySelectorAll('#messages li')].filter((li) => "
                               "/Your english rating/.test(li.textContent)).length === n", arg=n)
    for opening in (["11-15", "23-19", "8-11"], ["11-15", "23-19", "9-13"], ["11-15", "23-19", "8-11"]):
        live.send(cmd.NewGame("english", "both", "person", 3))
        page.wait_for_selector("#result", state="hidden")
        arranged(page)
        for text in opening:
            live.play(text)
        live.send(cmd.OfferDraw("white"))
        live.send(cmd.AcceptDraw("black"))
        page.wait_for_selector("#result[data-result]")
    page.click("#tab-stats")
    page.wait_for_selector("figure.ratings")
    save(page, "statistics.png")


SCENES: dict[str, tuple[Callable[[Page, LiveServer], None], dict[str, object]]] = {
    "live-board-start": (live_board_start, {"variant": "international", "opponent": "engine"}),
    "live-board-computer-move": (live_board_computer_move, {"variant": "spanish", "opponent": "engine",
                                                            "level": 1, "engine_time": 0.2}),
    "live-board-history": (live_board_history, {"opponent": "person", "human_color": "both", "settle_ms": 0}),
    "live-board-phone": (live_board_phone, {"opponent": "person", "human_color": "both", "settle_ms": 0}),
    "game-library": (game_library, {"opponent": "person", "human_color": "both", "settle_ms": 0}),
    "rules-page": (rules_page, {"variant": "english", "opponent": "person", "human_color": "both"}),
    "exercise-set-up": (exercise, {"variant": "english", "opponent": "person", "human_color": "white"}),
    "statistics": (statistics, {"variant": "english", "opponent": "engine", "human_color": "black",
                                "level": 2, "settle_ms": 0}),
}


def retake(pw: Playwright, names: list[str]) -> None:
    for name in names:
        scene, settings = SCENES[name]
        with tempfile.TemporaryDirectory(prefix="dboard-shots-") as tmp, \
                live_server(Path(tmp), **settings) as live, browser(pw) as context:
            page = open_page(context, live.url)
            page.set_viewport_size(DESKTOP)
            scene(page, live)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SCENES), action="append", help="retake only this picture")
    args = parser.parse_args()
    with sync_playwright() as pw:
        retake(pw, args.only or list(SCENES))


if __name__ == "__main__":
    main()
