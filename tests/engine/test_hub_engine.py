"""`dboard hub` driven through the Hub protocol in a real subprocess, and the HubEngine client."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.external import ExternalEngineError, FallbackOpponent, HubEngine
from engine.hub_protocol import parse_message
from engine.notation import hub_line, parse_hub_move, position_string
from rules import Board

ROOT = Path(__file__).resolve().parents[2]
HUB_COMMAND = [sys.executable, "-m", "controller.cli", "-q", "hub"]


class HubProcess:
    """Test-side driver of a hub engine process with a reader thread and timeouts."""

    def __init__(self, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [*HUB_COMMAND, *extra],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def __enter__(self) -> HubProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        """Kill the engine if the test left it running."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line.strip())

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def until(self, command: str, timeout: float = 30.0) -> list:
        seen = []
        while True:
            msg = parse_message(self.lines.get(timeout=timeout))
            seen.append(msg)
            if msg.command == command:
                return seen


def test_hub_session_in_subprocess() -> None:
    with HubProcess() as hub:
        hub.send("hub")
        intro = hub.until("wait")
        ids = [m for m in intro if m.command == "id"]
        assert ids and ids[0].get("name") == "draughts-board"
        params = {m.get("name"): m for m in intro if m.command == "param"}
        assert "international" in params["variant"].get("values", "")
        hub.send("init")
        hub.until("ready")
        hub.send("set-param name=variant value=international")
        hub.send("new-game")
        board = Board("international")
        board.push(parse_hub_move(board, "32-28"))
        board.push(parse_hub_move(board, "19-23"))
        hub.send('pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="32-28 19-23"')
        hub.send("level depth=3")
        hub.send("go think")
        reply = hub.until("done")
        infos = [m for m in reply if m.command == "info"]
        assert [int(m.get("depth")) for m in infos] == [1, 2, 3]
        assert all(m.get("pv") and m.get("score") is not None for m in infos)
        done = reply[-1]
        assert parse_hub_move(board, done.get("move")) in board.legal_moves  # 28x19 is forced
        assert done.get("move") == "28x19x23"
        # Takeback: the GUI sends the shorter game; the engine answers in that position.
        hub.send('pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="32-28"')
        hub.send("level move-time=0.2")
        hub.send("go think")
        back = Board("international")
        back.push(parse_hub_move(back, "32-28"))
        assert parse_hub_move(back, hub.until("done")[-1].get("move")) in back.legal_moves
        # An infinite analysis ends on stop with a legal move.
        hub.send(f"pos pos={position_string(Board('international'))}")
        hub.send("level infinite")
        hub.send("go analyze")
        hub.until("info")
        hub.send("stop")
        assert parse_hub_move(Board("international"), hub.until("done")[-1].get("move"))
        # Pondering waits for ponder-hit, then answers within the move time.
        hub.send("level move-time=0.2")
        hub.send("go ponder")
        hub.send("ponder-hit")
        assert hub.until("done")[-1].get("move")
        hub.send("ping")
        hub.until("pong")
        hub.send("pos pos=W" + "e" * 49)
        assert hub.until("error")[-1].get("message").endswith("needs 50")
        hub.send("quit")
        assert hub.proc.wait(timeout=10) == 0


def test_hub_engine_client_and_fallback_when_it_is_killed() -> None:
    engine = HubEngine(HUB_COMMAND, grace=10.0)
    assert engine.name == "draughts-board"
    opponent = FallbackOpponent(engine, "international", level=1)
    board = Board("international")
    for _ in range(2):
        move = opponent.play(board, 0.1)
        assert move in board.legal_moves
        board.push(move)
        board.push(next(iter(board.legal_moves)))
    assert not opponent.using_fallback
    os.kill(engine.process.pid, signal.SIGKILL)
    engine.process.wait(timeout=10)
    move = opponent.play(board, 0.1)
    assert move in board.legal_moves
    assert opponent.using_fallback
    assert opponent.error is not None and "exited with code -9" in opponent.error
    assert "draughts-board" in opponent.error


def test_hub_engine_that_cannot_start_is_a_clear_error() -> None:
    with pytest.raises(ExternalEngineError, match="cannot start hub engine"):
        HubEngine(["/nonexistent/scan"])
    with pytest.raises(ExternalEngineError, match="exited with code 3"):
        HubEngine([sys.executable, "-c", "import sys; sys.exit(3)"])


ILLEGAL_HUB = """
import sys
for line in sys.stdin:
    cmd = line.split()[0] if line.split() else ""
    if cmd == "hub":
        print("id name=liar", flush=True)
        print("wait", flush=True)
    elif cmd == "init":
        print("ready", flush=True)
    elif cmd == "go":
        print("done move=33-27", flush=True)
    elif cmd == "quit":
        break
"""


def test_external_engine_sending_an_illegal_move_is_replaced(tmp_path) -> None:
    script = tmp_path / "liar.py"
    script.write_text(ILLEGAL_HUB)
    opponent = FallbackOpponent(HubEngine([sys.executable, str(script)]), "international", level=1)
    board = Board("international")
    move = opponent.play(board, 0.1)
    assert move in board.legal_moves and opponent.using_fallback
    assert "'liar' sent an illegal move" in (opponent.error or "") and "33-27" in (opponent.error or "")


def test_hub_plays_other_variants_after_set_param() -> None:
    with HubProcess() as hub:
        hub.send("hub")
        hub.until("wait")
        hub.send("set-param name=variant value=english")
        hub.send("init")
        hub.until("ready")
        board = Board("english")
        hub.send(f"pos pos={position_string(board)}")
        hub.send("level depth=2")
        hub.send("go think")
        assert parse_hub_move(board, hub.until("done")[-1].get("move")) in board.legal_moves
        hub.send("set-param name=variant value=nonsense")
        assert "nonsense" in hub.until("error")[-1].get("message")
        hub.send("quit")
        assert hub.proc.wait(timeout=10) == 0


def test_hub_client_sends_the_recent_moves_for_the_draw_rules() -> None:
    """English K v K+man: White saves the game only by stepping back into a position seen before (1-6, a
    repetition), which an external engine can see only if the client sends the moves that led here
    (`pos pos=... moves="..."`); from the bare position it plays 1-5."""
    board = Board("english", "W:WK1:BK3,12")
    for text in ("1-6", "3-7", "6-1", "7-3"):
        board.push(board.parse_move(text))
    args = hub_line(board)
    assert args == {"pos": position_string(Board("english", "W:WK1:BK3,12")), "moves": "1-6 3-7 6-1 7-3"}
    engine = HubEngine(HUB_COMMAND, variant="english", grace=10.0)
    try:
        assert board.move_text(engine.play(board, 0.5)) == "1-6"
        assert board.move_text(engine.play(Board("english", board.fen()), 0.5)) == "1-5"   # no history
    finally:
        engine.close()
