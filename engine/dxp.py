"""`dboard dxp`: the built-in engine playing 10x10 games over the DamExchange protocol (TCP).

`--listen PORT` makes it the follower (it waits for GAMEREQ); `--connect HOST:PORT` the initiator.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Engine
from engine.dxp_protocol import (
    BackAcc,
    BackReq,
    Chat,
    DxpConnection,
    DxpError,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
)
from engine.notation import board_from_position, find_move, position_string
from rules import Board, Color, Game, Move, Outcome, get_variant

logger = logging.getLogger(__name__)

ENGINE_NAME = "draughts-board"
DXP_LETTERS = {"white": "w", "black": "z", "turn": ("W", "Z")}


def dxp_position(board: Board) -> tuple[str, str]:
    """(side to move 'W'/'Z', 50 letters e/w/z/W/Z) for a GAMEREQ."""
    text = position_string(board, "w", "z", ("W", "Z"))
    return text[0], text[1:]


def board_from_dxp(side: str, squares: str, variant: str = "international") -> Board:
    """The Board described by a GAMEREQ position."""
    return board_from_position(get_variant(variant), side, squares, "w", "z", ("W", "Z"))


def move_message(board: Board, move: Move, seconds: int = 0) -> MoveMsg:
    """A MOVE record for `move` played on `board`."""
    num = board.variant.geometry.number
    return MoveMsg(seconds, num(move.from_square), num(move.to_square), tuple(num(s) for s in move.captures))


def move_from_message(board: Board, msg: MoveMsg) -> Move:
    """The legal move a MOVE record names (ProtocolMoveError if none)."""
    text = f"{msg.origin}{'x' if msg.captures else '-'}{msg.dest}"
    return find_move(board, msg.origin, msg.dest, msg.captures, text)


def plies_for(move_number: int, side: str, start: Board) -> int:
    """How many plies after the start position move `move_number` of `side` ('W'/'Z') is to be played."""
    mover = Color.WHITE if side == "W" else Color.BLACK
    return 2 * (move_number - 1) + (0 if mover == start.turn else 1)


@dataclass
class DxpPlayer:
    """The engine's side of one DXP connection: plays moves, answers takebacks and game ends.

    The game is kept as a `rules.Game`, so its draw rules end the game with a GAMEEND.
    """

    conn: DxpConnection
    level: int = 10
    move_time: float = 1.0
    variant: str = "international"

    def __post_init__(self) -> None:
        self.engine = Engine(self.variant)
        self.game = Game(self.variant)
        self.my_color = Color.WHITE
        self.used = 0.0
        self.finished = False

    def __repr__(self) -> str:
        return f"DxpPlayer({self.variant}, level={self.level}, plies={len(self.game.moves)})"

    @property
    def board(self) -> Board:
        """The current position."""
        return self.game.board

    def _end_if_over(self) -> bool:
        outcome = self.game.outcome()
        if outcome is None:
            return False
        reason = 2 if outcome.winner is None else (3 if outcome.winner == self.my_color else 1)
        logger.info("DXP game over: %s (%s)", outcome.result, outcome.reason)
        self.conn.send(GameEnd(reason, 1))
        self.finished = True
        return True

    def _play_if_my_turn(self) -> None:
        if self.finished or self._end_if_over() or self.board.turn != self.my_color:
            return
        t0 = time.monotonic()
        move = self.engine.choose_move(self.board, self.level, time_limit=self.move_time)
        self.used += time.monotonic() - t0
        msg = move_message(self.board, move, int(self.used))
        self.game.push(move)
        self.conn.send(msg)
        self._end_if_over()

    def begin(self, req: GameReq) -> None:
        """Set up the requested game (we are the follower) and move if it is our turn."""
        self.my_color = Color.WHITE if req.follower_color == "W" else Color.BLACK
        if req.position is None:
            self.game = Game(self.variant)
        else:
            self.game = Game(
                self.variant, board_from_dxp(req.side_to_move or "W", req.position, self.variant).fen()
            )
        self.engine.new_game()
        self.finished = False
        self.conn.send(GameAcc(ENGINE_NAME, 0))
        self._play_if_my_turn()

    def handle(self, msg: object) -> bool:
        """React to one record; False when the session should end."""
        if isinstance(msg, GameReq):
            self.begin(msg)
        elif isinstance(msg, MoveMsg):
            try:
                move = move_from_message(self.board, msg)
            except ValueError as exc:
                logger.error("illegal DXP move from peer: %s", exc)
                self.conn.send(Chat(f"illegal move: {exc}"))
                self.conn.send(GameEnd(0, 1))
                return False
            self.game.push(move)
            self._play_if_my_turn()
        elif isinstance(msg, BackReq):
            target = self._target_plies(msg)
            if 0 <= target <= len(self.game.moves):
                while len(self.game.moves) > target:
                    self.game.pop()
                self.finished = False
                self.conn.send(BackAcc(0))
                self._play_if_my_turn()
            else:
                self.conn.send(BackAcc(2))
        elif isinstance(msg, GameEnd):
            if not self.finished:
                self.conn.send(GameEnd(msg.reason if msg.reason in (0, 2) else 4 - msg.reason, msg.stop))
            self.finished = True
            return msg.stop == 0
        elif isinstance(msg, Chat):
            logger.info("DXP chat: %s", msg.text)
        else:
            logger.info("DXP %s ignored", msg)
        return True

    def _target_plies(self, msg: BackReq) -> int:
        start = self.board.copy()
        while start.move_stack:
            start.pop()
        return plies_for(msg.move_number, msg.side_to_move, start)

    def serve(self) -> None:
        """Handle records until the peer ends the session or disconnects."""
        while True:
            try:
                msg = self.conn.receive()
            except (ConnectionError, OSError):
                return
            except DxpError as exc:
                logger.error("bad DXP record: %s", exc)
                continue
            if not self.handle(msg):
                return


def listen(
    port: int,
    host: str = "127.0.0.1",
    level: int = 10,
    move_time: float = 1.0,
    ready: Callable[[int], None] | None = None,
    once: bool = True,
) -> None:
    """Accept DXP connections on host:port and play as follower (one session if `once`).

    `ready(port)` is called once the socket listens (port 0 picks a free port).
    """
    with socket.create_server((host, port)) as server:
        bound = server.getsockname()[1]
        logger.info("DXP follower listening on %s:%d", host, bound)
        if ready is not None:
            ready(bound)
        while True:
            sock, peer = server.accept()
            logger.info("DXP connection from %s", peer)
            with DxpConnection(sock) as conn:
                DxpPlayer(conn, level, move_time).serve()
            if once:
                return


def connect(
    host: str,
    port: int,
    my_color: Color = Color.WHITE,
    level: int = 10,
    move_time: float = 1.0,
    timeout: float = 10.0,
) -> Outcome | None:
    """Connect as initiator, request a game from the start position and play it out; returns its outcome."""
    sock = socket.create_connection((host, port), timeout=timeout)
    with DxpConnection(sock) as conn:
        player = DxpPlayer(conn, level, move_time)
        player.my_color = my_color
        conn.send(GameReq(ENGINE_NAME, "Z" if my_color == Color.WHITE else "W", 0, 0))
        answer = conn.receive()
        if not isinstance(answer, GameAcc) or answer.code != 0:
            raise DxpError(f"DXP peer refused the game: {answer}")
        conn.sock.settimeout(None)
        player._play_if_my_turn()
        player.serve()
        return player.game.outcome()
