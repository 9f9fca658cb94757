"""Issue 18 item 1: the web panel's Rules page - every variant's rules page (docs/rules) as HTML with its
set-up diagram, and a refusal in teaching mode linking to the section of the rule that refused the move."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Playwright
from web_harness import browser, by_hand, click_square, live_server, open_page, set_up, square

import rules
from controller import commands as cmd
from rules.errors import Illegal
from rules.rulebook import SECTIONS, slug
from web.rules_page import link_target, markdown_html, rules_page


@pytest.mark.parametrize("variant", rules.VARIANT_IDS)
def test_every_variant_has_a_rules_page_with_every_section(variant: str) -> None:
    data = rules_page(variant)
    ids = set(re.findall(r' id="rules-([\w-]+)"', data["html"]))
    assert {slug(s) for s in SECTIONS} <= ids
    assert {reason.section for reason in Illegal} <= ids   # every refusal's link lands on a heading
    board = rules.Board(variant)
    assert len(data["start"]) == len(board.pieces()) and (data["rows"], data["cols"]) == (
        board.variant.height, board.variant.width)
    assert "<pre" in data["html"]   # the text diagram of the squares and the start position


def test_every_link_of_every_page_leads_to_a_page_and_section_that_exist() -> None:
    pages = {variant: rules_page(variant) for variant in rules.VARIANT_IDS}
    checked = 0
    for data in pages.values():
        for href in re.findall(r'<a href="(#rules[^"]*)"', data["html"]):
            parts = href.split("/")[1:]
            if not parts:
                continue
            assert parts[0] in pages, f"{data['id']}: {href}"
            if len(parts) == 2:
                assert parts[1] in pages[parts[0]]["sections"], f"{data['id']}: {href}"
            checked += 1
    assert checked > 20


def test_the_markdown_is_escaped_and_links_point_into_the_panel() -> None:
    html = markdown_html("# A <b>\n\nSee [the capture](spanish.md#capturing), "
                         "[here](#draws) and [FMJD](https://fmjd.org) <script>x</script>\n", "english")
    assert "<b>" not in html and "<script>" not in html and "&lt;script&gt;" in html
    assert '<a href="#rules/spanish/capturing">the capture</a>' in html
    assert '<a href="#rules/english/draws">here</a>' in html
    assert '<a href="https://fmjd.org" target="_blank" rel="noopener">FMJD</a>' in html
    assert link_target("../../rules/variants.py", "english") == ("", False)
    assert link_target("README.md#options", "english") == ("#rules", False)
    assert link_target("reference-data.md#english", "english") == ("", False)


def test_an_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="checkerz"):
        rules_page("checkerz")


def test_the_rules_page_of_two_variants_in_chromium(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="international", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#tab-rules")   # the game's variant first
        page.wait_for_selector("#rules-page[data-variant='international']")
        assert page.text_content("#rules-page h1").startswith("International draughts")
        assert page.locator("#rules-board .sq[data-piece='white']").count() == 20
        assert page.locator("#rules-board .sq[data-piece='black']").count() == 20
        assert page.locator("#rules-board .sq[data-name]").count() == 50
        assert page.get_attribute("#rules-board .sq[data-name='1']", "data-piece") == "black"
        set_up_head = page.locator("#rules-set-up")
        assert page.evaluate("() => document.querySelector('#rules-set-up').compareDocumentPosition("
                             "document.querySelector('#rules-board')) & Node.DOCUMENT_POSITION_FOLLOWING")
        assert set_up_head.text_content() == "Set-up"
        page.select_option("#rules-variant", "english")
        page.wait_for_selector("#rules-page[data-variant='english']")
        assert page.url.endswith("#rules/english")
        assert page.locator("#rules-board .sq[data-name]").count() == 32
        assert page.locator("#rules-board .sq[data-piece]").count() == 24
        assert page.get_attribute("#rules-board .sq[data-name='1']", "data-piece") == "black"
        toc = [a.text_content() for a in page.query_selector_all("#rules-toc a")]
        assert toc[:3] == ["At a glance", "Set-up", "Moving"]
        page.click("#rules-toc a:text('Capture precedence')")
        page.wait_for_selector("#rules-capture-precedence.target")
        page.goto(live.url + "#rules/russian/crowning")
        page.wait_for_selector("#rules-page[data-variant='russian'] #rules-crowning.target")
        assert page.is_visible("#rules") and page.is_hidden("#live")


def test_a_teaching_refusal_links_to_the_rule_on_the_rules_page(pw: Playwright, tmp_path: Path) -> None:
    variant, fen = "international", "W:W27,33:B22"   # 27x18 is compulsory
    with live_server(tmp_path, variant=variant, opponent="person", human_color="both",
                     grace_ms=60_000) as live, browser(pw) as context:
        page = open_page(context, live.url)
        live.send(cmd.SetTeaching(True))
        set_up(page, variant, fen)
        by_hand(page)
        click_square(page, *square(variant, "33"))
        click_square(page, *square(variant, "28"))   # a step, while a capture is compulsory
        link = page.wait_for_selector("#messages li.refusal a.rule-link")
        assert "compulsory capture" in page.text_content("#messages li.refusal")
        assert link.get_attribute("href") == f"#rules/{variant}/{Illegal.MUST_CAPTURE.section}"
        link.click()
        page.wait_for_selector(f"#rules-page[data-variant='{variant}'] #rules-capturing.target")
        assert page.is_visible("#rules") and page.is_hidden("#live")
        assert page.evaluate("() => { const r = document.querySelector('#rules-capturing')"
                             ".getBoundingClientRect(); return r.top > -1 && r.top < innerHeight / 2; }")
        page.click("button.tab[data-tab='live']")   # back to the game, the same link again
        assert page.is_visible("#live") and "#" not in page.url
        page.click("#messages li.refusal a.rule-link")
        page.wait_for_selector("#rules-capturing.target")
        assert page.is_visible("#rules")
        later = open_page(context, live.url)   # the page opened again: the link comes from the history
        assert later.get_attribute("#messages li.refusal a.rule-link", "href") == \
            f"#rules/{variant}/{Illegal.MUST_CAPTURE.section}"


def test_lists_nest_by_indent_and_split_by_their_kind_of_mark() -> None:
    html = markdown_html("- a\n  continued\n  - b\n  - c\n- d\n\n1. x\n2. y\n\ntext\n", "english")
    assert html == ("<ul><li>a continued<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>"
                    "<ol><li>x</li><li>y</li></ol>\n<p>text</p>\n")
