"""Test harness: a real controller Session on a SimulatedDevice plus the web server, running in their own
asyncio loop on a background thread (the browser side uses Playwright's sync API in the test thread)."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, Playwright

import rules
from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.session import Session
from firmware_bridge.device import MappedDevice
from firmware_bridge.orientation import Orientation
from firmware_bridge.simulated import SimulatedDevice
from web.access import WebOptions
from web.limits import WebLimits
from web.server import WebServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOARD_SIZES = {"spanish": 8, "international": 10, "english": 8, "russian": 8, "brazilian": 8}


class LiveServer:
    """A Session + WebServer on a background loop; ``call(coro_fn)`` runs a coroutine there."""

    def __init__(self, config: Config, *, options: WebOptions | None = None,
                 real_board: bool = False, limits: WebLimits | None = None, matrix: Any = None) -> None:
        self.config = config
        size = BOARD_SIZES.get(config.variant, 8)
        # the physical pieces, moved by the test; ``matrix``: its switch matrix, faults planted
        self.hand = SimulatedDevice(size, size, debounce=0.0, matrix=matrix)
        self.board: Any = self.hand
        if real_board:   # what the page sees of a GPIO or serial board: not a SimulatedDevice
            squares = frozenset((r, c) for r in range(size) for c in range(size))
            self.board = MappedDevice(self.hand, Orientation(size, size), squares)
        self.options = options or WebOptions(listen="127.0.0.1", port=0, data_dir=config.data_path)
        self.limits = limits
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="web-test-loop", daemon=True)
        self.session: Session | None = None
        self.server: WebServer | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn()`` (a coroutine function or a plain one) on the server's loop; return its result."""
        async def runner() -> Any:
            result = fn()
            if asyncio.iscoroutine(result):
                result = await result
            return result
        future: Future[Any] = asyncio.run_coroutine_threadsafe(runner(), self.loop)
        return future.result(timeout)

    def start(self) -> str:
        self._thread.start()

        async def boot() -> str:
            self.session = Session(self.config, self.board, self.board,
                                   journal_dir=self.config.data_path / "journal")
            await self.session.start()
            self.server = WebServer(self.session, options=self.options, limits=self.limits)
            return await self.server.start()
        return self.call(boot, timeout=20)

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url

    def view(self) -> dict[str, Any]:
        assert self.session is not None
        return self.call(self.session.view)

    def send(self, command: Any) -> None:
        assert self.session is not None
        self.call(lambda: self.session.send(command))

    def play(self, text: str) -> None:
        """Make the legal move ``text`` on the simulated board as a hand would (origin lifted, target placed,
        captured pieces lifted) and wait until the controller has committed it."""
        assert self.session is not None
        session = self.session

        async def run() -> None:
            queue = session.subscribe()
            try:
                [path] = [p for p in session.view()["legal_paths"] if p["text"] == text]
                steps = [cmd.Lift(*path["path"][0]), cmd.Place(*path["path"][-1])]
                for command in steps + [cmd.Lift(*cell) for cell in path["captures"]]:
                    await session.send(command)
                while not isinstance(await asyncio.wait_for(queue.get(), 10), ev.MoveCommitted):
                    pass
                await session.idle()
            finally:
                session.unsubscribe(queue)
        self.call(run, timeout=15)

    def stop(self) -> None:
        async def shutdown() -> None:
            if self.server is not None:
                await self.server.stop()
            if self.session is not None:
                await self.session.stop()
        with contextlib.suppress(Exception):
            self.call(shutdown, timeout=15)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


@contextlib.contextmanager
def live_server(tmp: Path, **config: Any) -> Iterator[LiveServer]:
    """A started LiveServer for a Config with a fresh data dir under ``tmp`` (stopped on exit)."""
    options = config.pop("options", None)
    real_board = config.pop("real_board", False)
    limits = config.pop("limits", None)
    matrix = config.pop("matrix", None)
    cfg = Config(data_dir=str(tmp), **config)
    server = LiveServer(cfg, options=options and options(cfg), real_board=real_board, limits=limits,
                        matrix=matrix)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def browser(pw: Playwright, **options: Any) -> Iterator[BrowserContext]:
    """A headless Debian Chromium with a fresh profile (never a downloaded browser); ``options`` are the
    context's (``locale="nl-NL"``, ``bypass_csp=True``)."""
    with tempfile.TemporaryDirectory(prefix="dboard-chromium-") as profile:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900}, accept_downloads=True, **options)
        context.set_default_timeout(10_000)
        try:
            yield context
        finally:
            context.close()


def open_page(context: BrowserContext, url: str) -> Page:
    """Open the board page and wait until the websocket is live and the board is drawn."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.wait_for_selector("#conn[data-state='up']")
    page.wait_for_selector("#board .sq")
    return page


def by_hand(page: Page) -> None:
    """Switch the virtual board to moving single pieces, as on a real board (a click lifts or places)."""
    page.check("#hand-mode")


def board_pieces(page: Page, board: str = "#board") -> dict[tuple[int, int], str]:
    """The pieces a board of the page shows: (row, col) -> "white", "black-king", ..."""
    cells = page.query_selector_all(f"{board} .sq[data-piece]")
    return {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col"))):
            e.get_attribute("data-piece") for e in cells}


def position_pieces(variant: str, fen: str) -> dict[tuple[int, int], str]:
    """The same map for a position of the rules core (White at the near edge)."""
    board = rules.Board(variant, fen)
    geometry = board.variant.geometry
    def name(piece: rules.Piece) -> str:
        return ("white" if piece.color == rules.Color.WHITE else "black") + ("-king" if piece.king else "")
    return {geometry.rc(sq): name(p) for sq, p in board.pieces().items()}


def cell(r: int, c: int) -> str:
    """CSS selector of the live board's square (row, col)."""
    return f"#board .sq[data-row='{r}'][data-col='{c}']"


def click_square(page: Page, r: int, c: int) -> None:
    """Click a square of the virtual board (lift if occupied, place if empty) and wait until the server's
    next state shows the new occupancy."""
    before = page.get_attribute(cell(r, c), "data-occupied")
    expected = "0" if before == "1" else "1"
    page.click(cell(r, c))
    page.wait_for_selector(f"{cell(r, c)}[data-occupied='{expected}']:not([data-pending])")


def arranged(page: Page) -> None:
    """Put the game's pieces on the virtual board (Arrange pieces) and wait until the person may move."""
    page.click("#btn-arrange")
    wait_state(page, "person.idle")


def square(variant: str, name: str) -> tuple[int, int]:
    """The physical (row, col) of the square called ``name`` in ``variant``."""
    geometry = rules.get_variant(variant).geometry
    return geometry.rc(geometry.parse_square(name))


def set_up(page: Page, variant: str, fen: str) -> None:
    """Set the position ``fen`` up from the page (Set-up panel), arrange the pieces and wait for the move."""
    page.click("#setup-panel summary")
    page.fill("#setup-fen-text", fen)
    page.click("#btn-setup-fen")
    page.wait_for_function(f"() => document.querySelectorAll('#board .sq[data-piece]').length === "
                           f"{len(rules.Board(variant, fen).pieces())}")
    arranged(page)


def wait_plies(page: Page, count: int) -> None:
    """Wait until the page's move list holds ``count`` plies."""
    page.wait_for_function(f"() => document.querySelectorAll('#moves .ply').length === {count}")


def wait_state(page: Page, state: str, timeout: float = 15_000) -> None:
    """Wait until the page shows the controller's machine state ``state``."""
    page.wait_for_selector(f"#machine[data-state='{state}']", timeout=timeout)


BROKEN_WORDS = """(sel) => {   // the words (split at spaces and hyphens) of the visible cells on two lines
    const broken = [];
    for (const cell of document.querySelectorAll(sel)) {
        if (!cell.getClientRects().length) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/[^\\s\\-\\u2013]+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].filter((b) => b.width > 0)
                    .map((b) => Math.round(b.top)));
                if (tops.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken; }"""

LINES = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length).map((e) => {
    const range = document.createRange();   // how many lines the element's text takes
    range.selectNodeContents(e);
    const boxes = [...range.getClientRects()].filter((b) => b.width > 0);
    return new Set(boxes.map((b) => Math.round(b.top))).size; })"""

OUTSIDE = """([sel, width]) => [...document.querySelectorAll(sel + ' *')].filter((e) => {
    const r = e.getBoundingClientRect();
    if (!(r.width > 0 && r.right > width + 0.5)) return false;
    const scroller = e.closest('.table-scroll');   // reached by scrolling its own container, if that fits
    return !(scroller && scroller !== e && scroller.getBoundingClientRect().right <= width + 0.5
             && getComputedStyle(scroller).overflowX === 'auto');
    }).map((e) => e.id || e.className || e.tagName)"""


def broken_words(page: Page, selector: str) -> list[str]:
    """The words in the visible elements matching ``selector`` that are broken across two lines."""
    return page.evaluate(BROKEN_WORDS, selector)


def line_counts(page: Page, selector: str) -> list[int]:
    """How many lines the text of each visible element matching ``selector`` takes."""
    return page.evaluate(LINES, selector)


def beyond_viewport(page: Page, selector: str, width: int) -> list[str]:
    """The visible elements under ``selector`` reaching past ``width`` px, but for those inside a horizontally
    scrolling table container that itself fits."""
    return page.evaluate(OUTSIDE, [selector, width])


MARKER = """() => [...document.querySelectorAll('#board .piece')].map((p) => {
    const crown = p.querySelector('.crown');
    const box = p.getBoundingClientRect();
    const mark = crown ? crown.getBoundingClientRect() : null;
    return { king: p.classList.contains('king'), piece: box.width,
             mark: mark ? Math.min(mark.width, mark.height) : 0,
             fill: crown ? getComputedStyle(crown.querySelector('path')).fill : null,
             face: getComputedStyle(p).backgroundImage }; })"""


def markers(page: Page) -> list[dict[str, object]]:
    """Every piece of the live board: whether a king, its width, its marker's smaller side (0: none)."""
    return page.evaluate(MARKER)
