"""Compile the catalogues' ``.po`` sources to the ``.mo`` files ``gettext`` reads (Babel's reader and
writer); setup.py runs it when the package is built, so a checkout holds only the sources."""

from __future__ import annotations

from pathlib import Path

__all__ = ["compile_catalogues"]


def compile_catalogues(locale: Path) -> list[Path]:
    """Write ``<lang>/LC_MESSAGES/*.mo`` beside every ``.po`` under `locale` that is newer; the paths written.
    Fuzzy and untranslated entries are left out (gettext then says the English)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        with mo.open("wb") as target:
            write_mo(target, catalog)
        written.append(mo)
    return written
