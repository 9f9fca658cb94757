"""`dboard hub`: the built-in engine speaking the Hub protocol (as Scan does) on stdin/stdout.

Searches run on a thread so `stop` and `ponder-hit` are handled while thinking.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
import time
from typing import Any, BinaryIO, TextIO

from engine.core import Engine
from engine.hub_protocol import (
    MAX_LINE,
    OPTIONS_PARAM,
    HubMessage,
    HubSyntaxError,
    format_message,
    parse_message,
)
from engine.limits import MATE, MATE_BOUND, SearchLimits, SearchProgress
from engine.notation import board_from_position, hub_move_text, parse_hub_move
from engine.process import iter_capped_lines
from engine.search import MAX_PLY
from readers import is_decimal, is_digits, shown
from rules import VARIANT_IDS, Board, get_variant
from rules.options import format_text, parse_text

logger = logging.getLogger(__name__)

ENGINE_NAME = "draughts-board"
ENGINE_VERSION = "0.1"


def hub_score(score: int) -> str:
    """Score in men with two decimals; wins/losses as +/-(100 - plies/100) like Scan's mate encoding."""
    if abs(score) >= MATE_BOUND:
        plies = MATE - abs(score)
        value = 100 - plies / 100
        return f"{value if score > 0 else -value:.2f}"
    return f"{score / 100:.2f}"


class HubServer:
    """One Hub session: reads commands from `inp`, writes replies to `out`, until `quit` or end of input."""

    def __init__(self, inp: BinaryIO, out: TextIO, variant: str = "international", level: int = 10) -> None:
        self.inp = inp
        self.out = out
        self.variant = get_variant(variant)
        self.level = level
        self.engine = Engine(self.variant)
        self.board = Board(self.variant)
        self.limits = SearchLimits(time=1.0)
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ponder_deadline: threading.Timer | None = None
        self._move_time = 1.0
        self.gone = False   # the GUI closed our output: stop quietly

    def __repr__(self) -> str:
        return f"HubServer({self.variant.id}, level={self.level})"

    def send(self, line: str) -> None:
        """Write one reply line and flush; once the GUI has gone, write nothing more (and raise nothing)."""
        with self._write_lock:
            if self.gone:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):   # a broken pipe or a closed stream: the GUI went away
                self.gone = True
                self._stop.set()

    def run(self) -> int:
        """Serve until `quit`, the end of input or the GUI closing our output; returns the exit code."""
        for raw in iter_capped_lines(self.inp, MAX_LINE):
            if self.gone:
                break
            if raw is None:
                self.send(format_message("error", message=f"line longer than {MAX_LINE} bytes skipped"))
                continue
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            try:
                msg = parse_message(line)
            except HubSyntaxError as exc:
                self.send(format_message("error", message=shown(str(exc), MAX_ERROR)))
                continue
            if msg.command == "quit":
                break
            try:
                self.handle(msg)
            except ValueError as exc:   # the GUI's own text comes back printable and short
                self.send(format_message("error", message=shown(str(exc), MAX_ERROR)))
        self._halt_search()
        return 0

    def handle(self, msg: HubMessage) -> None:
        """Dispatch one command."""
        cmd = msg.command
        if cmd == "hub":
            self.send(
                format_message(
                    "id", name=ENGINE_NAME, version=ENGINE_VERSION, author="draughts-board", country="none"
                )
            )
            self.send(
                format_message(
                    "param", name="variant", value=self.variant.id, type="enum", values=" ".join(VARIANT_IDS)
                )
            )
            options = format_text(self.variant.option_values())
            self.send(format_message("param", name=OPTIONS_PARAM, value=options, type="string"))
            self.send(format_message("param", name="level", value=self.level, type="int", min=1, max=10))
            self.send("wait")
        elif cmd == "init":
            self.send("ready")
        elif cmd == "ping":
            self.send("pong")
        elif cmd == "set-param":
            self._set_param(msg.get("name"), msg.get("value"))
        elif cmd == "new-game":
            self._halt_search()
            self.engine.new_game()
            self.board = Board(self.variant)
        elif cmd == "pos":
            self._halt_search()
            self._set_position(msg)
        elif cmd == "level":
            self._set_level(msg)
        elif cmd == "go":
            self._halt_search()
            self._go(ponder="ponder" in msg.flags, analyze="analyze" in msg.flags)
        elif cmd == "stop":
            self._stop.set()
        elif cmd == "ponder-hit":
            self._ponder_hit()
        else:
            logger.warning("unknown hub command %r", shown(cmd, 40))
            self.send(format_message("error", message=f"unknown command {shown(repr(cmd), 40)}"))

    def _set_param(self, name: str | None, value: str | None) -> None:
        if name in ("variant", OPTIONS_PARAM) and (value or name == OPTIONS_PARAM):
            if name == "variant":
                self.variant = get_variant(value or "")
            else:   # the options apply to the variant set before them (docs/rules/README.md#options)
                self.variant = get_variant(self.variant.id, **parse_text(value or ""))
            self.engine = Engine(self.variant)
            self.board = Board(self.variant)
        elif name == "level" and value:
            if not is_digits(value, 2) or not 1 <= int(value) <= 10:
                raise ValueError(f"set-param level: expected 1..10, got {shown(repr(value), 40)}")
            self.level = int(value)
        else:
            logger.info("ignoring parameter %s=%s", shown(name or "", 40), shown(value or "", 40))

    def _set_position(self, msg: HubMessage) -> None:
        pos = msg.get("pos")
        board = (
            Board(self.variant)
            if not pos or pos == "start"
            else board_from_position(self.variant, pos[0], pos[1:])
        )
        for text in (msg.get("moves") or "").split():
            board.push(parse_hub_move(board, text))
        self.board = board

    def _set_level(self, msg: HubMessage) -> None:
        """`level infinite | depth=N | nodes=N | move-time=S | time=S [moves=N] [inc=S]`, each checked."""
        args = msg.args
        if "infinite" in msg.flags:
            self.limits = SearchLimits()
        elif "depth" in args:
            self.limits = SearchLimits(depth=_level_number(args, "depth", int))
        elif "nodes" in args:
            self.limits = SearchLimits(nodes=_level_number(args, "nodes", int))
        elif "move-time" in args:
            self.limits = SearchLimits(time=_level_number(args, "move-time", float))
        elif "time" in args:
            total = _level_number(args, "time", float)
            moves = _level_number(args, "moves", int, "0", zero_ok=True) or 30
            inc = _level_number(args, "inc", float, "0", zero_ok=True)
            self.limits = SearchLimits(time=max(0.05, min(total * 0.8, total / moves + inc)))
        else:
            raise ValueError(f"level: expected infinite, depth, nodes, move-time or time, got {msg}")
        self._move_time = self.limits.time or 1.0

    def _go(self, ponder: bool, analyze: bool) -> None:
        self._stop = threading.Event()
        limits = (
            SearchLimits(depth=self.limits.depth, nodes=self.limits.nodes)
            if (ponder or analyze)
            else self.limits
        )
        board = self.board.copy()
        stop = self._stop
        self._thread = threading.Thread(
            target=self._think, args=(board, limits, stop, ponder), daemon=True, name="hub-search"
        )
        self._thread.start()

    def _think(self, board: Board, limits: SearchLimits, stop: threading.Event, ponder: bool) -> None:
        """Search thread body: never dies silently, so the GUI is not left waiting for `done`."""
        try:
            self._search_and_answer(board, limits, stop, ponder)
        except Exception as exc:
            logger.exception("hub search failed")
            self.send(format_message("error", message=f"search failed: {exc}"))

    def _search_and_answer(
        self, board: Board, limits: SearchLimits, stop: threading.Event, ponder: bool
    ) -> None:
        start = time.perf_counter()

        def report(p: SearchProgress) -> None:
            pv = []
            copy = board.copy()
            for move in p.pv:
                pv.append(hub_move_text(copy, move))
                copy.push(move)
            self.send(
                format_message(
                    "info",
                    depth=p.depth,
                    score=hub_score(p.score),
                    nodes=p.nodes,
                    time=f"{p.seconds:.2f}",
                    nps=p.nps,
                    pv=" ".join(pv),
                )
            )

        if not board.legal_moves:
            self.send(format_message("done", move="0-0"))  # no legal move: the game is over
            return
        if self.level < 10 and limits.depth is None and not ponder and limits.time is not None:
            move = self.engine.choose_move(board, self.level, time_limit=limits.time, stop_event=stop)
            self.send(format_message("done", move=hub_move_text(board, move)))
            return
        result = self.engine.search(board, limits, on_progress=report, stop_event=stop)
        if ponder:
            stop.wait()  # a pondering engine answers only once told to stop
        logger.debug("search took %.2fs", time.perf_counter() - start)
        assert result.move is not None
        args = {"move": hub_move_text(board, result.move)}
        if len(result.pv) > 1:
            copy = board.copy()
            copy.push(result.pv[0])
            args["ponder"] = hub_move_text(copy, result.pv[1])
        self.send(format_message("done", **args))

    def _ponder_hit(self) -> None:
        """The predicted move was played: keep searching, but only for the normal move time."""
        stop = self._stop
        timer = threading.Timer(self._move_time, stop.set)
        timer.daemon = True
        timer.start()
        self._ponder_deadline = timer

    def _halt_search(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._stop.set()
            self._thread.join()
        self._thread = None


LEVEL_BOUNDS = {"depth": MAX_PLY, "nodes": 10**12, "move-time": 10.0**6, "time": 10.0**6, "moves": 10**4,
                "inc": 3600.0}
"""The largest value of each `level` argument: deeper than the search's ply limit, or longer than eleven days
of thinking, means nothing (and a depth of 400 digits overflowed the search)."""
MAX_ERROR = 300
"""The longest error message sent back (a bad value is quoted by its start)."""


def _level_number(args: dict[str, str], key: str, kind: type[int] | type[float], default: str | None = None,
                  zero_ok: bool = False) -> Any:
    """Argument `key` of a `level` command as a number above 0 (or equal to it, with `zero_ok`) and at most
    its LEVEL_BOUNDS, written in ASCII digits (int() and float() read `३`, `1_0`, `nan` and `1e400`)."""
    text = args.get(key, default) or ""
    high = LEVEL_BOUNDS[key]
    written = is_digits(text) if kind is int else is_decimal(text)
    value = kind(text) if written else math.nan
    if not ((value > 0 or (zero_ok and value == 0)) and value <= high):
        what = "an integer" if kind is int else "a number of seconds"
        low = "of 0" if zero_ok else "of 1" if kind is int else "above 0 and at most"
        bound = f"{low} to {high:.0f}" if zero_ok or kind is int else f"{low} {high:.0f}"
        raise ValueError(f"level: {key} must be {what} {bound}, got {shown(repr(text), 40)}")
    return value


def main(variant: str = "international", level: int = 10) -> int:
    """Serve the Hub protocol on the process's stdin/stdout (quietly, if the GUI closes them)."""
    server = HubServer(sys.stdin.buffer, sys.stdout, variant, level)
    code = server.run()
    if server.gone:   # nothing may be flushed to the closed pipe at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


if __name__ == "__main__":
    sys.exit(main())
