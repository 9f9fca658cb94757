"""Glicko-2 against the worked example of Glickman's paper, and the SQLite ratings store."""

from __future__ import annotations

import pytest

from engine.glicko2 import Rating, Result, expected_score, update
from engine.ratings import RatingStore, UnknownPlayerError, level_rating


def test_paper_example_to_four_decimals() -> None:
    player = Rating(1500, 200, 0.06)
    results = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)]
    new = update(player, results, tau=0.5)
    assert round(new.mu, 4) == -0.2069
    assert round(new.phi, 4) == 0.8722
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)  # the paper prints 0.05999
    # The paper converts its rounded mu'/phi' back, so the Glicko scale matches to about 0.01.
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.02)


def test_no_games_only_widens_deviation() -> None:
    new = update(Rating(1500, 200, 0.06), [])
    assert new.rating == pytest.approx(1500)
    assert new.rd > 200


def test_expected_score_is_symmetric_for_equal_deviations() -> None:
    a, b = Rating(1600, 50), Rating(1400, 50)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert expected_score(a, b) > 0.7


def test_score_outside_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        Result(Rating(), 1.5)


def test_store_updates_after_engine_game(tmp_path) -> None:
    db = tmp_path / "r.sqlite3"
    with RatingStore(db) as store:
        store.add_player("ann")
        before = store.starting_rating("ann", "international", 5)
        assert (before.rating, before.rd) == (level_rating("international", 5).rating, 350.0)  # first game
        after = store.record_engine_game("ann", "international", 5, 1.0)
        assert after.rating > before.rating
        assert after.rd < before.rd
        assert store.starting_rating("ann", "international", 10) == store.rating("ann", "international")
    with RatingStore(db) as store:  # persisted
        rows = store.table()
        assert [(r.player, r.variant, r.games) for r in rows] == [("ann", "international", 1)]
        assert rows[0].rating.rating == pytest.approx(after.rating)
        second = store.record_engine_game("ann", "international", 10, 0.0)
        assert second.rating < after.rating
        assert store.table()[0].games == 2
        with pytest.raises(UnknownPlayerError, match="bob"):
            store.rating("bob", "english")


def test_engine_levels_have_increasing_fixed_ratings() -> None:
    for variant in ("international", "english", "turkish"):
        values = [level_rating(variant, lvl).rating for lvl in range(1, 11)]
        assert values == sorted(values) and len(set(values)) == 10
    with pytest.raises(ValueError, match=r"1\.\.10"):
        level_rating("english", 11)


def test_the_store_keeps_each_players_rating_history_per_variant(tmp_path) -> None:
    """Issue 18 item 4: the rating history per variant, drawn on the statistics page."""
    with RatingStore(tmp_path / "r.sqlite3") as store:
        store.add_player("ann")
        ratings = [store.record_engine_game("ann", "english", 3, score) for score in (1.0, 0.5, 0.0)]
        store.record_engine_game("ann", "russian", 2, 1.0)
        history = store.history()
    assert sorted(history) == [("ann", "english"), ("ann", "russian")]
    english = history[("ann", "english")]
    assert [g.score for g in english] == [1.0, 0.5, 0.0]
    assert [g.rating for g in english] == pytest.approx([r.rating for r in ratings])
    assert [g.rd for g in english] == pytest.approx([r.rd for r in ratings])
    assert english[0].played <= english[1].played <= english[2].played
    assert english[0].opponent == "engine level 3"


def test_a_database_from_before_the_history_gains_it(tmp_path) -> None:
    """A ratings file from before the games kept their ratings opens; its old games are no history point."""
    import sqlite3

    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as old:
        old.executescript(
            "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created REAL NOT NULL);"
            "CREATE TABLE games (id INTEGER PRIMARY KEY, player_id INTEGER NOT NULL, variant TEXT NOT NULL,"
            " opponent TEXT NOT NULL, opponent_rating REAL NOT NULL, opponent_rd REAL NOT NULL,"
            " score REAL NOT NULL, played REAL NOT NULL);"
            "INSERT INTO players VALUES (1, 'bob', 0);"
            "INSERT INTO games VALUES (1, 1, 'english', 'engine level 1', 800, 50, 1.0, 1);")
    old.close()
    with RatingStore(db) as store:
        assert store.history() == {}
        store.record_engine_game("bob", "english", 1, 0.0)
        assert [g.score for g in store.history()[("bob", "english")]] == [0.0]
