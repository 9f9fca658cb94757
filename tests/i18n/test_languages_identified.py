"""Each catalogue and each translated rules page is in its language, as a language-identification library
(lingua) reads it: entry by entry where an entry is long enough to tell, paragraph by paragraph on the
pages. A catalogue left in English, or a page with untranslated paragraphs, fails."""

from __future__ import annotations

import functools
import re

import pytest
from babel.messages.pofile import read_po
from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

from i18n import LANGUAGES
from i18n.messages import LOCALE
from rules.rulebook import blocks, page
from rules.variants import VARIANTS

TRANSLATED = [code for code in LANGUAGES if code != "en"]
SHARE = 0.9
"""The least share of long entries identified as the language: names, sources and quotations (a citation
of an English page, "PDN 3.0 GameType") are read as other languages now and then."""


@functools.cache
def detector() -> LanguageDetector:
    return LanguageDetectorBuilder.from_languages(*(language_of(code) for code in LANGUAGES)).build()


def language_of(code: str) -> Language:
    return Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper()))


def share_in(code: str, texts: list[str]) -> tuple[float, list[str]]:
    """The share of `texts` identified as `code`, and the others."""
    want = language_of(code)
    others = [t for t in texts if detector().detect_language_of(t) != want]
    return 1 - len(others) / len(texts), others


def catalogue_entries(code: str) -> list[str]:
    """The catalogue's translations of four words or more (placeholders left out)."""
    with (LOCALE / code / "LC_MESSAGES" / "draughts_board.po").open("rb") as source:
        catalogue = read_po(source)
    out = []
    for m in catalogue:
        if not m.id:
            continue
        text = re.sub(r"\{\w*\}", "", m.string if isinstance(m.string, str) else m.string[-1])
        if len(text.split()) >= 4:
            out.append(text)
    return out


def page_paragraphs(code: str) -> list[str]:
    """Every paragraph and list item of eight words or more of the language's rules pages, without code."""
    out = []
    for variant in [None, *VARIANTS]:
        for block in blocks(page(variant, code).text):
            if block.kind in ("para", "item"):
                text = re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", "", block.text))
                if len(text.split()) >= 8:
                    out.append(text)
    return out


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_catalogue_is_in_its_language(code: str) -> None:
    entries = catalogue_entries(code)
    assert len(entries) > 80
    share, others = share_in(code, entries)
    assert share >= SHARE, (code, f"{share:.0%}", others[:10])


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_rules_pages_are_in_their_language(code: str) -> None:
    paragraphs = page_paragraphs(code)
    assert len(paragraphs) > 500
    share, others = share_in(code, paragraphs)
    assert share >= SHARE, (code, f"{share:.0%}", others[:10])


def test_the_identification_tells_an_untranslated_catalogue() -> None:
    """The check can fail: the English texts themselves are not read as any of the other languages."""
    with (LOCALE / "draughts_board.pot").open("rb") as source:
        english = [m.id for m in read_po(source) if isinstance(m.id, str) and len(m.id.split()) >= 4]
    for code in ("nl", "fr", "de"):
        share, _ = share_in(code, english)
        assert share < 0.2, (code, share)
