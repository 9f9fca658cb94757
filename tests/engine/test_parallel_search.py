"""The parallel search (Lazy SMP, engine/csrc/dsmp.h) and the selectivity settings: threads=1 is the
single-threaded search node for node, more threads play legal moves with sound scores in every variant
family, stop on request, and survive being run over and over (a data race that corrupts memory would crash
or return garbage here); ProbCut is on and prunes, the settings left off still play sound moves."""

from __future__ import annotations

import pytest
from test_engine_search import _seeded_position

from engine import SearchLimits
from engine.evaluation import Evaluator
from engine.limits import MATE_BOUND
from engine.native import NativeSearcher, Selectivity, make_searcher
from rules import Board, get_variant

CASES = [("international", 1), ("english", 2), ("russian", 3), ("turkish", 4), ("giveaway", 6), ("thai", 8)]


def _searcher(variant: str, threads: int) -> NativeSearcher:
    return NativeSearcher(Evaluator(get_variant(variant)), tt_entries=1 << 16, threads=threads)


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_one_thread_is_the_single_threaded_search_node_for_node(variant: str, seed: int) -> None:
    board = _seeded_position(variant, 16, seed)
    ev = Evaluator(get_variant(variant))
    alone = NativeSearcher(ev, tt_entries=1 << 16).search(board, SearchLimits(depth=6))
    one = _searcher(variant, 1).search(board, SearchLimits(depth=6))
    assert (one.move, one.score, one.pv, one.nodes) == (alone.move, alone.score, alone.pv, alone.nodes)


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_two_threads_play_a_legal_move_with_a_sound_score(variant: str, seed: int) -> None:
    board = _seeded_position(variant, 16, seed)
    single = _searcher(variant, 1).search(board, SearchLimits(depth=6))
    result = _searcher(variant, 2).search(board, SearchLimits(depth=6))
    assert result.depth == 6 and result.move in board.legal_moves and result.pv[0] == result.move
    assert abs(result.score) < MATE_BOUND or abs(single.score) >= MATE_BOUND
    assert result.nodes > 0


def test_two_threads_find_the_win() -> None:
    board = Board("international", "W:W28,45:B23,5")
    result = _searcher("international", 2).search(board, SearchLimits(depth=12))
    assert result.score >= MATE_BOUND and "x" in result.pv_text[0]


def test_repeated_parallel_searches_on_one_searcher_stay_sound() -> None:
    """Many short searches on the same table, with the helpers started and stopped every iteration."""
    searcher = _searcher("russian", 3)
    for seed in range(12):
        board = _seeded_position("russian", 10 + seed, seed)
        if not board.legal_moves:
            continue
        result = searcher.search(board, SearchLimits(time=0.03))
        assert result.move in board.legal_moves and abs(result.score) <= 100_000
        if seed == 5:
            searcher.clear()


def test_a_thread_count_out_of_range_is_refused() -> None:
    ev = Evaluator(get_variant("english"))
    for bad in (0, -1, 66):
        with pytest.raises(ValueError, match="threads"):
            NativeSearcher(ev, threads=bad)
        with pytest.raises(ValueError, match="threads"):
            make_searcher(ev, bad)


def test_probcut_is_on_by_default_and_each_selectivity_setting_plays_sound_moves() -> None:
    """ProbCut (the default) reaches depth 8 in fewer nodes than the search without it; the settings left
    off (table reductions, aspiration windows, history malus) still play legal moves with sound scores."""
    board = _seeded_position("international", 16, 1)
    ev = Evaluator(board.variant)
    plain = NativeSearcher(ev, selectivity=Selectivity(probcut_margin=0)).search(board, SearchLimits(depth=8))
    default = NativeSearcher(ev).search(board, SearchLimits(depth=8))
    assert default.nodes < plain.nodes
    for setting in (Selectivity(lmr=1), Selectivity(aspiration=25), Selectivity(history_malus=1)):
        result = NativeSearcher(ev, selectivity=setting).search(board, SearchLimits(depth=8))
        assert result.move in board.legal_moves and abs(result.score - plain.score) < 200, setting
