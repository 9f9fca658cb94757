"""Self-play in every variant at levels 1, 5 and 10: every move the engine picks is legal."""

from __future__ import annotations

import random

import pytest

from engine import Engine
from rules import VARIANT_IDS, Game

PLIES = 24


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_selfplay_levels_1_5_10(variant: str) -> None:
    engine = Engine(variant)
    for level in (1, 5, 10):
        game = Game(variant)
        rng = random.Random(level)
        for _ply in range(PLIES):
            if game.outcome() is not None:
                break
            board = game.board
            move = engine.choose_move(board, level, rng=rng, time_limit=0.02)
            assert move in board.legal_moves, f"{variant} level {level}: illegal {move} in {board.fen()}"
            game.push(move)
        assert len(game.moves) > 0
