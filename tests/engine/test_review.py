"""The blunder check: a move that throws away what the engine's move keeps is marked, with the better move."""

from __future__ import annotations

import threading

from engine.exercises import load
from engine.limits import SearchLimits
from engine.review import BLUNDER, MISTAKE, review
from rules import Board


def test_a_move_that_misses_the_only_move_is_marked_with_the_better_move() -> None:
    exercise = next(e for e in load("english").exercises if e.kind == "only")
    board = exercise.board()
    solution = board.parse_move(exercise.solution)
    others = [m for m in board.legal_moves if m != solution]
    limits = SearchLimits(depth=exercise.depth)
    bad = max(others, key=lambda m: review(board, [m], limits)[0].loss)
    (item,) = review(board, [bad], limits)
    assert item.best == exercise.solution and item.played == board.move_text(bad)
    assert item.loss >= MISTAKE and item.verdict in ("mistake", "blunder")
    assert f"better was {exercise.solution}" in item.describe()
    (good,) = review(board, [solution], limits)
    assert good.loss == 0 and good.verdict == "" and "better" not in good.describe()


def test_scores_are_for_white_and_each_move_is_reported_as_it_is_done() -> None:
    board = Board("english")
    moves = []
    for text in ("11-15", "23-19", "8-11", "22-17"):
        moves.append(board.push_text(text))
    start = Board("english")
    seen = []
    items = review(start, moves, SearchLimits(depth=2), on_ply=seen.append)
    assert seen == items and [i.ply for i in items] == [1, 2, 3, 4]
    assert [i.played for i in items] == ["11-15", "23-19", "8-11", "22-17"]
    assert all(abs(i.after) < BLUNDER for i in items)   # a quiet opening: nobody is a man down
    assert items[0].after == items[1].before            # one score per position, seen from White


def test_a_stopped_review_returns_what_it_did() -> None:
    stop = threading.Event()
    stop.set()
    board = Board("english")
    move = board.parse_move("11-15")
    assert review(board, [move], SearchLimits(depth=2), stop=stop) == []
