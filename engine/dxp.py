"""`dboard dxp`: the built-in engine playing 10x10 games over the DamExchange protocol (TCP).

`--listen PORT` makes it the follower (it waits for GAMEREQ); `--connect HOST:PORT` the initiator.
"""

from __future__ import annotations

import logging
import math
import socket
import threading
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
    DxpMessage,
    DxpRecordTooLong,
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


FIRST_RECORD = 10.0
"""Seconds a peer that connects to the follower has to send its GAMEREQ."""
BETWEEN_MOVES = 600.0
"""Seconds the follower waits for the initiator's next move (or takeback) before hanging up."""
HANDSHAKE = 30.0
"""Seconds an initiator waits for the connection and the GAMEACC."""
MARGIN = 30.0
"""Seconds an initiator waits beyond its own move time for the peer's move."""
MAX_PEERS = 32
"""Connections a follower serves at once; more are closed at once."""
GAME_MOVES = 60
"""Moves a side makes in a typical game: what a GAMEREQ's minutes for the whole game are spread over."""
MIN_MOVES_LEFT = 20
"""A follower with the game's minutes and no number of moves spreads what is left over at least this many."""
MIN_MOVE_TIME = 0.05
"""Seconds a follower gives a move however little is left on its clock."""
GAMEEND_WAIT = 2.0
"""Seconds an initiator waits for the follower to answer its GAMEEND before it hangs up."""


@dataclass
class DxpPlayer:
    """The engine's side of one DXP connection: plays moves, answers game requests, takebacks and game ends.

    The game is kept as a `rules.Game`, so its draw rules end the game with a GAMEEND. `playing` is False
    until a GAMEREQ is accepted and after the game ends; moves and takebacks then are refused.
    """

    conn: DxpConnection
    level: int = 10
    move_time: float = 1.0
    variant: str = "international"
    initiator: bool = False

    def __post_init__(self) -> None:
        self.engine = Engine(self.variant)
        self.game = Game(self.variant)
        self.my_color = Color.WHITE
        self.used = 0.0
        self.my_moves = 0
        self.clock: tuple[float, int] | None = None   # a GAMEREQ's (seconds for the game, moves or 0)
        self.playing = False
        self.games = 0

    def __repr__(self) -> str:
        plies = len(self.game.moves)
        return f"DxpPlayer({self.variant}, level={self.level}, plies={plies}, games={self.games})"

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
        self.playing = False
        return True

    def _play_if_my_turn(self) -> None:
        if not self.playing or self._end_if_over() or self.board.turn != self.my_color:
            return
        t0 = time.monotonic()
        move = self.engine.choose_move(self.board, self.level, time_limit=self.move_budget())
        spent = time.monotonic() - t0
        self.used += spent
        self.my_moves += 1
        msg = move_message(self.board, move, round(spent))   # DXP: the seconds this move took
        self.game.push(move)
        self.conn.send(msg)
        self._end_if_over()

    def move_budget(self) -> float:
        """Seconds for our next move: `move_time`, or with a GAMEREQ's time control what is left of its
        minutes over the moves left (its number of moves; 0 is no cap: a GAME_MOVES game, and never fewer
        than MIN_MOVES_LEFT left, so a long game slows down rather than running out)."""
        if self.clock is None:
            return self.move_time
        total, moves = self.clock
        left = total - self.used
        moves_left = moves - self.my_moves if moves else max(MIN_MOVES_LEFT, GAME_MOVES - self.my_moves)
        return max(MIN_MOVE_TIME, left / max(1, moves_left))

    def begin(self, req: GameReq) -> None:
        """Set up the requested game (we are the follower) and move if it is our turn; a position no game
        can reach is refused with GAMEACC code 1."""
        try:
            start = None if req.position is None else board_from_dxp(req.side_to_move or "W", req.position,
                                                                       self.variant)
        except ValueError as exc:
            self.refuse(str(exc))
            return
        self.my_color = Color.WHITE if req.follower_color == "W" else Color.BLACK
        self.game = Game(self.variant) if start is None else Game(self.variant, start.fen())
        self.engine.new_game()
        self.used = 0.0
        self.my_moves = 0
        self.clock = (req.minutes * 60.0, req.moves) if req.minutes else None   # 0 minutes: no time given
        if self.clock is not None:
            logger.info("DXP game: %d minutes for %s; %.2f s for our first move", req.minutes,
                        f"{req.moves} moves" if req.moves else "the game", self.move_budget())
        self.playing = True
        self.games += 1
        self.conn.send(GameAcc(ENGINE_NAME, 0))
        self._play_if_my_turn()

    def refuse(self, reason: str) -> None:
        """Refuse a game request (GAMEACC code 1: color or position), saying why in a chat record first."""
        logger.warning("refusing a DXP game: %s", reason)
        self.conn.send(Chat(f"game refused: {reason}"))
        self.conn.send(GameAcc(ENGINE_NAME, 1))

    def handle(self, msg: DxpMessage) -> bool:
        """React to one record; False when the session should end."""
        if isinstance(msg, GameReq):
            self.begin(msg)
        elif isinstance(msg, MoveMsg):
            if not self.playing:
                self.conn.send(Chat("move refused: no game in progress (send a GAMEREQ first)"))
                return True
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
            if self.games and 0 <= target <= len(self.game.moves):
                while len(self.game.moves) > target:
                    self.game.pop()
                self.playing = True
                self.conn.send(BackAcc(0))
                self._play_if_my_turn()
            else:
                self.conn.send(BackAcc(2))
        elif isinstance(msg, GameEnd):
            # The initiator asks for no other game: it answers "no more games" and the session is over
            # (it waited its whole move deadline for a GAMEREQ that the follower never sends).
            stop = 1 if self.initiator else msg.stop
            if self.playing:
                self.conn.send(GameEnd(MIRRORED_REASON.get(msg.reason, 0), stop))
            self.playing = False
            return not self.initiator and msg.stop == 0
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

    def serve(self, first: float | None = FIRST_RECORD, between: float | None = BETWEEN_MOVES) -> None:
        """Handle records until the peer ends the session, leaves, goes silent or stops speaking DXP.

        The peer has `first` seconds for its first record, then `between` seconds for each next game request,
        move or takeback (chat does not restart the wait). A malformed GAMEREQ is refused; other malformed
        records are skipped; a record over the size limit ends the connection.
        """
        deadline = None if first is None else time.monotonic() + first
        if self.initiator and not self.playing and self.games:   # our first move ended the game
            deadline = time.monotonic() + GAMEEND_WAIT
        while True:
            try:
                msg = self.conn.receive(deadline)
            except TimeoutError:
                if self.initiator and not self.playing and self.games:
                    logger.info("DXP follower did not answer our GAMEEND; closing %r", self.conn)
                    return
                logger.warning("DXP peer silent for too long; closing %r", self.conn)
                return
            except DxpRecordTooLong as exc:
                logger.warning("%s; closing %r", exc, self.conn)
                return
            except DxpError as exc:
                logger.warning("bad DXP record: %s", exc)
                if exc.kind == "R":
                    self.refuse(exc.detail)
                continue
            if not self.handle(msg):
                return
            if self.initiator and not self.playing:   # we ended the game: only its GAMEEND is to come
                deadline = time.monotonic() + GAMEEND_WAIT
            elif not isinstance(msg, Chat) and between is not None:
                deadline = time.monotonic() + between


MIRRORED_REASON = {0: 0, 1: 3, 2: 2, 3: 1}
"""A peer's GAMEEND reason (0 unknown, 1 I lose, 2 draw, 3 I win) as we answer it."""


class Follower:
    """Accepts DXP connections and plays each on its own thread (at most MAX_PEERS at once).

    With `once`, it stops after the first connection in which a game was accepted ends: peers that never
    send a valid GAMEREQ (a port scan, a silent or hostile peer) do not use up its one game.
    """

    def __init__(self, server: socket.socket, level: int, move_time: float, once: bool,
                 first: float = FIRST_RECORD, between: float = BETWEEN_MOVES,
                 max_peers: int = MAX_PEERS) -> None:
        self.server = server
        self.level, self.move_time, self.once = level, move_time, once
        self.first, self.between = first, between
        self.slots = threading.BoundedSemaphore(max_peers)
        self.done = threading.Event()
        self.games = 0

    def __repr__(self) -> str:
        return f"Follower({self.server.getsockname()}, games={self.games}, once={self.once})"

    def run(self) -> None:
        """Accept until done (with `once`) or for ever."""
        self.server.settimeout(0.2)
        while not self.done.is_set():
            try:
                sock, peer = self.server.accept()
            except TimeoutError:
                continue
            if not self.slots.acquire(blocking=False):
                logger.warning("DXP connection from %s refused: %d peers already", peer, MAX_PEERS)
                sock.close()
                continue
            logger.info("DXP connection from %s", peer)
            threading.Thread(target=self._serve, args=(sock, peer), daemon=True, name=f"dxp-{peer}").start()

    def _serve(self, sock: socket.socket, peer: object) -> None:
        player = None
        try:
            with DxpConnection(sock) as conn:
                player = DxpPlayer(conn, self.level, self.move_time)
                player.serve(self.first, self.between)
        except (OSError, ConnectionError) as exc:   # the peer left (a reset, a broken pipe) mid-game
            logger.info("DXP peer %s left: %s", peer, exc)
        finally:
            self.slots.release()
            if player is not None and player.games:
                self.games += 1
                if self.once:
                    self.done.set()
            logger.info("DXP connection from %s closed", peer)


def listen(
    port: int,
    host: str = "127.0.0.1",
    level: int = 10,
    move_time: float = 1.0,
    ready: Callable[[int], None] | None = None,
    once: bool = True,
    first: float = FIRST_RECORD,
    between: float = BETWEEN_MOVES,
) -> None:
    """Accept DXP connections on host:port and play as follower, each peer on its own thread.

    With `once`, return when the first peer that played a game leaves. `ready(port)` is called once the
    socket listens (port 0 picks a free port).
    """
    with socket.create_server((host, port)) as server:
        bound = server.getsockname()[1]
        logger.info("DXP follower listening on %s:%d", host, bound)
        if ready is not None:
            ready(bound)
        Follower(server, level, move_time, once, first, between).run()


def time_control(move_time: float) -> tuple[int, int]:
    """(minutes, moves) for a GAMEREQ that gives the follower about `move_time` seconds a move.

    DXP's number of moves is that of the whole game (Scan ends the game there, "unknown result"), and 0 is
    none: so 0 moves, and the whole minutes that hold a GAME_MOVES game at `move_time` a move, rounded up
    (at least 1, at most 999): 1 s is 1 minute, 2.5 s 3 minutes, 0.2 s 1 minute (the least the record can
    say: 1 s a move over such a game, 5 times ours).
    """
    return max(1, min(999, math.ceil(move_time * GAME_MOVES / 60 - 1e-9))), 0


def connect(
    host: str,
    port: int,
    my_color: Color = Color.WHITE,
    level: int = 10,
    move_time: float = 1.0,
    handshake: float = HANDSHAKE,
    margin: float = MARGIN,
) -> Outcome | None:
    """Connect as initiator, request a game from the start position and play it out; returns its outcome.

    The connection and the GAMEACC have `handshake` seconds; each of the peer's moves `move_time + margin`
    seconds from when it is its turn (DxpError or ConnectionError otherwise).
    """
    started = time.monotonic()
    sock = socket.create_connection((host, port), timeout=handshake)
    minutes, moves = time_control(move_time)
    theirs = minutes * 60 / GAME_MOVES
    if theirs > 1.5 * move_time:
        logger.warning("DXP: %g s a move is less than the GAMEREQ can announce; the follower gets %d "
                       "minute(s) for the game, about %.2g s a move over %d moves", move_time, minutes,
                       theirs, GAME_MOVES)
    with DxpConnection(sock) as conn:
        player = DxpPlayer(conn, level, move_time, initiator=True)
        player.my_color = my_color
        conn.send(GameReq(ENGINE_NAME, "Z" if my_color == Color.WHITE else "W", minutes, moves))
        while True:
            try:
                answer = conn.receive(started + handshake)
            except TimeoutError:
                raise DxpError(f"DXP peer {host}:{port} did not accept the game in {handshake:g} s") from None
            if not isinstance(answer, Chat):
                break
        if not isinstance(answer, GameAcc) or answer.code != 0:
            raise DxpError(f"DXP peer refused the game: {answer}")
        player.playing = True
        player.games = 1
        player._play_if_my_turn()
        player.serve(move_time + margin, move_time + margin)
        if player.playing:
            raise DxpError(f"DXP peer {host}:{port} did not move within {move_time + margin:g} s")
        return player.game.outcome()
