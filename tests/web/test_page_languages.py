"""The page in every language, in Chromium: every visible text of every tab comes from the language's
catalogue (no text of the English page is left on it), the Rules tab shows the language's page with the
English anchors, a teaching refusal's link resolves, the browser's Accept-Language is the default and the
selector's choice is remembered; and axe-core finds no serious or critical accessibility violation on any
tab."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import BrowserContext, Page, Playwright
from web_harness import (
    LiveServer,
    browser,
    by_hand,
    click_square,
    live_server,
    open_page,
    set_up,
    square,
)

from controller import commands as cmd
from i18n import LANGUAGES
from i18n.messages import LOCALE
from rules import Illegal

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".npm" / "node_modules" / "axe-core" / "axe.min.js"
TABS = ("live", "library", "stats", "rules")
VISIBLE = """() => {
  const out = [];
  const shown = (el) => { const st = getComputedStyle(el), r = el.getBoundingClientRect();
    return st.display !== 'none' && st.visibility !== 'hidden' && (r.width > 0 || r.height > 0); };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    const text = node.nodeValue.replace(/\\s+/g, ' ').trim();
    const skipped = !el || el.closest('[hidden], code, kbd, pre, #rules-page, #messages');
    if (text && !skipped && shown(el)) out.push(text);
  }
  for (const el of document.querySelectorAll('[title], [placeholder], [aria-label]'))
    if (!el.closest('[hidden]')) for (const a of ['title', 'placeholder', 'aria-label'])
      if (el.getAttribute(a)) out.push(el.getAttribute(a).replace(/\\s+/g, ' ').trim());
  return out;
}"""


def english_texts() -> set[str]:
    """The English page's words: every message of the catalogues that a translation changes."""
    with (LOCALE / "draughts_board.pot").open("rb") as source:
        return {m.id for m in read_po(source)
                if isinstance(m.id, str) and m.id and any(c.isalpha() for c in m.id)}


def translated_alike(code: str) -> set[str]:
    """Messages the language writes as English does (FEN, PDN, a name): not a sign of an untranslated page."""
    with (LOCALE / code / "LC_MESSAGES" / "draughts_board.po").open("rb") as source:
        return {m.id for m in read_po(source) if isinstance(m.id, str) and m.string == m.id}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("languages")
    with live_server(tmp, variant="international", opponent="person", human_color="both",
                     grace_ms=60_000) as server:
        yield server


@pytest.fixture(scope="module")
def context(pw: Playwright) -> Iterator[BrowserContext]:
    """One Chromium for the module; axe-core is injected past the page's CSP (it allows no inline script)."""
    assert AXE.exists(), f"{AXE} is missing: ./dev test installs it (npm install --prefix .npm axe-core)"
    with browser(pw, bypass_csp=True) as ctx:
        ctx.set_default_timeout(15_000)
        yield ctx


def in_language(context: BrowserContext, live: LiveServer, code: str) -> Page:
    """The page with `code` chosen on its selector (the choice reloads it, and is remembered)."""
    page = open_page(context, live.url)
    if page.get_attribute("html", "lang") != code:
        page.select_option("#language", code)
        page.wait_for_selector(f"html[lang='{code}']")
        page.wait_for_selector("#conn[data-state='up']")
        page.wait_for_selector("#board .sq")
    return page


def show(page: Page, tab: str) -> None:
    page.click(f"button.tab[data-tab='{tab}']")
    page.wait_for_selector(f"#{tab}:not([hidden])")
    if tab == "rules":
        page.wait_for_selector("#rules-page h1")
    else:
        page.wait_for_timeout(300)   # the library and statistics load their figures


def serious_violations(page: Page) -> list[str]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => JSON.stringify(await axe.run(document, "
                           "{resultTypes: ['violations']}))")
    return [f"{v['id']} ({v['impact']}): {v['help']} - " + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in json.loads(result)["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_every_visible_text_is_in_the_chosen_language(context: BrowserContext, live: LiveServer,
                                                       code: str) -> None:
    page = in_language(context, live, code)
    left = english_texts() - translated_alike(code)
    for tab in TABS:
        show(page, tab)
        english = sorted({text for text in page.evaluate(VISIBLE) if text in left})
        assert not english, (code, tab, english)
    assert page.get_attribute("#language", "aria-label") != "Language"
    assert page.evaluate("() => localStorage.getItem('dboard-language')") == code


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_rules_tab_and_a_refusal_link_in_the_language(context: BrowserContext, live: LiveServer,
                                                          code: str) -> None:
    page = in_language(context, live, code)
    show(page, "rules")
    page.select_option("#rules-variant", "international")
    page.wait_for_selector("#rules-page[data-variant='international'] #rules-capture-precedence")
    title = page.text_content("#rules-page h1")
    assert (title.startswith("International draughts")) is (code == "en"), title
    show(page, "live")
    live.send(cmd.SetTeaching(True))
    set_up(page, "international", "W:W27,33:B22")   # 27x18 is compulsory
    by_hand(page)
    click_square(page, *square("international", "33"))
    click_square(page, *square("international", "28"))   # a step, while a capture is compulsory
    link = page.wait_for_selector("#messages li.refusal a.rule-link")
    assert link.get_attribute("href") == f"#rules/international/{Illegal.MUST_CAPTURE.section}"
    link.click()
    page.wait_for_selector("#rules-page[data-variant='international'] #rules-capturing.target")
    live.send(cmd.SetTeaching(False))


@pytest.mark.parametrize("code", ["en", "ru", "tr"])
def test_no_serious_accessibility_violation_on_any_tab(context: BrowserContext, live: LiveServer,
                                                       code: str) -> None:
    page = in_language(context, live, code)
    for tab in TABS:
        show(page, tab)
        assert not serious_violations(page), (code, tab, serious_violations(page))


def test_the_browsers_language_is_the_default(pw: Playwright, live: LiveServer) -> None:
    with browser(pw, locale="nl-NL") as ctx:
        page = open_page(ctx, live.url)
        assert page.get_attribute("html", "lang") == "nl"
        assert page.get_attribute("#language", "aria-label") == "Taal"
