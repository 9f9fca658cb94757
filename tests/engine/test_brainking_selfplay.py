"""Twenty engine games in each of BrainKing's seven games (docs/rules/README.md): every move legal, every
game played to its end by the rules (draws made automatic and, where pieces can shuffle, sooner), no error.
Low levels and short times keep it fast; bench/strength.py measures the levels' strength."""

from __future__ import annotations

import random

import pytest

from engine import Engine
from rules import Game, Variant, get_variant

GAMES = ("corner", "one-way", "parachute", "gothic", "dameo", "alquerque", "hawaii")
MAX_PLIES = 400


def quick_rules(game: str) -> Variant:
    """The game with its draws automatic and a short no-progress count, where it has those options."""
    options: dict[str, object] = {}
    has = get_variant(game).options
    if "draw_claims" in has:
        options["draw_claims"] = ()
    if "no_progress_moves" in has:
        options["no_progress_moves"] = 15
    return get_variant(game, **options)


@pytest.mark.parametrize("game", GAMES)
def test_twenty_engine_games_end_without_error(game: str) -> None:
    variant = quick_rules(game)
    engine = Engine(variant)
    results = []
    for number in range(20):
        played = Game(variant)
        rng = random.Random(f"{game} {number}")
        while played.outcome() is None:
            assert len(played.moves) < MAX_PLIES, f"{game} game {number} did not end: {played.board.fen()}"
            board = played.board
            move = engine.choose_move(board, 1 + len(played.moves) % 2, rng=rng, time_limit=0.01)
            assert move in board.legal_moves, f"{game}: illegal {move} in {board.fen()}"
            played.push(move)
        outcome = played.outcome()
        assert outcome is not None
        results.append(outcome.result)
    assert len(results) == 20 and set(results) <= {"1-0", "0-1", "1/2-1/2"}
