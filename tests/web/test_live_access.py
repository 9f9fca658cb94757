"""Several browsers on one live board; the token guarding control when the server is public; forged
messages that must neither crash the server nor change the game."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Playwright
from web_harness import browser, by_hand, cell, click_square, live_server, open_page, wait_state
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import rules
from web.access import WebOptions

TOKEN = "test-token-0123456789"


def public(public_view: bool):
    """Options of a server configured as if listening beyond localhost (bound to loopback for the test)."""
    return lambda cfg: WebOptions(listen="127.0.0.1", port=0, require_token=True, token=TOKEN,
                                  public_view=public_view, data_dir=cfg.data_path)


def ws_url(http_url: str, token: str | None = None) -> str:
    base = http_url.split("?")[0].replace("http://", "ws://") + "ws"
    return f"{base}?token={token}" if token else base


def test_two_browsers_see_the_same_live_board(pw: Playwright, tmp_path: Path) -> None:
    board = rules.Board("international")
    move = next(m for m in board.legal_moves)
    origin, target = (board.variant.geometry.rc(sq) for sq in (move.from_square, move.to_square))
    with live_server(tmp_path, opponent="person", human_color="both") as live, \
            browser(pw) as first, browser(pw) as second:
        a = open_page(first, live.url)
        b = open_page(second, live.url)
        for page in (a, b):   # the start position of the default variant, shown on the virtual board
            page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 40")
            assert page.text_content("#variant-name") == "International draughts"
        a.click("#btn-arrange")
        wait_state(b, "person.idle")
        by_hand(a)
        click_square(a, *origin)   # lifted in browser A: browser B shows the piece in the air
        b.wait_for_selector(f"{cell(*origin)}[data-occupied='0'] .piece.lifted")
        wait_state(b, "person.lifted")
        click_square(a, *target)
        b.wait_for_function("() => document.querySelectorAll('#moves .ply').length === 1")
        assert b.text_content("#moves .ply") == board.move_text(move)
        assert b.get_attribute(cell(*target), "data-piece") == "white"
        assert live.view()["moves"][0]["text"] == board.move_text(move)


def test_control_needs_the_token_when_public(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, opponent="person", options=public(public_view=True),
                     auto_computer=False) as live:   # the board stays empty: a click lifts or places
        assert live.url.endswith(f"?token={TOKEN}")
        open_url = live.url.split("?")[0]
        with browser(pw) as context:
            page = open_page(context, open_url)   # watching is allowed (public view) ...
            page.click(cell(0, 0))               # ... but a virtual-board action is refused
            refused = page.wait_for_selector("#messages li.forbidden")
            assert "access token" in refused.text_content()
            page.click("#btn-hint")
            page.wait_for_function("() => document.querySelectorAll('#messages li.forbidden').length === 2")
            assert live.view()["occupancy"] == []
            page.goto(live.url)                  # with the token from the printed URL, it works
            page.wait_for_selector("#conn[data-state='up']")
            click_square(page, 0, 0)
            assert live.view()["occupancy"] == [[0, 0]]
        command = {"type": "command", "command": {"kind": "place", "row": 0, "col": 2}}
        api = open_url + "api/command"
        assert httpx.post(api, json=command, timeout=5).status_code == 403
        assert httpx.post(api, json=command | {"token": "wrong-token-000"}, timeout=5).status_code == 403
        assert httpx.post(api, json=command, headers={"Origin": "http://evil.example",
                                                       "X-Dboard-Token": TOKEN}, timeout=5).status_code == 403
        assert live.view()["occupancy"] == [[0, 0]]
        reply = httpx.post(api, json=command, headers={"X-Dboard-Token": TOKEN}, timeout=5)
        assert reply.status_code == 200 and reply.json()["command"] == "Place"
        assert reply.json()["outcome"] == "done"
        live.call(live.session.idle)
        assert live.view()["occupancy"] == [[0, 0], [0, 2]]
        with connect(ws_url(open_url)) as ws:    # the websocket refuses control without the token too
            assert json.loads(ws.recv(timeout=5))["type"] == "hello"
            ws.send(json.dumps({"type": "command", "command": {"kind": "lift", "row": 0, "col": 0}}))
            reply = _reply(ws)
            assert reply["error"] == "forbidden"
        assert live.view()["occupancy"] == [[0, 0], [0, 2]]


def test_watching_needs_the_token_without_public_view(tmp_path: Path) -> None:
    with live_server(tmp_path, opponent="person", options=public(public_view=False)) as live:
        open_url = live.url.split("?")[0]
        assert httpx.get(open_url, timeout=5).status_code == 403
        assert httpx.get(open_url + "api/state", timeout=5).status_code == 403
        assert httpx.get(open_url + "api/games.pdn", timeout=5).status_code == 403
        assert httpx.get(live.url, timeout=5).status_code == 200
        with pytest.raises(InvalidStatus, match="403"):
            connect(ws_url(open_url)).close()
        with connect(ws_url(open_url, TOKEN)) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "hello"


def _reply(ws) -> dict:
    """The next reply to a request (skipping pushed state and events)."""
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] in ("reply", "error", "pong"):
            return message


FORGED = [
    "not json at all",
    "[" * 30_000 + "]" * 30_000,
    json.dumps({"type": "command", "command": {"kind": "lift", "row": 10**40, "col": 0}}),
    "[1, 2, 3]",
    json.dumps({"type": "shutdown"}),
    json.dumps({"type": "command"}),
    json.dumps({"type": "command", "command": {"kind": "move", "text": "32-28"}}),
    json.dumps({"type": "command", "command": {"kind": "push", "move": "31x4"}}),
    json.dumps({"type": "command", "command": {"kind": "lift", "row": 99, "col": 0}}),
    json.dumps({"type": "command", "command": {"kind": "place", "row": 3, "col": 11}}),
    json.dumps({"type": "command", "command": {"kind": "lift", "row": "a", "col": 0}}),
    json.dumps({"type": "command", "command": {"kind": "lift", "row": 1.5, "col": 0, "extra": 1}}),
    json.dumps({"type": "command", "command": {"kind": "new_game", "level": 99}}),
    json.dumps({"type": "command", "command": {"kind": "new_game", "variant": "chess"}}),
    json.dumps({"type": "command", "command": {"kind": "new_game", "fen": "W:W99,100:B1"}}),
    json.dumps({"type": "command", "command": {"kind": "setup_position", "fen": "garbage"}}),
    json.dumps({"type": "command", "command": {"kind": "takeback", "plies": -3}}),
    json.dumps({"type": "command", "command": {"kind": "resign", "color": "green"}}),
    json.dumps({"type": "command", "command": {"kind": "set_teaching", "on": "yes"}}),
    json.dumps({"type": "setup", "pieces": "everything", "turn": "white"}),
    json.dumps({"type": "setup", "pieces": [{"row": 0, "col": 1, "color": "white"}], "turn": "white"}),
    json.dumps({"type": "setup", "pieces": [{"row": 0, "col": 0, "color": "red"}], "turn": "white"}),
    json.dumps({"type": "command", "command": {"kind": "new_game", "level": True}}),
]


def test_forged_messages_cannot_move_pieces_or_crash(tmp_path: Path) -> None:
    board = rules.Board("international")
    geometry = board.variant.geometry
    with live_server(tmp_path, opponent="person", human_color="both") as live:
        live.call(lambda: live.board.set_occupancy(geometry.rc(sq) for sq in board.pieces()))
        live.call(live.session.idle)
        before = live.view()
        assert before["state"] == "person.idle"
        with connect(ws_url(live.url)) as ws:
            ws.recv(timeout=5)
            for raw in FORGED:
                ws.send(raw)
                reply = _reply(ws)
                assert reply["type"] == "error" and reply["message"], raw
            # Well-formed physical actions that make an illegal move: refused by the rules, nothing committed.
            origin = geometry.rc(geometry.parse_square("31"))
            for kind, rc in (("lift", origin), ("place", (5, 5))):
                action = {"kind": kind, "row": rc[0], "col": rc[1]}
                ws.send(json.dumps({"type": "command", "command": action}))
                assert _reply(ws)["outcome"] == "done"
            live.call(live.session.idle)
            ws.send(json.dumps({"type": "ping"}))
            assert _reply(ws)["type"] == "pong"
        after = live.view()
        assert after["moves"] == [] and after["fen"] == before["fen"] and after["variant"] == "international"
        assert any("not" in m["text"] for m in after["messages"])
        with connect(ws_url(live.url)) as ws:   # an oversized frame closes that connection only
            ws.recv(timeout=5)
            ws.send("x" * 200_000)
            with pytest.raises(ConnectionClosed):
                for _ in range(10):
                    ws.recv(timeout=5)
        for body in (b"{not json", b"[" * 30_000 + b"]" * 30_000, b"\xff\xfe"):
            reply = httpx.post(live.url + "api/command", content=body, timeout=5)
            assert reply.status_code == 400
        assert httpx.get(live.url + "api/state", timeout=5).json()["state"]["fen"] == before["fen"]
