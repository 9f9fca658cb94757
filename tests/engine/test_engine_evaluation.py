"""Evaluation terms per variant family: king values, advancement, runaways, Turkish structure, symmetry."""

from __future__ import annotations

import pytest

from engine import Engine, king_value
from engine.evaluation import Evaluator, Weights
from rules import VARIANT_IDS, Board, get_variant


def test_king_values_per_family() -> None:
    assert king_value(get_variant("international")) == 300
    assert king_value(get_variant("english")) == 150
    assert king_value(get_variant("italian")) > king_value(get_variant("english"))  # men cannot take kings
    assert king_value(get_variant("turkish")) == 250
    assert king_value(get_variant("russian")) == 250


@pytest.mark.parametrize("variant", [v for v in VARIANT_IDS if v != "one-way"])
def test_start_position_is_balanced_and_sign_follows_side_to_move(variant: str) -> None:
    """(One Way's start is not the same for both sides: White's first move is a forced capture.)"""
    board = Board(variant)
    engine = Engine(variant)
    score = engine.evaluate(board)
    assert abs(score) < 40
    flipped = Board(variant, ("B" if board.fen()[0] == "W" else "W") + board.fen()[1:])
    assert engine.evaluate(flipped) == -score


def test_material_kings_and_advancement() -> None:
    engine = Engine("international")
    base = engine.evaluate(Board("international", "W:W46,47:B5"))
    assert base > 50  # a man up
    assert engine.evaluate(Board("international", "W:WK46,47:B5")) > base + 150  # a king is worth ~3 men
    assert engine.evaluate(Board("international", "W:W26:B5")) > engine.evaluate(
        Board("international", "W:W46:B5")
    )


def test_runaway_man_bonus_only_without_enemy_kings_in_the_way() -> None:
    engine = Engine("english")
    free = engine.evaluate(Board("english", "W:W9:B32"))  # white man two steps from crowning, nothing ahead
    blocked = engine.evaluate(Board("english", "W:W9:B5"))
    assert free > blocked


def test_turkish_structure_terms_count_backed_and_side_by_side_men() -> None:
    variant = get_variant("turkish")
    board = Board(variant, "W:Wd3,d4,e4,a2,h2:Ba7,c7,e7,g7")  # d4 backed by d3, beside e4
    plain = Evaluator(variant, Weights(turkish_backed=0, turkish_side=0)).evaluate(board)
    backed = Evaluator(variant, Weights(turkish_backed=10, turkish_side=0)).evaluate(board)
    side = Evaluator(variant, Weights(turkish_backed=0, turkish_side=10)).evaluate(board)
    assert backed - plain == 10
    assert side - plain == 20  # d4 has e4 beside it and e4 has d4
    diagonal = Board(get_variant("international"), "W:W32,28:B5")
    assert Evaluator(diagonal.variant, Weights(turkish_backed=50)).evaluate(diagonal) == Evaluator(
        diagonal.variant
    ).evaluate(diagonal)  # the orthogonal terms do not exist on diagonal boards


def test_brainking_games_are_valued_by_their_goals() -> None:
    """Konane is won by moves: a position is worth the moves each side has left. Alquerque crowns nothing,
    so a step forward earns nothing. Corner crowns on two corner squares only: a man stuck on another square
    of the far row is worth less than one further back that can still reach a corner
    (docs/rules/corner.md)."""
    assert Engine("hawaii").evaluate(Board("hawaii", "W:Wa1:Bb1,h8")) == Weights().moves_left   # 1 to 0
    alquerque = Engine("alquerque")
    assert alquerque.evaluate(Board("alquerque", "W:Wc4:Ba5")) == alquerque.evaluate(
        Board("alquerque", "W:Wc2:Ba5"))
    corner = Engine("corner")
    assert corner.evaluate(Board("corner", "W:Wd8:Bh6")) < corner.evaluate(Board("corner", "W:Wf4:Bh6"))
