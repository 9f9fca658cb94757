"""The repository's documents are true: every cited document and section exists, every variant has a rules
page with the standard sections, and each page's diagram, parameters and examples are what the code does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import re
import shlex
from enum import Enum
from pathlib import Path

import pytest

import rules
from controller.cli import main
from rules.errors import Illegal
from rules.rulebook import SECTIONS, anchors, slug
from rules.variants import VARIANT_IDS, Variant

ROOT = Path(__file__).resolve().parents[1]
RULES_DOCS = ROOT / "docs" / "rules"
SKIP_DIRS = {".git", ".venv", ".bench-venv", "__pycache__", ".pytest_cache", ".ruff_cache", "build", "dist",
             "node_modules", "pdn-corpus"}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".c", ".h", ".js", ".html", ".css", ".service", ".rules", ".txt",
                 ".cfg", ".ini", ".sh"}
SCRIPTS = {"dev"}
GENERATED = ("hardware/firmware/build",)  # made by the build (`make -C hardware/firmware`), not kept in git
# A mention like `docs/rules/spanish.md#notation` or `hardware/protocol.md`, not inside a longer path.
MENTION = re.compile(r"(?<![\w./-])((?:docs|hardware|tests/data)/[\w./-]*[\w/])(#[\w-]+)?")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
OUTSIDE = ("http://", "https://", "mailto:")


def text_files() -> list[Path]:
    """The repository's code and documents (not test data, virtualenvs or build output)."""
    out = []
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts[:-1]):
            continue
        if path.resolve() != path or path == Path(__file__):  # rules/pages links to docs/rules; the probe
            continue
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or rel.as_posix() in SCRIPTS):
            out.append(path)
    return out


def citations(path: Path, text: str) -> list[tuple[int, Path, str | None]]:
    """(line, cited file, anchor or None) for every document path that `text`, the file `path`, cites."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in MENTION.finditer(line):
            out.append((number, ROOT / m.group(1), (m.group(2) or "")[1:] or None))
        if path.suffix != ".md":
            continue
        for m in LINK.finditer(line):
            target = m.group(1)
            if target.startswith(OUTSIDE):
                continue
            file_part, _, anchor = target.partition("#")
            cited = (path.parent / file_part) if file_part else path
            if path.parent.parent == RULES_DOCS and not cited.exists():   # a translated page: what it
                cited = RULES_DOCS / file_part                             # does not translate is English
            out.append((number, cited, anchor or None))
    return out


def broken(path: Path, text: str | None = None) -> list[str]:
    """Every citation in the file `path` (or in `text`, read as that file) whose file or anchor is missing."""
    problems = []
    if text is None:
        text = path.read_text(encoding="utf-8", errors="replace")
    for number, cited, anchor in citations(path, text):
        full = cited.resolve()
        rel = full.relative_to(ROOT).as_posix() if full.is_relative_to(ROOT) else str(cited)
        if rel.startswith(GENERATED):
            continue
        where = f"{path.relative_to(ROOT)}:{number}"
        if not cited.exists():
            problems.append(f"{where}: {rel} does not exist")
        elif anchor and (cited.suffix != ".md" or anchor not in anchors(cited.read_text(encoding="utf-8"))):
            problems.append(f"{where}: {rel} has no section #{anchor}")
    return problems


def test_every_cited_document_and_section_exists() -> None:
    files = text_files()
    assert len(files) > 100 and ROOT / "README.md" in files and RULES_DOCS / "spanish.md" in files
    problems = [p for path in files for p in broken(path)]
    assert problems == []


def test_the_check_sees_a_missing_file_and_a_missing_section() -> None:
    assert broken(RULES_DOCS / "README.md") == []
    probe = ("See [crowning](../docs/rules/spanish.md#crowning), [x](../docs/rules/spanish.md#no-such),\n"
             "docs/rules/klingon.md and `hardware/protocol.md`.\n")
    found = broken(ROOT / "tests" / "probe.md", probe)
    assert [p.split(": ", 1)[1] for p in found] == ["docs/rules/spanish.md has no section #no-such",
                                                    "docs/rules/klingon.md does not exist"]


def test_nothing_cites_a_path_outside_the_repository() -> None:
    outside = re.compile(r"/work/|/tmp/contracts|\.\./shared|shared/rules|(?<![\w-])variants\.md|"
                         r"(?<![\w-])reference\.md")
    hits = [f"{path.relative_to(ROOT)}:{n}" for path in text_files()
            for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if outside.search(line)]
    assert hits == []


# --- the rules pages ---------------------------------------------------------------------------------------
def page_text(variant_id: str) -> str:
    return (RULES_DOCS / f"{variant_id}.md").read_text(encoding="utf-8")


def section_of(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_variant_has_a_page_with_the_standard_sections(variant_id: str) -> None:
    text = page_text(variant_id)
    variant = rules.get_variant(variant_id)
    assert text.startswith(f"# {variant.name} - `{variant_id}`\n")
    titles = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert [t for t in titles if t in SECTIONS] == list(SECTIONS), "sections missing or out of order"
    index = (RULES_DOCS / "README.md").read_text(encoding="utf-8")
    assert f"]({variant_id}.md)" in index


def test_every_refusal_reason_has_a_section() -> None:
    """rules.Illegal names the rule refusing a move; the index says which section of a page explains it."""
    rows = re.findall(r"^\| (.+) \| `#([\w-]+)` \|$", section_of((RULES_DOCS / "README.md").read_text(
        encoding="utf-8"), "Refusals"), flags=re.MULTILINE)
    by_reason = {name: anchor for cell, anchor in rows for name in re.findall(r"`([A-Z_]+)`", cell)}
    assert set(by_reason) == {reason.name for reason in Illegal}
    assert set(by_reason.values()) <= {slug(title) for title in SECTIONS}


def diagram(variant_id: str) -> str:
    """The start position from White's side, beside the square numbers when the notation uses numbers."""
    board = rules.Board(variant_id)
    g = board.variant.geometry
    pieces = board.pieces()
    files = [chr(ord("a") + c) for c in range(g.width)]
    cell = len(str(len(g.squares))) + 1
    numbers, position = [], []
    for row in range(g.height - 1, -1, -1):
        nums, marks = [], []
        for col in range(g.width):
            sq = g.square_at(row, col)
            piece = pieces.get(sq) if sq is not None else None
            nums.append(" " * cell if sq is None else str(g.number(sq)).rjust(cell))
            mark = " " if sq is None else "." if piece is None else "wb"[piece.color == rules.Color.BLACK]
            marks.append(mark.upper() if piece is not None and piece.king else mark)
        numbers.append(f"{row + 1:>2} " + "".join(nums))
        position.append(f"{row + 1:>2} " + " ".join(marks))
    heads = ["   " + "".join(f.rjust(cell) for f in files), "   " + " ".join(files)]
    if not g.numeric:
        return "\n".join(line.rstrip() for line in [heads[1], *position])
    width = max(len(line) for line in [heads[0], *numbers]) + 5
    rows = zip([heads[0], *numbers], [heads[1], *position], strict=True)
    return "\n".join((left.ljust(width) + right).rstrip() for left, right in rows)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_setup_diagram_is_the_start_position(variant_id: str) -> None:
    blocks = re.findall(r"```text\n(.*?)\n```", section_of(page_text(variant_id), "Set-up"), flags=re.DOTALL)
    want = diagram(variant_id)
    assert blocks and blocks[0] == want, f"the Set-up diagram of {variant_id} should be:\n{want}"


def show(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(show(v) for v in value) if value else "()"
    return value.name.lower() if isinstance(value, Enum) else str(value)


def parameters(variant_id: str) -> str:
    """The Parameters table: every field of the Variant (the developer's view of the page)."""
    variant = rules.get_variant(variant_id)
    rows = [f"| `{f.name}` | `{show(getattr(variant, f.name))}` |"
            for f in dataclasses.fields(Variant) if f.name != "geometry"]
    return "\n".join(["| field | value |", "|---|---|", *rows])


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_parameters_table_is_the_variant(variant_id: str) -> None:
    want = parameters(variant_id)
    assert want in section_of(page_text(variant_id), "Parameters"), f"it should be:\n{want}"


def examples() -> list[tuple[str, str, str]]:
    """(page, command, expected output) of every `$ dboard moves ...` example in the rules pages."""
    out = []
    for path in sorted(RULES_DOCS.glob("*.md")):
        for block in re.findall(r"```console\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.DOTALL):
            command, _, output = block.partition("\n")
            out.append((path.name, command.removeprefix("$ "), output))
    return out


@pytest.mark.parametrize(("page", "command", "expected"), examples())
def test_console_examples_print_what_the_pages_say(page: str, command: str, expected: str) -> None:
    argv = shlex.split(command)
    assert argv[:2] == ["dboard", "moves"], f"{page}: only `dboard moves` examples are checked"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv[1:]) == 0
    assert out.getvalue() == expected, f"{page}: {command}"


def test_every_page_has_examples() -> None:
    pages = {page for page, _, _ in examples()}
    assert pages >= {f"{v}.md" for v in VARIANT_IDS}
