"""The web panel's Rules page: a variant's rules page from docs/rules (the Markdown `dboard rules` prints) as
HTML, every heading with its anchor so that a refusal in teaching mode can link to the rule that refused the
move, and the start position for the set-up diagram drawn on a board."""

from __future__ import annotations

import html
import re
from typing import Any

import rules
from rules.rulebook import anchors, page

from .library import pieces_json

ANCHOR_PREFIX = "rules-"
"""Heading ids on the page are the rules pages' anchors with this prefix (``rules-capture-precedence``)."""
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_BULLET = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?[\s|:-]+\|?\s*$")
_INLINE = re.compile(r"`([^`]+)`|!?\[([^\]]*)\]\(([^)\s]+)\)|\*\*(.+?)\*\*"
                     r"|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def rules_page(variant_id: str) -> dict[str, Any]:
    """What the Rules page shows of a variant: its name, the page as HTML, its section anchors and the start
    position (pieces on the board's rows and columns). UnknownVariantError for an id that is not a variant."""
    variant = rules.get_variant(variant_id)
    doc = page(variant.id)
    return {"id": variant.id, "name": variant.name, "html": markdown_html(doc.text, variant.id),
            "sections": anchors(doc.text), "rows": variant.height, "cols": variant.width,
            "start": pieces_json(rules.Board(variant))}


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
    para: list[str] = []
    lines = markdown.splitlines()

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para), current)}</p>")
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _FENCE.match(line):
            flush()
            kind = stripped.strip("`~").strip()
            i += 1
            code = []
            while i < len(lines) and not _FENCE.match(lines[i]):
                code.append(lines[i])
                i += 1
            cls = f' class="lang-{html.escape(kind)}"' if kind else ""
            out.append(f"<pre{cls}>{html.escape(chr(10).join(code))}</pre>")
        elif stripped.startswith("<!--"):
            flush()
            while i < len(lines) and "-->" not in lines[i]:
                i += 1
        elif m := _HEADING.match(line):
            flush()
            level = len(m.group(1))
            out.append(f'<h{level} id="{ANCHOR_PREFIX}{next(ids)}">{_inline(m.group(2), current)}</h{level}>')
        elif stripped.startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            flush()
            head = _cells(line, current)
            i += 2
            body = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                body.append(_cells(lines[i], current))
                i += 1
            thead = "" if not any(head) else "<thead><tr>" + "".join(f"<th>{c}</th>" for c in head) + \
                "</tr></thead>"
            rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body)
            out.append(f"<table>{thead}<tbody>{rows}</tbody></table>")
            continue
        elif _BULLET.match(line):
            flush()
            i = _list(lines, i, out, current)
            continue
        elif stripped.startswith(">"):
            flush()
            quote = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].strip())
                i += 1
            out.append(f"<blockquote>{_inline(' '.join(quote), current)}</blockquote>")
            continue
        elif not stripped:
            flush()
        else:
            para.append(stripped)
        i += 1
    flush()
    return "\n".join(out) + "\n"


def _list(lines: list[str], i: int, out: list[str], current: str) -> int:
    """A run of list items (continuation lines joined to their item; deeper items nested) from line ``i``;
    returns the index after it."""
    first = _BULLET.match(lines[i])
    assert first is not None
    indent = len(first.group(1))
    tag = "ol" if first.group(2)[0].isdigit() else "ul"
    items: list[str] = []
    while i < len(lines):
        m = _BULLET.match(lines[i])
        if m is None or len(m.group(1)) < indent:
            break
        if len(m.group(1)) > indent:
            nested: list[str] = []
            i = _list(lines, i, nested, current)
            items[-1] = items[-1][:-5] + "".join(nested) + "</li>"
            continue
        text = m.group(3)
        lead = len(m.group(1)) + len(m.group(2)) + 1
        while i + 1 < len(lines) and lines[i + 1].startswith(" " * lead) and lines[i + 1].strip() \
                and not _BULLET.match(lines[i + 1]):
            i += 1
            text += " " + lines[i].strip()
        items.append(f"<li>{_inline(text, current)}</li>")
        i += 1
        if i + 1 < len(lines) and not lines[i].strip():   # a blank line between items of the same list
            after = _BULLET.match(lines[i + 1])
            if after is not None and len(after.group(1)) == indent:
                i += 1
    out.append(f"<{tag}>{''.join(items)}</{tag}>")
    return i
