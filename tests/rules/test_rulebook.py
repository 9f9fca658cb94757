"""The rules pages through rules.rulebook and `dboard rules`: lookup, sections, rendering, shipping."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from controller.cli import main
from rules import UnknownVariantError
from rules.rulebook import SECTIONS, SectionNotFoundError, anchors, page, pages_dir, render, slug
from rules.variants import VARIANT_IDS

ROOT = Path(__file__).resolve().parents[2]


def test_every_variant_page_is_found_by_id_and_alias() -> None:
    assert {p.name for p in pages_dir().iterdir()} >= {f"{v}.md" for v in VARIANT_IDS} | {"README.md"}
    assert page("checkers").name == "english.md" and page("FMJD").name == "international.md"
    assert page(None).name == "README.md"
    assert page("spanish").text == (ROOT / "docs" / "rules" / "spanish.md").read_text(encoding="utf-8")
    with pytest.raises(UnknownVariantError, match="valid ids: spanish"):
        page("klingon")


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_standard_section_can_be_picked(variant_id: str) -> None:
    doc = page(variant_id)
    for title in SECTIONS:
        text = doc.section(slug(title))
        assert text.startswith(f"## {title}\n") and text.count("\n## ") == 0
        assert doc.section(title.upper()) == text


def test_a_section_runs_to_the_next_heading_of_its_level() -> None:
    doc = page("spanish")
    text = doc.section("#capture-precedence")
    assert "ley de la cantidad" in text and "## Crowning" not in text
    with pytest.raises(SectionNotFoundError, match=r"no section 'castling'; sections: at-a-glance, set-up"):
        doc.section("castling")


def test_slugs_and_anchors_follow_github() -> None:
    assert slug("2. GPIO-direct on a Raspberry Pi (40-pin header, BCM numbering)") == \
        "2-gpio-direct-on-a-raspberry-pi-40-pin-header-bcm-numbering"
    assert slug("Set-up") == "set-up" and slug("[Options](#options) `x`") == "options-x"
    assert anchors("# A\n## Notes\n```\n## not a heading\n```\n## Notes\n") == ["a", "notes", "notes-1"]


def test_render_wraps_text_and_keeps_diagrams() -> None:
    doc = page("international").text
    out = render(doc, 60)
    diagram = next(line for line in out.splitlines() if line.strip().startswith("a  b  c"))
    assert len(diagram) > 60                          # code blocks are printed exactly as written
    code = {line for line in doc.split("```text\n")[1].split("```")[0].splitlines()}
    prose = [line for line in out.splitlines() if line.strip() and line[2:] not in code]
    assert max(len(line) for line in prose) <= 60
    assert "International draughts - international\n=====" in out
    assert "the **most pieces** is" in doc and "the most pieces is" in out
    assert out.count("**") == out.count("**options") and "](" not in out and "`" not in out


def test_render_tables_in_columns_or_as_records() -> None:
    table = "| option | default here |\n|---|---|\n| `first` | `white` |\n| `repetition` | `3` |\n"
    assert render(table, 80).splitlines() == ["option      default here", "----------  ------------",
                                              "first       white", "repetition  3"]
    assert render(table, 20).splitlines() == ["first", "  default here:", "    white", "", "repetition",
                                              "  default here: 3"]
    glance = "| | |\n|---|---|\n| Board | 8x8, 32 playing squares |\n"
    assert render(glance, 80) == "Board  8x8, 32 playing squares\n"
    assert render(glance, 20) == "Board: 8x8, 32\n    playing squares\n"


def test_render_links_lists_and_quotes() -> None:
    text = ("See [the index](README.md#options) and [FMJD](https://fmjd.org).\n\n"
            "- **one** item that is long enough to wrap\n  over two lines\n- two\n\n> a quoted\n> rule\n")
    assert render(text, 30).splitlines() == [
        "See the index and FMJD", "<https://fmjd.org>.", "", "- one item that is long enough",
        "  to wrap over two lines", "- two", "", "  a quoted rule"]


def test_dboard_rules_prints_a_page_and_a_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "russian", "--width", "72"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Russian draughts - russian\n")
    assert "Capture precedence\n------------------\n" in out and " 8   b   b   b   b" in out
    assert main(["rules", "italian", "--section", "crowning"]) == 0
    section = capsys.readouterr().out
    assert section.startswith("Crowning\n--------\n") and "Draws" not in section
    assert main(["rules"]) == 0
    assert "spanish-traditional" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "expected"), [
    (["rules", "chess"], "dboard rules: error: unknown variant 'chess'; valid ids: spanish, "),
    (["rules", "thai", "--section", "castling"], "dboard rules: error: thai.md has no section 'castling'"),
])
def test_dboard_rules_bad_input_is_one_line_and_exit_2(argv: list[str], expected: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(expected) and captured.err.count("\n") == 1


def test_pages_ship_in_the_wheel_and_work_installed(tmp_path: Path) -> None:
    """The pages are package data: build a wheel from a copy of the tree and read a page from it installed."""
    src = tmp_path / "src"
    for name in ("rules", "controller", "firmware_bridge", "engine", "web", "docs"):
        shutil.copytree(ROOT / name, src / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "screenshots"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", str(src),
                    "-w", str(tmp_path / "dist")], check=True, env=env, capture_output=True, timeout=240)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"rules/pages/{v}.md" for v in VARIANT_IDS} | {"rules/pages/README.md"} <= names
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    probe = ("import rules.rulebook as r, sys; assert 'site' in r.__file__, r.__file__; "
             "sys.stdout.write(r.page('thai').section('notation'))")
    done = subprocess.run([sys.executable, "-c", probe], env={**env, "PYTHONPATH": str(tmp_path / "site")},
                          cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.startswith("## Notation\n") and "31,B,8,8,N2,0" in done.stdout
