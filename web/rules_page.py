"""The web panel's Rules page: a variant's rules page from docs/rules (the Markdown `dboard rules` prints) as
HTML, every heading with its anchor so that a refusal in teaching mode can link to the rule that refused the
move, and the start position for the set-up diagram drawn on a board."""

from __future__ import annotations

import html
import re
from typing import Any

import rules
from rules.rulebook import Block, anchors, blocks, page

from .library import pieces_json

ANCHOR_PREFIX = "rules-"
"""Heading ids on the page are the rules pages' anchors with this prefix (``rules-capture-precedence``)."""
_INLINE = re.compile(r"`([^`]+)`|!?\[([^\]]*)\]\(([^)\s]+)\)|\*\*(.+?)\*\*"
                     r"|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def rules_page(variant_id: str, language: str = "en") -> dict[str, Any]:
    """What the Rules page shows of a variant in `language`: its name, the page as HTML, its section anchors
    (the English ones in every language) and the start position (pieces on the board's rows and columns).
    UnknownVariantError for an id that is not a variant."""
    variant = rules.get_variant(variant_id)
    doc = page(variant.id, language)
    return {"id": variant.id, "name": page_title(doc.text) or variant.name, "language": language,
            "html": markdown_html(doc.text, variant.id),
            "sections": anchors(doc.text), "rows": variant.height, "cols": variant.width,
            "start": pieces_json(rules.Board(variant))}


def page_title(markdown: str) -> str:
    """The variant's name as its page's title writes it (``Dama turca`` of ``# Dama turca - `turkish```)."""
    first = next((b for b in blocks(markdown) if b.kind == "heading"), None)
    if first is None:
        return ""
    return re.sub(r"\s+[-\u2013\u2014]\s+`[^`]+`\s*$", "", first.text).strip()


def link_target(target: str, current: str) -> tuple[str, bool]:
    """Where a link of a rules page leads on the panel: another variant's page or section on the Rules tab
    (``#rules/spanish/capture-precedence``), an outside address (True: open it in a new tab), or nowhere ("")
    for the documents the panel does not show (the words stay, without a link)."""
    if target.startswith(("http://", "https://")):
        return target, True
    name, _, anchor = target.partition("#")
    if not name:
        name = f"{current}.md"
    if not name.endswith(".md") or "/" in name:
        return "", False
    stem = name[:-3]
    if stem == "README":
        return "#rules", False
    if stem not in rules.VARIANT_IDS:
        return "", False
    return f"#rules/{stem}" + (f"/{anchor}" if anchor else ""), False


def _inline(text: str, current: str) -> str:
    """Inline Markdown as escaped HTML: code, links, bold and italics."""
    out, at = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[at:m.start()]))
        at = m.end()
        code, words, target, bold, italic = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif target is not None:
            href, outside = link_target(target, current)
            inner = _inline(words, current)
            if not href:
                out.append(inner)
            else:
                extra = ' target="_blank" rel="noopener"' if outside else ""
                out.append(f'<a href="{html.escape(href)}"{extra}>{inner}</a>')
        elif bold is not None:
            out.append(f"<strong>{_inline(bold, current)}</strong>")
        else:
            out.append(f"<em>{_inline(italic, current)}</em>")
    out.append(html.escape(text[at:]))
    return "".join(out).replace("\\|", "|")


def _cells(row: str, current: str) -> list[str]:
    inner = row.strip().strip("|")
    return [_inline(c.strip(), current) for c in re.split(r"(?<!\\)\|", inner)]


def markdown_html(markdown: str, current: str) -> str:
    """The Markdown of a rules page as HTML (headings with their anchors, paragraphs, lists, tables, quotes;
    code blocks - the board diagrams and console examples - kept exactly). Every text is escaped."""
    ids = iter(anchors(markdown))
    out: list[str] = []
    items: list[Block] = []
    for block in blocks(markdown):
        if block.kind == "item":
            items.append(block)
            continue
        if items:
            out.append(_list(items, current))
            items = []
        if block.kind == "code":
            cls = f' class="lang-{html.escape(block.text)}"' if block.text else ""
            out.append(f"<pre{cls}>{html.escape(chr(10).join(block.lines))}</pre>")
        elif block.kind == "heading":
            n = block.level
            out.append(f'<h{n} id="{ANCHOR_PREFIX}{next(ids)}">{_inline(block.text, current)}</h{n}>')
        elif block.kind == "table":
            head, *body = [_cells(row, current) for row in block.lines[:1] + block.lines[2:]]
            titles = "".join(f"<th>{c}</th>" for c in head)
            thead = f"<thead><tr>{titles}</tr></thead>" if any(head) else ""
            rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body)
            out.append(f"<table>{thead}<tbody>{rows}</tbody></table>")
        else:
            tag = "blockquote" if block.kind == "quote" else "p"
            out.append(f"<{tag}>{_inline(block.text, current)}</{tag}>")
    if items:
        out.append(_list(items, current))
    return "\n".join(out) + "\n"


def _list(items: list[Block], current: str) -> str:
    """A run of list items as nested lists: an item indented deeper than the one before opens a list in it,
    one with another kind of mark a new list."""
    html_out: list[str] = []
    open_lists: list[tuple[int, str]] = []   # (indent, "ul" or "ol") of the lists open, innermost last
    for item in items:
        tag = "ol" if item.mark[0].isdigit() else "ul"
        while open_lists and (item.level < open_lists[-1][0] or
                              (item.level == open_lists[-1][0] and tag != open_lists[-1][1])):
            html_out.append(f"</li></{open_lists.pop()[1]}>")
        if not open_lists or item.level > open_lists[-1][0]:
            open_lists.append((item.level, tag))
            html_out.append(f"<{tag}>")
        else:
            html_out.append("</li>")
        html_out.append(f"<li>{_inline(item.text, current)}")
    while open_lists:
        html_out.append(f"</li></{open_lists.pop()[1]}>")
    return "".join(html_out)
