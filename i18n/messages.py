"""Keep the catalogues in step with the code (a maintainer's tool, Babel from the test extra):
``python -m i18n.messages`` extracts every message into ``i18n/locale/draughts_board.pot`` and merges it
into each language's ``.po``, so a new text appears there untranslated (and the catalogue test fails until
it is translated)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .catalogue import DOMAIN
from .languages import LANGUAGES

__all__ = ["KEYWORDS", "extract", "main", "update"]

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "i18n" / "locale"
KEYWORDS = ("phrase", "plural:1,2", "translated_as:2", "_", "_n:1,2", "N_")
"""What marks a message: ``phrase()`` and ``plural()`` in Python, ``_()``, ``_n()`` and ``N_()`` (marked
where it is written, translated where it is shown) in the pages."""


def _babel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", *args], cwd=ROOT, check=True,
                   env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def extract(pot: Path) -> None:
    """Every message of the code and pages, as a template at `pot`."""
    keys = [arg for k in KEYWORDS for arg in ("-k", k)]
    _babel("extract", "-F", "i18n/babel.cfg", "--no-default-keywords", *keys, "--no-location",
           "--sort-output", "--project", "draughts-board", "-o", str(pot), ".")


def update() -> None:
    """Extract into the template, then merge it into every language's catalogue (new ones created)."""
    pot = LOCALE / f"{DOMAIN}.pot"
    extract(pot)
    for code in LANGUAGES:
        if code == "en":
            continue
        po = LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.exists():
            _babel("update", "-i", str(pot), "-o", str(po), "-l", code, "--no-fuzzy-matching",
                   "--ignore-obsolete")
        else:
            _babel("init", "-i", str(pot), "-o", str(po), "-l", code)


def main() -> int:
    update()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
