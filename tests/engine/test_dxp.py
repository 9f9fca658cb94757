"""`dboard dxp` against hostile peers (issue 22, items 5-7 and 9): the follower in a subprocess serves each
peer on its own, refuses what it cannot play and survives; the initiator gives up at its deadlines."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import pytest
from dxp_peer import ROOT, WAIT, FollowerProcess, Peer, game_request, wait_closed

from engine.dxp import GAME_MOVES, time_control
from engine.dxp_protocol import BackAcc, Chat, GameAcc, GameEnd, RecordReader

START = "e" * 20   # 20 empty squares: the start position's middle and black half, for building positions


def test_peers_that_hang_up_before_its_move_end_only_their_own_session() -> None:
    """One peer leaving before the follower's move killed it with Broken pipe, --forever or not."""
    with FollowerProcess("--forever") as follower:
        with follower.peer() as peer:
            peer.send(game_request("W"))
            peer.reset()

        def hang_up(number: int) -> None:
            with follower.peer() as peer:
                peer.send(game_request("W"))
                if number % 2:
                    peer.reset()

        crowd = [threading.Thread(target=hang_up, args=(n,)) for n in range(60)]
        for thread in crowd:
            thread.start()
        for thread in crowd:
            thread.join(WAIT)
        follower.assert_plays()
        log = follower.stop()
    assert "Traceback" not in log and "Broken pipe" not in log.replace("left: [Errno 32] Broken pipe", "")


def test_bad_game_requests_are_refused_with_code_1_and_a_good_one_follows() -> None:
    white_man_on_1 = "w" + "e" * 49
    with FollowerProcess("--forever") as follower, follower.peer() as peer:
        for request, reason in [
            (game_request("W", "BQ" + START + "e" * 10 + "w" * 20), "side to move 'Q'"),
            (game_request("W", "BW" + "x" * 50), "position letter 'x'"),
            (game_request("Q"), "follower color 'Q'"),
            (game_request("W", "BW" + "e" * 50), "empty board"),
            (game_request("W", "BW" + "w" * 50), "50 white pieces"),
            (game_request("W", "BW" + white_man_on_1), "a white man on square 1"),
        ]:
            peer.send(request)
            chat = peer.receive()
            assert isinstance(chat, Chat) and reason in chat.text, (request, chat)
            assert peer.receive() == GameAcc("draughts-board", 1)
        peer.send(game_request("Z"))
        assert peer.receive() == GameAcc("draughts-board", 0)
        follower.stop()


def test_a_record_without_end_drops_that_connection_once_and_costs_nothing() -> None:
    """32 MB without NUL: 220 s of CPU and 29,953 log lines; now the connection is dropped at the limit."""
    with FollowerProcess("--forever") as follower:
        with follower.peer() as peer:
            flood = threading.Thread(target=_send_quietly, args=(peer.sock, b"M" * 32_000_000))
            flood.start()
            wait_closed(peer)
            flood.join(WAIT)
        follower.assert_plays()
        log = follower.stop()
    assert log.count("longer than 512 bytes") == 1


def _send_quietly(sock: socket.socket, data: bytes) -> None:
    with contextlib.suppress(OSError):   # the follower hangs up on it
        sock.sendall(data)


def test_a_silent_or_trickling_peer_neither_blocks_the_others_nor_stays() -> None:
    """One connection at a time, no idle timeout: one silent peer blocked all others (item 6)."""
    with FollowerProcess("--forever", "--request-timeout", "0.5") as follower:
        connected = time.monotonic()
        with follower.peer() as silent, follower.peer() as trickling:
            sent: list[int] = []
            drip = threading.Thread(target=_trickle, args=(trickling, game_request("W"), sent))
            drip.start()
            follower.assert_plays()   # served while both others are connected
            wait_closed(silent)
            wait_closed(trickling)
            assert time.monotonic() - connected >= 0.5
            drip.join(WAIT)
            assert len(sent) < len(game_request("W")), "the trickling peer finished its record"
        follower.stop()


def _trickle(peer: Peer, record: str, sent: list[int]) -> None:
    """One byte every 20 ms: a record that takes longer than the deadline for it."""
    with contextlib.suppress(OSError):
        for byte in record.encode():
            peer.sock.send(bytes([byte]))
            sent.append(byte)
            time.sleep(0.02)


def test_without_forever_a_port_scan_does_not_use_up_its_one_game() -> None:
    with FollowerProcess("--request-timeout", "0.5") as follower:
        for _ in range(5):
            socket.create_connection(("127.0.0.1", follower.port), timeout=WAIT).close()
        with follower.peer() as garbage:
            garbage.send("Q" * 40, "M0001")
            wait_closed(garbage)
        with follower.peer() as peer:
            peer.send(game_request("Z"))
            assert peer.receive() == GameAcc("draughts-board", 0)
            peer.send("E01")
            assert peer.receive() == GameEnd(0, 1)
        assert follower.proc.wait(timeout=WAIT) == 0


def test_moves_and_takebacks_before_a_game_are_refused() -> None:
    with FollowerProcess("--forever") as follower, follower.peer() as peer:
        peer.send("M0000322800")
        refusal = peer.receive()
        assert isinstance(refusal, Chat) and "no game in progress" in refusal.text
        peer.send("B001W")
        assert peer.receive() == BackAcc(2)
        follower.assert_plays()
        follower.stop()


def test_a_game_end_with_an_unknown_reason_is_answered_with_a_well_formed_record() -> None:
    """A GAMEEND with reason 9 was answered `E-57`."""
    with FollowerProcess("--forever") as follower, follower.peer() as peer:
        peer.send(game_request("Z"))
        assert peer.receive() == GameAcc("draughts-board", 0)
        peer.send("E91")
        assert peer.receive() == GameEnd(0, 1)
        follower.assert_plays()
        follower.stop()


# --- the initiator (`dboard dxp --connect`) against followers that never answer ---------------------------


def _connect_to(behavior: Callable[[socket.socket], None], *options: str) -> subprocess.CompletedProcess:
    """Run `dboard dxp --connect` against a follower that does `behavior` with the connection."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def serve() -> None:
            conn, _ = server.accept()
            with conn:
                behavior(conn)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        command = [sys.executable, "-m", "controller.cli", "-q", "dxp", "--connect", f"127.0.0.1:{port}",
                   "--level", "1", "--time", "0.1", *options]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=WAIT)


def _silent(conn: socket.socket) -> None:
    conn.recv(4096)
    conn.recv(4096)   # waits until the initiator gives up and closes


def _drip(conn: socket.socket) -> None:
    try:
        while True:
            conn.send(b"C")
            time.sleep(0.02)
    except OSError:
        pass


def _accept_and_wait(conn: socket.socket) -> None:
    conn.recv(4096)
    conn.sendall(GameAcc("never moves", 0).encode().encode() + b"\0")
    conn.recv(4096)


def test_the_initiator_gives_up_on_a_silent_or_trickling_follower() -> None:
    """The 10 s timeout was dropped right after connecting: a silent follower held it for ever (item 7)."""
    for behavior in (_silent, _drip):
        done = _connect_to(behavior, "--handshake", "0.5")
        assert done.returncode == 1 and "did not accept the game in 0.5 s" in done.stderr, done.stderr


def test_the_initiator_gives_up_on_a_follower_that_never_moves() -> None:
    done = _connect_to(_accept_and_wait, "--color", "black", "--margin", "0.3")
    assert done.returncode == 1 and "did not move within 0.4 s" in done.stderr, done.stderr


def _announced(move_time: str) -> tuple[int, int]:
    """(minutes, moves) of the GAMEREQ `dboard dxp --connect --time move_time` sends."""
    requests: list[str] = []

    def read_request(conn: socket.socket) -> None:
        requests.append(conn.recv(4096).decode("ascii"))
        conn.sendall(GameAcc("refuses", 3).encode().encode() + b"\0")

    done = _connect_to(read_request, "--time", move_time)
    assert done.returncode == 1 and "refused the game" in done.stderr, done.stderr
    record = requests[0].rstrip("\0")
    return int(record[36:39]), int(record[39:42])


def test_the_initiator_announces_its_move_time_as_the_game_request_time_control() -> None:
    """The GAMEREQ said 0 minutes for 0 moves: a follower that manages its clock had no time at all."""
    assert _announced("2.5") == time_control(2.5) == (3, 0)


@pytest.mark.parametrize(("move_time", "minutes"), [("1", 1), ("0.2", 1)])
def test_the_game_request_has_no_move_cap_and_minutes_for_the_game(move_time: str, minutes: int) -> None:
    """`--time 1` said 1 minute for 60 moves: DXP's moves are the whole game's, and Scan ended the game at
    move 60 ("unknown result"); `--time 0.2` said 1 minute for 300 moves. 0 moves is no cap (Scan: the
    game goes on), and the minutes are those of a GAME_MOVES game at --time a move, at least 1."""
    assert _announced(move_time) == (minutes, 0)


@pytest.mark.parametrize("move_time", [0.02, 0.1, 0.5, 1.0, 2.5, 7.0, 60.0, 600.0])
def test_the_time_control_fits_the_record_and_gives_about_the_move_time(move_time: float) -> None:
    minutes, moves = time_control(move_time)
    assert 1 <= minutes <= 999 and moves == 0
    per_move = minutes * 60 / GAME_MOVES   # what a follower spreading its minutes over a typical game gets
    assert per_move >= move_time and (per_move <= move_time + 60 / GAME_MOVES or minutes in (1, 999))


def test_the_initiator_answers_a_game_end_and_leaves_at_once() -> None:
    """After the follower's GAMEEND with "another game welcome" (E00), `dboard dxp --connect` waited its
    whole move deadline (31 s) for a game request it never sends. It answers "no more games" and exits."""
    received: list[str] = []

    def end_after_its_first_move(conn: socket.socket) -> None:
        reader = RecordReader()
        conn.settimeout(WAIT)

        def record() -> str:
            while not reader.records:
                chunk = conn.recv(4096)
                if not chunk:
                    return ""
                reader.feed(chunk)
            return reader.records.popleft().decode("ascii")

        received.append(record())   # GAMEREQ
        conn.sendall(GameAcc("ends early", 0).encode().encode() + b"\0")
        received.append(record())   # the initiator's first move (it plays White)
        conn.sendall(b"E00\0")
        received.append(record())   # its answer
        received.append(record())   # "": it closed the connection

    done = _connect_to(end_after_its_first_move)   # (it used to wait out its move deadline here, past WAIT)
    assert done.returncode == 0, done.stderr
    assert received[0].startswith("R01") and received[1].startswith("M")
    assert received[2:] == ["E01", ""]
