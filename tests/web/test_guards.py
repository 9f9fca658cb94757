"""Issue 21 items 1, 2 and 11: bodies bounded before they are read, Host names that are not this machine's
refused (DNS rebinding), and the security headers that stop another site framing the panel. Each test makes
the attack with real clients (raw sockets, httpx, websockets, Chromium) against a real server."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from attack_server import PanelProcess, address
from playwright.sync_api import Playwright
from web_harness import CHROMIUM, CHROMIUM_ARGS, browser, live_server
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from web.access import WebOptions

MB = 1024 * 1024
TOKEN = "guards-token-0123456789"
RESIGN = {"type": "command", "command": {"kind": "resign", "color": "white"}}


def push_body(url: str, head: str, megabytes: int, results: list[tuple[bytes, int]]) -> None:
    """Send ``head``, then up to ``megabytes`` of body until the server stops taking it; record what the
    server answered and how many body bytes went out."""
    sent = 0
    with socket.create_connection(address(url), timeout=10) as sock:
        sock.sendall(head.encode())
        chunk = b"x" * 65536
        try:
            while sent < megabytes * MB:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
        except OSError:
            pass
    results.append((answer, sent))


def post_head(url: str, headers: str) -> str:
    host, port = address(url)
    return f"POST /api/command HTTP/1.1\r\nHost: {host}:{port}\r\n{headers}\r\n"


def test_body_flood_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Item 1: a declared 10 GB body (four connections at once) and a chunked flood took the server to
    gigabytes. Now 413 comes back before the body is read, the connection closes, memory stays put."""
    with PanelProcess(tmp_path) as panel:
        before = panel.memory_kb("VmHWM")
        results: list[tuple[bytes, int]] = []
        json_type = "Content-Type: application/json\r\n"
        declared = post_head(panel.url, f"{json_type}Content-Length: {10 * 1024**3}\r\n")
        chunked = post_head(panel.url, f"{json_type}Transfer-Encoding: chunked\r\n") + "1000000\r\n"
        floods = [threading.Thread(target=push_body, args=(panel.url, head, 48, results))
                  for head in (declared, declared, declared, declared, chunked)]
        for flood in floods:
            flood.start()
        for flood in floods:
            flood.join(60)
        growth = panel.memory_kb("VmHWM") - before
        assert len(results) == 5
        for answer, _ in results:
            assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
            assert b"connection: close" in answer.lower()
        assert sum(sent for _, sent in results) < 5 * 48 * MB   # the server closed on the floods
        assert growth < 16 * 1024, f"the server's peak memory grew by {growth} kB"
        assert httpx.get(panel.url + "api/state", timeout=10).json()["state"]["moves"] == []
        assert not any("Traceback" in line for line in panel.lines["stderr"])


def test_token_and_origin_are_checked_before_the_body(tmp_path: Path) -> None:
    """Item 1: no token was needed to make the server read a body. Without the token (or from another site)
    the answer is 403 at once, while the declared body has not even been sent."""
    with PanelProcess(tmp_path, token=TOKEN, limits={"body_timeout": 1.0}) as panel:
        length = "Content-Length: 1000\r\n"
        cases = {length: b"403", f"{length}X-Dboard-Token: {TOKEN}x\r\n": b"403",
                 f"{length}Origin: http://evil.example\r\nX-Dboard-Token: {TOKEN}\r\n": b"403",
                 f"{length}X-Dboard-Token: {TOKEN}\r\n": b"408"}   # the token right, the body late
        for headers, status in cases.items():
            with socket.create_connection(address(panel.url), timeout=10) as sock:
                sock.sendall(post_head(panel.url, headers).encode() + b'{"type": ')
                answer = sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 " + status), (headers, answer[:200])
        with httpx.Client(timeout=10) as client:
            reply = client.post(panel.url.split("?")[0] + "api/command", json=RESIGN,
                                headers={"X-Dboard-Token": TOKEN})
        assert reply.status_code == 200 and reply.json()["outcome"] == "done"


def test_http_commands_are_rate_limited_per_client_address(tmp_path: Path) -> None:
    """Item 5 over HTTP: each request may come on a new connection, so the rate is kept per address; past the
    burst a flood gets 429 with Retry-After and is not handled, and the rate comes back with time."""
    hint, headers = {"type": "command", "command": {"kind": "hint"}}, {"X-Dboard-Token": TOKEN}
    with PanelProcess(tmp_path, token=TOKEN, limits={"command_rate": 2.0, "command_burst": 3}) as panel:
        url = panel.url.split("?")[0] + "api/command"
        with httpx.Client(timeout=10) as client:
            statuses = [client.post(url, json=hint, headers=headers) for _ in range(10)]
            assert [r.status_code for r in statuses[:3]] == [200, 200, 200]
            refused = [r for r in statuses[3:] if r.status_code == 429]
            assert len(refused) >= 5, [r.status_code for r in statuses]
            assert refused[0].headers["Retry-After"] == "1" and "2 a second" in refused[0].json()["error"]
            with httpx.Client(timeout=10) as other:   # a new connection from the same address: no way round
                assert other.post(url, json=hint, headers=headers).status_code == 429
            deadline = time.monotonic() + 10
            while (reply := client.post(url, json=hint, headers=headers)).status_code == 429:
                assert time.monotonic() < deadline, "the rate never came back"
                time.sleep(float(reply.headers["Retry-After"]) / 4)
            assert reply.status_code == 200


def test_dns_rebinding_is_refused(tmp_path: Path) -> None:
    """Item 2: a page of rebind.evil.example, rebound to 127.0.0.1, sent matching Host and Origin: it resigned
    the game, read the library and replaced the game. Now every such request gets 400 and changes nothing."""
    with live_server(tmp_path, opponent="person", human_color="both",
                     options=lambda cfg: WebOptions(listen="127.0.0.1", port=0, data_dir=cfg.data_path,
                                                    allowed_hosts=("board.example.org",))) as live:
        _, port = address(live.url)
        evil = f"rebind.evil.example:{port}"
        headers = {"Host": evil, "Origin": f"http://{evil}"}
        before = live.view()
        with httpx.Client(timeout=5) as client:
            for method, path, body in (("POST", "api/command", RESIGN), ("GET", "api/games", None),
                                       ("GET", "api/games.pdn", None), ("GET", "", None),
                                       ("POST", "api/command", {"type": "command", "command": {
                                           "kind": "new_game", "variant": "spanish"}})):
                reply = client.request(method, live.url + path, json=body, headers=headers)
                assert reply.status_code == 400, (method, path, reply.text)
                assert "Invalid host header" in reply.text
            with pytest.raises(InvalidStatus, match="400"):
                connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"Host": evil},
                        origin=f"http://{evil}").close()   # type: ignore[arg-type]
            for name in ("127.0.0.1", "localhost", "[::1]", "board.example.org", "BOARD.example.org"):
                host = f"{name}:{port}"
                assert client.get(live.url + "api/state", headers={"Host": host}).status_code == 200, host
        after = live.view()
        assert after["moves"] == before["moves"] and after["variant"] == before["variant"]
        assert after["result"] is None
        assert not list(tmp_path.rglob("*.pdn"))


def test_dns_rebinding_page_in_chromium_is_refused(pw: Playwright, tmp_path: Path) -> None:
    """Item 2 in a browser: Chromium resolves rebind.evil.example to 127.0.0.1 (as after the rebinding); the
    attacker's page (served for that origin before the rebinding) posts resign, reads the library and opens
    the websocket. All of it fails and the game goes on."""
    attacker = """<!doctype html><script>
    window.results = (async () => {
      const out = {};
      const post = await fetch('/api/command', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                body: JSON.stringify(%s)});
      out.command = post.status;
      out.games = (await fetch('/api/games')).status;
      out.ws = await new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onmessage = () => done('message'); ws.onerror = () => done('error');
      });
      return out;
    })();
    </script>""".replace("%s", json.dumps(RESIGN))
    with live_server(tmp_path, opponent="person", human_color="both") as live:
        _, port = address(live.url)
        origin = f"http://rebind.evil.example:{port}"
        before = live.view()
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
            args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP rebind.evil.example 127.0.0.1",
                  # as Firefox and Safari: no private/local network access checks
                  "--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,"
                  "LocalNetworkAccessChecks,LocalNetworkAccessChecksWebSockets"])
        try:
            page = context.new_page()
            page.route(f"{origin}/", lambda route: route.fulfill(body=attacker, content_type="text/html"))
            page.goto(f"{origin}/")
            results = page.evaluate("window.results")
        finally:
            context.close()
        assert results == {"command": 400, "games": 400, "ws": "error"}
        after = live.view()
        assert after["result"] is None and after["state"] == before["state"] and after["fen"] == before["fen"]


def test_security_headers_stop_framing_and_the_page_still_works(pw: Playwright, tmp_path: Path) -> None:
    """Item 11: no X-Frame-Options / frame-ancestors, X-Content-Type-Options or Referrer-Policy; another site
    could frame the control page. Now every response carries them, a framing page shows nothing of the
    panel, and the panel itself runs under its content security policy without a violation."""
    framer = "<!doctype html><iframe id=panel src='%s' onload='window.framed = true'></iframe>"
    with live_server(tmp_path, opponent="person", human_color="both") as live:
        for path in ("", "api/state", "static/app.js", "api/games", "no/such/page"):
            headers = httpx.get(live.url + path, timeout=5).headers
            assert headers["x-frame-options"] == "DENY", path
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "default-src 'self'" in headers["content-security-policy"]
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
        with browser(pw) as context:
            page = context.new_page()
            page.route("http://framer.example/", lambda route: route.fulfill(body=framer % live.url,
                                                                            content_type="text/html"))
            page.goto("http://framer.example/")
            page.wait_for_function("() => window.framed === true")
            assert page.frame_locator("#panel").locator("#board").count() == 0
            panel = context.new_page()
            panel.add_init_script("window.violations = [];"
                                  "document.addEventListener('securitypolicyviolation',"
                                  "  (e) => window.violations.push(e.violatedDirective))")
            panel.goto(live.url)
            panel.wait_for_selector("#conn[data-state='up']")   # the websocket is allowed by connect-src
            panel.wait_for_function("() => document.querySelectorAll('#board .piece').length === 40")
            panel.click("#tab-library")
            panel.wait_for_selector("#games-empty:not([hidden])")
            assert panel.evaluate("window.violations") == []
