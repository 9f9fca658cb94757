"""Issue 18 item 4: the game library's statistics per variant, player, engine level and opening, their CSV,
and `dboard stats`; a file or game that cannot be read is named, the rest counted."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from controller.cli import main
from engine.ratings import RATINGS_FILE, RatingStore
from web.library import GameLibrary
from web.stats import LibraryStats, StatsError, engine_level, library_stats, page_json

ANN_WINS = """[Event "Club"]
[Date "2026.11.01"]
[White "Ann"]
[Black "Computer (level 3)"]
[Result "1-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 33-29 1-0
"""
ANN_DRAWS = """[Event "Club"]
[Date "2026.11.02"]
[White "Computer (level 3)"]
[Black "Ann"]
[Result "1/2-1/2"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 1/2-1/2
"""
BOB_BEATS_ANN = """[Event "Club"]
[Date "2026.11.03"]
[White "Ann"]
[Black "Bob"]
[Result "0-1"]
[GameType "20"]

1. 31-27 19-23 2. 27-22 0-1
"""
RUSSIAN_UNFINISHED = """[Event "Casual"]
[Date "2026.11.04"]
[White "Bob"]
[Black "Computer (level 5)"]
[Result "*"]
[GameType "25"]

1. c3-d4 f6-e5 *
"""


def write(directory: Path, name: str, text: str | bytes) -> None:
    path = directory / "games" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def library(tmp_path: Path) -> GameLibrary:
    for n, text in enumerate((ANN_WINS, ANN_DRAWS, BOB_BEATS_ANN, RUSSIAN_UNFINISHED)):
        write(tmp_path, f"g{n}.pdn", text)
    return GameLibrary(tmp_path)


def by(rows: list[dict], **keys: object) -> dict:
    [row] = [r for r in rows if all(r[k] == v for k, v in keys.items())]
    return row


def test_results_by_variant_with_percentages_and_length(library: GameLibrary) -> None:
    stats = library_stats(library)
    assert stats.problems == []
    international = by(stats.rows("variants"), variant="international")
    assert international == {"variant": "international", "games": 3, "finished": 3, "white_wins": 1,
                             "black_wins": 1, "draws": 1, "white_pct": 33.3, "black_pct": 33.3,
                             "draw_pct": 33.3, "average_moves": 2.0}   # (5 + 4 + 3) plies / 2 / 3 games
    russian = by(stats.rows("variants"), variant="russian")
    assert (russian["games"], russian["finished"], russian["white_pct"]) == (1, 0, 0.0)


def test_results_by_player_overall_and_per_variant(library: GameLibrary) -> None:
    rows = library_stats(library).rows("players")
    ann = by(rows, player="Ann", variant="all")
    assert (ann["games"], ann["wins"], ann["draws"], ann["losses"]) == (3, 1, 1, 1)
    assert ann["score_pct"] == 50.0 and ann["win_pct"] == 33.3
    bob = by(rows, player="Bob", variant="all")
    assert (bob["games"], bob["finished"], bob["wins"]) == (2, 1, 1)
    assert by(rows, player="Bob", variant="russian")["finished"] == 0
    assert [r["variant"] for r in rows if r["player"] == "Ann"] == ["all", "international"]


def test_results_against_each_engine_level_are_the_peoples(library: GameLibrary) -> None:
    rows = library_stats(library).rows("levels")
    assert [r["level"] for r in rows] == [3, 5]
    three = rows[0]
    assert [three[k] for k in ("games", "wins", "draws", "losses", "score_pct")] == [2, 1, 1, 0, 75.0]
    assert rows[1]["finished"] == 0
    assert engine_level("Computer (level 10)") == 10 and engine_level("engine level 4") == 4
    assert engine_level("Ann") is None and engine_level("level 11") is None


def test_the_most_common_openings_are_the_first_three_moves(library: GameLibrary) -> None:
    rows = library_stats(library).rows("openings")
    first = rows[0]
    assert (first["variant"], first["opening"], first["games"]) == ("international", "32-28 19-23 28x19", 2)
    assert (first["white_wins"], first["draws"]) == (1, 1)
    assert by(rows, opening="31-27 19-23 27-22")["games"] == 1
    assert not [r for r in rows if r["variant"] == "russian"]   # two plies: no opening yet


def test_each_players_results_over_time_in_date_order(library: GameLibrary) -> None:
    timeline = library_stats(library).timeline
    assert [(p["date"], p["result"], p["score_pct"]) for p in timeline["Ann"]] == [
        ("2026.11.01", "win", 100.0), ("2026.11.02", "draw", 75.0), ("2026.11.03", "loss", 50.0)]
    assert [p["result"] for p in timeline["Bob"]] == ["win"]   # the unfinished game is no point
    assert sorted(timeline) == ["Ann", "Bob"]   # the people's results, not the engine levels'


def test_every_table_exports_as_csv(library: GameLibrary) -> None:
    stats = library_stats(library)
    for table in ("variants", "players", "levels", "openings"):
        rows = list(csv.DictReader(io.StringIO(stats.csv(table))))
        assert len(rows) == len(stats.rows(table)) > 0
        assert rows[0] == {k: str(v) for k, v in stats.rows(table)[0].items()}
    empty = LibraryStats.of([])
    assert empty.csv("levels").splitlines() == [
        "level,games,finished,wins,draws,losses,win_pct,draw_pct,loss_pct,score_pct"]
    with pytest.raises(StatsError, match="no statistics table 'moves'; tables: variants, players"):
        stats.csv("moves")


def test_unreadable_files_and_games_are_named_and_the_rest_counted(tmp_path: Path) -> None:
    """Bad input: a file that is not UTF-8 text, a game with a result that is none, a variant the board does
    not play, a file with no game at all."""
    write(tmp_path, "good.pdn", ANN_WINS)
    write(tmp_path, "binary.pdn", b'[Event "x"]\n\xff\xfe garbage')
    write(tmp_path, "two.pdn", ANN_DRAWS + "\n" + ANN_WINS.replace('"1-0"', '"white won"'))
    write(tmp_path, "alien.pdn", ANN_WINS.replace('[GameType "20"]', '[GameType "99"]'))
    write(tmp_path, "empty.pdn", "just a note, not a game\n")
    stats = library_stats(GameLibrary(tmp_path))
    assert sorted(stats.problems) == sorted([
        "games/binary.pdn: not UTF-8 text (byte 0xff at offset 12); its games are left out",
        "two.pdn, game 2: Result 'white won' is not a PDN result (1-0, 0-1, 1/2-1/2 or *)",
        "alien.pdn, game 1: '99' is not a variant the board plays",
        "empty.pdn, game 1: no PDN tags and no moves",
    ])
    assert by(stats.rows("variants"), variant="international")["games"] == 2


def test_the_page_gets_the_rating_history_and_a_broken_database_is_named(tmp_path: Path) -> None:
    write(tmp_path, "good.pdn", ANN_WINS)
    with RatingStore(tmp_path / RATINGS_FILE) as store:
        store.add_player("player")
        store.record_engine_game("player", "english", 2, 1.0)
        store.record_engine_game("player", "english", 2, 0.0)
    data = page_json(GameLibrary(tmp_path), tmp_path / RATINGS_FILE)
    [line] = data["ratings"]["english"]
    assert line["player"] == "player" and [p["score"] for p in line["points"]] == [1.0, 0.0]
    assert data["problems"] == [] and data["variants"][0]["games"] == 1
    (tmp_path / RATINGS_FILE).write_bytes(b"this is no database" * 100)
    broken = page_json(GameLibrary(tmp_path), tmp_path / RATINGS_FILE)
    assert broken["ratings"] == {}
    assert broken["problems"] == ["ratings.sqlite3: cannot read the ratings: not a sound ratings database "
                                  "(file is not a database)"]   # its name, not the directories
    assert broken["variants"][0]["games"] == 1   # the games are still counted


def test_dboard_stats_prints_the_tables_and_writes_csv(library: GameLibrary, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "By variant" in out and "Against the engine's levels" in out
    assert "32-28 19-23 28x19" in out
    line = next(s for s in out.splitlines() if s.startswith("international"))
    assert line.split() == ["international", "3", "3", "1", "1", "1", "33.3", "33.3", "33.3", "2.0"]
    assert main(["stats", "--data-dir", str(tmp_path), "--csv", "players"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert by(rows, player="Ann", variant="all")["wins"] == "1"
    target = tmp_path / "players.csv"
    assert main(["stats", "--data-dir", str(tmp_path), "--csv", "levels", "-o", str(target)]) == 0
    assert capsys.readouterr().out == f"wrote 2 rows to {target}\n"
    assert target.read_text(encoding="utf-8").startswith("level,games,")


def test_dboard_stats_refuses_bad_input_in_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data-dir", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err == f"dboard stats: error: no data directory {str(tmp_path / 'nope')!r}\n"
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"no saved games in {tmp_path}\n"
    write(tmp_path, "binary.pdn", b"\x00\xff")
    write(tmp_path, "good.pdn", ANN_WINS)
    assert main(["stats", "--data-dir", str(tmp_path), "--csv", "moves"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["dboard stats: left out: games/binary.pdn: not UTF-8 text (byte 0xff at offset 1); its "
                   "games are left out",
                   "dboard stats: error: no statistics table 'moves'; tables: variants, players, levels, "
                   "openings"]


def test_a_game_with_one_person_on_both_sides_is_no_players_result(tmp_path: Path) -> None:
    write(tmp_path, "self.pdn", BOB_BEATS_ANN.replace('"Ann"', '"Bob"'))
    write(tmp_path, "anon.pdn", ANN_WINS.replace('[White "Ann"]\n', ""))
    stats = library_stats(GameLibrary(tmp_path))
    assert by(stats.rows("variants"), variant="international")["games"] == 2
    assert [(r["player"], r["variant"]) for r in stats.rows("players")] == [
        ("Computer (level 3)", "all"), ("Computer (level 3)", "international")]
    assert by(stats.rows("levels"), level=3)["wins"] == 1   # the unnamed player beat it


def test_names_that_look_like_formulas_stay_text_in_the_csv(tmp_path: Path) -> None:
    """A player named =HYPERLINK(...) (or +, -, @, tab first) is written as inert text (issue 30 item 10), in
    the file dboard stats --csv writes and the page's download alike (one writer)."""
    hostile = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTab"]
    for n, name in enumerate(hostile):
        write(tmp_path, f"h{n}.pdn", ANN_WINS.replace('"Ann"', json.dumps(name)))
    stats = library_stats(GameLibrary(tmp_path))
    read = {row["player"] for row in stats.rows("players")}
    assert {n for n in read if n.startswith(("=", "+", "-", "@", "\t"))}, "the names reached the table"
    written = {row["player"] for row in csv.DictReader(io.StringIO(stats.csv("players")))}
    assert written == {"'" + n if n.startswith(("=", "+", "-", "@", "\t", "\r")) else n for n in read}
    assert not any(n.startswith(("=", "+", "-", "@", "\t", "\r")) for n in written)
