"""Issue 21 items 8, 9, 10 and 12 through the real server: a command's reply says what happened, matched to
its id; no server path reaches a client; wrong tokens close the connection; a new game keeps the old one."""

from __future__ import annotations

import json
import logging
import os
import resource
from pathlib import Path

import httpx
import pytest
from web_harness import live_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import rules
from web.access import WebOptions
from web.messages import redact

TOKEN = "messages-token-0123456789"


def ws_url(url: str, token: str | None = None) -> str:
    base = url.split("?")[0].replace("http://", "ws://") + "ws"
    return f"{base}?token={token}" if token else base


def request(ws: ClientConnection, message: dict, seen: list[str] | None = None) -> dict:
    """Send ``message`` and return the reply carrying its id (everything received on the way goes to seen)."""
    ws.send(json.dumps(message))
    while True:
        text = str(ws.recv(timeout=10))
        if seen is not None:
            seen.append(text)
        reply = json.loads(text)
        if reply.get("id") == message["id"] and reply["type"] in ("reply", "error", "pong"):
            return reply


def command(n: int, kind: str, **fields: object) -> dict:
    return {"type": "command", "id": n, "command": {"kind": kind, **fields}}


def start_position(live) -> list[tuple[str, int, int]]:
    """Put the start position on the board; the lift and place of a legal first move."""
    board = rules.Board("international")
    geometry = board.variant.geometry
    live.call(lambda: live.board.set_occupancy(geometry.rc(sq) for sq in board.pieces()))
    live.call(live.session.idle)
    move = next(iter(board.legal_moves))
    return [("lift", *geometry.rc(move.from_square)), ("place", *geometry.rc(move.to_square))]


def play(ws: ClientConnection, gestures: list[tuple[str, int, int]], seen: list[str] | None = None) -> None:
    for n, (kind, row, col) in enumerate(gestures, 100):
        assert request(ws, command(n, kind, row=row, col=col), seen)["outcome"] == "done"


def test_replies_say_done_refused_or_failed_matched_to_the_id(tmp_path: Path) -> None:
    """Item 8: resign and new_game were acknowledged when queued, then failed. The reply now comes once the
    controller handled the command: done, refused with the reason, or failed with the reason (here a real
    EMFILE while the finished game is written), each with the request's id; over HTTP the status says it."""
    with live_server(tmp_path, opponent="person", human_color="both") as live:
        start_position(live)
        with connect(ws_url(live.url)) as ws:
            ws.recv(timeout=5)
            assert request(ws, command(1, "set_teaching", on=True)) == {
                "type": "reply", "command": "SetTeaching", "outcome": "done", "id": 1}
            refused = request(ws, command("two", "accept_draw", color="black"))
            assert refused["outcome"] == "refused" and refused["id"] == "two"
            assert "no draw offer" in refused["reason"]
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            lowest_free = os.dup(0)
            os.close(lowest_free)
            resource.setrlimit(resource.RLIMIT_NOFILE, (lowest_free, hard))
            try:
                failed = request(ws, command(3, "resign", color="white"))
            finally:
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            assert failed == {"type": "reply", "command": "Resign", "outcome": "failed",
                              "reason": "Too many open files", "id": 3}
        api = live.url + "api/command"
        refused_http = httpx.post(api, json=command(4, "accept_draw", color="white"), timeout=10)
        assert refused_http.status_code == 409 and refused_http.json()["outcome"] == "refused"
        done_http = httpx.post(api, json=command(5, "set_teaching", on=True), timeout=10)
        assert done_http.status_code == 200 and done_http.json()["outcome"] == "done"


def test_no_server_path_reaches_a_client(tmp_path: Path) -> None:
    """Item 9: absolute paths reached clients (``no game 'x' in /home/...``, "The game so far is saved in
    /home/..."), public viewers included. Every text a client gets names files only."""
    data = str(tmp_path)
    with live_server(tmp_path, opponent="person", human_color="both") as live:
        gestures = start_position(live)
        seen: list[str] = []
        with connect(ws_url(live.url)) as ws:
            seen.append(str(ws.recv(timeout=5)))
            play(ws, gestures, seen)
            saved = request(ws, command(3, "save_pdn"), seen)
            assert saved["outcome"] == "done"
            request(ws, {"type": "ping", "id": 4}, seen)   # the messages said meanwhile came before the pong
        [pdn] = tmp_path.rglob("*.pdn")
        assert any(f"saved in the library as {pdn.name}" in text for text in seen)
        for path in ("api/games/nope~0", "api/games/nope~0.pdn", "api/games", "api/state",
                     f"api/games/{pdn.parent.name}_{pdn.name}~0"):
            seen.append(httpx.get(live.url + path, timeout=5).text)
        assert "no game 'nope~0' in the library" in seen[-5]
        assert not [text for text in seen if data in text or "/tmp/" in text]


def test_redact_keeps_file_names_only() -> None:
    assert redact("no game 'x' in /home/ann/.local/share/draughts-board") == "no game 'x' in draughts-board"
    assert redact("[Errno 24] Too many open files: '/var/lib/b/journal/game.journal'") == \
        "[Errno 24] Too many open files: 'game.journal'"
    assert redact("1/2-1/2 by agreement, see http://host/a/b") == "1/2-1/2 by agreement, see http://host/a/b"


def test_wrong_tokens_close_the_connection_and_are_logged_once(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """Item 10: wrong tokens were neither throttled nor logged (66,904 guesses a second on one connection).
    The fifth wrong token closes the connection - websocket (1008) or HTTP keep-alive - with one log line
    naming the client's address; a missing token is only refused."""
    caplog.set_level(logging.INFO)
    public = WebOptions(listen="127.0.0.1", port=0, token=TOKEN, public_view=True, data_dir=tmp_path)
    with live_server(tmp_path, opponent="person", options=lambda cfg: public) as live:
        url = live.url.split("?")[0]
        with connect(ws_url(url)) as ws:
            ws.recv(timeout=5)
            missing = request(ws, command(0, "set_teaching", on=True))   # no token: refused, not counted
            assert missing["error"] == "forbidden"
            for n in range(1, 5):
                guess = command(n, "set_teaching", on=True) | {"token": f"guess-{n}-0123456789"}
                assert request(ws, guess)["error"] == "forbidden"
            ws.send(json.dumps(command(5, "set_teaching", on=True) | {"token": "guess-5-0123456789"}))
            with pytest.raises(ConnectionClosed) as closing:
                while True:
                    ws.recv(timeout=5)
            assert closing.value.rcvd is not None and closing.value.rcvd.code == 1008
        with httpx.Client(timeout=5) as client:
            answers = [client.post(url + "api/command", json=command(n, "set_teaching", on=True),
                                   headers={"X-Dboard-Token": f"guess-{n}-0123456789"}) for n in range(5)]
            assert [a.status_code for a in answers] == [403] * 5
            assert [a.headers.get("connection") for a in answers] == [None] * 4 + ["close"]
            assert client.post(url + "api/command", json=command(6, "set_teaching", on=True),
                               headers={"X-Dboard-Token": TOKEN}).json()["outcome"] == "done"
    lines = [r.getMessage() for r in caplog.records if "wrong access tokens" in r.getMessage()]
    assert len(lines) == 2 and all(line.startswith("127.0.0.1:") for line in lines)
    assert not any(TOKEN in r.getMessage() or "guess-" in r.getMessage() for r in caplog.records)


def test_new_game_over_an_unfinished_game_keeps_it_in_the_library(tmp_path: Path) -> None:
    """Item 12 (and issue 13 item 10): one new_game replaced a game in progress with no PDN of it left. Now
    it is saved first, the page is told so, and the library lists it as unfinished under its own name."""
    with live_server(tmp_path, opponent="person", human_color="both", settle_ms=0) as live:
        gestures = start_position(live)
        seen: list[str] = []
        with connect(ws_url(live.url)) as ws:
            ws.recv(timeout=5)
            play(ws, gestures)
            live.call(live.session.idle)
            assert len(live.view()["moves"]) == 1
            reply = request(ws, command(3, "new_game", variant="international", human_color="both",
                                        opponent="person"), seen)
            assert reply["outcome"] == "done", reply
            request(ws, {"type": "ping", "id": 4}, seen)
        [pdn] = tmp_path.rglob("*.pdn")
        assert any(f"The unfinished game (1 ply) is saved in the library as {pdn.name}" in t for t in seen)
        [game] = httpx.get(live.url + "api/games", timeout=5).json()["games"]
        assert game["result"] == "*" and game["finished"] is False and game["termination"] == "Unterminated"
        assert game["download"] == pdn.name
        download = httpx.get(live.url + f"api/games/{game['id']}.pdn", timeout=5)
        assert download.headers["content-disposition"] == (f'attachment; filename="{pdn.name}"; '
                                                            f"filename*=UTF-8''{pdn.name}")
