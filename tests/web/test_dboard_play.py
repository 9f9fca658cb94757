"""`dboard play` starts the web server in its own process, prints the URL, and the page shows the start
position of the default variant on the virtual board."""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.request import ProxyHandler, build_opener

from playwright.sync_api import Playwright
from web_harness import browser, open_page, wait_state

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def read_url(process: subprocess.Popen[str], seconds: float = 30.0) -> str:
    """The URL from the "Open http://..." line of the process's output (bounded wait; a thread reads)."""
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        seen.append(line.rstrip())
        match = re.match(r"Open (http://\S+)", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no 'Open http://...' line from dboard play; output so far: {seen}")


def test_dboard_play_serves_the_page(pw: Playwright, tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "controller.cli", "play", "--port", str(port),
            "--data-dir", str(tmp_path / "data"), "--opponent", "person"]
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        url = read_url(process)
        assert url == f"http://127.0.0.1:{port}/"
        with browser(pw) as context:
            page = open_page(context, url)
            page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 40")
            assert page.text_content("#variant-name") == "International draughts"
            assert page.locator("#board .sq[data-occupied='1']").count() == 40
            assert page.locator("#board .piece.white").count() == 20
            wait_state(page, "person.idle")
    finally:
        process.terminate()
        process.wait(10)


def test_dboard_play_refuses_a_short_token_before_touching_anything(tmp_path: Path) -> None:
    """Issue 21 item 10: a configured token could be 8 characters."""
    env = {**os.environ, "HOME": str(tmp_path)}
    argv = [sys.executable, "-m", "controller.cli", "play", "--token", "mysecret123", "--data-dir",
            str(tmp_path / "data"), "--port", str(free_port())]
    done = subprocess.run(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "dboard play: error: command line: token: must be at least 16 characters long, got 11 "
        "(leave it empty to have one generated)"]
    assert not (tmp_path / "data").exists()


def test_a_token_configured_on_loopback_is_required(tmp_path: Path) -> None:
    """Issue 21 item 6: `--listen 127.0.0.1 --token mysecret123` protected nothing and said nothing."""
    import httpx

    token = "my-loopback-secret-1"
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "controller.cli", "play", "--listen", "127.0.0.1", "--port", str(port),
            "--token", token, "--data-dir", str(tmp_path / "data"), "--opponent", "person"]
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        url = read_url(process)
        assert url == f"http://127.0.0.1:{port}/?token={token}"
        base = url.split("?")[0]
        command = {"type": "command", "command": {"kind": "set_teaching", "on": True}}
        assert httpx.get(base, timeout=10).status_code == 403
        assert httpx.post(base + "api/command", json=command, timeout=10).status_code == 403
        assert httpx.get(url, timeout=10).status_code == 200
        reply = httpx.post(base + "api/command", json=command, headers={"X-Dboard-Token": token}, timeout=10)
        assert reply.status_code == 200 and reply.json()["outcome"] == "done"
    finally:
        process.terminate()
        process.wait(10)


def announced(process: subprocess.Popen[str], seconds: float = 30.0) -> list[str]:
    """The lines that announce the page: "Open URL" and the "  from ..." ones after it, to the next line."""
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    block: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.2).rstrip("\n")
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        if line.startswith("Open "):
            block = [line]
        elif block and line.startswith("  from "):
            block.append(line)
        elif block and " WARNING web.server" not in line:
            return block
    raise AssertionError(f"no announcement ending in time; seen {block}")


def play_listening(tmp_path: Path, listen: str, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "controller.cli", "play", "--port", str(port), "--listen", listen,
            "--data-dir", str(tmp_path / "data"), "--opponent", "person"]
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def test_item8_listening_on_the_network_prints_the_urls_a_phone_opens(tmp_path: Path) -> None:
    """Issue 28 item 8: with --listen 0.0.0.0 only http://127.0.0.1 was printed (and the host name)."""
    port = free_port()
    process = play_listening(tmp_path, "0.0.0.0", port)
    try:
        block = announced(process)
        opened = re.fullmatch(rf"Open http://127\.0\.0\.1:{port}/\?token=(\S+)", block[0])
        assert opened, block
        token = opened.group(1)
        pattern = rf"  from a phone or another machine on the network: http://([0-9.]+):{port}/\?token={re.escape(token)}"
        remote = [re.fullmatch(pattern, line) for line in block[1:]]
        assert remote and all(remote), block
        for match in remote:
            assert match is not None and not match.group(1).startswith("127.")
            direct = build_opener(ProxyHandler({}))   # it is reachable, straight to the address
            page = direct.open(f"http://{match.group(1)}:{port}/?token={token}", timeout=10)
            assert page.status == 200 and b"draughts-board" in page.read()
    finally:
        process.terminate()
        process.wait(10)


def test_item8_listening_on_loopback_prints_only_the_loopback_url(tmp_path: Path) -> None:
    port = free_port()
    process = play_listening(tmp_path, "127.0.0.1", port)
    try:
        assert announced(process) == [f"Open http://127.0.0.1:{port}/"]
    finally:
        process.terminate()
        process.wait(10)
