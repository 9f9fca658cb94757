"""The rules' words for the translation catalogues: each variant's name, each option's label and each
refusing rule's name. The rules core stays English (its texts are for programs); this is a Babel extractor
(``i18n/babel.cfg``) that lists those words, so the controller and the page can say them in any language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

__all__ = ["extract_words", "words"]


def words() -> list[str]:
    """Every word of the rules a person reads: variant names, option labels, rule names."""
    from rules.errors import Illegal
    from rules.options import SPECS
    from rules.variants import VARIANTS

    found = [v.name for v in VARIANTS.values()]
    found += [spec.label for spec in SPECS.values()]
    found += [reason.rule for reason in Illegal]
    return list(dict.fromkeys(found))


def extract_words(fileobj: IO[bytes], keywords: object, comment_tags: object,
                  options: object) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor interface, for rules/words.py itself: (line, function, message, comments)."""
    for text in words():
        yield 1, "", text, []
