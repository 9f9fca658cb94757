"""The Controller: occupancy snapshots in, committed moves, LED frames and events out.

It is the model of the state machine declared in ``controller.states``: each state names the method that
reads the board while it is current (``on_board``), entering a turn starts it (clocks, the engine, the LEDs),
and committing a move is the ``commit`` transition whose conditions choose the next turn. The game's record
(plies, journal, clocks, PDN) is a ``GameRecord``; what belongs to one ply (the legal moves' shapes, the
computer's move, timers) is a ``Turn`` (``controller.turn``), replaced whole after every ply. What it says
goes through its ``Voice`` (``controller.voice``); ``controller.view`` turns it into the page's JSON.

Synchronous and time-injected: every input carries or reads the injected clock, timers are deadlines checked
on each input or ``tick()``, so scenario tests are deterministic. ``Session`` wraps it in asyncio.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from transitions import EventData

from firmware_bridge.clock import Clock
from firmware_bridge.types import Cell, LedFrame
from rules import Board, Color, Game, Illegal, IllegalMoveError, InvalidSquareError, Move, Variant

from . import commands as cmd
from . import events as ev
from . import states
from .clocks import GameClocks
from .config import Config
from .durable import SaveError
from .hints import Fill, HintPolicy
from .inference import Expectation, MoveShape, Reading, disambiguate
from .journal import Journal, JournalState, Record
from .record import GameRecord, color_name, forced_fen
from .settings import EngineJob, GameSettings
from .squares import BoardMap
from .teaching import why_immobile
from .turn import Amendable, Deadline, DeadlineData, MissedCapture, Turn
from .voice import Voice, computer_plays, set_up_request

__all__ = ["Controller", "EngineJob", "GameSettings"]

STATES, TRANSITIONS = states.STATES, states.TRANSITIONS
RETRY_SECONDS = 2.0
"""A move that could not be saved (a full or read-only card) is tried again this often while it stands."""


def _ahead(board: Board, color: Color) -> bool:
    """``color`` has more material (a man 1, a king 2): the computer then plays on instead of claiming."""
    def material(c: Color) -> int:
        return len(board.men(c)) + 2 * len(board.kings(c))
    return material(color) > material(color.opponent)


class Controller:
    """Joins the board's occupancy to the rules: infers and commits moves, journals them, chooses LED frames.

    ``emit`` receives every Event, ``show`` every LED frame, ``request_engine`` every EngineJob (answer with
    ``computer_moved``). All inputs are synchronous; ``clock`` supplies the time.
    """

    state: str
    if typing.TYPE_CHECKING:  # triggers added by the machine (controller.states.TRANSITIONS)
        def set_up(self) -> bool: ...
        def commit(self) -> bool: ...
        def finish(self, *, result: str, reason: str) -> bool: ...
        def lose_sync(self) -> bool: ...
        def take_back(self) -> bool: ...
        def resync(self) -> bool: ...
        def reset(self) -> bool: ...
        def lift(self) -> bool: ...
        def capture_step(self) -> bool: ...
        def settle(self) -> bool: ...
        def put_back(self) -> bool: ...
        def ask(self) -> bool: ...
        def reconsider(self) -> bool: ...
        def missed(self) -> bool: ...
        def retract(self) -> bool: ...
        def engine_answered(self) -> bool: ...

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
        self.voice = Voice(self._emit)
        self.say = self.voice.say
        """A sentence for the person (``Voice.say``): kept in the message history, sent as a Message."""
        self.refuse_unsaved = self.voice.save_refused
        """Something asked of the game (a new game over it) could not be saved: refused out loud, as a move
        that cannot be saved is (``Voice.save_refused``)."""
        self.messages = self.voice.messages
        self.save_errors = self.voice.save_errors
        self._show = show or (lambda frame: None)
        self.request_engine = request_engine
        self._wall = wall or datetime.now
        self.teaching = config.teaching
        self.machine = states.build(self)
        self.walked: set[tuple[str, str]] = set()
        """Every (source, dest) transition taken, as declared: the tests check each one is drawn."""
        self.occupancy: frozenset[Cell] = frozenset()
        self.frame: LedFrame | None = None
        self.progress: dict[str, Any] | None = None
        self.board_lost = False   # the board's link (serial cable) is down
        self.moves_itself = False
        """The board moves the pieces the game asks for by itself (the virtual board, set by the Session):
        messages then say what happened to the pieces, not what to do with them."""
        self.virtual = False
        """The board is the virtual one (the Session says so): set by hand, it has a button that does it."""
        self._tokens = 0
        settings = settings or GameSettings(config.game_variant(), config.human_color, config.opponent,
                                            config.level, None, config.orientation == "white-far",
                                            player=config.player)
        self._setup(self._new_record(settings))

    # --- the game -----------------------------------------------------------------------------------
    def _new_record(self, settings: GameSettings, state: JournalState | None = None,
                    journaled: bool = False, defer: bool = False) -> GameRecord:
        kwargs: dict[str, Any] = {"clock": self.clock, "wall": self._wall, "pdn_dir": self.pdn_dir}
        if state is not None:
            return GameRecord.resume(state, journal=self.journal, **kwargs)
        if journaled:
            return GameRecord.begin(settings, journal=self.journal, previous=self.record, defer=defer,
                                    **kwargs)
        return GameRecord(settings, **kwargs)

    def _setup(self, record: GameRecord) -> None:
        """Make ``record`` the game: the board map, hint policy and occupancy history follow its variant."""
        self.record = record
        self.map = BoardMap(record.variant, record.settings.flipped)
        self.playing = self.map.playing()
        self.hints = HintPolicy(record.variant.height, record.variant.width, self.teaching)
        # a game of a smaller board (Alquerque after an 8x8 game): squares beyond it are not this game's
        rows, cols = record.variant.height, record.variant.width
        self.occupancy = frozenset((r, c) for r, c in self.occupancy if r < rows and c < cols)
        start = record.start_board()
        self.start_occupancy = Expectation(start, self.map).base
        self.start_fen = start.fen()
        self.history: list[frozenset[Cell]] = [Expectation(b, self.map).base for b in record.boards()]
        self.missed_info: MissedCapture | None = None
        self.draw_offer: str | None = None
        self.claimable: str | None = None   # the reason of the draw a player may claim now
        self.color_warned = False
        self.progress = None
        self._new_turn()

    def _new_turn(self, crown: Cell | None = None, restore: bool = False,
                  previous: Amendable | None = None) -> None:
        self._tokens += 1
        self.voice.clear()
        self.turn = Turn(Expectation(self.record.board, self.map), self._tokens, crown, restore,
                         previous=previous)

    @property
    def settings(self) -> GameSettings:
        return self.record.settings

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def game(self) -> Game:
        """The rules game (position, history, draw rules) as recorded."""
        return self.record.game

    @property
    def records(self) -> list[Record]:
        """The committed plies."""
        return self.record.plies

    @property
    def clocks(self) -> GameClocks | None:
        return self.record.clocks

    @property
    def outcome(self) -> tuple[str, str] | None:
        return self.record.outcome

    @property
    def exp(self) -> Expectation:
        """What the side to move may legally show on the board."""
        return self.turn.exp

    @property
    def computer_shape(self) -> MoveShape | None:
        """The computer's chosen move, once the engine answered."""
        return self.turn.computer_shape

    @property
    def engine_token(self) -> int:
        """The token the current engine request carries; answers quoting another one are stale."""
        return self.turn.token

    @property
    def alert(self) -> dict[str, str] | None:
        """The refusal or warning the board is in now (``Voice.alert``): shown until it is resolved."""
        return self.voice.alert

    def new_game(self, settings: GameSettings | None = None, *, at_start: bool = False) -> None:
        """Start a new game (journaled) and wait for its start position on the board. When it cannot be saved
        the new game is refused and the game goes on; ``at_start`` it begins anyway, and its journal is
        started before its first move."""
        try:
            record = self._new_record(settings or self.settings, journaled=True, defer=at_start)
        except SaveError as exc:
            self.voice.save_refused(f"New game refused: {exc} (the game goes on)", exc)
            return
        self._setup(record)
        self.reset()
        what = set_up_request(self.variant, self.start_fen, moves_itself=self.moves_itself,
                              virtual=self.virtual)
        self.say(f"New game of {self.variant.name}{what}")
        if record.unsaved is not None:
            self.say(f"{record.unsaved}: moves are refused until it can be saved.", "error")
        self._on_board(self.clock.now())

    def resume(self, state: JournalState, settings: GameSettings | None = None) -> None:
        """Continue the journaled game: wait until the board matches it, the LEDs guiding the restoring. A
        finished game is saved to the library first (if it is not), then a new game with ``settings``."""
        record = self._new_record(self.settings, state)
        if record.outcome is not None:
            self.record = record
            self.new_game(settings, at_start=True)
            return
        self._setup(record)
        self.reset()
        plies = len(self.records)
        done = f"after {plies} {'ply' if plies == 1 else 'plies'}" if plies else "before its first move"
        self.say(f"Resuming the game of {self.variant.name} {done}.")
        self._on_board(self.clock.now())

    # --- conditions and the machine's bookkeeping -----------------------------------------------------
    def computer_to_move(self, event: EventData | None = None) -> bool:
        """The side to move is played by the computer."""
        return self.settings.plays(self.record.mover) == "computer"

    def game_ended(self, event: EventData | None = None) -> bool:
        """The rules end the game in the position reached (no move, an automatic draw, ...)."""
        return self.game.outcome() is not None

    def _walked(self, event: EventData) -> None:
        transition = event.transition
        if transition is not None and transition.dest is not None:
            self.walked.add((transition.source, transition.dest))

    def _can(self, trigger: str) -> bool:
        """Whether the machine has ``trigger`` in the current state."""
        return trigger in self.machine.get_triggers(self.state)

    @property
    def turn_state(self) -> str:
        """Whose turn the machine is in: setup, person, computer, out_of_sync or game_over."""
        return states.top(self.state)

    @property
    def rearranging(self) -> bool:
        """The pieces are to be put where the LEDs ask, not played: a set-up, or a position to restore after
        a takeback, a wrong exercise try or a retracted move."""
        return self.turn_state == "setup" or (self.turn_state == "out_of_sync" and self.turn.restore)

    # --- inputs -----------------------------------------------------------------------------------
    def snapshot(self, squares: frozenset[Cell], now: float | None = None) -> LedFrame | None:
        """A new debounced occupancy; returns the LED frame now shown."""
        now = self.clock.now() if now is None else now
        self._fire_due(now)
        squares = frozenset(squares)
        if squares != self.occupancy:
            changed = squares ^ self.occupancy
            self.turn.touched |= changed
            self.occupancy = squares
            if changed & self.playing:   # a timer runs while the played squares stay as they are
                self.turn.deadline = None
            self._on_board(now)
        return self.frame

    def tick(self, now: float | None = None) -> None:
        """Let time pass: fire the settle, grace and takeback deadlines that fell due."""
        self._fire_due(self.clock.now() if now is None else now)

    def next_deadline(self) -> float | None:
        """When the next timer falls due (for the Session's sleeping)."""
        # clocks: measured from the last time timers were checked, so a jump of the clock is never skipped
        clock = self.clocks.next_change(self._checked) if self.clocks is not None else None
        deadline = self.turn.deadline.at if self.turn.deadline else None
        times = [t for t in (deadline, self.turn.grace_at, clock) if t is not None]
        return min(times) if times else None

    _checked = 0.0

    def computer_moved(self, token: int, move: Move | None) -> None:
        """The engine's answer to EngineJob ``token`` (ignored when the game moved on)."""
        if (token != self.turn.token or self.turn.computer_shape is not None or not self.computer_to_move()
                or self.turn_state not in ("computer", "out_of_sync")):
            return
        shape = self.exp.shape_of(move) if move is not None else None
        if shape is None:
            self.say(f"the engine answered an illegal move {move!r}", "error")
            return
        self.turn.computer_shape = shape
        self.record.pause_clock(self.clock.now())   # carrying the move out on the board costs nobody time
        if not self.moves_itself:   # the virtual board makes it at once: said once played (_commit)
            plays = computer_plays(self.record, shape.text, self.record.mover, len(self.records))
            self.say(f"{plays}: move the piece as the LEDs show.")
        if self.turn_state == "computer":
            self.engine_answered()
        self._on_board(self.clock.now())

    def _on_board(self, now: float) -> None:
        """Hand the board to the current state's reader (its ``on_board``, or its parent's)."""
        name = self.state
        reader = None
        while reader is None:
            state = self.machine.get_state(name)
            reader = state.on_board if isinstance(state, states.TurnState) else None
            name = name.rpartition(states.TurnState.separator)[0]
        getattr(self, reader)(now)

    # --- timers -----------------------------------------------------------------------------------
    def _fire_due(self, now: float) -> None:
        self._checked = now
        if self.clocks is not None and self.turn_state in ("person", "computer", "out_of_sync"):
            flagged = self.clocks.flagged(now)
            if flagged is not None:
                self.clocks.stop(now)
                self._finish("0-1" if flagged == "white" else "1-0", f"{flagged} lost on time (flag fell)")
                return
        turn = self.turn
        d = turn.deadline
        if d is not None and d.at <= now:
            turn.deadline = None
            self._on_deadline(d, now)
        if turn.grace_at is not None and turn.grace_at <= now:
            turn.grace_at = None
            self._go_out_of_sync()

    def _arm(self, kind: str, now: float, data: DeadlineData = None, ms: int | None = None) -> None:
        """Set the turn's one deadline: ``kind`` fires once the board stayed as it is for the settle time (or
        ``ms``). Arming the deadline already pending (the board did not change) keeps its time."""
        d = self.turn.deadline
        if d is not None and d.kind == kind and d.data == data:
            return
        self.turn.deadline = Deadline(kind, now + (self.config.settle_ms if ms is None else ms) / 1000, data)

    def _on_deadline(self, d: Deadline, now: float) -> None:
        if d.kind == "settle":
            candidates = disambiguate(self.turn.pending, frozenset(self.turn.touched))
            if len(candidates) == 1:
                self._commit(candidates[0])
            else:
                self._ask(candidates)
        elif d.kind == "reply" and len(self.turn.pending) == 1:
            self._commit(self.turn.pending[0])
        elif d.kind == "takeback":
            assert isinstance(d.data, int)
            self._takeback(d.data, physical=True)
        elif d.kind == "restart":
            self.new_game()
        elif d.kind == "retry":
            self._on_board(now)
        elif d.kind == "missed" and self._can("lift"):
            assert isinstance(d.data, tuple) and len(d.data) == 3
            self._missed_capture(*d.data)

    # --- reading the board, state by state ------------------------------------------------------------
    def _board_in_setup(self, now: float) -> None:
        """Waiting for the start position: play starts when it stands; wrong squares or a turned board are
        said once."""
        occ = self.occupancy
        target = self.exp.base
        if occ == target:
            self.set_up()
            self.say("The board is set up: play.")
            self._reread()
            return
        wrong = occ - self.playing
        if wrong and len(wrong) * 2 >= len(occ):
            if not self.color_warned:
                self.color_warned = True
                self.say(f"The pieces stand on the wrong color of squares for {self.variant.name}: "
                         f"its pieces go on the squares lit white; take the pieces off the squares lit red.",
                         "warning")
            self._display(self.hints.wrong_color(wrong, target - occ))
            return
        rotated = frozenset((self.variant.height - 1 - r, self.variant.width - 1 - c) for r, c in occ)
        if rotated == target and not self.color_warned:
            self.color_warned = True
            self.say("The pieces are set up as if White sat at the other side of the board: turn the board, "
                     "or choose the other orientation for a new game.", "warning")
        self._show_sync(emit=False)

    def _board_in_person_turn(self, now: float) -> None:
        """The person's move: the hands lift, capture and settle until the board shows one legal move; the
        last move may still be amended, or taken back by restoring the position before it."""
        if self._restored_then_played(now):
            return
        self._watch_mover(now)
        turn = self.turn
        reading = turn.exp.read(self.played)
        if reading.kind != "none":
            self.voice.clear()
        if reading.kind == "rest":
            turn.grace_at = None
            turn.pending = ()
            turn.touched.clear()
            self.put_back()
            self._display(self.hints.turn(turn.exp, turn.crown))
            return
        if reading.kind == "none":
            if not self._amending(now):
                self._not_your_turn(reading)
                self._unmatched(reading, now)
            return
        turn.grace_at = None
        if reading.kind == "complete":
            candidates = disambiguate(reading.complete, frozenset(turn.touched))
            if reading.extendable:
                self._hands_on(reading)
                self.settle()
                turn.pending = reading.complete
                self._arm("settle", now, ms=self._settle_ms(reading))
                self._display(self._progress_frame(reading))
                self._explain_jumping_on(reading.complete)
            elif len(candidates) == 1:
                self._commit(candidates[0])
            else:
                self._hands_on(reading)
                self.settle()
                self._ask(candidates)
            return
        turn.pending = ()
        self._hands_on(reading)
        self._display(self._progress_frame(reading))

    def _explain_jumping_on(self, shapes: tuple[MoveShape, ...]) -> None:
        """A capture the rules let stop where it stands, or jump on (Konane): said once a turn, so that the
        person knows both are moves."""
        if self.turn.jump_on_said:
            return
        for shape in shapes:
            path = shape.move.path
            longer = [s.text for s in self.exp.shapes
                      if s.captures and len(s.move.path) > len(path) and s.move.path[:len(path)] == path]
            if shape.captures and longer:
                self.turn.jump_on_said = True
                self.say(f"You may stop here or jump again: {shape.text} stops on "
                         f"{self.map.name(shape.target)}; {' or '.join(longer)} jumps on.")
                return

    def _board_while_settling(self, now: float) -> None:
        """A move waits for its settle time: the next player's move, once begun, commits it."""
        if not self._reply_begun(now):
            self._board_in_person_turn(now)

    def _board_while_asking(self, now: float) -> None:
        """The person was asked to choose: any legal change of the board starts the reading again."""
        if self.exp.read(self.played).kind != "none":
            self.reconsider()
        self._board_in_person_turn(now)

    def _board_after_missed_capture(self, now: float) -> None:
        """The offender put the piece back himself: as if retracted."""
        if self.played == self.exp.base:
            self.missed_choice("retract")

    def _board_in_computer_turn(self, now: float) -> None:
        """The computer's move: shown on the LEDs once chosen, carried out by the person, then committed.
        Until the person touches the computer's pieces, the person's own move may still be amended."""
        if self._restored_then_played(now):
            return
        self._watch_mover(now)
        turn = self.turn
        shape = turn.computer_shape
        reading = turn.exp.read(self.played)
        if reading.kind == "none" and turn.pending and self._reply_begun(now):
            return
        if reading.kind == "rest" or (shape is not None and shape in reading.partial):
            self.voice.clear()
        if reading.kind == "rest":
            turn.grace_at = None
            turn.pending = ()
            self._display(self.hints.computer(shape, self.played) if shape else self.hints.thinking())
            return
        if shape is not None and shape in reading.complete:
            turn.grace_at = None
            if reading.extendable:
                turn.pending = (shape,)
                self._arm("settle", now, ms=self._settle_ms(reading))
            else:
                self._commit(shape)
            return
        if shape is not None and shape in reading.partial:
            turn.grace_at = None
            turn.pending = ()
            self._display(self.hints.computer(shape, self.played))
            return
        if reading.kind == "none" and self._amending(now):
            return
        if shape is not None and reading.kind != "none":
            other = reading.complete[0] if reading.complete else None
            if other is not None and self.config.accept_alternative:
                self.say(f"Accepted {other.text} instead of the computer's {shape.text}.")
                self._commit(other)
                return
            if other is not None and turn.alt_warned != self.played:
                turn.alt_warned = self.played
                self.voice.warn(f"That is {other.text}, not the computer's move {shape.text}: put the piece "
                                f"back as the LEDs show and play {shape.text}.")
            to_empty, to_fill = self._sync_diff()
            self._display(self.hints.computer_fix(shape, to_empty, to_fill))
            return
        self._not_your_turn(reading)
        self._unmatched(reading, now)

    def _board_out_of_sync(self, now: float) -> None:
        """The board disagrees with the game: back in play when it shows the position (or, unless it must be
        restored exactly, a step of a legal move). The start position set up early in a game asks first."""
        turn = self.turn
        if turn.start_question is not None and self._asking_start(now):
            return
        if turn.restore:
            if self.played != turn.exp.base:
                self._show_sync()
                return
            turn.restore = False
        if self._restored_then_played(now):
            return
        reading = turn.exp.read(self.played)
        if reading.kind != "none":
            self.voice.clear()
            self.resync()
            self._on_board(now)
            return
        self._unmatched(reading, now)

    def _board_after_game(self, now: float) -> None:
        """After the end: the last move may still be amended (a king sliding on to the square meant); an
        earlier position set up again takes moves back; the start position restarts."""
        if not self._restored_then_played(now) and not self._amending(now):
            self._physical_command(now, allow_restart=True)

    # --- helpers of the readers -------------------------------------------------------------------------
    @property
    def played(self) -> frozenset[Cell]:
        """The occupied squares that are played on: readings ignore the others (a slide brushes corners)."""
        return self.occupancy & self.playing

    def _hands_on(self, reading: Reading) -> None:
        """The person's hand state for a step of a move: capturing once a captured piece is involved."""
        removed = reading.removed
        shapes = reading.partial or reading.complete
        if any(sq in s.captures for s in shapes for sq in removed) or (
                reading.added and any(s.captures for s in shapes)):
            self.capture_step()
        else:
            self.lift()

    def _progress_frame(self, reading: Reading, exp: Expectation | None = None) -> LedFrame:
        exp = exp or self.exp
        shapes = reading.partial or reading.complete
        if not reading.added and len(reading.removed) == 1:
            (origin,) = reading.removed
            if exp.own(origin):
                return self.hints.lifted(exp, origin)
        landed = next(iter(reading.added)) if reading.added else None
        return self.hints.capturing(exp, self.played, shapes, landed)

    def _settle_ms(self, reading: Reading) -> int:
        """How long a board that a longer move could still extend must stay still: a flying king resting on
        its line may be sliding on, so it waits longer (``king_settle_ms``)."""
        pieces = self.exp.pieces
        landed = next(iter(reading.added), None)
        kings = all(pieces[s.origin][1] for s in reading.complete)
        if (self.variant.king_flying and landed is not None and kings
                and any(landed in s.passes and landed != s.target for s in reading.partial)):
            return self.config.king_settle_ms
        return self.config.settle_ms

    def _reply_begun(self, now: float) -> bool:
        """While one move waits for its settle time, the next player's move has begun: a whole move made
        (commit now), or a piece that can legally move lifted (commit once it stays lifted for the settle
        time; a brushed piece put back at once commits nothing)."""
        turn = self.turn
        if len(turn.pending) != 1:
            return False
        pending = turn.pending[0]
        after = turn.after.get(pending.move)
        if after is None:
            board = self.game.board.copy()
            board.push(pending.move)
            after = turn.after[pending.move] = Expectation(board, self.map)
        reading = after.read(self.played)
        if reading.kind == "complete":
            self._commit(pending)
            return True
        lifted = next(iter(reading.removed)) if len(reading.removed) == 1 and not reading.added else None
        if reading.kind == "partial" and lifted is not None and after.shapes_from(lifted):
            self._arm("reply", now, lifted)
            return True
        return False

    def _watch_mover(self, now: float) -> None:
        """The side to move touching its own pieces (one off its square for the settle time) ends the right
        to amend the move before."""
        turn = self.turn
        if turn.previous is None:
            return
        lifted = any(sq not in self.played for sq in turn.exp.base if turn.exp.own(sq))
        if lifted and turn.lifted_since is None:
            turn.lifted_since = now
        sustained = turn.lifted_since is not None and now - turn.lifted_since >= self.config.settle_ms / 1000
        if sustained:
            turn.previous = None
        if not lifted:
            turn.lifted_since = None

    def _amending(self, now: float) -> bool:
        """The board shows the last move changed (the mover's hand is back on it) while the side to move has
        not touched the board: another legal move from the position before it replaces it ("amended: 9-14,
        not 9-13"), the piece in the hand shows where it may go. Strict touch-move refuses instead."""
        turn = self.turn
        previous = turn.previous
        if previous is None:
            return False
        reading = previous.exp.read(self.played)
        if reading.kind == "none" or (reading.kind == "rest" and not self.config.touch_move):
            return False   # a restored position is a takeback (_physical_command)
        turn.grace_at = None
        if self.config.touch_move:
            text = (f"Touch-move: {previous.shape.text} stands: put the piece back on "
                    f"{self.map.name(previous.shape.target)}.")
            if reading.kind != "partial" and (self.voice.alert is None or self.voice.alert["text"] != text):
                self.voice.warn(text)
            to_empty, to_fill = self._sync_diff()
            self._display(self.hints.sync(to_empty, to_fill))
            return True
        if reading.kind == "partial":
            self.voice.clear()
            self._display(self._progress_frame(reading, previous.exp))
            return True
        self._takeback(1, physical=True, amended=previous)
        return True

    def _restored_then_played(self, now: float) -> bool:
        """The board showed an earlier position: if what follows is legal from there, it was a takeback
        (taken now, and the board read again); otherwise the earlier position was passed by chance."""
        turn = self.turn
        plies = turn.restored
        if plies is None:
            return False
        turn.restored = None
        if self.played == self.history[-1 - plies]:
            turn.restored = plies
            self._arm("takeback", now, plies)
            return True
        board = list(self.record.boards())[len(self.records) - plies]
        if Expectation(board, self.map).read(self.played).kind == "none":
            return False
        self._takeback(plies, physical=True)
        return True

    def _physical_command(self, now: float, allow_restart: bool) -> bool:
        """Takeback by restoring an earlier position, or a new game by setting up the start position (asked
        first early in a game, when it could also be a takeback to the start)."""
        occ = self.played
        plies = len(self.records)
        if self.config.new_game_on_start and plies and occ == self.start_occupancy and (
                allow_restart or plies > 20 or not self.config.takeback):
            self._arm("restart", now)
            return True
        if self.config.new_game_on_start and plies >= 2 and occ == self.start_occupancy:
            self._ask_start(plies)
            return True
        if self.config.takeback and plies:
            for k in range(1, min(plies, 20) + 1):
                if self.history[-1 - k] != occ:
                    continue
                if k == 1 and self.turn.previous is not None:
                    self._takeback(1, physical=True)   # the mover undid his move before anyone touched
                else:
                    self.turn.restored = k
                    self._arm("takeback", now, k)
                return True
        return False

    def _ask_start(self, plies: int) -> None:
        """The start position stands after ``plies`` plies: ask whether it is a new game or a takeback."""
        self.turn.start_question = plies
        self.voice.warn(f"The start position is set up after {plies} plies: a new game, or take back all "
                        f"{plies}? Choose on the page (console: new, or takeback {plies}); a move from the "
                        f"start position takes them back.")
        if self._can("lose_sync"):
            self.lose_sync()
        self._display(self.hints.question(self.start_occupancy ^ self.exp.base))

    def _asking_start(self, now: float) -> bool:
        """While the start-position question stands: the board still shows it, or a move from it begins (a
        takeback); the game's own position again, or any other board, drops the question."""
        plies = self.turn.start_question
        assert plies is not None
        if self.played == self.start_occupancy:
            self._display(self.hints.question(self.start_occupancy ^ self.exp.base))
            return True
        if self.played != self.exp.base and Expectation(self.record.start_board(), self.map).read(
                self.played).kind != "none":
            self._takeback(plies, physical=True)
            return True
        self.turn.start_question = None
        self.voice.clear()
        return False

    def start_position_choice(self, choice: str) -> None:
        """The answer to the start-position question: ``new_game`` or ``takeback`` (to the start)."""
        plies = self.turn.start_question
        if plies is None:
            raise ValueError("the board is not asking about the start position")
        if choice == "new_game":
            self.new_game()
        elif choice == "takeback":
            self._takeback(plies, physical=True)
        else:
            raise ValueError(f"the start position is answered by new_game or takeback, not {choice!r}")

    def _unmatched(self, reading: Reading, now: float) -> None:
        """The board matches nothing legal: takeback, restart, refusal or (after the grace time) out of
        sync."""
        if self._physical_command(now, allow_restart=False):
            return
        if not self.computer_to_move() and not self.missed_info:
            self._check_refusal(reading, now)
            lifted = next(iter(reading.removed)) if len(reading.removed) == 1 and not reading.added else None
            if lifted is not None and self.exp.own(lifted):
                self._display(self.hints.lifted(self.exp, lifted))
                self._explain_immobile(lifted)
        if self.turn_state == "out_of_sync":
            self._show_sync()
        elif self.turn.grace_at is None:
            self.turn.grace_at = now + self.config.grace_ms / 1000

    def _not_your_turn(self, reading: Reading) -> None:
        """A piece of the side not to move lifted, nothing else changed: said at once, its square lit red."""
        lifted = next(iter(reading.removed)) if len(reading.removed) == 1 and not reading.added else None
        piece = self.exp.pieces.get(lifted) if lifted is not None else None
        if lifted is None or piece is None or piece[0] == self.exp.turn:
            return
        if lifted not in self.turn.told:
            self.turn.told.add(lifted)
            mover = self.record.mover
            who = f"the computer ({mover})" if self.computer_to_move() else mover
            self.voice.warn(f"Not your turn: {who} is to move. Put the {color_name(piece[0])} piece back on "
                            f"{self.map.name(lifted)}.")
        self._display(self.hints.not_your_turn(self.exp, lifted, self.turn.crown))

    def _explain_immobile(self, lifted: Cell) -> None:
        """Teaching mode: an own piece lifted that has no legal move is refused in words, naming the rule
        (once a turn for each square); the LEDs already light it red."""
        square = self.map.square(lifted)
        if not self.teaching or square is None or self.exp.shapes_from(lifted) or lifted in self.turn.told:
            return
        self.turn.told.add(lifted)
        why = why_immobile(self.game.board, square)
        self.voice.refuse(f"{why.text[0].upper()}{why.text[1:]}. {self._rule_of(why.reason)}. Put it back",
                          why.reason, self.variant)

    def _rule_of(self, reason: Illegal) -> str:
        """Teaching mode's words for the rule behind a refusal, and where its rules page explains it."""
        return (f"The rule of {reason.rule}: see the {self.variant.name} rules, section "
                f"'{reason.section.replace('-', ' ')}'")

    def _check_refusal(self, reading: Reading, now: float) -> None:
        """One own piece moved to one square that no legal move explains: refuse it, naming the rule."""
        own = [sq for sq in reading.removed if self.exp.own(sq)]
        if len(own) != 1 or len(reading.added) != 1:
            return
        origin, (target,) = own[0], tuple(reading.added)
        enemies = reading.removed - {origin}
        sep = self.variant.capture_separator if enemies else "-"
        text = f"{self.map.name(origin)}{sep}{self.map.name(target)}"
        try:
            self.game.board.parse_move(text)
            message, reason = f"{text} must take off exactly the pieces it jumps", Illegal.WRONG_CAPTURE_PATH
        except IllegalMoveError as exc:
            message, reason = str(exc), exc.reason
        except (InvalidSquareError, ValueError) as exc:
            message, reason = str(exc), Illegal.PIECE_MOVEMENT
        policy = self.variant.missed_capture_policy
        if reason is Illegal.MUST_CAPTURE and not enemies and policy != "reject" and self._can("lift"):
            self._arm("missed", now, (origin, target, text))
            return
        if self.turn.refused_at == self.played:
            return
        self.turn.refused_at = self.played
        if origin in self.turn.told:   # said when it was lifted: why this piece cannot move (teaching mode)
            self._display(self.hints.refused(self.exp, origin, target))
            return
        if self.teaching:   # the lesson: the rule by name, and where the rules page explains it
            message = f"{message}. {self._rule_of(reason)}. Put the piece back"
        self.voice.refuse(message, reason, self.variant)
        self._display(self.hints.refused(self.exp, origin, target))

    # --- entering states ------------------------------------------------------------------------------
    def _start_turn(self) -> bool:
        """Common start of a turn: the rules may have ended the game; the mover's clock runs. False when the
        game ended instead."""
        outcome = self.game.outcome()
        if outcome is not None:
            self._finish(outcome.result, outcome.reason)
            return False
        self.record.start_turn(self.clock.now())
        if self.turn.restore and self.played != self.exp.base:
            self._go_out_of_sync(force=True)
            return False
        self.turn.restore = False
        return True

    def _enter_person_turn(self, event: EventData) -> None:
        if not self._start_turn():
            return
        self.progress = None
        self._announce_claim()
        self._display(self.hints.turn(self.exp, self.turn.crown))

    def _enter_computer_turn(self, event: EventData) -> None:
        if not self._start_turn():
            return
        if self._computer_claims():
            return
        turn = self.turn
        if not turn.engine_asked:
            turn.engine_asked = True
            self.progress = None
            self._ask_engine()
        shape = turn.computer_shape
        if shape is not None and self.state == "computer.thinking":
            self.engine_answered()   # back in sync with the move already chosen: it is shown again (queued)
        self._display(self.hints.computer(shape, self.occupancy) if shape else self.hints.thinking())

    def _ask_engine(self) -> None:
        if self.request_engine is None:
            return
        budget = None
        if self.clocks is not None:
            now = self.clock.now()
            left = self.clocks.left(self.record.mover, now)
            budget = max(0.05, left / 30 + self.clocks.control.increment * 0.8)
        self.request_engine(EngineJob(self.turn.token, self.game.board.copy(), self.settings.level, budget))

    def _enter_out_of_sync(self, event: EventData) -> None:
        if self.played == self.exp.base or (
                not self.turn.restore and self.exp.read(self.played).kind != "none"):
            self.turn.restore = False
            self.resync()   # queued: runs once this transition is complete
            return
        self._show_sync()

    def _enter_game_over(self, event: EventData) -> None:
        if self.record.outcome is None:
            outcome = self.game.outcome()
            assert outcome is not None, "game_over entered without an outcome"
            self._conclude(outcome.result, outcome.reason)
        result = self.record.outcome[0] if self.record.outcome else "1/2-1/2"
        pieces = self.exp.pieces
        if result == "1/2-1/2":
            frame = self.hints.game_over((), pieces)
        else:
            winner = "white" if result.startswith("1-") else "black"
            frame = self.hints.game_over([sq for sq, (c, _) in pieces.items() if color_name(c) == winner], ())
        self._display(frame)

    # --- out of sync ----------------------------------------------------------------------------------
    def _sync_diff(self) -> tuple[tuple[Cell, ...], tuple[Fill, ...]]:
        pieces = self.exp.pieces
        to_empty = tuple(sorted(self.occupancy - self.exp.base))
        to_fill = tuple(Fill(sq, color_name(pieces[sq][0]), pieces[sq][1])
                        for sq in sorted(self.exp.base - self.occupancy))
        return to_empty, to_fill

    def _show_sync(self, emit: bool = True) -> None:
        to_empty, to_fill = self._sync_diff()
        if emit:
            self._emit(ev.OutOfSync(to_empty, tuple((f.square, f.color, f.king) for f in to_fill)))
        self._display(self.hints.sync(to_empty, to_fill))

    def _go_out_of_sync(self, force: bool = False) -> None:
        """The grace time ran out (or the board must be restored): say what to fix and show it."""
        if self.turn_state not in ("person", "computer") or self.state == "person.missed_capture":
            return
        if not force and self.exp.read(self.played).kind != "none":
            return
        if not (force and self.moves_itself):   # forced: the game moved the pieces, the board follows
            to_empty, to_fill = self._sync_diff()
            parts = [f"take the piece off {self.map.name(sq)}" for sq in to_empty]
            parts += [f"put a {f.color} {'king' if f.king else 'man'} on {self.map.name(f.square)}"
                      for f in to_fill]
            self.voice.warn("The board does not match the game: " + "; ".join(parts) + ".")
        self.lose_sync()

    # --- committing -----------------------------------------------------------------------------------
    def _commit(self, shape: MoveShape) -> None:
        """The board shows ``shape``: record it (journal first), then the machine moves to the next turn. A
        move that cannot be saved is refused, the game unchanged, and tried again every RETRY_SECONDS while
        the board shows it (said once). A person's move may be amended until the side to move touches the
        board."""
        turn = self.turn
        by_person = not self.computer_to_move()
        by = self.record.mover
        try:
            record = self.record.play(shape.move, shape.text)
        except SaveError as exc:
            self._display(self.hints.refused(self.exp, shape.origin, shape.target))
            turn.deadline = Deadline("retry", self.clock.now() + RETRY_SECONDS)
            self.voice.save_refused(str(exc), exc, again=turn.unsaved == str(exc))
            turn.unsaved = str(exc)
            return
        crown = shape.target if shape.move.promotion else None
        previous = Amendable(turn.exp, shape, frozenset(turn.touched)) if by_person else None
        self._after_ply(record, crown=crown, previous=previous)
        if turn.amending is not None and turn.amending != shape.text:
            self.say(f"Amended: {shape.text}, not {turn.amending}.")
        if not by_person and self.moves_itself:
            self.say(computer_plays(self.record, shape.text, by, len(self.records) - 1, done=True) + ".")
        if crown is not None:
            square = self.map.name(shape.target)
            self.say(f"The man on {square} is crowned." if self.moves_itself
                     else f"Crown the piece on {square}: put a second piece on it.")
        self.commit()
        self._reread()

    def _reread(self) -> None:
        """A new turn reads the board as it stands (the next player may already have touched it)."""
        if self.turn_state in ("person", "computer"):
            self._on_board(self.clock.now())

    def _after_ply(self, record: Record, crown: Cell | None = None, restore: bool = False,
                   previous: Amendable | None = None) -> None:
        """A ply is recorded: the next turn's expectations, the occupancy history, the event."""
        if self.missed_info is not None and self.missed_info.objection_ply is not None \
                and len(self.records) > self.missed_info.objection_ply + 1:
            self.missed_info = None
        self._new_turn(crown, restore, previous)
        self.history = [*self.history[:len(self.records)], self.exp.base]
        self._emit(ev.MoveCommitted(len(self.records), record.text, record.by, record.fen))

    def _ask(self, candidates: tuple[MoveShape, ...]) -> None:
        self.turn.pending = candidates
        self.ask()
        texts = " or ".join(s.text for s in candidates)
        self.say(f"The board shows {texts}: lift and replace the piece that moved, or choose the move.")
        self._display(self.hints.candidates(candidates))

    def confirm(self, text: str) -> None:
        """Commit the legal move ``text`` that the board cannot show (a masked or broken square); on the
        computer's turn only the computer's own move. A board out of sync is back in play for it."""
        if self.turn_state in ("setup", "game_over"):
            raise ValueError("there is no game in progress to confirm a move in")
        shape = self.exp.shape_of(self.game.board.parse_move(text))
        if shape is None:
            raise ValueError(f"{text} is not a legal move here")
        if self.computer_to_move() and shape != self.computer_shape:
            wanted = self.computer_shape.text if self.computer_shape else "nothing yet (it is thinking)"
            raise ValueError(f"{text} is not the computer's move; it plays {wanted}")
        if self.turn_state == "out_of_sync":
            self.voice.clear()
            self.resync()
            if self.turn_state not in ("person", "computer"):
                raise ValueError("put the pieces back as the LEDs show first")
        self.say(f"{shape.text} is confirmed by hand.")
        self._commit(shape)

    def choose(self, text: str) -> None:
        """Resolve an ambiguity by the move's text."""
        for shape in self.turn.pending:
            if shape.text == text:
                self._commit(shape)
                return
        raise ValueError(f"{text!r} is not one of the candidate moves {[s.text for s in self.turn.pending]}")

    # --- missed captures ------------------------------------------------------------------------------
    def _missed_capture(self, origin: Cell, target: Cell, text: str) -> None:
        policy = self.variant.missed_capture_policy
        by = self.record.mover
        opponent = "black" if by == "white" else "white"
        should = self.exp.must_capture
        capture_texts = ", ".join(s.text for s in self.exp.shapes)
        self.missed_info = MissedCapture(origin, target, should, text, policy, by)
        if policy == "accept_on_next_move":
            self.say(f"{by} played {text} without the compulsory capture ({capture_texts}); it stands unless "
                     f"{opponent} asks to retract it before moving.", "warning")
            self.missed_info.objection_ply = len(self.records)
            self._force(origin, target, None, text, by)
            return
        choices = "retract or accept" if policy.endswith("accept") else "retract or huff"
        self.voice.refuse(f"{text}: a capture was compulsory ({capture_texts})", Illegal.MUST_CAPTURE,
                          self.variant)
        self.voice.warn(f"{by} played {text} without the compulsory capture ({capture_texts}). "
                        f"{opponent} chooses: {choices}.")
        self.lift()
        self.missed()
        self._display(self.hints.missed(origin, target, should))

    def _force(self, origin: Cell, target: Cell, remove: Cell | None, text: str, by: str) -> bool:
        """Record a ply the rules refuse; False (refused out loud, nothing changed) if it cannot be saved."""
        square = self.map.square
        origin_sq, target_sq = square(origin), square(target)
        assert origin_sq is not None and target_sq is not None
        removed = square(remove) if remove is not None else None
        fen = forced_fen(self.game.board, origin_sq, target_sq, removed)
        label = text if remove is None else f"{text} (huff {self.map.name(remove)})"
        try:
            record = self.record.force(fen, label, by)
        except SaveError as exc:
            self.voice.save_refused(str(exc), exc)
            return False
        self._after_ply(record, restore=remove is not None)
        self.commit()
        self._reread()
        return True

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
        self.missed_info = None
        back = "" if self.moves_itself else "put the piece back and "
        retracted = f"{info.text} is retracted: {back}capture."
        if info.objection_ply is not None:
            self._takeback(1, physical=False)
            self.say(retracted)
        elif choice == "retract":
            self.say(retracted)
            self.retract()
            self.turn.restore = True
            if self.played != self.exp.base:
                self._go_out_of_sync(force=True)
            else:
                self.turn.restore = False
                self._display(self.hints.turn(self.exp, self.turn.crown))
        elif choice == "accept":
            if not self._force(info.origin, info.target, None, info.text, info.by):
                self.missed_info = info   # not saved: the choice is still to be made
        else:
            huffed = info.target if info.origin in info.should else info.should[0]
            if not self._force(info.origin, info.target, huffed, info.text, info.by):
                self.missed_info = info
                return
            name = self.map.name(huffed)
            self.say(f"Huff: the piece on {name} is taken off." if self.moves_itself
                     else f"Huff: take the piece on {name} off the board.")

    # --- takeback, end --------------------------------------------------------------------------------
    def _takeback(self, plies: int, physical: bool, amended: Amendable | None = None) -> None:
        """Take ``plies`` plies back, then read the board again (``amended``: the last move, to be replaced by
        the one on the board, read with the squares touched making both)."""
        if not self.config.takeback and amended is None:
            raise ValueError("takeback is disabled in the settings")
        touched = self.turn.touched
        plies = self.record.take_back(plies)
        self.history = self.history[:len(self.records) + 1]
        self._new_turn(restore=not physical)
        if amended is not None:
            self.turn.amending = amended.shape.text
            self.turn.touched |= amended.touched | touched
        else:
            by_hand = not physical and not self.moves_itself   # the virtual board puts them back itself
            self.say(f"Took back {plies} {'plies' if plies > 1 else 'ply'}"
                     + (": put the pieces back as the LEDs show." if by_hand else "."))
        already_out = self.turn_state == "out_of_sync"
        self.take_back()
        if already_out:   # no transition: the board is read against the earlier position
            self._on_board(self.clock.now())
        else:
            self._reread()

    def takeback(self, plies: int = 1) -> None:
        """Take back ``plies`` plies by command; the LEDs then guide the pieces back."""
        if self.turn_state == "setup":
            raise ValueError("there is no move to take back")
        self._takeback(plies, physical=False)

    def _conclude(self, result: str, reason: str) -> None:
        """The game ended: recorded (journal, PDN), late engine answers dropped, said."""
        self.turn.token = self._tokens = self._tokens + 1
        try:
            self.record.finish(result, reason)
        except SaveError as exc:
            self.voice.save_failed(exc)
        self._emit(ev.GameOver(result, reason))
        self.say(f"Game over: {result} ({reason}).")

    def _finish(self, result: str, reason: str) -> None:
        """End the game now (resignation, agreement, a claim, a fallen flag, or the rules)."""
        self._conclude(result, reason)
        if self.turn_state != "game_over":
            self.finish(result=result, reason=reason)

    def resign(self, color: str) -> None:
        """``color`` resigns."""
        if self.turn_state in ("game_over", "setup"):
            raise ValueError("there is no game in progress to resign")
        outcome = self.game.resign(Color.WHITE if color == "white" else Color.BLACK)
        self._finish(outcome.result, outcome.reason)

    def _announce_claim(self) -> None:
        """A claimable draw (variant.draw_claims) on a person's turn is said once."""
        draw = self.game.claimable_draw()
        if draw is None:
            self.claimable = None
            return
        if self.claimable != draw.reason:
            self.say(f"{draw.reason.capitalize()}: a draw may be claimed (claim at the console, "
                     f"Claim draw on the web page), or play on.")
        self.claimable = draw.reason

    def _computer_claims(self) -> bool:
        """The computer claims a claimable draw on its turn unless it is ahead on material; True when it
        did."""
        if self.game.claimable_draw() is None:
            self.claimable = None
            return False
        if _ahead(self.game.board, self.game.board.turn):
            self._announce_claim()
            return False
        self._claim(self.record.mover)
        return True

    def claim_draw(self, color: str) -> None:
        """``color`` claims the draw a claim rule of the variant allows now (ValueError if none)."""
        if self.turn_state in ("game_over", "setup"):
            raise ValueError("there is no game in progress")
        self._claim(color)

    def _claim(self, color: str) -> None:
        draw = self.game.claimable_draw()
        outcome = self.game.claim_draw()   # ValueError when no claim rule holds
        assert draw is not None
        self.say(f"{color} claims the draw ({draw.reason}).")
        self._finish(outcome.result, outcome.reason)

    def board_link(self, connected: bool, message: str | None = None) -> None:
        """The board's cable dropped or came back: say so (moves made meanwhile are read when it is back);
        ``message`` says why it dropped when that is known (a board that stopped answering)."""
        if not connected:
            self.board_lost = True
            self.say(message or "The board is disconnected (cable or power?): waiting for it. Moves made "
                                "meanwhile are read when it is back.", "warning")
        elif self.board_lost:
            self.board_lost = False
            self.say("The board is connected again.")

    def offer_draw(self, color: str) -> None:
        """``color`` offers a draw; the other side answers with ``answer_draw``."""
        self.draw_offer = color
        self.say(f"{color} offers a draw.")

    def answer_draw(self, color: str, accept: bool) -> None:
        """``color`` accepts (the game ends drawn) or declines the other side's draw offer."""
        if self.draw_offer is None or self.draw_offer == color:
            raise ValueError(f"there is no draw offer for {color} to answer")
        self.draw_offer = None
        if accept:
            outcome = self.game.agree_draw()
            self._finish(outcome.result, outcome.reason)
        else:
            self.say(f"{color} declines the draw.")

    def command(self, c: cmd.Command) -> bool:
        """Carry out a command the game itself answers (takeback, resign, draws, teaching, the answers to a
        missed capture, the start position or an ambiguous board); False for one that is not the game's."""
        if isinstance(c, cmd.Takeback):
            self.takeback(c.plies)
        elif isinstance(c, cmd.Resign):
            self.resign(c.color)
        elif isinstance(c, cmd.OfferDraw):
            self.offer_draw(c.color)
        elif isinstance(c, cmd.AcceptDraw | cmd.DeclineDraw):
            self.answer_draw(c.color, isinstance(c, cmd.AcceptDraw))
        elif isinstance(c, cmd.ClaimDraw):
            self.claim_draw(c.color)
        elif isinstance(c, cmd.SetTeaching):
            self.set_teaching(c.on)
        elif isinstance(c, cmd.MissedCaptureChoice):
            self.missed_choice(c.choice)
        elif isinstance(c, cmd.StartPositionChoice):
            self.start_position_choice(c.choice)
        elif isinstance(c, cmd.ChooseMove):
            self.choose(c.text)
        else:
            return False
        return True

    def set_teaching(self, on: bool) -> None:
        """Turn teaching mode (whole capture paths, rule names in refusals) on or off."""
        self.teaching = on
        self.hints.teaching = on
        if self.state == "person.idle":
            self._display(self.hints.turn(self.exp, self.turn.crown))

    def show_hint(self, token: int, move: Move | None) -> None:
        """The engine's suggestion for the person to move (asked with ``engine_token`` ``token``): light it
        (from, path, pieces to take off) and say it. Without one, light every legal move instead."""
        if token != self.turn.token or self.turn_state != "person":
            return   # the game moved on while the engine thought
        shape = self.exp.shape_of(move) if move is not None else None
        if shape is None:
            self.say("No hint from the engine: the legal moves are lit.", "warning")
            self._display(self.hints.candidates(self.exp.shapes))
            return
        self.say(f"Hint: {shape.text}.")
        self._display(self.hints.hint(shape, self.occupancy))

    def pdn(self) -> str:
        """The game so far as PDN text (Result ``*`` while it is in progress)."""
        return self.record.pdn()

    def write_pdn(self) -> Path | None:
        """Write the game's PDN into its own file in the library (see ``GameRecord.write_pdn``)."""
        return self.record.write_pdn()

    # --- output -----------------------------------------------------------------------------------------
    def _display(self, frame: LedFrame) -> None:
        if frame != self.frame:
            self.frame = frame
            self._show(frame)
            self._emit(ev.HintFrame(frame))

    def __repr__(self) -> str:
        return (f"Controller({self.variant.id}, state={self.state}, ply={len(self.records)}, "
                f"turn={self.record.mover})")
