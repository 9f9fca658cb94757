"""`dboard hub` driven through the Hub protocol in a real subprocess, and the HubEngine client."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.external import ExternalEngineError, FallbackOpponent, HubEngine
from engine.hub_protocol import parse_message
from engine.notation import hub_line, parse_hub_move, position_string
from engine.process import LineQueue
from rules import Board

ROOT = Path(__file__).resolve().parents[2]
HUB_COMMAND = [sys.executable, "-m", "controller.cli", "-q", "hub"]


class HubProcess:
    """Test-side driver of a hub engine process with a reader thread and timeouts."""

    def __init__(self, *extra: str, stderr: int | None = None) -> None:
        self.proc = subprocess.Popen(
            [*HUB_COMMAND, *extra],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
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
        with contextlib.suppress(ValueError, OSError):   # a test may close the pipe under us
            for line in self.proc.stdout:  # type: ignore[union-attr]
                self.lines.put(line.strip())

    def send(self, line: str | bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        if isinstance(line, bytes):
            stdin.buffer.write(line + b"\n")
            stdin.buffer.flush()
        else:
            stdin.write(line + "\n")
            stdin.flush()

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


def test_hub_errors_are_lines_its_own_parser_reads() -> None:
    """Replies to bad input are Hub lines (`"` inside an error made them unreadable), one per bad line."""
    with HubProcess() as hub:
        hub.send('pos pos="W')
        assert "never closed" in hub.until("error")[-1].get("message")
        hub.send(b"\xff\xfe\x00 x=1")
        assert "unknown command" in hub.until("error")[-1].get("message")
        hub.send("info " + "x" * 100_000)
        assert hub.until("error")[-1].get("message") == "line longer than 65536 bytes skipped"
        hub.send("ping")
        hub.until("pong")


BAD_LINES = [
    ("level move-time=nan",
     "level: move-time must be a number of seconds above 0 and at most 1000000, got 'nan'"),
    ("level time=-5", "level: time must be a number of seconds above 0 and at most 1000000, got '-5'"),
    ("level time=60 inc=-1", "level: inc must be a number of seconds of 0 to 3600, got '-1'"),
    ("level depth=0", "level: depth must be an integer of 1 to 96, got '0'"),
    ("level nodes=many", "level: nodes must be an integer of 1 to 1000000000000, got 'many'"),
    ("level depth=" + "1" * 400, "level: depth must be an integer of 1 to 96, got '111"),   # it overflowed
    ("level depth=\u0969", "level: depth must be an integer of 1 to 96, got '\u0969'"),   # Devanagari 3
    ("level", "level: expected infinite, depth, nodes, move-time or time"),
    ("pos pos=Ww" + "e" * 48 + "b", "a white man on square 1, where it would"),
    ("pos pos=W" + "e" * 50, "the position is an empty board"),
    ("pos pos=W" + "w" * 50, "the position has 50 white pieces; the game starts with 20"),
]


def test_hub_refuses_bad_levels_and_impossible_positions() -> None:
    """`level move-time=nan` searched for ever, `time=-5` and impossible positions were accepted."""
    with HubProcess() as hub:
        for line, message in BAD_LINES:
            hub.send(line)
            assert message in hub.until("error")[-1].get("message"), line
        hub.send("quit")
        assert hub.proc.wait(timeout=10) == 0


def test_hub_exits_quietly_when_the_gui_goes_away_mid_search() -> None:
    """The GUI closes the pipes while the engine searches: no traceback (there were several), exit code 0."""
    with HubProcess(stderr=subprocess.PIPE) as hub:
        hub.send("level move-time=5")
        hub.send("go think")
        hub.until("info")
        hub.proc.stdout.close()  # type: ignore[union-attr]
        hub.proc.stdin.close()  # type: ignore[union-attr]
        assert hub.proc.wait(timeout=20) == 0
        assert hub.proc.stderr.read() == ""  # type: ignore[union-attr]


def test_hub_engine_client_and_fallback_when_it_is_killed() -> None:
    engine = HubEngine(HUB_COMMAND, margin=10.0)
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
    engine.process.exit_code(wait=10)
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
    """English K v K+K+man: 31-26 walks into a lost position, unless it repeats a position seen before (the
    game is then drawn), which an external engine can see only if the client sends the moves that led here
    (`pos pos=... moves="..."`); from the bare position it plays 31-27."""
    start = "W:WK31:B14,K6,15"
    board = Board("english", start)
    for text in ("31-26", "6-9", "26-31", "9-6"):
        board.push(board.parse_move(text))
    args = hub_line(board)
    assert args == {"pos": position_string(Board("english", start)), "moves": "31-26 6-9 26-31 9-6"}
    for history, expected in ((board, "31-26"), (Board("english", board.fen()), "31-27")):
        engine = HubEngine(HUB_COMMAND, variant="english", margin=10.0)   # fresh: no table of another search
        try:
            assert board.move_text(engine.play(history, 0.5)) == expected
        finally:
            engine.close()


# --- misbehaving engines (issue 22): each one fails within its deadline, and leaves no process behind ---


def _fallback_move(engine: HubEngine, move_time: float = 0.2) -> tuple[FallbackOpponent, float]:
    """The move the FallbackOpponent plays with `engine` at the start position, and how long it took."""
    opponent = FallbackOpponent(engine, "international", level=1)
    board = Board("international")
    started = time.monotonic()
    move = opponent.play(board, move_time)
    assert move in board.legal_moves
    return opponent, time.monotonic() - started


@pytest.mark.parametrize("mode", ["chatty", "flood"])
def test_an_engine_that_talks_but_never_answers_is_replaced_at_the_deadline(fake_hub, mode: str) -> None:
    """The deadline counts from `go`, whatever the engine prints meanwhile (it restarted with every line)."""
    fake = fake_hub(mode)
    engine = HubEngine(fake.argv, margin=0.5)
    opponent, took = _fallback_move(engine, 0.2)
    assert opponent.using_fallback and took >= 0.7
    assert f"hub engine '{mode}' did not answer 'go think' within 0.7 s" in (opponent.error or "")
    assert len(engine.process.lines) == 0
    fake.assert_gone()


def test_the_line_queue_is_bounded_and_keeps_only_the_newest_info() -> None:
    lines = LineQueue(capacity=3)
    for depth in range(100_000):
        assert lines.put(f"info depth={depth}", coalesce=True)
    assert lines.put("done move=32-28")
    assert lines.put("info depth=7", coalesce=True)  # joins the waiting info line
    assert len(lines) == 2
    assert [lines.get(0), lines.get(0)] == ["info depth=7", "done move=32-28"]
    for n in range(3):
        lines.put(f"line {n}")
    blocked = threading.Thread(target=lines.put, args=("line 3",))
    blocked.start()   # a full queue makes the reader wait (and so the engine), it does not grow
    blocked.join(0.2)
    assert blocked.is_alive() and len(lines) == 3
    lines.close()
    blocked.join(5)
    assert not blocked.is_alive() and lines.get(0) is None


@pytest.mark.parametrize("mode", ["chatty-start", "mute-start"])
def test_an_engine_that_never_finishes_the_handshake_is_killed_every_time(fake_hub, mode: str) -> None:
    fake = fake_hub(mode)
    for _ in range(3):
        with pytest.raises(ExternalEngineError, match=f"{mode}.* did not answer 'hub' within 1 s"):
            HubEngine(fake.argv, handshake_timeout=1.0)
    assert len(fake.groups()) == 3
    fake.assert_gone()


@pytest.mark.parametrize(("mode", "name", "skipped"), [
    ("apostrophes", "Ed's-engine", 0),         # an apostrophe was a shell quote (item 2)
    ("non-utf8", "caf\ufffd\ufffd", 0),        # killed the reader, reported as silence (item 8)
    ("long-line", "long-line", 1),             # a 1 MB line: skipped and counted (item 8)
    ("flood-then-move", "flood-then-move", 0),  # 20 MB of info before the move coalesce (item 1)
])
def test_odd_output_is_read_as_text_and_the_engine_plays_on(fake_hub, mode: str, name: str,
                                                            skipped: int) -> None:
    fake = fake_hub(mode)
    with HubEngine(fake.argv, margin=30.0) as engine:
        assert engine.name == name
        opponent, _took = _fallback_move(engine)
        assert not opponent.using_fallback, opponent.error
        assert engine.skipped_lines == skipped
    fake.assert_gone()


def test_a_line_that_is_not_hub_protocol_is_an_engine_failure(fake_hub) -> None:
    fake = fake_hub("unparsable")
    opponent, _took = _fallback_move(HubEngine(fake.argv))
    assert opponent.using_fallback and "not Hub protocol" in (opponent.error or "")
    assert "never closed" in (opponent.error or "")
    fake.assert_gone()


def test_a_helper_that_keeps_the_output_open_neither_blocks_the_fallback_nor_survives(fake_hub) -> None:
    fake = fake_hub("helper")
    opponent, _took = _fallback_move(HubEngine(fake.argv, margin=30.0))
    assert opponent.using_fallback
    assert "exited with code 1 while answering 'go think'" in (opponent.error or "")
    fake.assert_gone()


def test_an_engine_behind_a_shell_wrapper_is_killed_with_its_wrapper(fake_hub) -> None:
    fake = fake_hub("chatty")
    engine = HubEngine(["sh", "-c", f"{fake.command}; echo wrapper done"], margin=0.3)
    opponent, _took = _fallback_move(engine, 0.1)
    assert opponent.using_fallback and "within 0.4 s" in (opponent.error or "")
    fake.assert_gone()
    assert engine.process.exit_code() == -signal.SIGKILL


def test_a_crash_reports_the_command_and_the_last_20_lines_of_stderr(fake_hub) -> None:
    fake = fake_hub("crash")
    opponent, _took = _fallback_move(HubEngine(fake.argv))
    error = opponent.error or ""
    assert "hub engine 'crash' exited with code 1" in error and f"command: {fake.command}" in error
    assert "Traceback line 29: something broke" in error and "Traceback line 10:" in error
    assert "Traceback line 9:" not in error
    fake.assert_gone()


def test_an_engine_that_ignores_quit_is_killed_on_close(fake_hub) -> None:
    fake = fake_hub("ignore-quit")
    engine = HubEngine(fake.argv)
    opponent, _took = _fallback_move(engine)
    assert not opponent.using_fallback
    engine.close(grace=0.2)
    fake.assert_gone()


def test_the_hub_engine_is_told_the_variant_options() -> None:
    """`dboard hub` declares the variant-options parameter; HubEngine sends the game's options after the
    variant, so the engine plays by them (Turkish crowning stops the capture on d8, docs/rules/turkish.md)."""
    from rules import get_variant

    stop = get_variant("turkish", promotion_mid_capture="stop")
    board = Board(stop, "W:Wd6:Bd7,e8,a2")
    with HubEngine(HUB_COMMAND, variant=stop, margin=10.0) as engine:
        assert board.move_text(engine.play(board, 0.3)) == "d6xd8"
    plain = Board("turkish", board.fen())
    with HubEngine(HUB_COMMAND, variant="turkish", margin=10.0) as engine:
        assert plain.move_text(engine.play(plain, 0.3)) == "d6xf8"
