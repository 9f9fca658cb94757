"""Real games beyond the corpus (tests/data, origin in tests/data/README.md) read, validate and round-trip."""

from __future__ import annotations

import io

import pytest
from _pdnhelpers import DATA, read_file, read_text

import rules
from rules.pdn.validate import start_board, variant_of
from rules.pdn.writer import write_games

FILES = {
    "english-3move-ballots.pdn": ("english", 174),
    "russian-150-openings.pdn": ("russian", 148),
    "brazilian-openings.pdn": ("brazilian", 120),
    "italian-11-ballots.pdn": ("italian", 60),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_ballot_games_reach_the_published_position(name: str) -> None:
    variant_id, count = FILES[name]
    games = read_file(DATA / name, validate=True)
    assert len(games) == count
    for game in games:
        assert not game.errors, [str(e) for e in game.errors]
        assert game.variant_id == variant_id
        board = start_board(game, variant_of(game))
        for node in game.moves:
            board.push(node.move)  # type: ignore[arg-type]
        if "BallotFEN" in game.tags:
            expected = rules.Board.from_fen(board.variant, game.tags["BallotFEN"])
            assert board.pieces() == expected.pieces() and board.turn == expected.turn, game.tags["Event"]
        buffer = io.StringIO()
        write_games([game], buffer)
        assert read_text(buffer.getvalue()) == [game]


def test_at_least_200_real_games_with_moves() -> None:
    with_moves = sum(1 for name in FILES for g in read_file(DATA / name) if g.moves)
    assert with_moves >= 200
