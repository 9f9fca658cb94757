"""Every catalogue is complete and valid, and holds every message the code and pages say: ``msgfmt
--check`` passes, no entry is untranslated or fuzzy, placeholders and plural forms agree with the English,
and an extraction run finds no message missing from them."""

from __future__ import annotations

import gettext
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n import LANGUAGES
from i18n.messages import LOCALE, extract

TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
NPLURALS = {"eo": 2, "nb": 2, "uk": 3, "nl": 2, "fr": 3, "ru": 3, "pt": 3, "es": 3, "it": 3, "tr": 2,
            "pl": 3, "de": 2, "cs": 3}
"""The plural forms CLDR (through Babel) gives each language: Russian, Ukrainian, Polish and Czech three for
the count's last digits, French, Italian, Spanish and Portuguese a third for whole millions ("un million de
secondes")."""


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "draughts_board.po"


def catalogue(code: str) -> Catalog:
    with po_path(code).open("rb") as source:
        return read_po(source, locale=code)


def test_an_extraction_run_finds_no_message_missing_from_the_catalogues(tmp_path: Path) -> None:
    pot = tmp_path / "messages.pot"
    extract(pot)
    with pot.open("rb") as source:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(source) if m.id}
    assert len(wanted) > 250
    for code in TRANSLATED:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue(code) if m.id}
        assert not wanted - have, (code, sorted(wanted - have)[:10])


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_catalogue_is_complete_and_valid(code: str) -> None:
    checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po_path(code))],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    cat = catalogue(code)
    assert cat.num_plurals == NPLURALS[code], cat.plural_forms
    problems = []
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        texts = [m.string] if isinstance(m.string, str) else list(m.string)
        if m.fuzzy:
            problems.append(f"fuzzy: {ids[0]!r}")
        if len(ids) > 1 and len(texts) != NPLURALS[code]:
            problems.append(f"{len(texts)} plural forms: {ids[0]!r}")
        want = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for text in texts:
            if not text:
                problems.append(f"untranslated: {ids[0]!r}")
            elif not set(PLACEHOLDER.findall(text)) <= want or not set(PLACEHOLDER.findall(ids[0])) - {"n"} \
                    <= set(PLACEHOLDER.findall(text)):
                problems.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
    assert not problems, problems[:20]


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_the_sources(code: str) -> None:
    """The installed package reads the .mo that setup.py compiled from the .po: an edited source not yet
    compiled would be said in its old words (reinstall, ``./dev``, to compile it)."""
    source, compiled = po_path(code), po_path(code).with_suffix(".mo")
    assert compiled.exists() and compiled.stat().st_mtime >= source.stat().st_mtime, compiled
    with compiled.open("rb") as mo:
        translations = gettext.GNUTranslations(mo)
    for m in catalogue(code):
        if m.id and isinstance(m.id, str):
            assert translations.gettext(m.id) == m.string, m.id
