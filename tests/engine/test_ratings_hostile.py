"""Hostile ratings databases (issue 30): whatever file lies where `dboard ratings` and the board read the
ratings (random bytes, text, a database cut short or with a page overwritten, another program's tables, ours
without a column or as a view, text, 1e308, infinity, a negative RD, NULL, a blob or a huge number in a
column, a FIFO, a link to /dev/zero, a directory), every read gives values of exact types in range or one
RatingsError line naming the file, and a file that is refused is left as it was. The board's own two calls
(`stored_rating`, `record_engine_game`) raise only what controller.ratings catches around them."""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.ratings import record_engine_game, stored_rating
from engine.glicko2 import Rating
from engine.ratings import (
    RATING_RANGE,
    RD_RANGE,
    VOLATILITY_RANGE,
    RatingsError,
    RatingStore,
    UnknownPlayerError,
)

HOSTILE = st.one_of(st.sampled_from(["abc", "NaN", "", "1500", "\x00", 1e308, -1e308, math.inf, -math.inf,
                                     -5.0, 0.0, 2**63 - 1, -(2**63), b"\x00\xff", None, 1500.0, 200.0, 0.06,
                                     1]),
                    st.floats(allow_nan=False), st.integers(-(2**63), 2**63 - 1), st.text(max_size=5))
COLUMNS = {"players": ("name", "created"), "ratings": ("variant", "rating", "rd", "volatility", "games",
                                                        "updated"),
           "games": ("variant", "opponent", "opponent_rating", "opponent_rd", "score", "played",
                     "rating_after", "rd_after")}
LOOSE_SCHEMA = """
CREATE TABLE players (id INTEGER PRIMARY KEY, name, created);
CREATE TABLE ratings (player_id, variant, rating, rd, volatility, games, updated);
CREATE TABLE games (id INTEGER PRIMARY KEY, player_id, variant, opponent, opponent_rating, opponent_rd, score,
                    played, rating_after, rd_after);
"""


def sound_database(path: Path) -> None:
    with RatingStore(path) as store:
        for name in ("ann", "bob"):
            store.add_player(name)
        store.record_engine_game("ann", "english", 4, 1.0)
        store.record_engine_game("ann", "international", 2, 0.5)


@st.composite
def hostile_files(draw: st.DrawFn) -> tuple[str, object]:
    """How to spoil the file: a kind and what it needs."""
    kind = draw(st.sampled_from(["bytes", "text", "cut", "overwrite", "foreign", "missing column", "view",
                                 "values", "loose values", "special"]))
    if kind == "bytes":
        return kind, draw(st.binary(max_size=200) | st.just(b"SQLite format 3\x00" + b"\xff" * 100))
    if kind == "cut":
        return kind, draw(st.floats(0.0, 0.999))
    if kind == "overwrite":
        return kind, (draw(st.floats(0.0, 0.99)), draw(st.binary(min_size=1, max_size=64)))
    if kind == "missing column":
        return kind, draw(st.sampled_from([("players", "created"), ("ratings", "rd"), ("games", "score")]))
    if kind == "values":   # our schema: the column types and NOT NULL hold, a value of the wrong type fits
        table = draw(st.sampled_from(sorted(COLUMNS)))
        return kind, (table, draw(st.sampled_from(COLUMNS[table])), draw(HOSTILE))
    if kind == "loose values":   # a schema without types or NOT NULL: anything fits, NULL too
        table = draw(st.sampled_from(sorted(COLUMNS)))
        return kind, (table, {c: draw(HOSTILE) for c in draw(st.lists(st.sampled_from(COLUMNS[table]),
                                                                      min_size=1, unique=True))})
    if kind == "special":
        return kind, draw(st.sampled_from(["fifo", "zero", "directory", "link to directory"]))
    return kind, None


def make(path: Path, kind: str, detail: object) -> None:
    if kind == "bytes":
        assert isinstance(detail, bytes)
        path.write_bytes(detail)
    elif kind == "text":
        path.write_text("player,rating\nann,1500\n")
    elif kind in ("cut", "overwrite"):
        sound_database(path)
        data = path.read_bytes()
        if kind == "cut":
            assert isinstance(detail, float)
            path.write_bytes(data[: int(len(data) * detail)])
        else:
            assert isinstance(detail, tuple)
            at, junk = detail
            start = int(len(data) * at)
            path.write_bytes(data[:start] + junk + data[start + len(junk):])
    elif kind == "foreign":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
            db.execute("INSERT INTO notes (text) VALUES ('keep me')")
        db.close()
    elif kind == "missing column":
        assert isinstance(detail, tuple)
        table, column = detail
        sound_database(path)
        with sqlite3.connect(path) as db:
            db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        db.close()
    elif kind == "view":
        with sqlite3.connect(path) as db:
            db.execute("CREATE VIEW players AS SELECT 1 AS id, 'ann' AS name, 0 AS created")
        db.close()
    elif kind in ("values", "loose values"):
        assert isinstance(detail, tuple)
        if kind == "values":
            sound_database(path)
            table, column, value = detail
            changes = {column: value}
        else:
            with sqlite3.connect(path) as db:
                db.executescript(LOOSE_SCHEMA)
                db.execute("INSERT INTO players VALUES (1, 'ann', 0)")
                db.execute("INSERT INTO ratings VALUES (1, 'english', 1600.0, 80.0, 0.06, 3, 0)")
                db.execute("INSERT INTO games VALUES (1, 1, 'english', 'engine level 4', 1250.0, 50.0, 1.0, "
                           "0, 1600.0, 80.0)")
            db.close()
            table, changes = detail
        with sqlite3.connect(path) as db:
            for column, value in changes.items():
                with contextlib.suppress(sqlite3.IntegrityError, OverflowError):   # NOT NULL: it cannot
                    db.execute(f"UPDATE {table} SET {column} = ?", (value,))
        db.close()
    else:
        if detail == "fifo":
            os.mkfifo(path)
        elif detail == "zero":
            path.symlink_to("/dev/zero")
        elif detail == "directory":
            path.mkdir()
        else:
            (path.parent / "folder").mkdir()
            path.symlink_to(path.parent / "folder")


def snapshot(path: Path) -> object:
    if path.is_file() and not path.is_symlink():
        return path.read_bytes()
    return os.lstat(path).st_mode


def check_rating(rating: object) -> None:
    assert type(rating) is Rating
    assert type(rating.rating) is float and RATING_RANGE[0] <= rating.rating <= RATING_RANGE[1]
    assert type(rating.rd) is float and RD_RANGE[0] <= rating.rd <= RD_RANGE[1]
    low, high = VOLATILITY_RANGE
    assert type(rating.volatility) is float and low <= rating.volatility <= high


def check_name(name: object) -> None:
    assert type(name) is str and name.isprintable() and name.strip()


def read_everything(store: RatingStore) -> None:
    for name in store.players():
        check_name(name)
    for row in store.table():
        check_name(row.player)
        check_name(row.variant)
        check_rating(row.rating)
        assert type(row.games) is int and row.games >= 0
    for (player, variant), games in store.history().items():
        check_name(player)
        check_name(variant)
        for game in games:
            assert all(type(v) is float and math.isfinite(v) for v in (game.played, game.score, game.rating,
                                                                       game.rd))
            check_name(game.opponent)
    for name in store.unrated_players():
        check_name(name)
    try:
        check_rating(store.rating("ann", "english"))
        check_rating(store.starting_rating("ann", "english", 3))
    except UnknownPlayerError:
        pass


def check_error(exc: BaseException, path: Path) -> None:
    text = str(exc)
    assert isinstance(exc, RatingsError), repr(exc)
    assert isinstance(exc, sqlite3.DatabaseError)   # what the Session and the statistics page catch
    assert text.startswith(f"{path}: ") and "\n" not in text and len(text) <= 400, text


@settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(hostile_files())
def test_a_hostile_ratings_file_reads_as_sound_values_or_one_error_naming_it(
        tmp_path_factory, spoil: tuple[str, object]) -> None:
    path = tmp_path_factory.mktemp("ratings") / "ratings.sqlite3"
    make(path, *spoil)
    before = snapshot(path)
    try:
        with RatingStore(path) as store:
            read_everything(store)
    except RatingsError as exc:
        check_error(exc, path)
        assert snapshot(path) == before, "a file that is refused is left as it was"
    # the board's own calls: the Session catches (sqlite3.Error, OSError) reading, and ValueError too writing
    try:
        check_rating(stored_rating(path, "ann", "english", 3))
    except (sqlite3.Error, OSError) as exc:
        check_error(exc, path)
    try:
        old, new = record_engine_game(path, "ann", "english", 3, 1.0)
        check_rating(old)
        check_rating(new)
    except (sqlite3.Error, OSError, ValueError) as exc:
        check_error(exc, path)


@pytest.mark.parametrize(("spoil", "reason"), [
    (("special", "fifo"), "the ratings database is a FIFO, not a regular file"),
    (("special", "zero"), "the ratings database is a device, not a regular file"),
    (("special", "directory"), "the ratings database is a directory, not a regular file"),
    (("text", None), "not a sound ratings database (file is not a database)"),
    (("foreign", None), "holds tables notes, not the ratings tables players, ratings, games"),
    (("view", None), "players is a view, not a table"),
    (("missing column", ("ratings", "rd")), "table ratings has no column rd (expected player_id, variant, "
                                            "rating, rd, volatility, games, updated)"),
    (("values", ("ratings", "rating", "abc")), "ratings of 'ann' in english: rating: expected a number, got "
                                               "a text 'abc'"),
    (("values", ("ratings", "rd", -5.0)), "ratings of 'ann' in english: rd: -5.0 is outside 1e-06..1000.0"),
    (("values", ("ratings", "rating", 1e308)), "rating: 1e+308 is outside -5000.0..10000.0"),
])
def test_each_kind_of_hostile_file_is_named(tmp_path: Path, spoil: tuple[str, object], reason: str) -> None:
    path = tmp_path / "ratings.sqlite3"
    make(path, *spoil)
    with pytest.raises(RatingsError) as raised, RatingStore(path) as store:
        store.rating("ann", "english")
    assert str(raised.value).startswith(f"{path}: ") and reason in str(raised.value)


def test_a_schema_whose_bytes_are_not_utf8_is_one_error(tmp_path: Path) -> None:
    """A page overwritten with a byte that is not UTF-8 in a table's name (hypothesis found it: a
    UnicodeDecodeError escaped the schema check)."""
    path = tmp_path / "ratings.sqlite3"
    db = sqlite3.connect(path)
    db.execute('CREATE TABLE "players" (name TEXT)')
    db.commit()
    db.close()
    raw = bytearray(path.read_bytes())
    raw[raw.find(b"players")] = 0x80
    path.write_bytes(bytes(raw))
    with pytest.raises(RatingsError, match=r"ratings\.sqlite3: not a sound ratings database "
                                           r"\(text that is not UTF-8: byte 0x80\)"):
        RatingStore(path)
