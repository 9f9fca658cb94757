"""Endgame tables: the index, the builders against each other and against one ply of search, known values,
damaged files, the probe in both searches and `dboard endgame`."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from engine.endgame import (
    DRAW,
    LOSS,
    NONE,
    TABLE_SPAN,
    TABLE_WIN,
    WIN,
    EndgameTables,
    Signature,
    get_value,
    layout,
    native_builder,
    signatures_upto,
    table_dir,
    verify,
)
from engine.evaluation import Evaluator
from engine.limits import SearchLimits
from engine.native import NativeSearcher, compiled
from engine.search import Searcher
from rules import Board, get_variant

NATIVE = native_builder() is not None

K1, K2, K3 = Signature(0, 1, 0, 1), Signature(0, 2, 0, 1), Signature(0, 3, 0, 1)
M1K = Signature(1, 0, 0, 1)
MM = Signature(1, 0, 1, 0)


def _tables(variant: str, *sigs: Signature, directory: Path | None = None) -> EndgameTables:
    tables = EndgameTables(get_variant(variant), directory)
    for sig in sigs:
        tables.ensure(sig)
    return tables


def _sample(size: int, count: int, seed: int = 7) -> list[int]:
    return sorted(random.Random(seed).sample(range(size), min(size, count)))


@pytest.mark.parametrize("variant", ["international", "russian", "turkish"])
def test_index_round_trip(variant: str) -> None:
    v = get_variant(variant)
    sig = Signature(1, 1, 1, 1)
    lay = layout(v, sig)
    seen = 0
    for idx in _sample(lay.size, 400):
        pos = lay.position(idx)
        if pos is None:
            continue
        seen += 1
        assert Signature.of(*pos[:3]) == sig
        assert lay.index(*pos) == idx
    assert seen > 300
    module = compiled()
    if module is not None and hasattr(module, "endgame_size"):
        from rules.native import rules_params

        assert module.endgame_size(rules_params(v), sig.counts) == lay.size


def test_signatures_come_after_what_they_reach() -> None:
    order = signatures_upto(4)
    assert len(order) == len(set(order))
    assert all(s.pieces <= 4 and s.white_men + s.white_kings and s.black_men + s.black_kings for s in order)
    place = {s: i for i, s in enumerate(order)}
    for sig in order:
        assert all(place[d] < place[sig] for d in sig.dominated() if d != sig)


# flying kings (russian, international), short kings (english), orthogonal moves and the lone-king rule
# (turkish), the blocked side winning (giveaway)
CASES = [("russian", [K1, K2, M1K, MM]), ("english", [K1, K2, MM]), ("turkish", [K1, M1K, MM]),
         ("giveaway", [K1, MM]), ("international", [K1, M1K])]


@pytest.mark.parametrize(("variant", "sigs"), CASES)
def test_every_value_agrees_with_its_successors(variant: str, sigs: list[Signature]) -> None:
    # (on the pure-Python core the tables are built by the slow reference: two pieces only)
    tables = _tables(variant, *(s for s in sigs if NATIVE or s.pieces <= 2))
    v = tables.variant
    for sig in tables.tables:
        size = layout(v, sig).size
        indices = range(size) if size <= 6000 else _sample(size, 1500)
        assert verify(v, sig, tables.tables, indices) == [], sig


def test_international_king_against_king_is_drawn_but_for_captures_and_corners() -> None:
    """A lone king against a lone king draws, except that the side to move wins by taking the other king or
    by shutting it in a corner of the long diagonal (46 or 5), and loses when shut in there itself."""
    tables = _tables("international", K1)
    v, data, lay = tables.variant, tables.tables[K1], layout(tables.variant, K1)
    values = Counter()
    for idx in range(lay.size):
        pos = lay.position(idx)
        if pos is None:
            continue
        board = Board(v)
        board._set(*pos)
        value = get_value(data, idx)
        values[value] += 1
        if board.has_capture():
            assert value == WIN, board.fen()
        elif value == WIN:   # the other king is shut in its corner: it must step onto the long diagonal
            assert board.kings(board.turn.opponent) <= {v.geometry.parse_square(n) for n in ("46", "5")}
        if value == LOSS:
            assert board.fen() in ("W:WK46:BK5", "W:WK5:BK46", "B:WK5:BK46", "B:WK46:BK5")
    assert values[DRAW] > 3 * values[WIN] and values[LOSS] == 4
    assert tables.value(Board(v, "W:WK46:BK5")) == LOSS
    assert tables.value(Board(v, "W:WK33:BK4")) == DRAW


def _share(tables: EndgameTables, sig: Signature, keep, count: int = 6000) -> Counter:
    v, data, lay = tables.variant, tables.tables[sig], layout(tables.variant, sig)
    values: Counter = Counter()
    for idx in _sample(lay.size, count):
        pos = lay.position(idx)
        if pos is not None and keep(v.geometry, *pos):
            values[get_value(data, idx)] += 1
    return values


def _on(g, bits: int, names: set[str]) -> bool:
    return any(g.name(s) in names for s in g.bits(bits))


RUSSIAN_ROAD = {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}
LONG_DIAGONAL = {str(n) for n in (46, 41, 37, 32, 28, 23, 19, 14, 10, 5)}


def test_english_two_kings_beat_one() -> None:
    """Short kings: two kings against one win in general (the lone king cannot hold a double corner)."""
    tables = _tables("english", K2)
    strong = _share(tables, K2, lambda g, w, b, k, t: True, count=4000)
    assert strong[WIN] + strong[LOSS] > 0.9 * sum(strong.values())
    assert tables.value(Board("english", "W:WK1,K2:BK32")) == WIN


def test_turkish_king_against_single_man_is_won_by_rule() -> None:
    tables = _tables("turkish", M1K)
    assert tables.value(Board("turkish", "W:Wa2:BKh8")) == LOSS
    assert tables.value(Board("turkish", "B:Wa2:BKh8")) == WIN


def test_damaged_files_are_built_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = _tables("russian", M1K, directory=tmp_path)
    folder = table_dir(tmp_path, first.variant)
    path = folder / f"{M1K.name}.wdl"
    good = path.read_bytes()
    again = _tables("russian", M1K, directory=tmp_path)
    assert again.tables == first.tables and not any(r.built for r in again.reports)
    for damage in (good[:-1], good[:100], b"", good[:40] + bytes([good[40] ^ 1]) + good[41:]):
        path.write_bytes(damage)
        tables = _tables("russian", M1K, directory=tmp_path)
        assert tables.tables[M1K] == first.tables[M1K]
        assert [r.signature for r in tables.reports if r.built] == [M1K]
        assert path.read_bytes() == good
    assert "damaged" in caplog.text
    # another variant's file under this name is not read as this one's
    other = table_dir(tmp_path, get_variant("brazilian"))
    other.mkdir(parents=True)
    (other / path.name).write_bytes(good)
    brazilian = _tables("brazilian", M1K, directory=tmp_path)
    assert any(r.built and r.signature == M1K for r in brazilian.reports)


def test_probe_knows_nothing_of_a_table_not_loaded() -> None:
    tables = _tables("russian", K1)
    assert tables.value(Board("russian", "W:WKa1,Kc1:BKh8")) == NONE


@pytest.mark.parametrize("fen", ["W:WK10:B28", "B:WK10:B28", "W:W28:BK5", "B:W28:BK5", "W:WK1:BK32"])
def test_both_searches_score_table_positions_alike(fen: str) -> None:
    v = get_variant("english")
    tables = _tables("english", Signature(0, 1, 1, 0), M1K)
    board = Board(v, fen)
    value = tables.value(board)
    searchers: list[Searcher] = [Searcher(Evaluator(v))]
    if compiled() is not None:
        searchers.append(NativeSearcher(Evaluator(v)))
    results = []
    for searcher in searchers:
        searcher.set_endgames(tables)
        result = searcher.search(board, SearchLimits(depth=3))
        results.append((result.score, result.move))
        if value == WIN:
            assert result.score >= TABLE_WIN - TABLE_SPAN
        elif value == LOSS:
            assert result.score <= -TABLE_WIN + TABLE_SPAN
        # the chosen move keeps the value
        after = board.copy()
        after.push(result.move)
        assert tables.value(after) == {WIN: LOSS, LOSS: WIN, DRAW: DRAW}[value]
    assert len(set(results)) == 1


def test_endgame_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine.cli import _endgame

    class Args:
        words = ["international", "W:WK46:BK5"]
        data_dir = str(tmp_path)
        pieces = None

    assert _endgame(Args()) == 0  # type: ignore[arg-type]
    out = capsys.readouterr()
    assert out.out == "loss\n" and "building" in out.err
    Args.words = ["build", "english"]
    Args.pieces = 2
    assert _endgame(Args()) == 0  # type: ignore[arg-type]
    assert "english: 4 tables" in capsys.readouterr().out
    Args.words = ["international", "W:WK46,K47,K48:BK5,K4"]
    with pytest.raises(SystemExit, match="go up to 4"):
        _endgame(Args())  # type: ignore[arg-type]
    Args.words = ["dameo", "W:Wa1:Bh8"]
    with pytest.raises(SystemExit, match="no endgame tables for dameo"):
        _endgame(Args())  # type: ignore[arg-type]
