"""The controller's state machine: occupancy snapshots in, committed moves, LED frames and events out.

Synchronous and time-injected: every input carries or reads the injected clock, timers are deadlines checked
on each input or ``tick()``, so scenario tests are deterministic. ``Session`` wraps it in asyncio.
The `transitions` machine is queued and fed only from here; ``python -m controller.diagram`` draws it.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from transitions import Machine

from firmware_bridge.clock import Clock
from firmware_bridge.types import Cell, LedFrame
from rules import Board, Color, Game, Move, get_variant

from . import events as ev
from .clocks import GameClocks, TimeControl
from .config import Config
from .hints import Fill, HintPolicy
from .inference import Expectation, MoveShape, Reading, disambiguate
from .journal import Journal, JournalState, Record, durable_replace
from .record import PdnTags, forced_fen, replay, replay_positions, write_pdn
from .squares import BoardMap

log = logging.getLogger(__name__)

STATES: tuple[str, ...] = (
    "waiting_start", "player_to_move", "piece_lifted", "capture_in_progress", "move_pending_settle",
    "ambiguous", "computer_move_pending", "missed_capture", "out_of_sync", "game_over",
)
_HANDLING = ["player_to_move", "piece_lifted", "capture_in_progress", "move_pending_settle", "out_of_sync",
             "computer_move_pending"]
_PLAY = [*_HANDLING, "ambiguous", "missed_capture"]

TRANSITIONS: tuple[dict[str, Any], ...] = (
    {"trigger": "start_seen", "source": "waiting_start", "dest": "player_to_move"},
    {"trigger": "await_person", "source": _PLAY, "dest": "player_to_move"},
    {"trigger": "await_computer", "source": [*_PLAY, "waiting_start"], "dest": "computer_move_pending"},
    {"trigger": "lift", "source": _HANDLING, "dest": "piece_lifted"},
    {"trigger": "capture_step", "source": _HANDLING, "dest": "capture_in_progress"},
    {"trigger": "settle", "source": _HANDLING, "dest": "move_pending_settle"},
    {"trigger": "ask", "source": _HANDLING, "dest": "ambiguous"},
    {"trigger": "missed", "source": _HANDLING, "dest": "missed_capture"},
    {"trigger": "lose_sync", "source": [*_PLAY, "game_over"], "dest": "out_of_sync"},
    {"trigger": "finish", "source": [*_PLAY, "waiting_start"], "dest": "game_over"},
    {"trigger": "reset", "source": list(STATES), "dest": "waiting_start"},
)


@dataclass(frozen=True)
class GameSettings:
    """Who plays what: variant, the person's color, the opponent, engine level, start FEN, orientation."""

    variant: str = "international"
    human_color: str = "white"
    opponent: str = "engine"
    level: int = 3
    fen: str | None = None
    flipped: bool = False
    time_control: str | None = None
    player: str = "player"
    """The local profile whose rating a game against the built-in engine updates."""

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object (the journal header; ``GameSettings(**data)`` reads it back)."""
        return dict(self.__dict__)

    def check(self) -> None:
        """Raise a ValueError naming the problem (unknown variant, bad FEN or time control, color, level)."""
        variant = get_variant(self.variant)
        if self.human_color not in ("white", "black", "both"):
            raise ValueError(f"human color must be white, black or both, got {self.human_color!r}")
        if not 1 <= self.level <= 10:
            raise ValueError(f"engine level must be 1-10, got {self.level}")
        if self.fen is not None:
            try:
                Board(variant, self.fen)
            except ValueError as exc:
                raise ValueError(f"bad FEN for {variant.name}: {exc}") from None
        if self.time_control is not None:
            TimeControl.parse(self.time_control)
        if not self.player.strip():
            raise ValueError("the player profile name must not be empty")


@dataclass(frozen=True)
class EngineJob:
    """A request for the computer's move; the answer must quote ``token`` (stale answers are dropped)."""

    token: int
    board: Board
    level: int
    seconds: float | None = None
    """Thinking time the clocks allow (None: no time control, use the configured engine time)."""


@dataclass
class _Deadline:
    kind: str
    at: float
    data: Any = None


@dataclass
class _Missed:
    origin: Cell
    target: Cell
    should: tuple[Cell, ...]
    text: str
    policy: str
    by: str
    objection_ply: int | None = None


@dataclass
class _Flags:
    refused: frozenset[Cell] | None = None
    alt_warned: frozenset[Cell] | None = None
    color_warned: bool = False
    messages: deque[dict[str, str]] = field(default_factory=lambda: deque(maxlen=20))


def _name(color: Color) -> str:
    return "white" if color == Color.WHITE else "black"


def _ahead(board: Board, color: Color) -> bool:
    """``color`` has more material (a man 1, a king 2): the computer then plays on instead of claiming."""
    def material(c: Color) -> int:
        return len(board.men(c)) + 2 * len(board.kings(c))
    return material(color) > material(color.opponent)


def _refusal_rule(message: str) -> str:
    text = message.lower()
    if "compulsory" in text or "must capture" in text:
        return "compulsory capture"
    if any(word in text for word in ("most", "longest", "maximum", "majority", "precedence", "quality")):
        return "capture precedence"
    if "no piece" in text or "not your" in text or "opponent" in text:
        return "own pieces only"
    return "piece movement"


class Controller:
    """Joins the board's occupancy to the rules: infers and commits moves, journals them, chooses LED frames.

    ``emit`` receives every Event, ``show`` every LED frame, ``request_engine`` every EngineJob (answer with
    ``computer_moved``). All inputs are synchronous; ``clock`` supplies the time.
    """

    def __init__(self, config: Config, *, clock: Clock, journal: Journal | None = None,
                 emit: Callable[[ev.Event], None] | None = None,
                 show: Callable[[LedFrame], None] | None = None,
                 request_engine: Callable[[EngineJob], None] | None = None,
                 settings: GameSettings | None = None, pdn_dir: Path | None = None,
                 wall: Callable[[], datetime] | None = None) -> None:
        self.config = config
        self.clock = clock
        self.journal = journal
        self.pdn_dir = pdn_dir
        self._emit = emit or (lambda event: None)
        self._show = show or (lambda frame: None)
        self.request_engine = request_engine
        self._wall = wall or datetime.now
        self.progress: dict[str, Any] | None = None
        self.teaching = config.teaching
        self.machine = Machine(model=self, states=list(STATES), transitions=list(TRANSITIONS),
                               initial="waiting_start", queued=True, auto_transitions=False)
        self.occupancy: frozenset[Cell] = frozenset()
        self.touched: set[Cell] = set()
        self.frame: LedFrame | None = None
        self._deadline: _Deadline | None = None
        self._grace_at: float | None = None
        self._engine_token = 0
        self.computer_shape: MoveShape | None = None
        self.pending: tuple[MoveShape, ...] = ()
        self.missed_info: _Missed | None = None
        self.crown: Cell | None = None
        self.outcome: tuple[str, str] | None = None
        self.draw_offer: str | None = None
        self.claimable: str | None = None   # the reason of the draw a player may claim now
        self.board_lost = False   # the board's link (serial cable) is down
        self.flags = _Flags()
        self.must_restore = False  # after a takeback/retract by command: the board must match before play
        self.settings = settings or GameSettings(config.variant, config.human_color, config.opponent,
                                                 config.level, None, config.orientation == "white-far",
                                                 player=config.player)
        self._setup(self.settings, ())

    # --- game setup -------------------------------------------------------------------------------
    def _setup(self, settings: GameSettings, records: Iterable[Record]) -> None:
        settings.check()  # validate first: a refused setting changes nothing
        self.settings = settings
        self.variant = get_variant(settings.variant)
        self.map = BoardMap(self.variant, settings.flipped)
        self.hints = HintPolicy(self.variant.height, self.variant.width, self.teaching)
        self.records: list[Record] = list(records)
        self.game: Game = replay(self.variant, settings.fen, self.records)
        self.exp = Expectation(self.game.board, self.map)
        self.start_occupancy = Expectation(Board(self.variant, settings.fen), self.map).base
        self.history: list[frozenset[Cell]] = self._history()
        self.computer_shape = None
        self.pending = ()
        self.missed_info = None
        self.crown = None
        self.outcome = None
        self.draw_offer = None
        self.claimable = None
        self.must_restore = False
        self._engine_token += 1
        self._deadline = None
        self._grace_at = None
        self.started: datetime = self._wall()
        self.pdn_path: Path | None = None
        self.progress = None
        self._turn_since: float | None = None
        self._checked = self.clock.now()
        self.clocks = GameClocks(TimeControl.parse(settings.time_control)) if settings.time_control else None
        for record in reversed(self.records):
            if self.clocks is not None and record.clocks is not None:
                self.clocks.remaining = {"white": record.clocks[0], "black": record.clocks[1]}
                break

    def _history(self) -> list[frozenset[Cell]]:
        """The physical occupancy of every position of the game, start first."""
        return [Expectation(game.board, self.map).base
                for game in replay_positions(self.variant, self.settings.fen, self.records)]

    def new_game(self, settings: GameSettings | None = None) -> None:
        """Start a new game (journaled) and wait for its start position on the board."""
        self._setup(settings or self.settings, ())
        if self.journal is not None:
            self.journal.start({"settings": self.settings.to_json(), "fen": self.game.board.fen(),
                                "started": self.started.isoformat(timespec="seconds")})
        self.reset()
        self._say(f"New game of {self.variant.name}: set up the start position.")
        self._evaluate(self.clock.now())

    def resume(self, state: JournalState) -> None:
        """Continue the journaled game: wait until the board matches it, the LEDs guiding the restoring."""
        settings = GameSettings(**state.header["settings"])
        self._setup(settings, state.records)
        if state.header.get("started"):
            self.started = datetime.fromisoformat(state.header["started"])
            if self.pdn_dir is not None and self._pdn_name().exists():
                self.pdn_path = self._pdn_name()  # the same game saved on demand before the restart
        self.reset()
        plies = len(self.records)
        done = f"after {plies} {'ply' if plies == 1 else 'plies'}" if plies else "before its first move"
        self._say(f"Resuming the game of {self.variant.name} {done}.")
        self._evaluate(self.clock.now())

    # --- inputs -----------------------------------------------------------------------------------
    def snapshot(self, squares: frozenset[Cell], now: float | None = None) -> LedFrame | None:
        """A new debounced occupancy; returns the LED frame now shown."""
        now = self.clock.now() if now is None else now
        self._fire_due(now)
        squares = frozenset(squares)
        if squares != self.occupancy:
            self.touched |= squares ^ self.occupancy
            self.occupancy = squares
            self._deadline = None
            self._evaluate(now)
        return self.frame

    def tick(self, now: float | None = None) -> None:
        """Let time pass: fire the settle, grace and takeback deadlines that fell due."""
        self._fire_due(self.clock.now() if now is None else now)

    def next_deadline(self) -> float | None:
        """When the next timer falls due (for the Session's sleeping)."""
        # clocks: measured from the last time timers were checked, so a jump of the clock is never skipped
        clock = self.clocks.next_change(self._checked) if self.clocks is not None else None
        deadline = self._deadline.at if self._deadline else None
        times = [t for t in (deadline, self._grace_at, clock) if t is not None]
        return min(times) if times else None

    def computer_moved(self, token: int, move: Move | None) -> None:
        """The engine's answer to EngineJob ``token`` (ignored when the game moved on)."""
        if (token != self._engine_token or self.computer_shape is not None or not self._computer_turn()
                or self.state in ("waiting_start", "game_over")):
            return
        shape = self.exp.shape_of(move) if move is not None else None
        if shape is None:
            self._say(f"the engine answered an illegal move {move!r}", "error")
            return
        self.computer_shape = shape
        by = _name(self.game.board.turn)
        self._say(f"The computer ({by}) plays {shape.text}: move the piece as the LEDs show.")
        self._evaluate(self.clock.now())

    # --- timers -----------------------------------------------------------------------------------
    def _fire_due(self, now: float) -> None:
        self._checked = now
        if self.clocks is not None and self.state not in ("waiting_start", "game_over"):
            flagged = self.clocks.flagged(now)
            if flagged is not None:
                self.clocks.stop(now)
                self._finish("0-1" if flagged == "white" else "1-0", f"{flagged} lost on time (flag fell)")
                return
        d = self._deadline
        if d is not None and d.at <= now:
            self._deadline = None
            self._on_deadline(d, now)
        if self._grace_at is not None and self._grace_at <= now:
            self._grace_at = None
            self._go_out_of_sync()

    def _arm_deadline(self, kind: str, now: float, data: Any = None) -> None:
        """Set the one deadline: ``kind`` fires once the board has stayed as it is for the settle time."""
        self._deadline = _Deadline(kind, now + self.config.settle_ms / 1000, data)

    def _await_settle(self, pending: tuple[MoveShape, ...], now: float) -> None:
        """A complete move that a further capture could still extend: commit it once the board is still."""
        self.pending = pending
        self._arm_deadline("settle", now)
        if self.state != "move_pending_settle":
            self.settle()

    def _on_deadline(self, d: _Deadline, now: float) -> None:
        if d.kind == "settle":
            candidates = disambiguate(self.pending, frozenset(self.touched))
            if len(candidates) == 1:
                self._commit(candidates[0])
            else:
                self._ask(candidates)
        elif d.kind == "takeback":
            self._takeback(d.data, physical=True)
        elif d.kind == "restart":
            self.new_game()
        elif d.kind == "missed":
            self._missed_capture(*d.data)

    # --- evaluation ---------------------------------------------------------------------------------
    def _computer_turn(self) -> bool:
        s = self.settings
        mover = _name(self.game.board.turn)
        return s.opponent != "person" and s.human_color != "both" and mover != s.human_color

    def _evaluate(self, now: float) -> None:
        state = self.state
        occ = self.occupancy
        if state == "waiting_start":
            self._eval_waiting()
            return
        if state == "game_over":
            self._eval_physical_commands(now, allow_restart=True)
            return
        if self.must_restore:
            if occ != self.exp.base:
                if state != "out_of_sync":
                    self.lose_sync()
                self._show_sync()
                return
            self.must_restore = False
        if state == "missed_capture":
            if occ == self.exp.base:  # the offender put the piece back himself: as if retracted
                self.missed_choice("retract")
            return
        reading = self.exp.read(occ)
        if (reading.kind == "none" and self.pending and self.state == "move_pending_settle"
                and self._lookahead(now)):
            return
        if self._computer_turn():
            self._eval_computer(reading, now)
        else:
            self._eval_person(reading, now)

    def _lookahead(self, now: float) -> bool:
        """While a move waits for its settle time, the next player's first touch commits it at once."""
        if len(self.pending) != 1:
            return False
        board = self.game.board.copy()
        board.push(self.pending[0].move)
        if Expectation(board, self.map).read(self.occupancy).kind == "none":
            return False
        self._commit(self.pending[0])
        return True

    def _eval_waiting(self) -> None:
        occ = self.occupancy
        target = self.exp.base
        if occ == target:
            self.start_seen()
            self._say("The board is set up: play.")
            self._begin_turn()
            return
        playing = self.map.playing()
        wrong = occ - playing
        if wrong and len(wrong) * 2 >= len(occ):
            if not self.flags.color_warned:
                self.flags.color_warned = True
                self._say(f"The pieces stand on the wrong color of squares for {self.variant.name}: "
                          f"its pieces go on the squares lit white; take the pieces off the squares lit red.",
                          "warning")
            self._display(self.hints.wrong_color(wrong, target - occ))
            return
        rotated = frozenset((self.variant.height - 1 - r, self.variant.width - 1 - c) for r, c in occ)
        if rotated == target and not self.flags.color_warned:
            self.flags.color_warned = True
            self._say("The pieces are set up as if White sat at the other side of the board: turn the board, "
                      "or choose the other orientation for a new game.", "warning")
        self._show_sync(emit=False)

    def _eval_physical_commands(self, now: float, allow_restart: bool) -> bool:
        """Takeback by restoring an earlier position, or a new game by setting up the start position."""
        occ = self.occupancy
        if self.config.takeback and self.records:
            for k in range(1, min(len(self.records), 20) + 1):
                if self.history[-1 - k] == occ:
                    self._arm_deadline("takeback", now, k)
                    return True
        if (self.config.new_game_on_start and self.records and occ == self.start_occupancy
                and (allow_restart or len(self.records) > 20 or not self.config.takeback)):
            self._arm_deadline("restart", now)
            return True
        return False

    def _eval_person(self, reading: Reading, now: float) -> None:
        if reading.kind == "rest":
            self._grace_at = None
            self.pending = ()
            self.touched.clear()
            if self.state != "player_to_move":
                self.await_person()
            self._display(self.hints.turn(self.exp, self.crown))
            return
        if reading.kind == "none":
            self._unmatched(reading, now)
            return
        self._grace_at = None
        if self.state == "ambiguous":
            self.await_person()
        if reading.kind == "complete":
            candidates = disambiguate(reading.complete, frozenset(self.touched))
            if reading.extendable:
                self._await_settle(reading.complete, now)
                self._display(self._progress_frame(reading))
            elif len(candidates) == 1:
                self._commit(candidates[0])
            else:
                self._ask(candidates)
            return
        self.pending = ()
        self._enter_progress(reading)

    def _enter_progress(self, reading: Reading) -> None:
        removed = reading.removed
        captures = any(sq in s.captures for s in reading.partial for sq in removed) or any(
            s.captures for s in reading.partial if reading.added)
        if captures:
            if self.state != "capture_in_progress":
                self.capture_step()
        elif self.state != "piece_lifted":
            self.lift()
        self._display(self._progress_frame(reading))

    def _progress_frame(self, reading: Reading) -> LedFrame:
        shapes = reading.partial or reading.complete
        if not reading.added and len(reading.removed) == 1:
            (origin,) = reading.removed
            if self.exp.own(origin):
                return self.hints.lifted(self.exp, origin)
        landed = next(iter(reading.added)) if reading.added else None
        return self.hints.capturing(self.exp, self.occupancy, shapes, landed)

    def _eval_computer(self, reading: Reading, now: float) -> None:
        shape = self.computer_shape
        if reading.kind == "rest":
            self._grace_at = None
            self.pending = ()
            if self.state != "computer_move_pending":
                self.await_computer()
            self._display(self.hints.computer(shape, self.occupancy) if shape else self.hints.thinking())
            return
        if shape is not None and shape in reading.complete:
            self._grace_at = None
            if reading.extendable:
                self._await_settle((shape,), now)
            else:
                self._commit(shape)
            return
        if shape is not None and shape in reading.partial:
            self._grace_at = None
            self.pending = ()
            if self.state != "computer_move_pending":
                self.await_computer()
            self._display(self.hints.computer(shape, self.occupancy))
            return
        if shape is not None and reading.complete:
            other = reading.complete[0]
            if self.config.accept_alternative:
                self._say(f"Accepted {other.text} instead of the computer's {shape.text}.")
                self._commit(other)
                return
            if self.flags.alt_warned != self.occupancy:
                self.flags.alt_warned = self.occupancy
                self._say(f"That is {other.text}, not the computer's move {shape.text}: "
                          f"play {shape.text} as the LEDs show.", "warning")
        self._unmatched(reading, now)

    def _unmatched(self, reading: Reading, now: float) -> None:
        """The board matches nothing legal: takeback, restart, refusal or (after the grace time) out of
        sync."""
        if self._eval_physical_commands(now, allow_restart=False):
            return
        if not self._computer_turn() and not self.missed_info:
            self._check_refusal(reading, now)
            if len(reading.removed) == 1 and not reading.added and self.exp.own(next(iter(reading.removed))):
                self._display(self.hints.lifted(self.exp, next(iter(reading.removed))))
        if self.state == "out_of_sync":
            self._show_sync()
        elif self._grace_at is None:
            self._grace_at = now + self.config.grace_ms / 1000

    def _check_refusal(self, reading: Reading, now: float) -> None:
        own = [sq for sq in reading.removed if self.exp.own(sq)]
        if len(own) != 1 or len(reading.added) != 1:
            return
        origin, (target,) = own[0], tuple(reading.added)
        enemies = reading.removed - {origin}
        sep = self.variant.capture_separator if enemies else "-"
        text = f"{self.map.name(origin)}{sep}{self.map.name(target)}"
        try:
            self.game.board.parse_move(text)
            message = f"{text} must take off exactly the pieces it jumps"
        except ValueError as exc:
            message = str(exc)
        rule = _refusal_rule(message)
        policy = self.variant.missed_capture_policy
        if rule == "compulsory capture" and not enemies and policy != "reject":
            self._arm_deadline("missed", now, (origin, target, text))
            return
        if self.flags.refused == self.occupancy:
            return
        self.flags.refused = self.occupancy
        self._refuse(message, rule)   # the line every front end shows; teaching adds a lesson
        if self.teaching:
            self._say(f"{text} is refused by the rule of {rule}: {message}. Put the piece back.", "warning")
        self._display(self.hints.refused(self.exp, origin, target))

    # --- out of sync ----------------------------------------------------------------------------------
    def _sync_diff(self) -> tuple[tuple[Cell, ...], tuple[Fill, ...]]:
        pieces = self.exp.pieces
        to_empty = tuple(sorted(self.occupancy - self.exp.base))
        to_fill = tuple(Fill(sq, _name(pieces[sq][0]), pieces[sq][1])
                        for sq in sorted(self.exp.base - self.occupancy))
        return to_empty, to_fill

    def _show_sync(self, emit: bool = True) -> None:
        to_empty, to_fill = self._sync_diff()
        if emit:
            self._emit(ev.OutOfSync(to_empty, tuple((f.square, f.color, f.king) for f in to_fill)))
        self._display(self.hints.sync(to_empty, to_fill))

    def _go_out_of_sync(self, force: bool = False) -> None:
        if self.state in ("waiting_start", "out_of_sync", "missed_capture", "game_over"):
            return
        if not force and self.exp.read(self.occupancy).kind != "none":
            return
        self.lose_sync()
        to_empty, to_fill = self._sync_diff()
        parts = [f"take the piece off {self.map.name(sq)}" for sq in to_empty]
        parts += [f"put a {f.color} {'king' if f.king else 'man'} on {self.map.name(f.square)}"
                  for f in to_fill]
        self._say("The board does not match the game: " + "; ".join(parts) + ".", "warning")
        self._show_sync()

    # --- committing -----------------------------------------------------------------------------------
    def _commit(self, shape: MoveShape) -> None:
        by = _name(self.game.board.turn)
        self.game.push(shape.move)
        record = Record("move", shape.text, self.game.board.fen(), by, *self._timing())
        self._append(record)
        self.crown = shape.target if shape.move.promotion else None
        self._emit(ev.MoveCommitted(len(self.records), shape.text, by, record.fen))
        if self.crown is not None:
            self._say(f"Crown the piece on {self.map.name(shape.target)}: put a second piece on it.")
        self._after_ply()

    def _timing(self) -> tuple[float | None, tuple[float, float] | None, str]:
        """The mover's time for the ply just made, both clocks after it (increment added), the wall time."""
        now = self.clock.now()
        seconds = round(now - self._turn_since, 3) if self._turn_since is not None else None
        clocks = None
        if self.clocks is not None:
            self.clocks.press(now)
            clocks = (round(self.clocks.left("white", now), 3), round(self.clocks.left("black", now), 3))
        self._turn_since = None
        return seconds, clocks, self._wall().isoformat(timespec="seconds")

    def _append(self, record: Record) -> None:
        if self.journal is not None:
            self.journal.record(record)  # on disk before any LED confirms the move
        self.records.append(record)
        if self.missed_info is not None and self.missed_info.objection_ply is not None \
                and len(self.records) > self.missed_info.objection_ply + 1:
            self.missed_info = None

    def _after_ply(self, guide: bool = False) -> None:
        self.exp = Expectation(self.game.board, self.map)
        self.history = [*self.history[:len(self.records)], self.exp.base]
        self.pending = ()
        self.computer_shape = None
        self._engine_token += 1
        self.flags.refused = None
        self._begin_turn(guide)

    def _begin_turn(self, guide: bool = False) -> None:
        self._deadline = None
        self._grace_at = None
        self.touched.clear()
        if guide:  # recomputed, not only set: a second takeback may ask for the very board already standing
            self.must_restore = self.occupancy != self.exp.base
        outcome = self.game.outcome()
        if outcome is not None:
            self._finish(outcome.result, outcome.reason)
            return
        if self._offer_claim():
            return
        now = self.clock.now()
        mover = _name(self.game.board.turn)
        if self._turn_since is None:
            self._turn_since = now
        if self.clocks is not None and self.clocks.running != mover:
            self.clocks.start(mover, now)
        self.progress = None
        if self._computer_turn():
            if self.state != "computer_move_pending":
                self.await_computer()
            if self.request_engine is not None:
                budget = None
                if self.clocks is not None:
                    left = self.clocks.left(mover, now)
                    budget = max(0.05, left / 30 + self.clocks.control.increment * 0.8)
                job = EngineJob(self._engine_token, self.game.board.copy(), self.settings.level, budget)
                self.request_engine(job)
        elif self.state != "player_to_move":
            self.await_person()
        if self.must_restore:
            self._go_out_of_sync(force=True)
        else:
            self._evaluate(self.clock.now())

    def _ask(self, candidates: tuple[MoveShape, ...]) -> None:
        self.pending = candidates
        if self.state != "ambiguous":
            self.ask()
        texts = " or ".join(s.text for s in candidates)
        self._say(f"The board shows {texts}: lift and replace the piece that moved, or choose the move.")
        self._display(self.hints.candidates(candidates))

    def choose(self, text: str) -> None:
        """Resolve an ambiguity by the move's text."""
        for shape in self.pending:
            if shape.text == text:
                self._commit(shape)
                return
        raise ValueError(f"{text!r} is not one of the candidate moves {[s.text for s in self.pending]}")

    # --- missed captures ------------------------------------------------------------------------------
    def _missed_capture(self, origin: Cell, target: Cell, text: str) -> None:
        policy = self.variant.missed_capture_policy
        by = _name(self.game.board.turn)
        opponent = "black" if by == "white" else "white"
        should = self.exp.must_capture
        capture_texts = ", ".join(s.text for s in self.exp.shapes)
        self.missed_info = _Missed(origin, target, should, text, policy, by)
        if policy == "accept_on_next_move":
            self._say(f"{by} played {text} without the compulsory capture ({capture_texts}); "
                      f"it stands unless "
                      f"{opponent} asks to retract it before moving.", "warning")
            self.missed_info.objection_ply = len(self.records)
            self._force(origin, target, None, text, by)
            return
        choices = "retract or accept" if policy.endswith("accept") else "retract or huff"
        self._refuse(f"{text}: a capture was compulsory ({capture_texts})", "compulsory capture")
        self._say(f"{by} played {text} without the compulsory capture ({capture_texts}). "
                  f"{opponent} chooses: {choices}.", "warning")
        self.missed()
        self._display(self.hints.missed(origin, target, should))

    def _force(self, origin: Cell, target: Cell, remove: Cell | None, text: str, by: str) -> None:
        board = self.game.board
        sq = self.map.square
        fen = forced_fen(board, sq(origin), sq(target), sq(remove) if remove is not None else None)
        label = text if remove is None else f"{text} (huff {self.map.name(remove)})"
        record = Record("forced", label, fen, by, *self._timing())
        self.game = Game(self.variant, fen=fen)
        self._append(record)
        self._emit(ev.MoveCommitted(len(self.records), record.text, by, fen))
        self._after_ply(guide=remove is not None)

    def missed_choice(self, choice: str) -> None:
        """The opponent's answer to a missed capture: retract, accept or huff."""
        info = self.missed_info
        if info is None:
            raise ValueError("there is no missed capture to answer")
        allowed = {"opponent_choice_retract_or_accept": ("retract", "accept"),
                   "opponent_choice_retract_or_huff": ("retract", "huff"),
                   "accept_on_next_move": ("retract",)}.get(info.policy, ())
        if choice not in allowed:
            answers = " or ".join(allowed)
            raise ValueError(f"{self.variant.name}: a missed capture may be answered by {answers}, "
                             f"not {choice!r}")
        if info.objection_ply is not None:
            self.missed_info = None
            self._takeback(1, physical=False)
            self._say(f"{info.text} is retracted: put the piece back and capture.")
            return
        self.missed_info = None
        if choice == "retract":
            self._say(f"{info.text} is retracted: put the piece back and capture.")
            self.await_person()
            self._begin_turn(guide=True)
        elif choice == "accept":
            self._force(info.origin, info.target, None, info.text, info.by)
        else:
            huffed = info.target if info.origin in info.should else info.should[0]
            self._say(f"Huff: take the piece on {self.map.name(huffed)} off the board.")
            self._force(info.origin, info.target, huffed, info.text, info.by)

    # --- takeback, end --------------------------------------------------------------------------------
    def _takeback(self, plies: int, physical: bool) -> None:
        if not self.config.takeback:
            raise ValueError("takeback is disabled in the settings")
        plies = min(plies, len(self.records))
        if plies == 0:
            raise ValueError("there is no move to take back")
        if self.journal is not None:
            self.journal.takeback(plies)
        del self.records[-plies:]
        self.game = replay(self.variant, self.settings.fen, self.records)
        self.outcome = None
        self.crown = None
        if self.state in ("game_over", "ambiguous", "missed_capture"):
            self.lose_sync()
        self._say(f"Took back {plies} {'plies' if plies > 1 else 'ply'}"
                  + ("." if physical else ": put the pieces back as the LEDs show."))
        self.history = self.history[:len(self.records) + 1]
        self._after_ply(guide=not physical)

    def takeback(self, plies: int = 1) -> None:
        """Take back ``plies`` plies by command; the LEDs then guide the pieces back."""
        self._takeback(plies, physical=False)

    def _finish(self, result: str, reason: str) -> None:
        self.outcome = (result, reason)
        self._engine_token += 1
        if self.clocks is not None:
            self.clocks.stop(self.clock.now())
        if self.journal is not None:
            self.journal.end(result, reason)
        if self.state != "game_over":
            self.finish()
        self._emit(ev.GameOver(result, reason))
        self._say(f"Game over: {result} ({reason}).")
        self.write_pdn()
        pieces = self.exp.pieces
        if result == "1/2-1/2":
            frame = self.hints.game_over((), pieces)
        else:
            winner = "white" if result.startswith("1-") else "black"
            frame = self.hints.game_over([sq for sq, (c, _) in pieces.items() if _name(c) == winner], ())
        self._display(frame)

    def resign(self, color: str) -> None:
        """``color`` resigns."""
        if self.state in ("game_over", "waiting_start"):
            raise ValueError("there is no game in progress to resign")
        self.game.resign(Color.WHITE if color == "white" else Color.BLACK)
        outcome = self.game.outcome()
        assert outcome is not None
        self._finish(outcome.result, outcome.reason)

    def _offer_claim(self) -> bool:
        """A claimable draw (variant.draw_claims): the computer claims it on its turn unless it is ahead on
        material; otherwise the people are told once. True when the game ended by the computer's claim."""
        draw = self.game.claimable_draw()
        if draw is None:
            self.claimable = None
            return False
        if self._computer_turn() and not _ahead(self.game.board, self.game.board.turn):
            self._claim(_name(self.game.board.turn))
            return True
        if self.claimable != draw.reason:
            self._say(f"{draw.reason.capitalize()}: a draw may be claimed (claim at the console, "
                      f"Claim draw on the web page), or play on.")
        self.claimable = draw.reason
        return False

    def claim_draw(self, color: str) -> None:
        """``color`` claims the draw a claim rule of the variant allows now (ValueError if none)."""
        if self.state in ("game_over", "waiting_start"):
            raise ValueError("there is no game in progress")
        self._claim(color)

    def _claim(self, color: str) -> None:
        draw = self.game.claimable_draw()
        outcome = self.game.claim_draw()   # ValueError when no claim rule holds
        assert draw is not None
        self._say(f"{color} claims the draw ({draw.reason}).")
        self._finish(outcome.result, outcome.reason)

    def board_link(self, connected: bool) -> None:
        """The board's cable dropped or came back: say so (moves made meanwhile are read when it is back)."""
        if not connected:
            self.board_lost = True
            self._say("The board is disconnected (cable or power?): waiting for it. Moves made meanwhile "
                      "are read when it is back.", "warning")
        elif self.board_lost:
            self.board_lost = False
            self._say("The board is connected again.")

    def offer_draw(self, color: str) -> None:
        """``color`` offers a draw; the other side answers with ``answer_draw``."""
        self.draw_offer = color
        self._say(f"{color} offers a draw.")

    def answer_draw(self, color: str, accept: bool) -> None:
        """``color`` accepts (the game ends drawn) or declines the other side's draw offer."""
        if self.draw_offer is None or self.draw_offer == color:
            raise ValueError(f"there is no draw offer for {color} to answer")
        self.draw_offer = None
        if accept:
            outcome = self.game.agree_draw()
            self._finish(outcome.result, outcome.reason)
        else:
            self._say(f"{color} declines the draw.")

    def set_teaching(self, on: bool) -> None:
        """Turn teaching mode (whole capture paths, rule names in refusals) on or off."""
        self.teaching = on
        self.hints.teaching = on
        if self.state == "player_to_move":
            self._display(self.hints.turn(self.exp, self.crown))

    def show_hint(self) -> None:
        """Light every legal move of the side to move."""
        self._display(self.hints.candidates(self.exp.shapes))

    def _player(self, color: str) -> str:
        s = self.settings
        if s.human_color in (color, "both") or s.opponent == "person":
            return "Person"
        return "External engine" if s.opponent == "external" else f"Computer (level {s.level})"

    def pdn(self) -> str:
        """The game so far as PDN text (Result ``*`` while it is in progress)."""
        result = self.outcome[0] if self.outcome else "*"
        tags = PdnTags(white=self._player("white"), black=self._player("black"), result=result,
                       date=f"{self.started:%Y.%m.%d}", time_control=self.settings.time_control)
        return write_pdn(self.variant, self.settings.fen, self.records, tags)

    def _pdn_name(self) -> Path:
        assert self.pdn_dir is not None
        return self.pdn_dir / f"{self.started:%Y%m%d-%H%M%S}-{self.variant.id}.pdn"

    def write_pdn(self) -> Path | None:
        """Write the game's PDN into its own file in ``pdn_dir`` (named by its start time and variant), at the
        game's end and on demand; later writes of the same game replace its file atomically."""
        if self.pdn_dir is None:
            return None
        self.pdn_dir.mkdir(parents=True, exist_ok=True)
        if self.pdn_path is None:
            path = self._pdn_name()
            number = 2
            while path.exists():
                path = path.with_name(f"{self._pdn_name().stem}-{number}.pdn")
                number += 1
            self.pdn_path = path
        durable_replace(self.pdn_path, self.pdn())
        return self.pdn_path

    # --- output -----------------------------------------------------------------------------------------
    def _display(self, frame: LedFrame) -> None:
        if frame != self.frame:
            self.frame = frame
            self._show(frame)
            self._emit(ev.HintFrame(frame))

    def _say(self, text: str, level: str = "info") -> None:
        self.flags.messages.append({"text": text, "level": level})
        self._emit(ev.Message(text, level))

    def _refuse(self, message: str, rule: str) -> None:
        """A Refusal event, kept in the message history too so that a page opened later shows it."""
        self.flags.messages.append({"text": f"Refused: {message} ({rule})", "level": "refusal"})
        self._emit(ev.Refusal(message, rule))

    def state_dict(self) -> dict[str, Any]:
        """The full JSON-ready state for a newly connected client (StateChanged payload)."""
        board = self.game.board
        pieces = [{"row": r, "col": c, "color": _name(color), "king": king}
                  for (r, c), (color, king) in sorted(self.exp.pieces.items())]
        moves = [{"ply": i + 1, "text": rec.text, "by": rec.by} for i, rec in enumerate(self.records)]
        last = None
        if board.move_stack and self.records and self.records[-1].kind == "move":
            m = board.peek()
            last = {"from": list(self.map.rc(m.from_square)), "to": list(self.map.rc(m.to_square)),
                    "captures": [list(self.map.rc(sq)) for sq in m.captures]}
        return {
            "variant": self.variant.id, "variant_name": self.variant.name,
            "rows": self.variant.height, "cols": self.variant.width,
            "orientation": "white-far" if self.settings.flipped else "white-near",
            "pieces": pieces, "turn": _name(board.turn), "state": self.state,
            "legal_moves": [s.text for s in self.exp.shapes], "moves": moves, "last_move": last,
            "leds": ev.frame_to_json(self.frame) if self.frame else [],
            "clocks": self.clocks.to_json(self.clock.now()) if self.clocks is not None else None,
            "engine": {"opponent": self.settings.opponent, "level": self.settings.level,
                       "progress": self.progress,
                       "thinking": self.state == "computer_move_pending" and self.computer_shape is None,
                       "move": self.computer_shape.text if self.computer_shape else None},
            "human_color": self.settings.human_color, "teaching": self.teaching,
            "messages": list(self.flags.messages),
            "result": {"result": self.outcome[0], "reason": self.outcome[1]} if self.outcome else None,
            "claimable_draw": self.claimable if self.outcome is None else None,
            "board_connected": not self.board_lost,
            "occupancy": [list(sq) for sq in sorted(self.occupancy)],
            "fen": board.fen(),
        }

    def __repr__(self) -> str:
        return (f"Controller({self.variant.id}, state={self.state}, ply={len(self.records)}, "
                f"turn={_name(self.game.board.turn)})")
