"""The rules pages of docs/rules (shipped as package data in rules/pages): find a variant's page, pick a
section by its heading or anchor, and render the Markdown as plain text for a terminal.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from rules.errors import RulesError
from rules.variants import get_variant

INDEX = "README.md"
# The sections every variant's page has, in this order: links to docs/rules/<id>.md#<anchor> rely on them.
SECTIONS: tuple[str, ...] = (
    "At a glance", "Set-up", "Moving", "Capturing", "Capture precedence", "Crowning", "End of the game",
    "Draws", "Missed captures", "Notation", "Options", "Sources", "Parameters",
)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ANCHOR = re.compile(r"\s*\{#([\w-]+)\}$")
"""A heading's own anchor (``## Prise {#capturing}``): a translated page keeps the English page's anchors."""
LANGUAGES: tuple[str, ...] = ("en", "eo", "nb", "uk", "nl", "fr", "ru", "pt", "es", "it", "tr", "pl", "de",
                             "cs")
"""The languages of the pages: English in docs/rules, each other in docs/rules/<language>/."""
_FENCE = re.compile(r"^\s*(```|~~~)")
_BULLET = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)\)")
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


class SectionNotFoundError(RulesError):
    """A section name that is not a heading of the page; the message lists the page's sections."""


@dataclass(frozen=True)
class Page:
    """One rules page: its file name and Markdown text."""

    name: str
    text: str

    def section(self, name: str) -> str:
        """The Markdown of one section (its heading and everything up to the next heading of the same or
        a higher level), chosen by heading text or anchor, case-insensitively."""
        wanted = slug(name.lstrip("#"))
        heads = _sections(self.text)
        lines = self.text.splitlines()
        for n, (level, title, start) in enumerate(heads):
            if wanted in (slug(title), own_anchor(lines[start])):
                end = next((at for lvl, _, at in heads[n + 1:] if lvl <= level), len(lines))
                return "\n".join(lines[start:end]).rstrip() + "\n"
        known = ", ".join(slug(title) for level, title, _ in heads if level == 2)
        raise SectionNotFoundError(f"{self.name} has no section {name!r}; sections: {known}")

    def __repr__(self) -> str:
        return f"Page({self.name!r}, {len(self.text)} chars)"


def pages_dir() -> Traversable:
    """Where the pages are: rules/pages, a link to docs/rules in the source tree, a folder when installed."""
    return resources.files("rules") / "pages"


def page(variant_id: str | None = None, language: str = "en") -> Page:
    """The rules page of a variant (id or alias), or the index of all pages when no variant is given, in
    `language` (one of :data:`LANGUAGES`; the English page where a translation is missing)."""
    if language not in LANGUAGES:
        raise RulesError(f"no rules pages in language {language!r}; languages: {', '.join(LANGUAGES)}")
    name = INDEX if variant_id is None else f"{get_variant(variant_id).id}.md"
    translated = pages_dir() / language / name
    if language != "en" and translated.is_file():
        return Page(f"{language}/{name}", translated.read_text(encoding="utf-8"))
    return Page(name, (pages_dir() / name).read_text(encoding="utf-8"))


def own_anchor(heading_line: str) -> str | None:
    """The anchor a heading line names itself (``{#capturing}`` at its end), or None."""
    m = _ANCHOR.search(heading_line.rstrip())
    return m.group(1) if m else None


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = _LINK.sub(r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(markdown: str) -> list[str]:
    """Every heading's anchor, numbered as GitHub numbers repeated headings ("notes", "notes-1")."""
    seen: dict[str, int] = {}
    out = []
    lines = markdown.splitlines()
    for _, title, at in _sections(markdown):
        if (own := own_anchor(lines[at])) is not None:
            out.append(own)
            continue
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else f"{base}-{n}")
    return out


def _sections(markdown: str) -> list[tuple[int, str, int]]:
    """(level, title, line index) of every Markdown heading outside fenced code blocks."""
    out = []
    fenced = False
    for i, line in enumerate(markdown.splitlines()):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            out.append((len(m.group(1)), _ANCHOR.sub("", m.group(2)), i))
    return out


def _inline(text: str) -> str:
    """Inline Markdown as plain text: links keep their words (and an outside address), no emphasis marks."""
    def link(m: re.Match[str]) -> str:
        words, target = m.group(1), m.group(2)
        outside = target.startswith(("http://", "https://")) and words != target
        return f"{words} <{target}>" if outside else words
    text = _LINK.sub(link, text)
    text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3), text)
    return text.replace("`", "").replace("\\|", "|")


def _cells(row: str) -> list[str]:
    inner = row.strip().strip("|")
    return [_inline(c.strip()) for c in re.split(r"(?<!\\)\|", inner)]


def _table(rows: list[str], width: int) -> list[str]:
    """A Markdown table aligned in columns, or, when too wide, one block per row ("header: value")."""
    head, body = _cells(rows[0]), [_cells(r) for r in rows[2:]]
    cols = len(head)
    body = [(r + [""] * cols)[:cols] for r in body]
    titled = any(head)
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(cols)]
    if sum(widths) + 2 * (cols - 1) <= width:
        def line(r: list[str]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        top = [line(head), "  ".join("-" * w for w in widths)] if titled else []
        return [*top, *(line(r) for r in body)]
    out: list[str] = []
    for r in body:
        if not titled:
            out += textwrap.wrap(": ".join(c for c in r if c), width, subsequent_indent="    ")
            continue
        out += textwrap.wrap(r[0], width) or [""]
        for h, c in zip(head[1:], r[1:], strict=True):
            if c:
                out += textwrap.wrap(f"{h}: {c}", width, initial_indent="  ", subsequent_indent="    ")
        out.append("")
    return out[:-1] if titled else out


@dataclass(frozen=True)
class Block:
    """One block of a rules page's Markdown, as both renderers see it (the terminal's :func:`render` and the
    web panel's HTML): a heading, paragraph, code block, table, list item or quote."""

    kind: str                     # "heading", "para", "code", "table", "item" or "quote"
    text: str = ""                # the heading's title, the text (Markdown inline), the code block's language
    level: int = 0                # a heading's level, a list item's indent
    mark: str = ""                # a list item's mark: "-", "*", "+", "1.", "2)"
    lines: tuple[str, ...] = ()   # a code block's lines, a table's rows
    ends: bool = False            # a list item followed by a blank line or the end of the text


def blocks(markdown: str) -> Iterator[Block]:
    """The blocks of ``markdown`` (HTML comments dropped, a list item's continuation lines joined)."""
    para: list[str] = []
    lines = markdown.splitlines()

    def flush() -> Iterator[Block]:
        if para:
            yield Block("para", " ".join(para))
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _FENCE.match(line):
            yield from flush()
            kind = stripped.strip("`~").strip()
            i += 1
            start = i
            while i < len(lines) and not _FENCE.match(lines[i]):
                i += 1
            yield Block("code", kind, lines=tuple(lines[start:i]))
        elif stripped.startswith("<!--"):
            yield from flush()
            while i < len(lines) and "-->" not in lines[i]:
                i += 1
        elif m := _HEADING.match(line):
            yield from flush()
            yield Block("heading", _ANCHOR.sub("", m.group(2)), len(m.group(1)))
        elif stripped.startswith("|") and i + 1 < len(lines) and set(lines[i + 1].strip()) <= set("|-: "):
            yield from flush()
            start = i
            while i < len(lines) and lines[i].strip().startswith("|"):
                i += 1
            yield Block("table", lines=tuple(lines[start:i]))
            continue
        elif m := _BULLET.match(line):
            yield from flush()
            indent, mark, text = m.groups()
            lead = len(indent) + len(mark) + 1
            while i + 1 < len(lines) and lines[i + 1].startswith(" " * lead) and lines[i + 1].strip() \
                    and not _BULLET.match(lines[i + 1]):
                i += 1
                text += " " + lines[i].strip()
            ends = i + 1 >= len(lines) or not lines[i + 1].strip()
            yield Block("item", text, len(indent), mark, ends=ends)
        elif stripped.startswith(">"):
            yield from flush()
            quote = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].strip())
                i += 1
            yield Block("quote", " ".join(quote))
            continue
        elif not stripped:
            yield from flush()
        else:
            para.append(stripped)
        i += 1
    yield from flush()


def render(markdown: str, width: int = 80) -> str:
    """Markdown as plain text wrapped to `width` columns: headings underlined, lists indented, tables
    aligned, code blocks (the board diagrams) kept exactly as written."""
    width = max(width, 20)
    out: list[str] = []
    for block in blocks(markdown):
        if block.kind == "code":
            out += [*("  " + line if line else "" for line in block.lines), ""]
        elif block.kind == "heading":
            title = _inline(block.text)
            out.append(title)
            if block.level <= 2:
                out.append(("=" if block.level == 1 else "-") * min(len(title), width))
            out.append("")
        elif block.kind == "table":
            out += [*_table(list(block.lines), width), ""]
        elif block.kind == "item":
            lead = " " * block.level + ("-" if not block.mark[0].isdigit() else block.mark) + " "
            out += textwrap.wrap(_inline(block.text), width, initial_indent=lead,
                                 subsequent_indent=" " * len(lead))
            if block.ends:
                out.append("")
        elif block.kind == "quote":
            quote = textwrap.wrap(_inline(block.text), width, initial_indent="  ", subsequent_indent="  ")
            out += [*quote, ""]
        else:
            out += [*(textwrap.wrap(_inline(block.text), width) or [""]), ""]
    while out and not out[-1]:
        out.pop()
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text) + "\n"
