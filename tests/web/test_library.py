"""The game library: PDN files in the data dir are listed with their headers and read back."""

from __future__ import annotations

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
