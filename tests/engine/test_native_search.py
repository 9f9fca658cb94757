"""The compiled search and evaluation against the Python ones: equal evaluations, plain-minimax scores, the
draw rules inside the tree, cancellation, and bad input. The engine's behaviour tests (test_engine_search,
test_level_progress, the worker) run on whichever core the package uses, so ./dev test covers both.

These tests build engine.native.NativeSearcher directly, so they run whether or not DBOARD_PURE_PYTHON is set.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import threading

import pytest
from test_engine_search import _minimax, _quiet_king_walk, _seeded_position

import rules.variants
from engine import Engine, SearchLimits
from engine import native as engine_native
from engine.evaluation import Evaluator, Weights
from engine.limits import MATE_BOUND
from engine.native import NativeSearcher, make_searcher
from engine.search import Searcher
from rules import Board, InvalidSquareError, get_variant
from rules import native as rules_native


def test_the_engine_extension_is_built_and_plays_when_the_rules_core_does(monkeypatch) -> None:
    assert engine_native.compiled() is not None, "the native engine is not built: pip install -e . needs gcc"
    evaluator = Evaluator(get_variant("international"))
    monkeypatch.setattr(rules_native, "_EXT", rules_native.compiled())
    assert type(make_searcher(evaluator)) is NativeSearcher
    monkeypatch.setattr(rules_native, "_EXT", None)   # as with DBOARD_PURE_PYTHON=1 or no compiler
    assert type(make_searcher(evaluator)) is Searcher


def test_a_variant_or_evaluator_beyond_the_native_core_searches_in_python_and_says_so(monkeypatch,
                                                                                      caplog) -> None:
    monkeypatch.setattr(rules_native, "_EXT", rules_native.compiled())
    monkeypatch.setattr(rules.variants, "KING_CAPTURES", (*rules.variants.KING_CAPTURES, "long_sideways"))
    odd = dataclasses.replace(get_variant("english"), id="odd-engine", king_capture="long_sideways")

    class Tuned(Evaluator):
        """An evaluation the C side does not have."""

    with caplog.at_level(logging.INFO):
        engine = Engine(odd)
        assert type(engine.searcher) is Searcher
        result = engine.search(Board(odd), SearchLimits(depth=3))
        assert result.move in Board(odd).legal_moves
        assert type(make_searcher(Tuned(get_variant("russian")))) is Searcher
    said = [r.getMessage() for r in caplog.records if r.name in ("rules.native", "engine.native")]
    assert said == ["draughts-board: odd-engine plays on the pure-Python core (beyond the native core: "
                    "king_capture='long_sideways' is not implemented natively)",
                    "draughts-board: the engine searches russian in Python "
                    "(Tuned is not the plain Evaluator)"]


@pytest.mark.parametrize("variant", rules_native.native_variant_ids())
def test_the_c_evaluation_equals_the_python_one(variant: str) -> None:
    v = get_variant(variant)
    evaluators = [Evaluator(v), Evaluator(v, Weights(advance=7, mobility=5, runaway=90, chase=9,
                                                        turkish_backed=11, turkish_side=4))]
    searchers = [NativeSearcher(ev, tt_entries=1 << 12) for ev in evaluators]
    for seed in range(6):
        board = Board(variant)
        rng = random.Random(seed)
        for _ in range(120):
            for ev, searcher in zip(evaluators, searchers, strict=True):
                assert searcher.evaluate(board) == ev.evaluate(board), board.fen()
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))


@pytest.mark.parametrize(("variant", "seed"), [
    ("international", 1), ("english", 2), ("russian", 3), ("turkish", 4), ("italian", 5), ("giveaway", 6),
    ("canadian", 7), ("thai", 8), ("spanish", 9), ("czech", 10),
])
def test_pvs_score_equals_plain_minimax(variant: str, seed: int) -> None:
    ev = Evaluator(get_variant(variant))
    for plies in (6, 24):
        board = _seeded_position(variant, plies, seed)
        if not board.legal_moves:
            continue
        searcher = NativeSearcher(ev, extend_single_replies=False, reductions=False)
        result = searcher.search(board, SearchLimits(depth=3))
        assert result.depth == 3
        assert result.score == _minimax(board.copy(), ev, 3, 0), board.fen()
        assert result.pv[0] == result.move and result.move in board.legal_moves


def test_scored_moves_equal_the_python_searchers() -> None:
    """score_moves (the randomised levels) gives each move the same score in both searchers."""
    for variant, seed in (("english", 3), ("international", 4), ("brazilian", 5)):
        board = _seeded_position(variant, 10, seed)
        ev = Evaluator(board.variant)
        python = dict(Searcher(ev, extend_single_replies=False).score_moves(board, 3, window=10**6))
        native = dict(NativeSearcher(ev, extend_single_replies=False, reductions=False).score_moves(
            board, 3, window=10**6))
        assert native == python


def test_root_moves_restrict_the_search() -> None:
    board = _seeded_position("international", 8, 2)
    searcher = NativeSearcher(Evaluator(board.variant))
    best = searcher.search(board, SearchLimits(depth=4)).move
    others = [m for m in board.legal_moves if m != best]
    result = searcher.search(board, SearchLimits(depth=4), root_moves=others[:2])
    assert result.move in others[:2] and result.pv[0] == result.move


def test_finds_the_win_and_a_deep_tactic() -> None:
    board = Board("international", "W:W28,45:B23,5")
    result = NativeSearcher(Evaluator(board.variant)).search(board, SearchLimits(depth=12))
    assert result.score >= MATE_BOUND and "x" in result.pv_text[0]


def test_fmjd_endgame_rule_inside_the_tree() -> None:
    """Two kings against one: five moves each after the last capture or promotion draw (FMJD 5-move rule)."""
    variant = get_variant("international")
    board = Board(variant, "W:WK46,K50:BK3")
    fresh = NativeSearcher(Evaluator(variant)).score_moves(board, 2)
    assert fresh[0][1] > 100   # a king up, no rule in reach
    _quiet_king_walk(board, 9)
    last = NativeSearcher(Evaluator(variant)).score_moves(board, 2)   # Black's 10th ply completes the count
    assert last and all(score == 0 for _move, score in last)
    blind = Evaluator(dataclasses.replace(variant, endgame_rules=False))
    without = NativeSearcher(blind).score_moves(board, 2)
    assert any(score != 0 for _move, score in without)


def test_turkish_king_against_a_single_man_wins_inside_the_tree() -> None:
    variant = get_variant("turkish")
    board = Board(variant, "W:WKd4:Bd6,h7")   # the king takes d6 and is left against one man
    result = NativeSearcher(Evaluator(variant)).search(board, SearchLimits(depth=2))
    assert result.score >= MATE_BOUND and result.pv_text[0].startswith("d4")


def test_a_stop_event_set_during_the_search_ends_it() -> None:
    board = Board("international")
    stop = threading.Event()
    reached = []

    def progress(p: object) -> None:
        reached.append(p)
        if len(reached) == 5:
            stop.set()

    engine = Engine("international")
    result = engine.search(board, SearchLimits(depth=60), on_progress=progress, stop_event=stop)
    assert len(reached) == 5 and result.depth in (5, 6)
    assert result.move in board.legal_moves


@pytest.mark.parametrize(("variant", "threads"), [("russian", 1), ("international", 2)])
def test_a_search_runs_in_another_thread_and_stops_on_request(variant: str, threads: int) -> None:
    """One thread or the parallel search with its helpers: a stop ends it with a legal move."""
    board = _seeded_position(variant, 12, 4)
    stop, started = threading.Event(), threading.Event()
    results = []
    engine = Engine(variant, threads=threads)

    def run() -> None:
        results.append(engine.search(board, SearchLimits(depth=90), lambda p: started.set(), stop))

    thread = threading.Thread(target=run)
    thread.start()
    assert started.wait(60)
    stop.set()
    thread.join(60)
    assert not thread.is_alive() and results[0].move in board.legal_moves


def test_one_searcher_refuses_a_second_search_while_searching() -> None:
    searcher = NativeSearcher(Evaluator(get_variant("english")))
    board = Board("english")
    own, opp = board._own_opp()
    args = (own, opp, 0, board.turn, (), 0, 0, 0, 0)
    refused = []

    def stop() -> bool:   # called from inside the running C search, with the GIL taken back
        try:
            searcher._native.iterate(*args, 2, 0.0, 0, None, None)
        except RuntimeError as exc:
            refused.append(str(exc))
        return True

    completed, _score, _pv, nodes = searcher._native.iterate(*args, 40, 0.0, 0, stop, None)
    assert not completed and nodes > 0
    assert refused and "already searching" in refused[0]


def test_bad_input_to_the_search_extension_raises_and_never_crashes() -> None:
    variant = get_variant("english")
    searcher = NativeSearcher(Evaluator(variant))
    board = Board(variant)
    own, opp = board._own_opp()
    native = searcher._native
    args = (own, opp, 0, board.turn, (), 0, 0, 0, 0)
    with pytest.raises(InvalidSquareError):
        native.iterate(own | 1 << 8, opp, 0, board.turn, (), 0, 0, 0, 0, 3, 0.0, 0, None, None)
    with pytest.raises(ValueError, match="depth"):
        native.iterate(*args, 0, 0.0, 0, None, None)
    with pytest.raises(TypeError, match="stop"):
        native.iterate(*args, 2, 0.0, 0, "stop", None)
    with pytest.raises(TypeError):
        native.score_moves(*args)
    with pytest.raises(ValueError, match="counters"):
        native.score_moves(own, opp, 0, board.turn, (), -1, 0, 0, 0, 2, 100, 0.0, None)
    with pytest.raises(KeyError, match="missing giveaway"):
        engine_native.compiled().Searcher(rules_native.rules_params(variant), {}, {})
    with pytest.raises(TypeError):
        engine_native.compiled().Searcher(rules_native.rules_params(variant), engine_native.eval_params(
            Evaluator(variant)), None)

    def boom() -> bool:
        raise OSError("the stop flag broke")

    with pytest.raises(OSError, match="stop flag broke"):
        native.iterate(*args, 30, 0.0, 0, boom, None)
    result = searcher.search(board, SearchLimits(depth=4))   # still serving after all of that
    assert result.depth == 4 and result.move in board.legal_moves
