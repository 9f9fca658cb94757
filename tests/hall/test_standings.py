"""The arbiter's book (kept on disk, checked field by field) and the standings it gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from hall.book import BookError, EventBook
from hall.standings import standings


def test_round_robin_standings_with_sonneborn_berger(tmp_path: Path) -> None:
    book = EventBook(tmp_path / "open.json")
    book.set_system("round-robin")
    book.set_pairings("1", [{"board": "1", "white": "Ann", "black": "Bob"},
                            {"board": "2", "white": "Cid", "black": "Dee"}])
    book.set_pairings("2", [{"board": "1", "white": "Bob", "black": "Cid"},
                            {"board": "2", "white": "Dee", "black": "Ann"}])
    results = {("1", "1"): "1-0", ("1", "2"): "1/2-1/2", ("2", "1"): "0-1", ("2", "2"): "0-1"}
    table = {s.name: s for s in standings(book, results)}
    assert (table["Ann"].points, table["Ann"].wins, table["Ann"].rank) == (4.0, 2, 1)
    assert (table["Cid"].points, table["Cid"].draws, table["Cid"].rank) == (3.0, 1, 2)
    assert table["Cid"].tiebreak == 0 * 4 + 0.5 * 1 + 1 * 0   # beat Bob (0), drew Dee (1 point)
    assert table["Bob"].points == 0 and table["Bob"].rank == 4


def test_swiss_buchholz_bye_unfinished_and_corrections(tmp_path: Path) -> None:
    book = EventBook(tmp_path / "open.json")
    book.set_pairings("1", [{"board": "1", "white": "Ann", "black": "Bob"},
                            {"board": "2", "white": "Cid", "black": ""}])   # a bye
    book.correct("1", "1", "0-1", "illegal move 23")
    table = {s.name: s for s in standings(book, {("1", "1"): "1-0"} | {("1", "1"): "0-1"})}
    assert table["Bob"].points == 2 and table["Cid"].points == 2 and table["Ann"].points == 0
    assert table["Ann"].tiebreak == 2   # Buchholz: Bob's points
    assert {s.name: s.games for s in standings(book, {})} == {"Ann": 0, "Bob": 0, "Cid": 0}
    book.save()
    again = EventBook.load(book.path)
    assert again.correction("1", "1") == book.correction("1", "1") and again.pairings == book.pairings


@pytest.mark.parametrize("call, field", [
    (lambda b: b.set_system("knockout"), "system"),
    (lambda b: b.set_system("swiss", win=True), "win"),
    (lambda b: b.set_pairings("1", [{"board": "1/2", "white": "A"}]), "board"),
    (lambda b: b.set_pairings("1", [{"board": "1", "white": ""}]), "white"),
    (lambda b: b.set_pairings("1", [{"board": "1", "white": "A"}, {"board": "1", "white": "B"}]), "twice"),
    (lambda b: b.correct("1", "1", "2-0"), "result"),
    (lambda b: b.correct("1", "1", "1-0", "x" * 400), "note"),
])
def test_bad_arbiter_input_names_the_field(tmp_path: Path, call: object, field: str) -> None:
    with pytest.raises(BookError, match=field):
        call(EventBook(tmp_path / "e.json"))  # type: ignore[operator]
