"""DXP over loopback TCP: `dboard dxp --listen` in a subprocess against the DxpEngine client."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine import Engine
from engine.dxp import connect, listen
from engine.external import DxpEngine, ExternalEngineError, FallbackOpponent
from rules import Board, Color

ROOT = Path(__file__).resolve().parents[2]


def _start_follower(*extra: str) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "-q", "dxp", "--listen", "0", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()  # type: ignore[union-attr]
    assert line.startswith("DXP listening on 127.0.0.1:"), line
    return proc, int(line.rsplit(":", 1)[1])


def test_dxp_game_with_takeback_then_follower_killed() -> None:
    proc, port = _start_follower("--level", "1", "--time", "0.1")
    try:
        peer = DxpEngine("127.0.0.1", port, handshake_timeout=20.0)
        us = Engine("international")
        board = Board("international")
        peer.start_game(board, Color.BLACK)  # we are White
        assert peer.name == "draughts-board"
        opponent = FallbackOpponent(peer, "international", level=1)
        for _ in range(3):
            board.push(us.choose_move(board, 1, time_limit=0.05))
            reply = opponent.play(board, 0.1)
            assert reply in board.legal_moves
            board.push(reply)
        # Takeback of our last move and the follower's reply: BACKREQ must be accepted.
        board.pop()
        board.pop()
        board.push(next(iter(board.legal_moves)))
        reply = opponent.play(board, 0.1)
        assert reply in board.legal_moves and not opponent.using_fallback
        board.push(reply)
        # The follower dies mid-game: the built-in engine takes over with a clear reason.
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        board.push(us.choose_move(board, 1, time_limit=0.05))
        fallback = opponent.play(board, 0.1)
        assert fallback in board.legal_moves and opponent.using_fallback
        assert opponent.error is not None and "disconnected" in opponent.error
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_dxp_initiator_and_follower_play_a_whole_game_in_process() -> None:
    ports: list[int] = []
    ready = threading.Event()

    def serve() -> None:
        listen(0, level=1, move_time=0.02, ready=lambda p: (ports.append(p), ready.set()))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    assert ready.wait(10)
    outcome = connect("127.0.0.1", ports[0], Color.WHITE, level=1, move_time=0.02)
    assert outcome is not None and outcome.result in ("1-0", "0-1", "1/2-1/2")
    server.join(timeout=120)
    assert not server.is_alive()


def test_dxp_connection_refused_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ExternalEngineError, match=f"cannot connect to DXP engine at 127.0.0.1:{port}"):
        DxpEngine("127.0.0.1", port, handshake_timeout=2.0)


class _HostileFollower:
    """A TCP server that accepts one connection and does `behavior` with it (on a thread)."""

    def __init__(self, behavior) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.behavior = behavior
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with conn, contextlib.suppress(OSError):
            self.behavior(conn)

    def close(self) -> None:
        self.server.close()


def _silent(conn: socket.socket) -> None:
    while conn.recv(4096):
        pass


def _trickling(conn: socket.socket) -> None:
    while True:
        conn.send(b"C")   # a chat record that never ends
        time.sleep(0.02)


def _accepts_then_thinks_for_ever(conn: socket.socket) -> None:
    conn.recv(4096)
    conn.sendall(b"A" + b"slowpoke".ljust(32) + b"0\0")
    while conn.recv(4096):
        conn.sendall(b"Cstill thinking\0")   # chat does not count as an answer


@pytest.mark.parametrize(("behavior", "error"), [
    (_silent, "did not answer GAMEREQ within 0.5 s"),
    (_trickling, "did not answer GAMEREQ within 0.5 s"),
    (_accepts_then_thinks_for_ever, "did not answer with a move within 0.6 s"),
])
def test_dxp_engine_deadlines_count_from_each_question(behavior, error: str) -> None:
    """DxpEngine read with a per-recv timeout: a trickling peer held it for ever (issue 22, item 7)."""
    follower = _HostileFollower(behavior)
    try:
        opponent = FallbackOpponent(DxpEngine("127.0.0.1", follower.port, handshake_timeout=0.5, margin=0.5),
                                    "international", level=1)
        board = Board("international")
        started = time.monotonic()
        assert opponent.play(board, 0.1) in board.legal_moves
        assert time.monotonic() - started >= 0.5
        assert opponent.using_fallback and error in (opponent.error or "")
    finally:
        follower.close()
