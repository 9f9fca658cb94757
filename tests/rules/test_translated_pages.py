"""Every rules page in every language keeps the English page's shape: the same anchors (so a refusal's link
resolves in every language), the same diagrams and console examples byte for byte, the same tables and the
same link targets; only the words change."""

from __future__ import annotations

import re

import pytest

from rules.rulebook import INDEX, LANGUAGES, anchors, blocks, page, pages_dir
from rules.variants import VARIANTS

PAGES = [None, *sorted(VARIANTS)]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
_TARGET = re.compile(r"\]\(([^)\s]+)\)")


def shape(markdown: str) -> dict[str, object]:
    """What a translation must keep of a page."""
    found = list(blocks(markdown))
    return {
        "anchors": anchors(markdown),
        "code": [(b.text, b.lines) for b in found if b.kind == "code"],
        "tables": [(len(b.lines), b.lines[0].count("|")) for b in found if b.kind == "table"],
        "links": sorted(set(_TARGET.findall(markdown))),
    }


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("variant", PAGES, ids=lambda v: v or "index")
def test_a_translated_page_keeps_the_english_pages_shape(variant: str | None, language: str) -> None:
    name = INDEX if variant is None else f"{variant}.md"
    assert (pages_dir() / language / name).is_file(), f"docs/rules/{language}/{name} is missing"
    english, translated = page(variant), page(variant, language)
    assert translated.name == f"{language}/{name}"
    assert translated.text != english.text
    want, got = shape(english.text), shape(translated.text)
    for key in want:
        assert got[key] == want[key], (language, name, key)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_section_is_found_by_its_english_anchor_in_every_language(language: str) -> None:
    section = page("international", language).section("capture-precedence")
    assert "{#capture-precedence}" in section.splitlines()[0]
