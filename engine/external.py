"""External engines as opponents: a Hub engine process or a DXP peer, with deadlines and built-in fallback.

Any failure (process died, connection lost, timeout, illegal move) raises `ExternalEngineError` with the
reason; `FallbackOpponent` catches it, keeps the message and lets the built-in engine play on.
"""

from __future__ import annotations

import contextlib
import logging
import shlex
import socket
import time
from collections.abc import Sequence

from engine.core import Engine
from engine.dxp import ENGINE_NAME, dxp_position, move_from_message, move_message
from engine.dxp_protocol import (
    BackAcc,
    BackReq,
    Chat,
    DxpConnection,
    DxpError,
    DxpMessage,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
)
from engine.hub_protocol import (
    MAX_LINE,
    OPTIONS_PARAM,
    HubMessage,
    HubSyntaxError,
    format_message,
    parse_message,
)
from engine.notation import ProtocolMoveError, hub_line, parse_hub_move
from engine.process import EngineGone, EngineProcess, EngineTimeout, ExternalEngineError
from readers import shown
from rules import Board, Color, Move, Variant, get_variant
from rules.options import format_text

__all__ = ["DxpEngine", "ExternalEngineError", "FallbackOpponent", "HubEngine"]

logger = logging.getLogger(__name__)

MAX_NAME = 64
"""The longest engine name kept from an engine's `id` line or a DXP peer's game acceptance."""


class HubEngine:
    """A Hub-protocol engine (e.g. Scan, or `dboard hub`) in a child process with its own process group.

    Every question has one deadline counted from when it is asked, whatever the engine prints meanwhile:
    the handshake (`hub` ... `wait`, `init` ... `ready`) `handshake_timeout` seconds each, a move its move
    time plus `margin`. On any failure the group is killed and ExternalEngineError says why, with the
    configured command and the engine's last stderr lines. `start=False` leaves the handshake to `start()`
    (so another thread can `close()` an engine that hangs in it).
    """

    def __init__(
        self,
        command: str | Sequence[str],
        variant: Variant | str = "international",
        handshake_timeout: float = 10.0,
        margin: float = 5.0,
        start: bool = True,
    ) -> None:
        try:
            self.command = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:   # the configured command line, split as a shell would
            raise ExternalEngineError(f"the hub engine command {command!r} cannot be split: {exc}") from None
        if not self.command:
            raise ExternalEngineError("the hub engine command is empty")
        self.command_text = command if isinstance(command, str) else shlex.join(self.command)
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.handshake_timeout = handshake_timeout
        self.margin = margin
        self.name = self.command_text
        try:
            self.process = EngineProcess(self.command, MAX_LINE)
        except ExternalEngineError as exc:
            raise ExternalEngineError(f"cannot start hub engine {self.command_text!r}: {exc}") from None
        if start:
            self.start()

    def __repr__(self) -> str:
        return f"HubEngine({self.name!r}, pid={self.process.pid})"

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def skipped_lines(self) -> int:
        """Lines over MAX_LINE bytes the engine printed (skipped unread)."""
        return self.process.skipped

    def _failure(self, what: str) -> ExternalEngineError:
        """Kill the group and describe the failure with the command and the engine's last stderr lines."""
        self.process.kill()
        tail = self.process.stderr_tail()
        where = [] if self.name == self.command_text else [f"command: {self.command_text}"]
        if tail:
            where.append("its last words on stderr: " + " | ".join(tail))
        said = f" ({'; '.join(where)})" if where else ""
        return ExternalEngineError(f"hub engine '{self.name}' {what}{said}")   # printable (shown)

    def _gone(self, doing: str) -> ExternalEngineError:
        if self.process.lines_closed:
            return self._failure(f"was closed while {doing}")
        code = self.process.exit_code(wait=0.5)
        how = f"exited with code {code}" if code is not None else "closed its output"
        return self._failure(f"{how} while {doing}")

    def send(self, line: str, deadline: float | None = None) -> None:
        """Write one command line to the engine (by `deadline`, default a handshake's time from now)."""
        deadline = time.monotonic() + self.handshake_timeout if deadline is None else deadline
        try:
            self.process.send(line, deadline)
        except EngineTimeout:
            raise self._failure(f"did not read {line.split()[0]!r} in time") from None
        except EngineGone:
            raise self._gone(f"receiving {line.split()[0]!r}") from None

    def _ask(self, lines: Sequence[str], answer: str, timeout: float, doing: str) -> list[HubMessage]:
        """Send `lines`, then read until a line with command `answer`, all within `timeout` from now."""
        deadline = time.monotonic() + timeout
        self.process.lines.clear()   # answers to an earlier question are stale
        for line in lines:
            self.send(line, deadline)
        seen: list[HubMessage] = []
        while True:
            try:
                text = self.process.receive(deadline)
            except EngineTimeout:
                raise self._failure(f"did not answer {doing!r} within {timeout:g} s") from None
            except EngineGone:
                raise self._gone(f"answering {doing!r}") from None
            try:
                msg = parse_message(text)
            except HubSyntaxError as exc:
                raise self._failure(f"sent a line that is not Hub protocol ({doing!r}): {exc}") from None
            if msg.command == "error":   # the engine's words, printable and short
                said = shown(msg.get("message") or text, 200)
                raise self._failure(f"reported an error ({doing!r}): {said}")
            seen.append(msg)
            if msg.command == answer:
                return seen

    def start(self) -> None:
        """The handshake: `hub` until `wait` (reading the engine's name and parameters), the variant and its
        options (when the engine declares a `variant-options` parameter; else it plays the variant's own
        rules and the positions it is sent carry who moves), `init` to `ready`."""
        try:
            params: set[str] = set()
            for msg in self._ask(["hub"], "wait", self.handshake_timeout, "hub"):
                if msg.command == "id" and (msg.get("name") or "").strip():
                    self.name = shown((msg.get("name") or "").strip(), MAX_NAME)   # shown in notes and logs
                if msg.command == "param" and msg.get("name"):
                    params.add(msg.get("name") or "")
            setup = [] if self.variant.id == "international" else [
                format_message("set-param", name="variant", value=self.variant.id)
            ]
            options = format_text(self.variant.option_values())
            if options and OPTIONS_PARAM in params:
                setup.append(format_message("set-param", name=OPTIONS_PARAM, value=options))
            elif options:
                logger.warning("hub engine %r has no %s parameter: it plays %s without the options %s",
                               self.name, OPTIONS_PARAM, self.variant.id, options)
            self._ask([*setup, "init"], "ready", self.handshake_timeout, "init")
        except ExternalEngineError:
            self.process.kill()
            raise

    def new_game(self) -> None:
        """Tell the engine a new game starts."""
        self.send("new-game")

    def play(self, board: Board, move_time: float = 1.0) -> Move:
        """Ask for a move in `board`'s position; raises ExternalEngineError on any failure."""
        if self.process.exit_code() is not None:
            raise self._gone("idle")
        lines = [
            format_message("pos", **hub_line(board)),   # with the recent moves, for the draw rules
            format_message("level", move_time=f"{move_time:g}"),
            "go think",
        ]
        done = self._ask(lines, "done", move_time + self.margin, "go think")[-1]
        text = done.get("move") or ""
        try:
            return parse_hub_move(board, text)
        except ProtocolMoveError as exc:
            raise self._failure(f"sent an illegal move: {exc}") from None

    def close(self, grace: float = 0.5) -> None:
        """Ask the engine to quit, give it `grace` seconds, then kill its process group (never longer)."""
        self.process.close("quit", grace)


class DxpEngine:
    """A DXP peer (a follower listening on host:port, e.g. Scan or Moby Dam) playing one game against us.

    The connection and each answer to a request (GAMEREQ, BACKREQ) have `handshake_timeout` seconds, each
    move its move time plus `margin`, counted from when it is asked for. `connect=False` leaves connecting
    to `connect()` (so another thread can `close()` the engine meanwhile).
    """

    def __init__(self, host: str, port: int, handshake_timeout: float = 30.0, margin: float = 5.0,
                 connect: bool = True) -> None:
        self.host, self.port = host, port
        self.handshake_timeout, self.margin = handshake_timeout, margin
        self.name = f"{host}:{port}"
        self.conn: DxpConnection | None = None
        self.synced: list[Move] = []
        self.start: Board | None = None
        self._closed = False
        if connect:
            self.connect()

    def __repr__(self) -> str:
        return f"DxpEngine({self.name!r}, closed={self._closed})"

    def __enter__(self) -> DxpEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _error(self, what: str) -> ExternalEngineError:
        return ExternalEngineError(f"DXP engine {self.name} {what}")

    def connect(self) -> None:
        """Open the TCP connection (within the handshake time)."""
        try:
            sock = socket.create_connection((self.host, self.port), timeout=self.handshake_timeout)
        except OSError as exc:
            where = f"{self.host}:{self.port}"
            raise ExternalEngineError(f"cannot connect to DXP engine at {where}: {exc}") from None
        self.conn = DxpConnection(sock, send_timeout=self.handshake_timeout)
        if self._closed:   # closed while connecting
            self.conn.close()
            raise self._error("was closed")

    def _receive(self, deadline: float, doing: str, timeout: float) -> DxpMessage:
        """The next record other than chat before `deadline`."""
        assert self.conn is not None
        while True:
            try:
                msg = self.conn.receive(deadline)
            except TimeoutError:
                raise self._error(f"did not answer {doing} within {timeout:g} s") from None
            except DxpError as exc:
                raise self._error(f"broke the protocol: {exc}") from None
            except OSError as exc:
                what = "was closed" if self._closed else f"disconnected while {doing}: {exc}"
                raise self._error(what) from None
            if not isinstance(msg, Chat):
                return msg
            logger.info("DXP engine %s says: %s", self.name, msg.text)

    def _send(self, msg: DxpMessage, doing: str) -> None:
        if self.conn is None:
            raise self._error("is not connected")
        try:
            self.conn.send(msg)
        except OSError as exc:
            raise self._error(f"disconnected while {doing}: {exc}") from None

    def _ask(self, msg: DxpMessage, doing: str) -> DxpMessage:
        self._send(msg, doing)
        return self._receive(time.monotonic() + self.handshake_timeout, doing, self.handshake_timeout)

    def start_game(self, board: Board, engine_color: Color) -> None:
        """Request a game from `board`'s position with the peer playing `engine_color`."""
        if self.conn is None:
            self.connect()
        side, squares = dxp_position(board)
        follower = "W" if engine_color == Color.WHITE else "Z"
        answer = self._ask(GameReq(ENGINE_NAME, follower, 0, 0, side, squares), "GAMEREQ")
        if not isinstance(answer, GameAcc) or answer.code != 0:
            raise self._error(f"refused the game ({answer})")
        self.name = shown(answer.name, MAX_NAME) if answer.name.strip() else self.name
        self.start = board.copy()
        self.synced = []

    def _sync(self, board: Board) -> None:
        """Send the moves played on `board` since the peer last heard from us (takebacks via BACKREQ)."""
        assert self.start is not None
        played = board.move_stack[len(self.start.move_stack) :]
        common = 0
        while common < min(len(played), len(self.synced)) and played[common] == self.synced[common]:
            common += 1
        if common < len(self.synced):
            replay = self.start.copy()
            for move in played[:common]:
                replay.push(move)
            number = common // 2 + 1  # move number counted from the game's start position
            answer = self._ask(BackReq(number, "W" if replay.turn == Color.WHITE else "Z"), "BACKREQ")
            if not isinstance(answer, BackAcc) or answer.code != 0:
                raise self._error(f"refused the takeback ({answer})")
            self.synced = self.synced[:common]
        replay = self.start.copy()
        for move in played[: len(self.synced)]:
            replay.push(move)
        for move in played[len(self.synced) :]:
            self._send(move_message(replay, move), "receiving our move")
            replay.push(move)
            self.synced.append(move)

    def _continues(self, board: Board) -> bool:
        """Whether `board`'s game goes through the position this peer's game started from."""
        start = self.start
        if start is None or len(board.move_stack) < len(start.move_stack):
            return False
        root = board.copy()
        for _ in range(len(board.move_stack) - len(start.move_stack)):
            root.pop()
        return root == start

    def play(self, board: Board, move_time: float = 1.0) -> Move:
        """Send our moves since the last call, then wait for the peer's move (move time plus margin)."""
        if self.start is not None and not self._continues(board):   # taken back past the game's start
            self._send(GameEnd(0, 0), "ending the game")
            self.start = None
        if self.start is None:
            self.start_game(board.copy(), board.turn)
        self._sync(board)
        timeout = move_time + self.margin
        msg = self._receive(time.monotonic() + timeout, "with a move", timeout)
        if isinstance(msg, GameEnd):
            raise self._error(f"ended the game (reason {msg.reason})")
        if not isinstance(msg, MoveMsg):
            raise self._error(f"sent {msg} where a move was expected")
        try:
            move = move_from_message(board, msg)
        except ProtocolMoveError as exc:
            raise self._error(f"sent an illegal move: {exc}") from None
        self.synced.append(move)
        return move

    def close(self) -> None:
        """End the game politely (if the peer takes it at once) and close the connection; a thread waiting
        for the peer's answer wakes up with an error."""
        self._closed = True
        conn = self.conn
        if conn is not None:
            conn.send_timeout = 0.2
            with contextlib.suppress(OSError):
                conn.send(GameEnd(0, 1))
            conn.close()


class FallbackOpponent:
    """An external engine that the built-in engine replaces as soon as it fails; `error` says why."""

    def __init__(self, external: HubEngine | DxpEngine | None, variant: Variant | str,
                 level: int = 10) -> None:
        self.external = external
        self.builtin = Engine(variant)
        self.level = level
        self.error: str | None = None

    def __repr__(self) -> str:
        who = "built-in" if self.external is None else repr(self.external)
        return f"FallbackOpponent({who}, level={self.level}, error={self.error!r})"

    @property
    def using_fallback(self) -> bool:
        """Whether the built-in engine has taken over."""
        return self.external is None

    def play(self, board: Board, move_time: float = 1.0) -> Move:
        """The external engine's move, or the built-in engine's if the external one fails."""
        if self.external is not None:
            try:
                return self.external.play(board, move_time)
            except ExternalEngineError as exc:
                self.error = str(exc)
                logger.error("%s; the built-in engine takes over", exc)
                with contextlib.suppress(OSError, ValueError):
                    self.external.close()
                self.external = None
        return self.builtin.choose_move(board, self.level, time_limit=move_time)

    def close(self) -> None:
        """Close the external engine if it is still in use."""
        if self.external is not None:
            self.external.close()
