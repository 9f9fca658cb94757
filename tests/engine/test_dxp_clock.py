"""The follower's clock and the MOVE record's time field, on `DxpPlayer` with a recording connection and an
engine that reports the time it is given (a fake clock: each move takes `SECONDS`)."""

from __future__ import annotations

import types

import pytest

from engine import dxp
from engine.dxp import GAME_MOVES, DxpPlayer, move_message
from engine.dxp_protocol import DxpMessage, GameAcc, GameReq, MoveMsg
from rules import Board, Move

SECONDS = 1.4


class Recorder:
    """Stands for the DxpConnection: keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[DxpMessage] = []

    def send(self, message: DxpMessage) -> None:
        self.sent.append(message)


class TimedEngine:
    """Plays the first legal move, noting its time limit; each move advances the fake clock SECONDS."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.limits: list[float | None] = []

    def new_game(self) -> None:
        pass

    def choose_move(self, board: Board, level: int, time_limit: float | None = None) -> Move:
        self.limits.append(time_limit)
        self.clock[0] += SECONDS
        return next(iter(board.legal_moves))


@pytest.fixture
def player(monkeypatch: pytest.MonkeyPatch) -> tuple[DxpPlayer, Recorder, TimedEngine]:
    clock = [1000.0]
    monkeypatch.setattr(dxp, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    conn = Recorder()
    follower = DxpPlayer(conn, level=10, move_time=0.05)   # type: ignore[arg-type]
    engine = TimedEngine(clock)
    follower.engine = engine   # type: ignore[assignment]
    return follower, conn, engine


def _play(follower: DxpPlayer, replies: int) -> None:
    """Answer the follower's moves with our first legal move, `replies` times."""
    for _ in range(replies):
        board = follower.board
        follower.handle(move_message(board, next(iter(board.legal_moves))))


def test_the_move_record_carries_the_seconds_of_that_move_not_the_total(player) -> None:
    """The time field was the time used so far (1, 2, 4, 5 ...); DXP wants the time for that move."""
    follower, conn, _engine = player
    follower.handle(GameReq("peer", "W"))
    _play(follower, 3)
    times = [m.time for m in conn.sent if isinstance(m, MoveMsg)]
    assert times == [round(SECONDS)] * 4


def test_the_follower_plays_with_the_game_requests_minutes_not_its_own_flag(player) -> None:
    """`--listen` played --time a move whatever the GAMEREQ said."""
    follower, conn, engine = player
    follower.handle(GameReq("peer", "W", 2, 40))   # 2 minutes for 40 moves: 3 s a move
    assert conn.sent[0] == GameAcc("draughts-board", 0)
    _play(follower, 1)
    assert engine.limits[0] == pytest.approx(3.0)
    assert engine.limits[1] == pytest.approx((120 - SECONDS) / 39)   # what is left over the moves left


def test_no_number_of_moves_spreads_the_minutes_over_a_typical_game(player) -> None:
    follower, _conn, engine = player
    follower.handle(GameReq("peer", "W", 1, 0))
    assert engine.limits[0] == pytest.approx(60 / GAME_MOVES)


def test_a_game_request_without_time_leaves_the_followers_own_move_time(player) -> None:
    follower, _conn, engine = player
    follower.handle(GameReq("peer", "W", 0, 0))
    assert engine.limits == [0.05]


def test_the_clock_restarts_with_each_game(player) -> None:
    follower, _conn, engine = player
    follower.handle(GameReq("peer", "W", 2, 40))
    _play(follower, 5)
    follower.handle(GameReq("peer", "W", 2, 40))
    assert engine.limits[-1] == pytest.approx(3.0)
