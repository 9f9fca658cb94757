"""The PDN 3.0 corpus: succeed/ files parse and round-trip (and validate where the variant is known);
fail/ files are rejected with a message naming line and column."""

from __future__ import annotations

import io

import pytest
from _pdnhelpers import FAIL, SUCCEED, read_file, read_text

from rules.pdn import PdnReader
from rules.pdn.writer import write_games

# Variant of the corpus files without a GameType tag, by content (English problems, Italian and Russian
# championships, Czech team championships); files with GameType tags (or international by default) -> None.
VARIANT_BY_CONTENT = {
    "OCA_2.0.pdn": "english",
    "Principles of Strategy.pdn": "english",
    "Tricks traps and shots.pdn": "english",
    "inferno.pdn": "english",
    "borderclassics.pdn": "english",
    "bridges.pdn": "english",
    "gem.pdn": "english",
    "goulds.pdn": "english",
    "lpc.pdn": "english",
    "beginner.pdn": "english",
    "Campionato Assoluto 2005.pdn": "italian",
    "alphanumeric.pdn": "russian",
    "ussr1947.pdn": "russian",
    "mrcd2000kval.pdn": "czech",
    "mrcd2006.pdn": "czech",
    "mrcd2007.pdn": "czech",
}

# fail/ file -> (variant used, line, column, words the first error must contain)
FAIL_EXPECTED = {
    "40Camp.DamaInternazionaleAssoluto.pdn": (None, 228, 1, "no result or '*' before the tag pair"),
    "Cat.A1.pdn": (None, 405, 36, "'.' that is not part of a move number"),
    "Cat.C1.pdn": (None, 579, 75, "move number '6.' without a move"),
    "abatsiev.pdn": ("russian", 595, 4, "unknown move written '-'"),
    "delfts.pdn": (None, 28, 1, "no result or '*' before the tag pair"),
    "mrdrcd07.pdn": ("czech", 13, 23, "result 1-1 is international scoring"),
    "mrdrcd08.pdn": (None, 10, 4, "c3-d4 (written 37-32 on a international board)"),
    "nested_comment.pdn": (None, 1, 34, "comments cannot nest"),
}


def test_corpus_is_complete() -> None:
    assert len(SUCCEED) == 39
    assert {p.name for p in FAIL} == set(FAIL_EXPECTED)


@pytest.mark.parametrize("path", SUCCEED, ids=lambda p: p.name)
def test_succeed_parses_and_round_trips(path) -> None:
    games = read_file(path)
    assert games, path.name
    assert [str(e) for g in games for e in g.errors] == []
    buffer = io.StringIO()
    assert write_games(games, buffer) == len(games)
    text = buffer.getvalue()
    assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("["))
    again = read_text(text)
    assert again == games
    # writing is canonical: a second round gives the same text
    third = io.StringIO()
    write_games(again, third)
    assert third.getvalue() == text


@pytest.mark.parametrize("path", SUCCEED, ids=lambda p: p.name)
def test_succeed_validates_against_the_rules(path) -> None:
    variant = VARIANT_BY_CONTENT.get(path.name)
    games = read_file(path, validate=True, variant=variant)
    assert [str(e) for g in games for e in g.errors] == []
    # every main-line move was resolved to a rules Move
    assert all(node.move is not None for g in games for node in g.moves)


@pytest.mark.parametrize("path", FAIL, ids=lambda p: p.name)
def test_fail_is_rejected_with_line_and_column(path) -> None:
    variant, line, column, words = FAIL_EXPECTED[path.name]
    games = read_file(path, validate=True, variant=variant)
    errors = [e for g in games for e in g.errors]
    assert errors, path.name
    first = min(errors, key=lambda e: (e.line, e.column)) if variant else errors[0]
    assert (first.line, first.column) == (line, column), str(first)
    assert words in first.message
    assert first.describe(path.name).startswith(f"{path.name}:{line}:{column}: game ")
    # the other games of the file are still read
    assert len(games) > 1 or path.name == "nested_comment.pdn"


def test_fail_syntax_errors_need_no_rules() -> None:
    """Six of the eight fail/ files are rejected by the grammar alone."""
    syntax_failures = set()
    for path in FAIL:
        with path.open("rb") as handle:
            from rules.pdn.encoding import DecodedLines

            games = list(PdnReader(DecodedLines(handle)))
        if any(g.errors for g in games):
            syntax_failures.add(path.name)
    assert syntax_failures == set(FAIL_EXPECTED) - {"mrdrcd07.pdn", "mrdrcd08.pdn"}


def test_broken_game_does_not_hide_the_others() -> None:
    games = read_file(next(p for p in FAIL if p.name == "Cat.A1.pdn"), validate=True)
    assert len(games) == 35
    assert [g.number for g in games if g.errors] == [30]
    assert games[30].tags["Event"] and not games[30].errors  # the game after the broken one
