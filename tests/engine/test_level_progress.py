"""Levels 1-8 report their search iterations (depth, score, pv) and still choose exactly the same moves."""

from __future__ import annotations

import random

import pytest

from engine.core import Engine
from engine.levels import get_level
from engine.limits import SearchProgress
from engine.worker import EngineWorker
from rules import Board


def _position(variant: str, plies: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def _pv_is_playable(board: Board, progress: SearchProgress) -> bool:
    copy = board.copy()
    for move, text in zip(progress.pv, progress.pv_text, strict=True):
        if move not in copy.legal_moves or copy.move_text(move) != text:
            return False
        copy.push(move)
    return True


@pytest.mark.parametrize("level", [1, 3, 6, 8])
def test_randomised_levels_report_each_depth_and_choose_the_same_moves(level: int) -> None:
    lvl = get_level(level)
    assert lvl.randomised
    boards = [b for b in (_position("english", 6, seed) for seed in range(8)) if len(b.legal_moves) > 1]
    for seed, board in enumerate(boards[:3]):
        reports: list[SearchProgress] = []
        with_progress = Engine("english").choose_move(board, level, rng=random.Random(seed), time_limit=60.0,
                                                      on_progress=reports.append)
        silent = Engine("english").choose_move(board, level, rng=random.Random(seed), time_limit=60.0)
        assert with_progress == silent
        assert [p.depth for p in reports] == list(range(1, lvl.depth + 1))
        assert all(_pv_is_playable(board, p) for p in reports)
        assert all(1 <= len(p.pv) <= p.depth for p in reports)
        assert [p.nodes for p in reports] == sorted(p.nodes for p in reports) and reports[0].nodes > 0
        # the reported score is the best move's score at that depth, from a fresh engine's same iteration
        fresh = Engine("english")
        scored = fresh._scored(board, lvl.depth, 60.0, None)
        assert reports[-1].score == scored[0][1]
        assert reports[-1].pv[0] in [m for m, s in scored if s == scored[0][1]]


def test_the_worker_reports_progress_and_the_last_iteration_at_a_low_level() -> None:
    board = _position("english", 4, 12)
    assert len(board.legal_moves) > 1  # with a single legal move the level plays it without searching
    progress = []
    with EngineWorker(on_progress=progress.append) as worker:
        search = worker.start_search(board.fen(), "english", level=3, time=30.0)
        result = worker.wait(search, timeout=60)
    assert result is not None and not result.stopped and result.error is None
    assert result.move in board.legal_moves
    mine = [p for p in progress if p.search_id == search]
    assert [p.depth for p in mine] == [1, 2]
    assert mine[-1].pv_text and mine[-1].pv_text[0] in {board.move_text(m) for m in board.legal_moves}
    assert (result.depth, result.score, result.pv_text) == (2, mine[-1].score, mine[-1].pv_text)
