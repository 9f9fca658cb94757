"""Played games from public sources (tests/data, origin in tests/data/README.md) validate move by move.

International: two world-title matches and a computer tournament; Turkish: engine-match games;
Italian: a national-championship game and a living-draughts game; Spanish: two games of the BB-Zero
engine. Every game must read without error, resolve every main-line move to a legal rules Move, keep
its player and result tags and round-trip.
"""

from __future__ import annotations

import io
from collections import Counter

import pytest
from _pdnhelpers import DATA, read_file, read_text

from rules.pdn.model import PdnGame
from rules.pdn.validate import final_board, variant_of
from rules.pdn.writer import write_games

# file -> (variant id, number of games)
REAL_GAMES = {
    "international-sijbrands-andreiko-1973.pdn": ("international", 20),
    "international-vanderwal-wiersma-1983.pdn": ("international", 20),
    "international-zundert-computer-2022.pdn": ("international", 9),
    "turkish-ffloof-engine-games.pdn": ("turkish", 30),
    "italian-published-games.pdn": ("italian", 2),
    "spanish-bbzero-games.pdn": ("spanish", 2),
}
PER_VARIANT = {"international": 49, "turkish": 30, "italian": 2, "spanish": 2}


@pytest.fixture(scope="module")
def games_by_file() -> dict[str, list]:
    return {name: read_file(DATA / name, validate=True) for name in REAL_GAMES}


@pytest.mark.parametrize("name", sorted(REAL_GAMES))
def test_every_game_validates(name: str, games_by_file: dict[str, list]) -> None:
    variant_id, count = REAL_GAMES[name]
    games = games_by_file[name]
    assert len(games) == count
    for game in games:
        assert [str(e) for e in game.errors] == [], game.label()
        assert game.variant_id == variant_id
        assert game.moves, game.label()
        assert all(node.move is not None for node in game.moves), game.label()
        assert {"Event", "White", "Black", "Result"} <= set(game.tags), game.label()
        assert game.result == game.tags["Result"]


def test_games_per_variant(games_by_file: dict[str, list]) -> None:
    counted = Counter(g.variant_id for games in games_by_file.values() for g in games)
    assert counted == PER_VARIANT


@pytest.mark.parametrize("name", sorted(REAL_GAMES))
def test_games_round_trip(name: str, games_by_file: dict[str, list]) -> None:
    games = games_by_file[name]
    buffer = io.StringIO()
    assert write_games(games, buffer) == len(games)
    assert read_text(buffer.getvalue()) == games


def test_recorded_ply_count_matches(games_by_file: dict[str, list]) -> None:
    with_count = [g for games in games_by_file.values() for g in games if "PlyCount" in g.tags]
    assert with_count  # Sijbrands-Andreiko round 8 states it
    for game in with_count:
        assert len(game.moves) == int(game.tags["PlyCount"]), game.label()


def assert_loser_cannot_move(game: PdnGame) -> None:
    board = final_board(game)
    loser_is_white = game.result == "0-1"
    assert (board.turn.name == "WHITE") == loser_is_white, game.label()
    assert not board.legal_moves, game.label()


def test_turkish_decisive_results_end_with_the_loser_unable_to_move(games_by_file: dict[str, list]) -> None:
    """A 1-0 / 0-1 Turkish engine game ends with the loser to move and without a legal move."""
    decisive = [g for g in games_by_file["turkish-ffloof-engine-games.pdn"] if g.result in ("1-0", "0-1")]
    assert len(decisive) == 14
    for game in decisive:
        assert_loser_cannot_move(game)


def test_spanish_game_won_by_capturing_every_piece(games_by_file: dict[str, list]) -> None:
    """BB-Zero's 0-1 game ends with 24...24x15 taking White's last piece."""
    game = games_by_file["spanish-bbzero-games.pdn"][0]
    assert game.result == "0-1"
    assert_loser_cannot_move(game)
    assert final_board(game).fen().startswith("W:W:B")


def test_italian_championship_game_reaches_kings_on_both_sides(games_by_file: dict[str, list]) -> None:
    """Fero-Borghetti 1999 is long enough to test Italian king moves and captures for both colors."""
    fen = final_board(games_by_file["italian-published-games.pdn"][0]).fen()
    assert fen == "W:WK10,12,14,K20,24:B4,17,18,22,K30"


def test_the_one_corrected_misprint_is_an_illegal_move_as_printed() -> None:
    """tests/data/README.md: the Gemona game prints 13. 28-13, which the validator rejects precisely."""
    text = (DATA / "italian-published-games.pdn").read_text()
    second = "[Event" + text.split("\n[Event")[1]
    assert "13. 28-23 {" in second
    games = read_text(second.replace("13. 28-23 {", "13. 28-13 {"), validate=True)
    assert len(games[0].errors) == 1
    message = str(games[0].errors[0])
    assert message.endswith("move 13. 28-13: 28-13 is not a legal move: the piece on 28 can only play 28-23")


def test_issue_4_coverage_over_all_data_files() -> None:
    """Issue 4: at least 200 real games with moves beyond the corpus, over every variant the issue names."""
    with_moves: Counter[str] = Counter()
    for path in sorted(DATA.glob("*.pdn")):
        for game in read_file(path):
            if game.moves:
                with_moves[variant_of(game).id] += 1
    assert sum(with_moves.values()) >= 200
    for variant_id in ("international", "english", "russian", "brazilian", "turkish"):
        assert with_moves[variant_id] >= 30, (variant_id, with_moves)
    for variant_id in ("italian", "spanish"):
        assert with_moves[variant_id] >= 2, (variant_id, with_moves)


def test_a_changed_move_is_caught(games_by_file: dict[str, list]) -> None:
    """The validation that passes above is live: one altered move in a real game is rejected."""
    text = (DATA / "international-sijbrands-andreiko-1973.pdn").read_text()
    first = text.split("\n\n\n")[0]
    assert "1. 33-29 19-23" in first
    games = read_text(first.replace("1. 33-29 19-23", "1. 33-29 19-25"), validate=True)
    assert len(games) == 1
    assert len(games[0].errors) == 1
    assert "19-25 is not a legal move" in str(games[0].errors[0])
