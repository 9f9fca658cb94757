"""Issue 29: the page's scripts compare the controller's state names from one table, the ``/states.js`` module
web/app.py makes from ``controller.states.NAMES``, and spell none of them out themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from playwright.sync_api import Playwright
from web_harness import arranged, browser, live_server, open_page, wait_state

from controller import events, states
from controller.config import OPPONENTS
from web.messages import STATE_LABELS

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
LITERAL = re.compile(r"""(["'`])([a-z_.]+)\1""")
EVENT_KINDS = {c.kind for c in vars(events).values() if isinstance(c, type) and issubclass(c, events.Event)}
ALLOWED = [
    (re.compile(r"\bcase\s*$"), EVENT_KINDS),                   # a controller event: case "game_over":
    (re.compile(r"\bopponent\s*[!=]==?\s*$"), set(OPPONENTS)),   # who plays: opponent !== "person"
    (re.compile(r"\btype:\s*$"), {"setup"}),                    # the page's set-up message (web/messages.py)
]
"""Words that are a state's name but mean something else where they stand: what comes before them, and the
words that may stand there."""


def spelt_out_states(text: str, name: str) -> list[str]:
    """``file:line: "word"`` for each string literal of `text` that is a state's name, but those ALLOWED."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for literal in LITERAL.finditer(line):
            word, before = literal.group(2), line[:literal.start()]
            if word in states.NAMES.values() and not any(
                    pattern.search(before) and word in words for pattern, words in ALLOWED):
                found.append(f"{name}:{number}: {literal.group(0)}")
    return found


def served_table(text: str) -> dict[str, str]:
    """The STATES object of the states.js module's text."""
    body = re.search(r"export const STATES = Object\.freeze\((\{.*?\})\);", text, re.S)
    assert body is not None, text
    return dict(json.loads(body.group(1)))


def test_no_state_name_is_spelt_out_in_the_page_scripts() -> None:
    scripts = sorted(STATIC.glob("*.js"))
    assert len(scripts) > 10
    found = [hit for path in scripts for hit in spelt_out_states(path.read_text(encoding="utf-8"), path.name)]
    assert found == []


def test_the_check_sees_a_state_spelt_out() -> None:
    text = ('if (s.state === "person.idle") go();\ncase "game_over": break;\n'
            "if (engine.opponent !== 'person') x = `setup`;\nsend({ type: \"setup\" });\n")
    assert spelt_out_states(text, "t.js") == ['t.js:1: "person.idle"', "t.js:3: `setup`"]


def test_the_served_table_is_the_controllers(tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live:
        response = httpx.get(live.url.split("?")[0] + "states.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")   # a module script needs it
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert served_table(response.text) == states.NAMES


def test_the_page_imports_the_table_and_renders_by_it(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both",
                     auto_computer=False) as live, browser(pw) as context:   # (the pieces wait for a hand)
        page = open_page(context, live.url)   # the page's script runs: it imported /states.js
        assert page.evaluate("async () => (await import('/states.js')).STATES") == states.NAMES
        assert page.evaluate("async () => (await import('/states.js')).top('person.lifted')") == states.PERSON
        wait_state(page, states.SETUP)
        assert page.is_disabled("#btn-resign") and page.is_disabled("#btn-offer-draw")   # not in setup
        arranged(page)   # person.idle
        assert page.is_enabled("#btn-resign") and page.is_enabled("#btn-offer-draw")


def test_every_state_has_its_words_on_the_page() -> None:
    """Issue 31: the header's state pill reads the hello's labels, one per state, in the page's language."""
    assert set(STATE_LABELS) == set(states.NAMES.values())
