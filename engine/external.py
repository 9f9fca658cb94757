"""External engines as opponents: a Hub engine process or a DXP peer, with timeouts and built-in fallback.

Any failure (process died, connection lost, timeout, illegal move) raises `ExternalEngineError` with the
reason; `FallbackOpponent` catches it, keeps the message and lets the built-in engine play on.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shlex
import socket
import subprocess
import threading
from collections.abc import Sequence

from engine.core import Engine
from engine.dxp import ENGINE_NAME, dxp_position, move_from_message, move_message
from engine.dxp_protocol import (
    BackAcc,
    BackReq,
    DxpConnection,
    DxpError,
    DxpMessage,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
)
from engine.hub_protocol import HubMessage, format_message, parse_message
from engine.notation import ProtocolMoveError, hub_line, parse_hub_move
from rules import Board, Color, Move

logger = logging.getLogger(__name__)


class ExternalEngineError(ValueError):
    """An external engine failed: it died, timed out, broke the protocol or sent an illegal move."""


class HubEngine:
    """A Hub-protocol engine in a child process (e.g. Scan, or `dboard hub`)."""

    def __init__(
        self,
        command: str | Sequence[str],
        variant: str = "international",
        startup_timeout: float = 10.0,
        grace: float = 5.0,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.variant = variant
        self.grace = grace
        self.name = self.command[0]
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise ExternalEngineError(f"cannot start hub engine {self.command[0]!r}: {exc}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True, name="hub-engine-reader")
        self._reader.start()
        self.send("hub")
        while True:
            msg = self._receive(startup_timeout, "hub")
            if msg.command == "id":
                self.name = msg.get("name", self.name) or self.name
            elif msg.command == "wait":
                break
        if variant != "international":
            self.send(format_message("set-param", name="variant", value=variant))
        self.send("init")
        while self._receive(startup_timeout, "init").command != "ready":
            pass

    def __repr__(self) -> str:
        return f"HubEngine({self.name!r}, pid={self.process.pid})"

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip():
                self._lines.put(line.strip())
        self._lines.put(None)

    def _died(self, doing: str) -> ExternalEngineError:
        code = self.process.poll()
        if code is None:
            try:
                code = self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        how = f"exited with code {code}" if code is not None else "closed its output"
        return ExternalEngineError(f"hub engine {self.name!r} {how} while {doing}")

    def send(self, line: str) -> None:
        """Write one command line to the engine."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(f"receiving {line.split()[0]!r}") from None

    def _receive(self, timeout: float, doing: str) -> HubMessage:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise ExternalEngineError(
                f"hub engine {self.name!r} did not answer {doing!r} within {timeout:.1f}s"
            ) from None
        if line is None:
            raise self._died(f"answering {doing!r}")
        return parse_message(line)

    def new_game(self) -> None:
        """Tell the engine a new game starts."""
        self.send("new-game")

    def play(self, board: Board, move_time: float = 1.0) -> Move:
        """Ask for a move in `board`'s position; raises ExternalEngineError on any failure."""
        if self.process.poll() is not None:
            raise self._died("idle")
        self.send(format_message("pos", **hub_line(board)))   # with the recent moves, for the draw rules
        self.send(format_message("level", move_time=f"{move_time:g}"))
        self.send("go think")
        while True:
            msg = self._receive(move_time + self.grace, "go think")
            if msg.command == "done":
                text = msg.get("move") or ""
                try:
                    return parse_hub_move(board, text)
                except ProtocolMoveError as exc:
                    raise ExternalEngineError(
                        f"hub engine {self.name!r} sent an illegal move: {exc}"
                    ) from None

    def close(self) -> None:
        """Ask the engine to quit, then end the process if it lingers."""
        if self.process.poll() is None:
            with contextlib.suppress(ExternalEngineError):
                self.send("quit")
            try:
                self.process.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class DxpEngine:
    """A DXP peer (a follower listening on host:port) playing one game against us."""

    def __init__(self, host: str, port: int, timeout: float = 10.0, grace: float = 5.0) -> None:
        self.host, self.port, self.grace = host, port, grace
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise ExternalEngineError(f"cannot connect to DXP engine at {host}:{port}: {exc}") from None
        self.conn = DxpConnection(sock, timeout)
        self.timeout = timeout
        self.name = f"{host}:{port}"
        self.synced: list[Move] = []
        self.start: Board | None = None

    def __repr__(self) -> str:
        return f"DxpEngine({self.name!r})"

    def __enter__(self) -> DxpEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _receive(self, timeout: float, doing: str) -> DxpMessage:
        self.conn.sock.settimeout(timeout)
        try:
            return self.conn.receive()
        except TimeoutError:
            raise ExternalEngineError(
                f"DXP engine {self.name} did not answer {doing} within {timeout:.1f}s"
            ) from None
        except (ConnectionError, OSError) as exc:
            raise ExternalEngineError(f"DXP engine {self.name} disconnected while {doing}: {exc}") from None
        except DxpError as exc:
            raise ExternalEngineError(f"DXP engine {self.name} broke the protocol: {exc}") from None

    def _send(self, msg: DxpMessage, doing: str) -> None:
        try:
            self.conn.send(msg)
        except OSError as exc:
            raise ExternalEngineError(f"DXP engine {self.name} disconnected while {doing}: {exc}") from None

    def start_game(self, board: Board, engine_color: Color) -> None:
        """Request a game from `board`'s position with the peer playing `engine_color`."""
        side, squares = dxp_position(board)
        self._send(
            GameReq(ENGINE_NAME, "W" if engine_color == Color.WHITE else "Z", 0, 0, side, squares),
            "requesting a game",
        )
        answer = self._receive(self.timeout, "GAMEREQ")
        if not isinstance(answer, GameAcc) or answer.code != 0:
            raise ExternalEngineError(f"DXP engine {self.name} refused the game ({answer})")
        self.name = answer.name or self.name
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
            self._send(BackReq(number, "W" if replay.turn == Color.WHITE else "Z"), "taking back")
            answer = self._receive(self.timeout, "BACKREQ")
            if not isinstance(answer, BackAcc) or answer.code != 0:
                raise ExternalEngineError(f"DXP engine {self.name} refused the takeback ({answer})")
            self.synced = self.synced[:common]
        replay = self.start.copy()
        for move in played[: len(self.synced)]:
            replay.push(move)
        for move in played[len(self.synced) :]:
            self._send(move_message(replay, move), "receiving our move")
            replay.push(move)
            self.synced.append(move)

    def play(self, board: Board, move_time: float = 1.0) -> Move:
        """Send our moves since the last call, then wait for the peer's move."""
        if self.start is None:
            self.start_game(board.copy(), board.turn)
        self._sync(board)
        msg = self._receive(move_time + self.grace + self.timeout, "thinking")
        if isinstance(msg, GameEnd):
            raise ExternalEngineError(f"DXP engine {self.name} ended the game (reason {msg.reason})")
        if not isinstance(msg, MoveMsg):
            raise ExternalEngineError(f"DXP engine {self.name} sent {msg} where a move was expected")
        try:
            move = move_from_message(board, msg)
        except ProtocolMoveError as exc:
            raise ExternalEngineError(f"DXP engine {self.name} sent an illegal move: {exc}") from None
        self.synced.append(move)
        return move

    def close(self) -> None:
        """End the game politely and close the socket."""
        with contextlib.suppress(OSError):
            self.conn.send(GameEnd(0, 1))
        self.conn.close()


class FallbackOpponent:
    """An external engine that the built-in engine replaces as soon as it fails; `error` says why."""

    def __init__(self, external: HubEngine | DxpEngine | None, variant: str, level: int = 10) -> None:
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
