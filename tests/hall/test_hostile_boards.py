"""A board's messages cannot take the hall's pages down or put a game no board played into the live PDN
(issue 30 items 1-5), with a real broker: names with Unicode digits, a new game at a place another board
left, forged forced-ply texts, an old game with no start time, hostile paths and queries, a lone-surrogate
token."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from boards import EVENT, HallHarness, wait_for
from broker import Mosquitto
from test_security import Raw

from controller.broadcast.wire import encode
from rules import Board
from rules.pdn import read_games, validate_game

STARTED = "2026-12-01T10:00:00"


def start(started: str | None = STARTED) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "start", "settings": {"variant": "english", "fen": None}}
    if started is not None:
        entry["started"] = started
    return entry


def moves(*texts: str) -> list[dict[str, Any]]:
    """The move entries of ``texts`` played from English's start."""
    board, out = Board("english"), []
    for text in texts:
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        out.append({"type": "move", "text": text, "fen": board.fen(), "by": by})
    return out


def game_message(game: str, entries: list[dict[str, Any]]) -> bytes:
    return encode({"v": 1, "game": game, "seq": len(entries), "entries": entries,
                   "headers": {"white": "W", "black": "B"}})


def pdn_moves(text: str) -> list[list[str]]:
    games = read_games(text)
    assert all(not g.errors and not validate_game(g) for g in games), text
    return [[m.text for m in g.moves] for g in games]


def test_unicode_digit_names_leave_every_page_up(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            raw = Raw(broker)
            http = hall.http
            assert http is not None
            try:
                for round_, board in (("²", "1"), ("1", "²"), ("1", "3")):
                    await raw.publish(f"dboard/{EVENT}/{round_}/{board}/status",
                                      encode({"v": 1, "online": True}), retain=True)
                registry = hall.server.hall.registry
                await wait_for(lambda: len(registry.boards) == 3, "the three boards")
                for url in ("/api/rounds", f"/api/round/{EVENT}/1", f"/api/round/{EVENT}/²",
                            f"/pdn/{EVENT}/1.pdn", f"/pdn/{EVENT}/².pdn", f"/pdn/{EVENT}/1/².pdn",
                            f"/api/standings/{EVENT}"):
                    reply = await http.get(url)
                    assert reply.status_code == 200, (url, reply.text)
                boards = (await http.get(f"/api/round/{EVENT}/1")).json()["boards"]
                assert [b["board"] for b in boards] == ["3", "²"]   # numbers first, then names
            finally:
                raw.close()
    asyncio.run(scenario())


def test_a_new_game_where_another_board_left_is_the_one_served(broker: Mosquitto, tmp_path: Path) -> None:
    """The PDN of a place is made again for the new game once it has had as many updates as the old one
    (the moment a cache keyed on the board's own change count served the old game)."""
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            raw = Raw(broker)
            http = hall.http
            assert http is not None
            topic = f"dboard/{EVENT}/1/1"
            old = moves("9-13", "22-18", "13-17")
            new = moves("11-15", "23-19", "8-11")
            later = start("2026-12-01T11:00:00")
            try:
                for game, first, played in (("old", start(), old), ("new", later, new)):
                    for n in range(1, len(played) + 1):   # one update a move, the PDN fetched after the last
                        await raw.publish(f"{topic}/game", game_message(game, [first, *played[:n]]),
                                          retain=True)
                        await wait_for(lambda g=game, n=n: hall.game(1) is not None and hall.game(1).game == g
                                       and hall.game(1).seq == n + 1, f"{game} game, move {n}")
                    expected = [[m["text"] for m in played]]
                    assert pdn_moves(await hall.pdn(1)) == expected
                    assert pdn_moves((await http.get(f"/pdn/{EVENT}/1.pdn")).text) == expected
                    await raw.publish(f"{topic}/game", b"", retain=True)   # the board leaves its place
                    await wait_for(lambda: hall.game(1) is None, "the place empty")
            finally:
                raw.close()
    asyncio.run(scenario())


def test_forged_ply_texts_and_an_undated_old_game_never_reach_the_pdn(broker: Mosquitto,
                                                                      tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            raw = Raw(broker)
            topic = f"dboard/{EVENT}/1/1"
            played = moves("9-13", "22-18")
            board = Board("english")
            for entry in played:
                board.push(board.parse_move(entry["text"]))
            fen = board.fen()
            forged = [
                {"type": "forced", "by": "black", "fen": fen,
                 "text": '13-17 (accepted)\n\n[Event "FAKE"]\n\n1. 11-15 22-18 *'},
                {"type": "forced", "by": "black", "fen": fen, "text": "13-17\r1. 11-15"},
                {"type": "forced", "by": "black", "fen": fen, "text": "{13-17} (x)"},
                {"type": "move", "by": "black", "fen": fen, "text": "13-17 [Event]"},
            ]
            registry = hall.server.hall.registry
            try:
                await raw.publish(f"{topic}/game", game_message("real", [start(), *played]), retain=True)
                await wait_for(lambda: hall.game(1) is not None and hall.game(1).seq == 3, "the real game")
                dropped = registry.dropped
                for n, entry in enumerate(forged, 1):
                    await raw.publish(f"{topic}/stream", encode({"v": 1, "game": "real", "seq": 4,
                                                                 "entry": entry}))
                    await wait_for(lambda n=n: registry.dropped == dropped + n, f"forged text {n} dropped")
                # an old game of this board whose start cannot say when it was: not the current game
                await raw.publish(f"{topic}/game", game_message("older", [start(None), *moves("10-14")]))
                await raw.publish(f"{topic}/stream", encode({"v": 1, "game": "older", "seq": 1,
                                                             "entry": start(None)}))
                await raw.publish(f"{topic}/status", encode({"v": 1, "online": True}))
                await wait_for(lambda: registry.boards[(EVENT, "1", "1")].status != {}, "the status after")
                assert hall.game(1).game == "real"
                text = await hall.pdn(1)
                assert "FAKE" not in text and pdn_moves(text) == [["9-13", "22-18"]]
            finally:
                raw.close()
    asyncio.run(scenario())


def test_hostile_paths_queries_and_tokens_answer_4xx(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address, token="arbiter-secret-token") as hall:
            http = hall.http
            assert http is not None
            for url in ("/api/round/%2B/1", "/api/round/open/%23", "/api/standings/%00",
                        f"/api/standings/{'e' * 65}", f"/api/board/{EVENT}/1/%2B", f"/pdn/{EVENT}/%2B.pdn",
                        f"/archive/{'e' * 65}/1.pdn", f"/pdn/{EVENT}/1/%2F.pdn"):
                reply = await http.get(url)
                assert 400 <= reply.status_code < 500, (url, reply.status_code, reply.text)
            for after in ("²", "9" * 5000, "-1", "1e3", ""):
                reply = await http.get(f"/api/round/{EVENT}/1", params={"after": after})
                assert reply.status_code == 400, (after, reply.status_code)
            body = b'{"event": "open", "round": "1", "board": "1", "result": "1-0", "token": "\\ud800"}'
            reply = await http.post("/api/result", content=body,
                                    headers={"content-type": "application/json"})
            assert reply.status_code == 403 and reply.json()["error"] == "wrong access token"
    asyncio.run(scenario())
