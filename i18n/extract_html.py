"""A Babel extractor for the pages' HTML: every text the page shows (text between tags, and the ``title``,
``placeholder``, ``aria-label`` and ``alt`` attributes) is a message; the page's script translates the
same texts when it loads, so the HTML stays readable English and needs no markup for translation."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO

__all__ = ["extract_html", "visible_texts"]

ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_SKIP = {"script", "style", "code", "kbd", "samp", "pre"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
"""Elements without an end tag: one marked translate="no" keeps only its own attributes untranslated."""


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _SKIP:
            self._skipping.append(tag)
        if values.get("translate") == "no" or "data-no-i18n" in values:
            if tag not in _VOID:
                self._skipping.append(tag)
            return
        if self._skipping:
            return
        for name in ATTRIBUTES:
            if (value := values.get(name)) and _is_words(value):
                self.found.append((self.getpos()[0], " ".join(value.split())))

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skipping and _is_words(text):
            self.found.append((self.getpos()[0], text))


def _is_words(text: str) -> bool:
    """Text a reader reads as words (not a lone symbol, number or arrow)."""
    return any(c.isalpha() for c in text)


def visible_texts(html: str) -> list[tuple[int, str]]:
    """(line, text) of every translatable text of a page, in order."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser.found


def extract_html(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: object) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor interface: (line, function name, message, comments) per text."""
    for line, text in visible_texts(fileobj.read().decode("utf-8")):
        yield line, "", text, []
