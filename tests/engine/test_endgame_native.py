"""Endgame tables built by the C builder (the engine extension): the same tables as the reference, and the
known values of tables too big for the reference in a test (Russian three kings against one, International
two kings against one). The pure-Python pass of ./dev test leaves this module out: it has no C builder."""

from __future__ import annotations

import pytest
from test_endgame import CASES, K2, K3, LONG_DIAGONAL, RUSSIAN_ROAD, _on, _share, _tables

from engine.endgame import DRAW, WIN, EndgameTables, Signature, build_reference, layout, native_builder
from rules import Board, Color, get_variant


@pytest.fixture(autouse=True)
def _the_c_builder() -> None:
    assert native_builder() is not None, "the engine extension is not built: pip install -e . builds it"


@pytest.mark.parametrize(("variant", "sigs"), CASES)
def test_native_builder_equals_the_reference(variant: str, sigs: list[Signature]) -> None:
    v = get_variant(variant)
    native = _tables(variant, *sigs)
    reference = EndgameTables(v, builder=build_reference)
    for sig in sigs:
        if layout(v, sig).size <= 5000:   # (the reference is slow: bigger tables take seconds)
            assert reference.ensure(sig) == native.tables[sig], sig


def test_russian_three_kings_win_from_the_main_road_and_not_against_it() -> None:
    """Three kings against one (Petrov's triangle): won when the strong side holds the main road a1-h8,
    mostly drawn when the lone king holds it."""
    tables = _tables("russian", K3)
    held = _share(tables, K3, lambda g, w, b, k, t: t == Color.WHITE and _on(g, w, RUSSIAN_ROAD)
                  and not _on(g, b, RUSSIAN_ROAD))
    assert held[WIN] > 0.97 * sum(held.values())
    against = _share(tables, K3, lambda g, w, b, k, t: t == Color.WHITE and not _on(g, w, RUSSIAN_ROAD)
                     and _on(g, b, RUSSIAN_ROAD))
    assert against[DRAW] > against[WIN]
    assert tables.value(Board("russian", "W:WKa1,Kc1,Ke1:BKb8")) == WIN


def test_international_two_kings_against_one_on_the_long_diagonal_draw() -> None:
    tables = _tables("international", K2)
    held = _share(tables, K2, lambda g, w, b, k, t: t == Color.WHITE and _on(g, b, LONG_DIAGONAL)
                  and not _on(g, w, LONG_DIAGONAL))
    assert held[DRAW] > 0.6 * sum(held.values())


def test_the_parallel_search_probes_the_tables_in_every_thread() -> None:
    """Two threads over the same tables: a won ending is scored as won, and the move keeps the win."""
    from engine.endgame import LOSS, TABLE_SPAN, TABLE_WIN
    from engine.evaluation import Evaluator
    from engine.limits import SearchLimits
    from engine.native import NativeSearcher

    tables = _tables("english", Signature(0, 1, 1, 0), Signature(1, 0, 0, 1))
    board = Board("english", "B:W28:BK5")   # Black, to move, wins
    assert tables.value(board) == WIN
    searcher = NativeSearcher(Evaluator(get_variant("english")), threads=2)
    searcher.set_endgames(tables)
    result = searcher.search(board, SearchLimits(depth=6))
    assert result.score >= TABLE_WIN - TABLE_SPAN
    after = board.copy()
    after.push(result.move)
    assert tables.value(after) == LOSS
