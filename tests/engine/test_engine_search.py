"""The search: agreement with plain minimax, wins found, limits, stop event, progress, levels."""

from __future__ import annotations

import random
import threading

import pytest

from engine import MATE, Engine, NoLegalMoveError, SearchLimits
from engine.evaluation import Evaluator
from engine.limits import INFINITY, MATE_BOUND
from engine.native import NativeSearcher
from engine.search import CONTEMPT_MAX, CONTEMPT_SHARE, QUIESCENCE_PLIES, Searcher
from rules import Board, get_variant


def _minimax(board: Board, ev: Evaluator, depth: int, ply: int) -> int:
    """Reference: full-width negamax with the same capture quiescence and nothing else."""
    moves = list(board.legal_moves)
    if not moves:
        return -MATE + ply if board.variant.no_move_loses else MATE - ply
    if depth <= 0 and (not moves[0].captures or depth <= -QUIESCENCE_PLIES):
        return ev.evaluate(board)
    best = -INFINITY
    for move in moves:
        board.push(move)
        best = max(best, -_minimax(board, ev, depth - 1, ply + 1))
        board.pop()
    return best


def _seeded_position(variant: str, plies: int, seed: int) -> Board:
    board = Board(variant)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("international", 1), ("english", 2), ("russian", 3), ("turkish", 4), ("italian", 5), ("giveaway", 6)],
)
def test_pvs_score_equals_plain_minimax(variant: str, seed: int) -> None:
    board = _seeded_position(variant, 6, seed)
    ev = Evaluator(get_variant(variant))
    searcher = Searcher(ev, extend_single_replies=False)
    result = searcher.search(board, SearchLimits(depth=3))
    assert result.depth == 3
    assert result.score == _minimax(board.copy(), ev, 3, 0)
    assert result.pv[0] == result.move and result.move in board.legal_moves


def test_finds_the_win_by_capturing_the_last_piece() -> None:
    board = Board("international", "W:W28,45:B23,5")
    result = Engine("international").search(board, SearchLimits(depth=6))
    assert result.score >= MATE_BOUND
    assert result.pv_text and "x" in result.pv_text[0]


def test_giveaway_wants_to_lose_its_pieces() -> None:
    fen = "W:W18:B14,1,2"  # White has one man against three
    assert Engine("giveaway").evaluate(Board("giveaway", fen)) > 0
    assert Engine("english").evaluate(Board("english", fen)) < 0
    # A tiny ending solved by brute force: the search agrees on who is left without a move.
    board = Board("giveaway", "W:W22:B9")
    result = Engine("giveaway").search(board, SearchLimits(depth=6))
    reference = _minimax(board.copy(), Evaluator(board.variant), 6, 0)
    assert abs(result.score) >= MATE_BOUND and (result.score > 0) == (reference > 0)


def test_no_legal_move_gives_no_move_and_a_loss() -> None:
    board = Board("international", "W:W46:B41,37")
    assert not board.legal_moves
    result = Engine("international").search(board, SearchLimits(depth=2))
    assert result.move is None and result.score == -MATE
    with pytest.raises(NoLegalMoveError, match="no legal move"):
        Engine("international").choose_move(board, 5)


def test_progress_reports_every_depth_and_limits_hold() -> None:
    seen = []
    board = Board("english")
    result = Engine("english").search(board, SearchLimits(depth=4), on_progress=seen.append)
    assert [p.depth for p in seen] == [1, 2, 3, 4]
    assert result.depth == 4 and result.nodes >= seen[-1].nodes
    assert seen[-1].pv_text == result.pv_text
    node_capped = Engine("english").search(board, SearchLimits(nodes=300))
    assert node_capped.nodes <= 300 and node_capped.move in board.legal_moves


def test_stop_event_ends_search_at_once() -> None:
    stop = threading.Event()
    stop.set()
    board = Board("international")
    result = Engine("international").search(board, SearchLimits(depth=30), stop_event=stop)
    assert result.depth <= 1 and result.move in board.legal_moves


def test_levels_are_reproducible_with_a_seed_and_vary_without_it() -> None:
    board = _seeded_position("international", 4, 7)
    engine = Engine("international")
    picks = {engine.choose_move(board, 1, rng=random.Random(s), time_limit=0.2) for s in range(12)}
    again = {engine.choose_move(board, 1, rng=random.Random(s), time_limit=0.2) for s in range(12)}
    assert picks == again
    assert len(picks) > 1  # level 1 does not always play the same move
    best = {engine.choose_move(board, 10, time_limit=0.2) for _ in range(2)}
    assert best <= set(board.legal_moves)
    with pytest.raises(ValueError, match=r"1\.\.10"):
        engine.choose_move(board, 0)


def test_engine_rejects_a_board_of_another_variant() -> None:
    with pytest.raises(ValueError, match="engine plays english"):
        Engine("english").search(Board("russian"), SearchLimits(depth=1))


def _quiet_king_walk(board: Board, plies: int) -> None:
    """Play ``plies`` king moves without a capture, a capture threat or any position twice (depth first)."""
    seen = {board.key()}

    def walk(left: int) -> bool:
        if left == 0:
            return True
        kings = board.kings(board.turn)
        for move in list(board.legal_moves):
            if move.captures or move.from_square not in kings:
                continue
            board.push(move)
            fresh = board.key() not in seen and not board.has_capture()
            if fresh:
                seen.add(board.key())
                if walk(left - 1):
                    return True
                seen.discard(board.key())
            board.pop()
        return False

    assert walk(plies), board.fen()


@pytest.mark.parametrize("searcher", [Searcher, NativeSearcher])
def test_search_scores_the_no_progress_draw(searcher: type[Searcher]) -> None:
    """International: 25 king moves each without capture or man move draw. After 49 such plies every king
    move of Black's completes the count and scores the draw (less than 0: Black, a man up, plays on, see
    test_the_side_ahead_scores_a_draw_below_nothing); without the rule the same moves score otherwise.
    Both searchers, whichever core the package uses."""
    geometry = get_variant("international").geometry

    def pieces(*names: str) -> str:   # "Kc5", "a1" -> "K23", "46"
        return ",".join(n[:-len(n.lstrip("K"))] + str(geometry.number(geometry.parse_any(n.lstrip("K"))))
                        for n in names)

    white, black = pieces("Kc5", "a1", "c1", "e1"), pieces("Kh6", "b10", "d10", "f10", "h10")
    board = Board("international", f"W:W{white}:B{black}")
    _quiet_king_walk(board, 49)
    counting = searcher(Evaluator(get_variant("international")))
    assert counting._no_progress(board) == (49, 50)
    blind = searcher(Evaluator(get_variant("international", no_progress=None)))
    with_rule = dict(counting.score_moves(board, 2))
    without = dict(blind.score_moves(board, 2))
    king_moves = [m for m in with_rule if m.from_square in board.kings(board.turn) and not m.captures]
    man_moves = [m for m in with_rule if m not in king_moves]
    assert king_moves and man_moves
    draw = counting.draw_value(board)
    assert draw < 0 and all(with_rule[m] == draw for m in king_moves)
    assert any(without[m] != draw for m in king_moves)
    assert all(with_rule[m] == without[m] for m in man_moves)   # a man move restarts the count


@pytest.mark.parametrize("searcher", [Searcher, NativeSearcher])
def test_the_side_ahead_scores_a_draw_below_nothing(searcher: type[Searcher]) -> None:
    """Contempt: a repetition costs the side ahead a share of its lead (up to half a man), so it plays on;
    behind or level, a draw is worth 0. English, two kings against one: 30-26 4-8 26-30, and Black's 8-4
    would repeat the start."""
    board = Board("english", "W:WK30:BK4,12")
    for text in ("30-26", "4-8", "26-30"):
        board.push(board.parse_move(text))
    engine = searcher(Evaluator(board.variant))
    lead = engine.evaluator.evaluate(board)
    draw = engine.draw_value(board)
    assert lead > 0 and draw == -min(CONTEMPT_MAX, lead // CONTEMPT_SHARE) < 0
    scores = dict(engine.score_moves(board, 3))
    assert scores[board.parse_move("8-4")] == draw
    assert engine.search(board, SearchLimits(depth=6)).move != board.parse_move("8-4")
    board.pop()   # White, a king down, to move: a draw is worth 0 to it
    assert engine.draw_value(board) == 0
    assert engine.draw_value(Board("english")) == 0
