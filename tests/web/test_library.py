"""The game library: PDN files in the data dir are listed with their headers and read back."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from web.library import GameLibrary, LibraryError, parse_game, replay, split_games

TWO_GAMES = """[Event "Club"]
[Date "2026.11.29"]
[White "Ann"]
[Black "dboard level 3"]
[Result "1-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 {forced} 14x23 (2... 13x24) 3. 33-29 1-0

[Event "Blitz"]
[Date "2026.11.28"]
[White "Bob"]
[Black "Cid"]
[Result "1/2-1/2"]
[Variant "spanish"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 1/2-1/2
"""


def test_split_and_parse() -> None:
    games = split_games(TWO_GAMES)
    assert len(games) == 2
    tags, moves = parse_game(games[0])
    assert dict(tags)["White"] == "Ann"
    assert moves == ("32-28", "19-23", "28x19", "14x23", "33-29")
    _, moves = parse_game(games[1])
    assert moves == ("c3-d4", "f6-e5", "d4xf6", "g7xe5")


def test_library_lists_games_and_serves_pdn(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.pdn").write_text(TWO_GAMES, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    library = GameLibrary(tmp_path)
    games = library.games()
    assert [g.summary()["white"] for g in games] == ["Ann", "Bob"]
    first = games[0].summary()
    assert first["date"] == "2026.11.29" and first["result"] == "1-0" and first["plies"] == 5
    assert games[1].summary()["variant"] == "spanish"
    assert library.get(games[1].game_id).tag("Black") == "Cid"
    assert library.all_pdn().count("[Event") == 2
    with pytest.raises(LibraryError, match="no game"):
        library.get("../../etc/passwd~0")


def test_missing_directory_is_an_empty_library(tmp_path: Path) -> None:
    assert GameLibrary(tmp_path / "nope").games() == []


def test_replay_gives_every_position(tmp_path: Path) -> None:
    import rules

    (tmp_path / "g.pdn").write_text(TWO_GAMES.split("\n\n[Event")[0], encoding="utf-8")
    (record,) = GameLibrary(tmp_path).games()
    data = replay(record)
    assert data["variant"] == "international" and data["rows"] == 10 and data["error"] is None
    assert [f["text"] for f in data["frames"]] == ["start", "32-28", "19-23", "28x19", "14x23", "33-29"]
    board = rules.Board("international")
    for frame, text in zip(data["frames"][1:], record.moves, strict=True):
        move = board.parse_move(text)
        board.push(move)
        assert frame["to"] == list(board.variant.geometry.rc(move.to_square))
        assert len(frame["pieces"]) == len(board.pieces())
    assert len(data["frames"][-1]["pieces"]) == 38


def test_replay_stops_at_an_unreadable_move(tmp_path: Path) -> None:
    (tmp_path / "bad.pdn").write_text('[Event "x"]\n[GameType "20"]\n\n1. 32-28 28-23 *\n', encoding="utf-8")
    (record,) = GameLibrary(tmp_path).games()
    data = replay(record)
    assert len(data["frames"]) == 2 and "move 2 (28-23)" in data["error"]


def test_the_library_is_indexed_once_and_follows_changes(tmp_path: Path) -> None:
    """Issue 21 item 12: every listing re-read every PDN file. The index reads a file again only when it
    changed: a game added, a file replaced (the controller's rename), a file edited in place, a file gone."""
    games = tmp_path / "games"
    games.mkdir()
    for n in range(20):
        (games / f"2026120{n % 10}-10{n:04d}-international.pdn").write_text(
            TWO_GAMES.split("\n\n[Event")[0] + "\n", encoding="utf-8")
    library = GameLibrary(tmp_path, sweep_seconds=3600)
    assert len(library.listing()) == 20 and library.reads == 20
    first = library.listing_json()
    for _ in range(5):
        assert library.listing_json() is first   # nothing changed: nothing read, the same JSON
    assert library.reads == 20
    second = TWO_GAMES[TWO_GAMES.index('[Event "Blitz"]'):]
    (games / "new-spanish.pdn").write_text(second, encoding="utf-8")
    assert len(library.listing()) == 21 and library.reads == 21
    replaced = games / "replaced.tmp"
    replaced.write_text(TWO_GAMES, encoding="utf-8")
    replaced.replace(games / "new-spanish.pdn")   # as the controller saves: same name, a new file
    assert len(library.listing()) == 22 and library.reads == 22
    (games / "new-spanish.pdn").unlink()
    assert len(library.listing()) == 20 and library.reads == 22
    edited = games / "20261200-100000-international.pdn"
    with edited.open("a", encoding="utf-8") as out:   # in place: its directory does not change
        out.write("\n" + second)
    os.utime(edited, ns=(time.time_ns(), time.time_ns() + 10**9))
    library.sweep_seconds = 0   # the periodic full check finds it
    assert len(library.listing()) == 21 and library.reads == 23


def test_summaries_say_whether_a_game_is_finished_and_its_download_name(tmp_path: Path) -> None:
    """Issue 13 item 10: an unfinished game (`*`) listed among finished ones; the download was named
    ``games_20261201-104321-spanish.pdn-0.pdn``."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "20261201-104321-spanish.pdn").write_text(
        '[Event "x"]\n[Result "*"]\n[Termination "Unterminated"]\n[Variant "spanish"]\n\n1. c3-d4 *\n')
    (games / "club.pdn").write_text(TWO_GAMES, encoding="utf-8")
    library = GameLibrary(tmp_path)
    listed = {(g["file"], g["result"]): g for g in json.loads(library.listing_json())["games"]}
    unfinished = listed[("20261201-104321-spanish.pdn", "*")]
    assert unfinished["finished"] is False and unfinished["termination"] == "Unterminated"
    assert unfinished["download"] == "20261201-104321-spanish.pdn"
    assert listed[("club.pdn", "1-0")]["download"] == "club-1.pdn"
    assert listed[("club.pdn", "1/2-1/2")]["download"] == "club-2.pdn"
    assert listed[("club.pdn", "1-0")]["finished"] is True
    record = library.get(unfinished["id"])
    assert record.download_name == "20261201-104321-spanish.pdn" and record.moves == ("c3-d4",)


def test_library_page_marks_unfinished_games_names_downloads_and_fits_the_viewer(pw, tmp_path: Path) -> None:
    """Issue 13 item 10 in Chromium: an unfinished game (`*`) was listed under "Finished games", its download
    was named ``games_...pdn-0.pdn``, and the viewer's frame was wider than its board."""
    from web_harness import browser, live_server, open_page

    games = tmp_path / "games"
    games.mkdir()
    (games / "20261201-104321-international.pdn").write_text(
        '[Event "x"]\n[Result "*"]\n[Termination "Unterminated"]\n\n1. 32-28 *\n', encoding="utf-8")
    (games / "20261130-090000-international.pdn").write_text(
        TWO_GAMES.split("\n\n[Event")[0] + "\n", encoding="utf-8")
    with live_server(tmp_path, opponent="person") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#tab-library")
        page.wait_for_function("() => document.querySelectorAll('#games tr.game').length === 2")
        unfinished = page.locator("#games tr.game.unfinished")
        assert unfinished.count() == 1 and "unfinished" in unfinished.text_content()
        assert "Finished games" not in page.text_content("#library h2")
        with page.expect_download() as info:
            unfinished.locator("a.download").click()
        assert info.value.suggested_filename == "20261201-104321-international.pdn"
        page.locator("#games tr.game:not(.unfinished)").click()
        page.wait_for_selector("#v-ply[data-ply='0']")
        frame = page.locator("#viewer-board").bounding_box()
        squares = page.evaluate("""() => { const sq = [...document.querySelectorAll('#viewer-board .sq')];
            const xs = sq.map((s) => s.getBoundingClientRect());
            return Math.max(...xs.map((r) => r.right)) - Math.min(...xs.map((r) => r.left)); }""")
        viewer = "document.getElementById('viewer-board')"
        border = page.evaluate(f"() => getComputedStyle({viewer}).borderLeftWidth")
        border = 2 * float(border.removesuffix("px"))
        assert frame is not None and abs(frame["width"] - (squares + border)) <= 1


LONG_NAMES = """[Event "club evening"]
[Date "2026.11.30"]
[White "Computer (level 10) from the club's Raspberry Pi"]
[Black "Alexandra Konstantinopoulou-Wetherington"]
[Result "0-1"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 0-1
"""


def test_item17_the_library_fits_a_phone_without_breaking_a_word(pw, tmp_path: Path) -> None:
    """Issue 28 item 17: at 390 px the library read "Varian t" and "PD N"; now a game is a card of its
    columns, each word whole, nothing past the right edge."""
    from web_harness import beyond_viewport, broken_words, browser, line_counts, live_server, open_page

    games = tmp_path / "games"
    games.mkdir()
    (games / "20261130-203000-international.pdn").write_text(LONG_NAMES, encoding="utf-8")
    (games / "club.pdn").write_text(TWO_GAMES, encoding="utf-8")
    with live_server(tmp_path, opponent="person") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#tab-library")
        page.wait_for_function("() => document.querySelectorAll('#games tr.game').length === 3")
        assert line_counts(page, "#library th") == [1] * 6 + [0]   # the desktop's header; PDN's is empty
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => document.documentElement.scrollWidth <= 390")
        assert beyond_viewport(page, "#library", 390) == []
        assert broken_words(page, "#games td") == []
        cells = page.locator("#games tr.game").first.locator("td")
        assert all(cells.nth(i).is_visible() for i in range(cells.count()))   # stacked, none left out
        assert page.locator("#games tr.game").first.locator("td[data-col='white']").evaluate(
            "(e) => getComputedStyle(e, '::before').content") == '"White: "'


def test_item20_a_summary_names_the_variant_and_the_games_start_time(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "20261130-203000-international.pdn").write_text(LONG_NAMES, encoding="utf-8")  # board-named
    (games / "club.pdn").write_text(TWO_GAMES, encoding="utf-8")
    listed = {g["file"] + g["result"]: g for g in GameLibrary(tmp_path).listing()}
    board = listed["20261130-203000-international.pdn0-1"]
    assert (board["date"], board["time"]) == ("2026.11.30", "20:30")
    assert board["variant_name"] == "International draughts" and board["variant"] == "international"
    club = listed["club.pdn1/2-1/2"]   # a file named otherwise: its Date tag, no time
    assert (club["date"], club["time"], club["variant_name"]) == ("2026.11.28", "", "Spanish draughts")


def test_item20_the_library_page_shows_variant_names_dates_and_times(pw, tmp_path: Path) -> None:
    """Issue 28 item 20: the list showed "international" and no time; the viewer's title too."""
    from web_harness import browser, live_server, open_page

    games = tmp_path / "games"
    games.mkdir()
    (games / "20261130-203000-international.pdn").write_text(LONG_NAMES, encoding="utf-8")
    with live_server(tmp_path, opponent="person") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#tab-library")
        row = page.locator("#games tr.game")
        assert row.locator("td[data-col='date']").text_content() == "2026.11.30 20:30"
        assert row.locator("td[data-col='variant']").text_content() == "International draughts"
        row.click()
        page.wait_for_selector("#v-ply[data-ply='0']")
        assert page.text_content("#viewer-title") == (
            "Computer (level 10) from the club's Raspberry Pi \u2013 Alexandra Konstantinopoulou-Wetherington"
            "  0-1  (International draughts, 2026.11.30 20:30)")
