"""The search spends the budget it is given: it stopped after 60% of it (0.62 s a move at `--time 1`).

The rule is tested on iteration times, never on the wall clock; bench/time_use.py measures the share a real
search spends."""

from __future__ import annotations

from engine import Engine, SearchLimits
from engine.search import next_iteration_worthwhile
from rules import Board


def test_an_iteration_that_may_finish_is_started_past_sixty_percent() -> None:
    # 0.1, 0.2, 0.4 s: growth 2, next predicted 0.8 s, ending at 1.5 s of a 1 s budget: still worth it
    assert next_iteration_worthwhile([0.1, 0.2, 0.4], 0.7, 1.0)


def test_an_iteration_that_clearly_cannot_finish_is_not_started() -> None:
    # growth 4: the next would take 3.2 s and end at 4.0 s, beyond three budgets
    assert not next_iteration_worthwhile([0.0125, 0.05, 0.2, 0.8], 0.8, 1.0)
    assert not next_iteration_worthwhile([0.1, 0.2], 1.0, 1.0)   # the budget is spent


def test_one_jump_after_a_warm_table_does_not_stop_the_search() -> None:
    """Kept from the last move, the table makes the first iterations nearly free: 0.035 -> 0.287 s is a
    growth of 8 on its own, 3.6 over the last three."""
    assert next_iteration_worthwhile([0.005, 0.006, 0.009, 0.035, 0.287], 0.342, 1.0)


def test_the_first_iterations_never_stop_the_search() -> None:
    assert next_iteration_worthwhile([], 0.0, 1.0)
    assert next_iteration_worthwhile([0.3], 0.3, 1.0)


def test_a_depth_limited_search_is_unchanged_by_the_time_rule() -> None:
    board = Board("international")
    first = Engine("international").search(board, SearchLimits(depth=5))
    second = Engine("international").search(board, SearchLimits(depth=5))
    assert (first.move, first.score, first.pv, first.nodes) == (second.move, second.score, second.pv,
                                                                 second.nodes)
