"""Perft from the start position against the published tables (docs/rules/reference-data.md#perft-counts)."""

from __future__ import annotations

import pytest

from rules import Board, divide, perft

INTERNATIONAL = [9, 81, 658, 4265, 27117, 167140]
ENGLISH = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
RUSSIAN = [7, 49, 302, 1469, 7482, 37986, 190146]


@pytest.mark.parametrize(("vid", "counts"), [
    ("international", INTERNATIONAL), ("english", ENGLISH), ("russian", RUSSIAN)])
def test_perft_drop_duplicates(vid: str, counts: list[int]) -> None:
    board = Board(vid)
    assert [perft(board, d) for d in range(1, len(counts) + 1)] == counts
    assert board == Board(vid) and board.move_stack == []


def test_perft_keep_duplicates_matches_published_keep_counts() -> None:
    assert perft(Board("international"), 6, keep_duplicates=True) == 167140
    assert perft(Board("russian"), 7, keep_duplicates=True) == 190146
    assert perft(Board("english"), 7, keep_duplicates=True) == 179740


def test_keep_duplicates_counts_every_path() -> None:
    b = Board("english", "W:WK21:B25,18,32,15,17,26")
    assert perft(b, 1) == 1 and perft(b, 1, keep_duplicates=True) == 2


def test_variants_agree_where_the_reference_says_they_must() -> None:
    english = [perft(Board("english"), d) for d in range(1, 7)]
    assert [perft(Board("czech"), d) for d in range(1, 7)] == english
    spanish = [perft(Board("spanish"), d) for d in range(1, 7)]
    assert spanish == [perft(Board("italian"), d) for d in range(1, 7)]
    assert spanish[:5] == english[:5] and spanish[5] != english[5]
    brazilian = [perft(Board("brazilian"), d) for d in range(1, 6)]
    assert brazilian[:4] == RUSSIAN[:4] and brazilian[4] != RUSSIAN[4]


def test_divide_sums_to_perft() -> None:
    b = Board("international")
    parts = divide(b, 4)
    assert len(parts) == 9 and sum(parts.values()) == 4265


def test_perft_depth_zero_and_negative() -> None:
    assert perft(Board("thai"), 0) == 1
    with pytest.raises(ValueError, match="depth"):
        perft(Board("thai"), -1)
