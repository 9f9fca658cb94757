"""External engines through the real Session the web panel uses: misbehaving Hub engines (tests/engine/
fake_hub.py, real subprocesses) are replaced within their deadline, with a message, and leave no process."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from rig import next_event, until

from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.opponents import WorkerOpponent, ask
from controller.session import Session
from engine import Engine
from firmware_bridge.simulated import SimulatedDevice
from rules import Board

ROOT = Path(__file__).resolve().parents[2]
WAIT = 40.0   # seconds: the bound on an answer these tests wait for
GO, HANDSHAKE = 0.7, 1.0   # short deadlines for engines that never answer: move time + margin, a start step
SHORT = {"chatty": {"external_margin": 0.4}, "flood": {"external_margin": 0.4},
         "chatty-start": {"external_handshake": HANDSHAKE}, "mute-start": {"external_handshake": HANDSHAKE}}
"""Only engines that never answer get short deadlines: the others may start slowly on a busy machine."""


def _config(command: str, mode: str = "", **changes: object) -> Config:
    settings = {"engine_time": 0.3, **SHORT.get(mode, {}), **changes}
    return Config(variant="english", human_color="white", opponent="external", external_engine=command,
                  **settings)  # type: ignore[arg-type]


async def _computer_move(session: Session, board: SimulatedDevice) -> tuple[str, list[ev.Message], float]:
    """Set up the board (Black, the computer, moves first in English) and wait for the computer's move:
    the move, the messages said meanwhile and the seconds it took."""
    events = session.subscribe()
    started = time.monotonic()
    board.set_occupancy(session.controller.exp.base)
    messages: list[ev.Message] = []

    def moved(event: ev.Event) -> bool:
        if isinstance(event, ev.Message):
            messages.append(event)
        return isinstance(event, ev.ViewChanged) and bool(event.view["engine"]["move"])

    event = await next_event(events, moved, timeout=WAIT)
    return event.view["engine"]["move"], messages, time.monotonic() - started


def _play_first_move(config: Config) -> tuple[str, list[ev.Message], float]:
    async def main() -> tuple[str, list[ev.Message], float]:
        board = SimulatedDevice(8, 8)
        async with Session(config, board, board, None) as session:
            return await _computer_move(session, board)

    return asyncio.run(main())


def _legal_first_move(text: str) -> bool:
    board = Board("english")
    return any(board.move_text(m) == text for m in board.legal_moves)


def _failure(messages: list[ev.Message]) -> str:
    [note] = [m.text for m in messages if "external engine failed" in m.text]
    assert note.startswith("The external engine failed: hub engine ")
    assert note.endswith(". The built-in engine plays on.")
    return note


@pytest.mark.parametrize(("mode", "deadline", "reason"), [
    ("chatty", GO, f"did not answer 'go think' within {GO:g} s"),
    ("flood", GO, f"did not answer 'go think' within {GO:g} s"),
    ("chatty-start", HANDSHAKE, f"did not answer 'hub' within {HANDSHAKE:g} s"),
    ("mute-start", HANDSHAKE, f"did not answer 'hub' within {HANDSHAKE:g} s"),
    ("unparsable", 0.0, "sent a line that is not Hub protocol ('go think')"),
    ("helper", 0.0, "exited with code 1 while answering 'go think'"),
    ("crash", 0.0, "exited with code 1 while answering 'go think'"),
])
def test_a_misbehaving_engine_is_replaced_within_its_deadline(fake_hub, mode: str, deadline: float,
                                                              reason: str) -> None:
    """The fallback's move, the message with the reason and the command, and no process of the group left."""
    fake = fake_hub(mode)
    move, messages, took = _play_first_move(_config(fake.command, mode))
    assert _legal_first_move(move)
    note = _failure(messages)
    assert reason in note and fake.command in note
    assert took >= deadline
    fake.assert_gone()


def test_an_engine_behind_a_shell_wrapper_goes_with_its_wrapper(fake_hub) -> None:
    fake = fake_hub("chatty")
    move, messages, took = _play_first_move(_config(f"sh -c '{fake.command}; echo wrapper done'", "chatty"))
    assert _legal_first_move(move) and took >= GO
    assert f"did not answer 'go think' within {GO:g} s" in _failure(messages)
    fake.assert_gone()


def test_the_crash_message_quotes_the_engines_last_stderr_lines(fake_hub) -> None:
    fake = fake_hub("crash")
    _move, messages, _took = _play_first_move(_config(fake.command))
    note = _failure(messages)
    assert "Traceback line 29: something broke" in note and "Traceback line 9:" not in note


@pytest.mark.parametrize("mode", ["apostrophes", "non-utf8", "long-line", "flood-then-move"])
def test_an_engine_with_odd_but_harmless_output_plays(fake_hub, mode: str) -> None:
    """`id name=Ed's-engine` froze the game (item 2), a byte that is not UTF-8 was reported as silence, a
    1 MB line stalled the reader (item 8), 20 MB of info made each move take 7-15 s (item 1)."""
    fake = fake_hub(mode)
    move, messages, _took = _play_first_move(_config(fake.command, external_margin=30.0))
    assert _legal_first_move(move)
    assert not [m for m in messages if "failed" in m.text], messages
    fake.assert_gone()


def test_every_new_game_against_a_wedged_engine_leaves_no_process(fake_hub) -> None:
    fake = fake_hub("mute-start")

    async def main() -> None:
        board = SimulatedDevice(8, 8)
        async with Session(_config(fake.command, "mute-start"), board, board, None) as session:
            for game in range(3):
                if game:
                    board.set_occupancy(set())
                    await session.send(cmd.NewGame("english", "white", "external", 3))
                    await session.idle()
                move, messages, _took = await _computer_move(session, board)
                assert _legal_first_move(move) and "did not answer 'hub'" in _failure(messages)
        assert len(fake.groups()) == 3

    asyncio.run(main())
    fake.assert_gone()


@pytest.mark.parametrize("mode", ["chatty", "chatty-start", "ignore-quit"])
def test_closing_the_session_never_waits_for_a_thinking_engine(fake_hub, tmp_path: Path, mode: str) -> None:
    """The session's close waited for a lock the thinking thread held: SIGTERM left `dboard play` running."""
    fake = fake_hub(mode)
    config = _config(fake.command, engine_time=600.0, external_handshake=600.0)

    async def main() -> None:
        board = SimulatedDevice(8, 8)
        session = Session(config, board, board, tmp_path)
        await session.start()
        board.set_occupancy(session.controller.exp.base)
        await until("the engine to start", lambda: bool(fake.groups()), timeout=WAIT)
        if mode != "chatty-start":
            await until("the engine to be asked for a move", lambda: fake.asked.exists(), timeout=WAIT)
        await asyncio.wait_for(session.stop(), timeout=2.0)

    asyncio.run(main())
    fake.assert_gone()


def test_a_cancelled_builtin_search_is_not_reported_as_a_failure(caplog: pytest.LogCaptureFixture) -> None:
    """A newer search cancels one the worker has not even begun: its thread gets no move and no note, and
    nothing is logged as a failure with a traceback (it was, as "the engine found no move"; item 9)."""
    opponent = WorkerOpponent(Config(variant="english", engine_time=5.0))
    board = Board("english")
    first: list[tuple[object, object]] = []
    try:
        thread = threading.Thread(target=lambda: first.append(ask(opponent, board, 10, 5.0)))
        thread.start()
        while not opponent.worker.searching:   # the first search is queued (the worker is still starting)
            time.sleep(0.001)
        move, note = ask(opponent, board, 1, 0.1)
        thread.join(WAIT)
    finally:
        opponent.close()
    assert move in board.legal_moves and note is None
    assert first == [(None, None)]
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


# --- DXP engines as opponents (issue 22: "DXP engines as opponents on the board") -------------------------


def _dxp_follower(*options: str) -> tuple[subprocess.Popen, int]:
    """`dboard dxp --listen 0` (the project's own DXP engine) in a subprocess, and its port."""
    command = [sys.executable, "-m", "controller.cli", "-q", "dxp", "--listen", "0", "--level", "1", "--time",
               "0.02", *options]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # type: ignore[union-attr]
    assert line.startswith("DXP listening on 127.0.0.1:"), line
    return proc, int(line.rsplit(":", 1)[1])


async def _make_move(session: Session, board: SimulatedDevice, shape: Any) -> None:
    """Move the pieces of `shape` on the simulated board, as the person (or their hands for the computer)."""
    board.lift(shape.origin)
    for square in shape.captures:
        board.lift(square)
    board.place(shape.target)
    await session.idle()


def test_a_whole_game_on_the_board_against_a_dxp_engine(tmp_path: Path) -> None:
    """The person (played here by the built-in engine) against `dboard dxp --listen` through DxpEngine: every
    computer move comes from the DXP engine, made on the simulated board, until the game ends."""
    proc, port = _dxp_follower()
    config = Config(variant="international", human_color="white", opponent="dxp",
                    dxp_engine=f"127.0.0.1:{port}", engine_time=0.1, external_margin=20.0,
                    auto_computer=False)   # its moves are made on the board by the test, as by hand
    me = Engine("international")

    async def main() -> tuple[str, list[ev.Event]]:
        board = SimulatedDevice(10, 10)
        async with Session(config, board, board, tmp_path) as session:
            events = session.subscribe()
            ctl = session.controller
            board.set_occupancy(ctl.exp.base)
            await session.idle()
            while ctl.turn_state != "game_over":
                plies = len(ctl.records)
                assert plies < 400, "the game does not end"
                if ctl.turn_state == "person":
                    move = me.choose_move(ctl.game.board, 10, time_limit=0.02)
                    await _make_move(session, board, ctl.exp.shape_of(move))
                else:
                    await until("the DXP engine's move", lambda: ctl.computer_shape is not None
                                or ctl.turn_state == "game_over", timeout=WAIT)
                    if ctl.computer_shape is None:
                        break
                    await _make_move(session, board, ctl.computer_shape)
                await until(f"ply {plies + 1} to be committed", lambda plies=plies: len(ctl.records) > plies,
                            timeout=WAIT)
            said = []
            while not events.empty():
                said.append(events.get_nowait())
            return ctl.pdn(), said

    try:
        pdn, said = asyncio.run(main())
        assert proc.wait(timeout=WAIT) == 0   # the follower's one game ended when the session closed
    finally:
        proc.kill()
        proc.wait()
    assert '[Black "DXP engine"]' in pdn and '[Result "*"]' not in pdn
    assert [e for e in said if isinstance(e, ev.GameOver)]
    assert not [e.text for e in said if isinstance(e, ev.Message) and "failed" in e.text]


def test_a_dxp_engine_that_cannot_be_reached_or_play_the_variant_is_replaced(tmp_path: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    for variant, person, reason in [
        ("international", "black", f"cannot connect to DXP engine at 127.0.0.1:{port}"),
        ("english", "white", "DXP is played on the 10x10 board of international draughts"),
    ]:   # the computer moves first
        config = Config(variant=variant, human_color=person, opponent="dxp", dxp_engine=f"127.0.0.1:{port}",
                        engine_time=0.1)

        async def main(config: Config = config) -> tuple[str, list[ev.Message], float]:
            size = 10 if config.variant == "international" else 8
            board = SimulatedDevice(size, size)
            async with Session(config, board, board, None) as session:
                return await _computer_move(session, board)

        move, messages, _took = asyncio.run(main())
        assert move
        [note] = [m.text for m in messages if "DXP engine failed" in m.text]
        assert reason in note and note.endswith("The built-in engine plays on."), note


def test_the_session_closes_at_once_while_a_dxp_engine_thinks(tmp_path: Path) -> None:
    """A DXP engine that accepts the game and never moves: closing the session does not wait for it."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        accepted = threading.Event()

        def follower() -> None:
            conn, _ = server.accept()
            with conn:
                conn.recv(4096)
                conn.sendall(b"A" + b"slowpoke".ljust(32) + b"0\0")
                accepted.set()
                while conn.recv(4096):
                    pass

        threading.Thread(target=follower, daemon=True).start()
        config = Config(variant="international", human_color="black", opponent="dxp",
                        dxp_engine=f"127.0.0.1:{port}", engine_time=600.0)

        async def main() -> None:
            board = SimulatedDevice(10, 10)
            session = Session(config, board, board, tmp_path)
            await session.start()
            board.set_occupancy(session.controller.exp.base)
            await until("the DXP engine to accept the game", accepted.is_set, timeout=WAIT)
            await asyncio.wait_for(session.stop(), timeout=2.0)

        asyncio.run(main())
