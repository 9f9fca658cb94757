"""Sensor logs: every occupancy change the controller sees, with its time and the game, as JSON lines; and
their replay through the same controller on a simulated clock.

A person who saw the board misread a move sends the log (``dboard play --sensor-log FILE``);
``dboard replay-sensors FILE`` replays it as fast as the CPU allows and prints what the controller records
now, so the log becomes a test (tests/data/sensor-logs/). The format is documented in docs/sensor-logs.md.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from firmware_bridge import types as colors
from firmware_bridge.clock import ManualClock
from firmware_bridge.types import Cell, LedFrame, Pattern, Rgb
from readers import ReadError, expect_dict, expect_int, loads, read_text
from rules import RulesError

from . import commands as cmd
from . import events as ev
from .config import Config, ConfigError
from .consult import EngineAnswer
from .errors import ControllerError
from .journal import JournaledGame, PlyRecord, game_from_json
from .machine import Controller
from .offline import OfflinePorts
from .settings import GameSettings
from .squares import BoardMap
from .states import COMPUTER, OUT_OF_SYNC
from .table import Table

FORMAT = "dboard sensor log"
VERSION = 1
MAX_LOG_BYTES = 256 * 1024 * 1024
"""A day of play logs a few megabytes."""
MAX_LINE_DEPTH = 8
"""The deepest line a log writes (a header's game: settings, plies, clocks) is 5 levels."""
REPLAYED_CONFIG = ("settle_ms", "king_settle_ms", "grace_ms", "touch_move", "takeback", "new_game_on_start",
                   "accept_alternative", "teaching")
"""The settings that change how the board is read: written into the log, used by its replay."""


class SensorLogError(ControllerError, ValueError):
    """A sensor log that cannot be read or replayed: names the file, the line and what was expected."""


def game_json(ctl: Controller) -> dict[str, Any]:
    """The game as a log records it: its settings and the plies recorded so far."""
    return {"settings": ctl.settings.to_json(), "plies": [r.to_json() for r in ctl.records]}


class SensorLogWriter:
    """Writes a sensor log: a header (format, board size, settings, the game), then one line per input the
    controller handles: an occupancy change (``on``/``off`` cells), the engine's move, a command; and notes
    of what the controller recorded (``recorded``). Each line is flushed: a crash keeps what was written."""

    def __init__(self, stream: TextIO, config: Config) -> None:
        self.stream = stream
        self.config = config
        self.squares: frozenset[Cell] = frozenset()
        self.header_written = False

    def _write(self, entry: dict[str, Any]) -> None:
        self.stream.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self.stream.flush()

    def game(self, t: float, ctl: Controller) -> None:
        """The game the following lines are read against (the header the first time)."""
        entry: dict[str, Any] = {"t": round(t, 6), "game": game_json(ctl)}
        if not self.header_written:
            self.header_written = True
            settings = {key: getattr(self.config, key) for key in REPLAYED_CONFIG}
            entry = {"log": FORMAT, "version": VERSION, "rows": ctl.map.rows, "cols": ctl.map.cols,
                     "config": settings, **entry}
        self._write(entry)

    def occupancy(self, t: float, squares: frozenset[Cell]) -> None:
        """A snapshot: written as the cells that filled (``on``) and emptied (``off``) since the last one."""
        on, off = sorted(squares - self.squares), sorted(self.squares - squares)
        self.squares = frozenset(squares)
        if on or off:
            self._write({"t": round(t, 6), "on": [list(c) for c in on], "off": [list(c) for c in off]})

    def engine(self, t: float, text: str) -> None:
        """The computer's move, as the engine answered it."""
        self._write({"t": round(t, 6), "engine": text})

    def command(self, t: float, command: cmd.Command) -> None:
        """A command from the page or the console (a virtual lift or place is logged as its occupancy)."""
        if not isinstance(command, cmd.Lift | cmd.Place):
            self._write({"t": round(t, 6), "command": command.to_json()})

    def recorded(self, t: float, ply: int, text: str) -> None:
        """A note: the controller recorded ``text`` as ply ``ply`` (what the board did when logging)."""
        self._write({"t": round(t, 6), "recorded": text, "ply": ply})

    def close(self) -> None:
        self.stream.close()

    def __repr__(self) -> str:
        return f"SensorLogWriter({getattr(self.stream, 'name', self.stream)!r})"


@dataclass(frozen=True)
class Entry:
    """One line of a log after its header: ``kind`` is occupancy, engine, command, game or recorded."""

    line: int
    t: float
    kind: str
    data: Any


@dataclass
class SensorLog:
    """A parsed log: the board size, the settings, the game at its start, the entries in time order."""

    path: str
    rows: int
    cols: int
    config: dict[str, Any]
    game: dict[str, Any]
    start: float
    records: tuple[PlyRecord, ...] = ()
    """The plies the game had when the log began, checked against the rules."""
    entries: list[Entry] = field(default_factory=list)

    def __repr__(self) -> str:
        variant = self.game["settings"].get("variant")
        return f"SensorLog({self.path!r}, {variant}, {len(self.entries)} entries)"


def _cells(value: Any, where: str) -> list[Cell]:
    if not isinstance(value, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c) for c in value):
        raise SensorLogError(f"{where}: expected a list of [row, col] cells, got {value!r}")
    return [(c[0], c[1]) for c in value]


def _header(path: str, entry: dict[str, Any], t: float) -> SensorLog:
    """The log begun by header `entry`: the board's size, the config, and the game checked as a journal."""
    rows = expect_int(entry.get("rows"), "rows", 2, 26)
    cols = expect_int(entry.get("cols"), "cols", 2, 26)
    config = expect_dict(entry.get("config"), "config")
    state = game_from_json(entry.get("game"), "game")
    return SensorLog(path, rows, cols, config, {"settings": state.header["settings"]}, t, state.records)


def read_log(path: Path | str, lines: Iterable[str] | None = None) -> SensorLog:
    """Parse a sensor log (``lines`` instead of reading ``path``); a torn last line is ignored."""
    if lines is None:
        try:
            lines = read_text(path, what="sensor log", limit=MAX_LOG_BYTES).split("\n")
        except ReadError as exc:
            raise SensorLogError(str(exc)) from None
    rows = list(lines)
    parsed: SensorLog | None = None
    last_t = float("-inf")
    for number, line in enumerate(rows, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            entry = loads(line, where, max_depth=MAX_LINE_DEPTH)
        except ReadError as exc:
            if number == len(rows) or (number == len(rows) - 1 and not rows[-1].strip()):
                break   # the last line was torn by a crash
            raise SensorLogError(str(exc)) from None
        if not isinstance(entry, dict) or type(entry.get("t")) not in (int, float):
            raise SensorLogError(f"{where}: expected an object with a time \"t\", got {line[:60]!r}")
        t = float(entry["t"])
        if parsed is None:
            if entry.get("log") != FORMAT:
                raise SensorLogError(f"{where}: not a sensor log (its first line must say "
                                     f"\"log\": \"{FORMAT}\")")
            if entry.get("version") != VERSION:
                raise SensorLogError(f"{where}: sensor log version {entry.get('version')!r}, this program "
                                     f"reads version {VERSION}")
            try:
                parsed = _header(str(path), entry, t)
            except ValueError as exc:
                raise SensorLogError(f"{where}: bad header: {exc}") from None
            last_t = t
            continue
        if t < last_t:
            raise SensorLogError(f"{where}: time {t} is earlier than the line before ({last_t})")
        last_t = t
        if "on" in entry or "off" in entry:
            data: Any = (_cells(entry.get("on", []), where), _cells(entry.get("off", []), where))
            parsed.entries.append(Entry(number, t, "occupancy", data))
        elif isinstance(entry.get("engine"), str):
            parsed.entries.append(Entry(number, t, "engine", entry["engine"]))
        elif "command" in entry:
            try:
                parsed.entries.append(Entry(number, t, "command", cmd.Command.from_json(entry["command"])))
            except cmd.CommandError as exc:
                raise SensorLogError(f"{where}: {exc}") from None
        elif "game" in entry:
            parsed.entries.append(Entry(number, t, "game", entry["game"]))
        elif "recorded" in entry:
            parsed.entries.append(Entry(number, t, "recorded", str(entry["recorded"])))
        else:
            raise SensorLogError(f"{where}: expected on/off, engine, command, game or recorded, got "
                                 f"{sorted(entry)}")
    if parsed is None:
        raise SensorLogError(f"{path}: empty: no sensor log header")
    return parsed


@dataclass
class Playback:
    """What the controller made of a log: the moves of the game at the end, the refusals, what was said and
    lit when (seconds since the log began), the final LED frame, alert and state, the moves the board recorded
    when the log was written, and the controller itself (to go on from where the log ends)."""

    controller: Controller
    moves: list[str]
    refusals: list[str]
    said: list[tuple[float, str, str]]
    frames: list[tuple[float, LedFrame]]
    logged: list[str]
    changes: int
    seconds: float

    @property
    def variant(self) -> str:
        return self.controller.variant.id

    @property
    def frame(self) -> LedFrame | None:
        """The last frame that left the Table (the board's LEDs and the page's)."""
        return self.frames[-1][1] if self.frames else None

    @property
    def state(self) -> str:
        return self.controller.state

    @property
    def alert(self) -> str | None:
        return self.controller.alert["text"] if self.controller.alert else None

    @property
    def map(self) -> BoardMap:
        return self.controller.map

    def __repr__(self) -> str:
        return f"Playback({self.variant}, moves={self.moves}, state={self.state})"


def _run_timers(table: Table, clock: ManualClock, until: float) -> None:
    """Fire the Table's timers that fall due up to ``until``, each at its own time."""
    for _ in range(100_000):
        due = table.next_deadline()
        if due is None or due > until:
            break
        clock.set(max(due, clock.now()))
        table.tick(clock.now())
        if table.next_deadline() == due:
            break   # a deadline that does not move on is not fired again
    clock.set(max(until, clock.now()))
    table.tick(clock.now())


def play_back(log: SensorLog, on_message: Callable[[float, str, str], None] | None = None) -> Playback:
    """Playback ``log`` through a Table on a ManualClock, as the Session played it (board health's masks and
    chatter included): each input at its logged time, the timers at theirs, then the board left alone long
    enough for every pending timer to fire."""
    started = time.perf_counter()
    try:
        config = Config(variant=log.game["settings"]["variant"], **log.config)
    except (TypeError, ConfigError) as exc:
        raise SensorLogError(f"{log.path}: bad settings in the header: {exc}") from None
    clock = ManualClock(log.start)
    refusals: list[str] = []
    said: list[tuple[float, str, str]] = []

    def heard(event: ev.Event) -> None:
        if isinstance(event, ev.Message):
            said.append((clock.now() - log.start, event.level, event.text))
        elif isinstance(event, ev.Refusal):
            refusals.append(f"{event.message} ({event.rule})")
            said.append((clock.now() - log.start, "refusal", refusals[-1]))
        else:
            return
        if on_message is not None:
            on_message(*said[-1])

    settings = GameSettings.from_json(log.game["settings"])
    ports = OfflinePorts(clock, on_event=heard)
    table = Table(config, ports, clock=clock, settings=settings, can_fail=False)
    ctl = table.controller
    if log.records:
        ctl.resume(JournaledGame({"settings": settings.to_json()}, log.records, None))
    else:
        ctl.new_game()
    squares: set[Cell] = set()
    logged: list[str] = []
    changes = 0
    for entry in log.entries:
        _run_timers(table, clock, entry.t)
        where = f"{log.path}:{entry.line}"
        now = clock.now()
        try:
            if entry.kind == "occupancy":
                on, off = entry.data
                squares.difference_update(off)
                squares.update(on)
                changes += 1
                table.feed(frozenset(squares), now)
            elif entry.kind == "engine":
                if ctl.turn_state in (COMPUTER, OUT_OF_SYNC) and ctl.computer_to_move():
                    move = ctl.game.board.parse_move(entry.data)
                    table.engine_answered(EngineAnswer(ctl.engine_token, move), now)
            elif entry.kind == "command":
                table.command(entry.data, now)
            elif entry.kind == "recorded":
                logged.append(entry.data)
        except (ControllerError, RulesError) as exc:   # refused, or an engine move the game cannot play
            heard(ev.Message(f"{where}: {exc}", "error"))
    end = log.entries[-1].t if log.entries else log.start
    wait = max(config.settle_ms, getattr(config, "king_settle_ms", 0), config.grace_ms) / 1000 + 0.5
    _run_timers(table, clock, end + wait)
    base = len(log.records)
    texts = [r.text for r in ctl.records]
    moves = texts[base:] if [r.text for r in log.records] == texts[:base] else texts
    frames = [(t - log.start, frame) for t, frame in ports.frames]
    return Playback(ctl, moves, refusals, said, frames, logged, changes, time.perf_counter() - started)


_COLOR_NAMES: dict[Rgb, str] = {getattr(colors, name): name.lower() for name in
                                ("WHITE", "RED", "GREEN", "BLUE", "YELLOW", "ORANGE", "PURPLE", "CYAN")}
_PATTERN_NAMES = {Pattern.ON: "on", Pattern.SLOW_BLINK: "slow", Pattern.FAST_BLINK: "fast"}


def lit(frame: LedFrame | None, squares: BoardMap) -> dict[str, tuple[str, str]]:
    """The lit squares by name -> (color, pattern) in words: ``{"13": ("red", "fast")}``."""
    if frame is None:
        return {}
    return {squares.name(cell): (_COLOR_NAMES.get(light.rgb, str(light.rgb)),
                                 _PATTERN_NAMES.get(light.pattern, light.pattern.name.lower()))
            for cell, light in frame.lights}


def describe_frame(frame: LedFrame | None, squares: BoardMap) -> str:
    """An LED frame in words, square by square: ``13 red fast, 9 white slow`` (``dark``: nothing lit)."""
    lights = lit(frame, squares)
    return ", ".join(f"{name} {color} {pattern}" for name, (color, pattern) in lights.items()) or "dark"
