"""The Controller: occupancy snapshots in, committed moves, LED frames and events out.

It is the model of the state machine declared in ``controller.states``: each state names the function of
``controller.reading`` that reads the board while it is current (``on_board``), entering a turn starts it
(clocks, the engine, the LEDs), and committing a move is the ``commit`` transition whose conditions choose
the next turn. The game's record (plies, journal, clocks, PDN) is a ``GameRecord``; what belongs to one ply
(the legal moves' shapes, the computer's move, timers) is a ``Watch`` (``controller.turn``), replaced whole
after every ply. What it says goes through its ``Voice``; ``controller.view`` turns it into the page's JSON.

Synchronous and time-injected: every input carries or reads the injected clock, timers are deadlines checked
on each input or ``tick()``, so scenario tests are deterministic. ``Session`` wraps it in asyncio.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from transitions import EventData

from firmware_bridge.clock import Clock
from firmware_bridge.types import Cell, LedFrame
from i18n import phrase, plural
from rules import Color, Game, Move, Variant

from . import claims, reading, states
from . import events as ev
from .announcer import piece_words, position_of
from .clocks import GameClocks
from .config import Config
from .durable import SaveError
from .errors import Refused
from .gestures import Tap, Taps
from .inference import Expectation, MoveShape
from .journal import Journal, JournaledGame, PlyRecord
from .lights import LightPolicy
from .record import GameRecord, color_name, forced_fen
from .settings import EngineJob, GameSettings
from .squares import BoardMap
from .states import (
    COMPUTER,
    COMPUTER_THINKING,
    GAME_OVER,
    OUT_OF_SYNC,
    PERSON,
    PERSON_IDLE,
    SETUP,
    TURNS,
)
from .voice import Voice, computer_plays, set_up_request
from .watch import Amendable, Deadline, DeadlineData, MissedCapture, Watch
from .words import side_name, variant_name

__all__ = ["Controller", "EngineJob", "GameSettings"]

RETRY_SECONDS = 2.0
"""A move that could not be saved (a full or read-only card) is tried again this often while it stands."""
ASKABLE = frozenset({PERSON, COMPUTER_THINKING, GAME_OVER})
"""Where a tap on a piece is a question (controller/gestures.py): the person's turn, the computer thinking,
the game over; not while pieces are set up, carried out for the computer or put right."""


class Controller(states.Triggers):
    """Joins the board's occupancy to the rules: infers and commits moves, journals them, chooses LED frames.

    ``emit`` receives every Event, ``show`` every LED frame, ``request_engine`` every EngineJob (answer with
    ``computer_moved``). All inputs are synchronous; ``clock`` supplies the time.
    """

    state: str   # the machine's current state; its triggers are declared in ``states.Triggers``

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
        self.emit: Callable[[ev.Event], None] = emit or (lambda event: None)
        self.voice = Voice(self.emit)
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
        self.taps = Taps()
        self.frame: LedFrame | None = None
        self.engine_progress: dict[str, Any] | None = None
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
    def _new_record(self, settings: GameSettings, state: JournaledGame | None = None,
                    journaled: bool = False, defer: bool = False) -> GameRecord:
        kwargs: dict[str, Any] = {"clock": self.clock, "wall": self._wall, "pdn_dir": self.pdn_dir}
        if state is not None:
            return GameRecord.resume(state, journal=self.journal, **kwargs)
        if journaled:
            return GameRecord.begin(settings, journal=self.journal, previous=self.record, defer=defer,
                                    **kwargs)
        return GameRecord(settings, **kwargs)

    def _setup(self, record: GameRecord) -> None:
        """Make ``record`` the game: the board map, light policy and occupancy history follow its variant."""
        self.record = record
        self.map = BoardMap(record.variant, record.settings.flipped)
        self.playing = self.map.playing()
        self.lights = LightPolicy(record.variant.height, record.variant.width, self.teaching)
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
        self.engine_progress = None
        self._new_watch()

    def _new_watch(self, crown: Cell | None = None, restore: bool = False,
                  previous: Amendable | None = None) -> None:
        self._tokens += 1
        self.voice.clear()
        self.watch = Watch(Expectation(self.record.board, self.map), self._tokens, crown, restore,
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
    def records(self) -> list[PlyRecord]:
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
        return self.watch.exp

    @property
    def computer_shape(self) -> MoveShape | None:
        """The computer's chosen move, once the engine answered."""
        return self.watch.computer_shape

    @property
    def engine_token(self) -> int:
        """The token the current engine request carries; answers quoting another one are stale."""
        return self.watch.token

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
        self.say(phrase("New game of {variant}{what}", variant=variant_name(self.variant), what=what))
        if record.unsaved is not None:
            self.say(f"{record.unsaved}: moves are refused until it can be saved.", "error")
        self.read_board(self.clock.now())

    def resume(self, state: JournaledGame, settings: GameSettings | None = None) -> None:
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
        name = variant_name(self.variant)
        self.say(plural("Resuming the game of {variant} after {n} ply.",
                        "Resuming the game of {variant} after {n} plies.", plies, variant=name) if plies
                 else phrase("Resuming the game of {variant} before its first move.", variant=name))
        self.read_board(self.clock.now())

    # --- conditions and the machine's bookkeeping -----------------------------------------------------
    def computer_to_move(self, event: EventData | None = None) -> bool:
        """The side to move is played by the computer."""
        return self.settings.plays(self.record.mover) == "computer"

    def game_ended(self, event: EventData | None = None) -> bool:
        """The rules end the game in the position reached (no move, an automatic draw, ...)."""
        return self.game.outcome() is not None

    @property
    def turn_state(self) -> str:
        """Whose turn the machine is in: setup, person, computer, out_of_sync or game_over."""
        return states.top(self.state)

    @property
    def rearranging(self) -> bool:
        """The pieces are to be put where the LEDs ask, not played: a set-up, or a position to restore after
        a takeback, a wrong exercise try or a retracted move."""
        return self.turn_state == SETUP or (self.turn_state == OUT_OF_SYNC and self.watch.restore)

    @property
    def played(self) -> frozenset[Cell]:
        """The occupied squares that are played on: readings ignore the others (a slide brushes corners)."""
        return self.occupancy & self.playing

    # --- inputs -----------------------------------------------------------------------------------
    def snapshot(self, squares: frozenset[Cell], now: float | None = None) -> LedFrame | None:
        """A new debounced occupancy; returns the LED frame now shown."""
        now = self.clock.now() if now is None else now
        self._fire_due(now)
        squares = frozenset(squares)
        if squares != self.occupancy:
            changed = squares ^ self.occupancy
            if changed & self.playing:   # said to a blind player as it happens
                lifted = (self.occupancy - squares) & self.playing
                placed = (squares - self.occupancy) & self.playing
                self.emit(ev.PiecesTouched(tuple(map(self.map.name, sorted(lifted))),
                                           tuple(map(self.map.name, sorted(placed)))))
                self._answer_tap(self.taps.touched(lifted, placed, now))
            self.watch.touched |= changed
            self.occupancy = squares
            if changed & self.playing:   # a timer runs while the played squares stay as they are
                self.watch.deadline = None
            self.read_board(now)
        return self.frame

    def _answer_tap(self, tap: Tap | None) -> None:
        """A tap asks the board (controller/gestures.py): answered while the game stands still for it (the
        person's turn, the computer thinking, the game over), never while pieces are being set or fixed."""
        if tap is None or not ASKABLE & {self.state, self.turn_state}:
            return
        if tap.reads_position:
            self.emit(ev.Asked(position_of(self), "position"))
        else:
            self.emit(ev.Asked(piece_words(self, tap.cell)))

    def tick(self, now: float | None = None) -> None:
        """Let time pass: fire the settle, grace and takeback deadlines that fell due."""
        self._fire_due(self.clock.now() if now is None else now)

    def next_deadline(self) -> float | None:
        """When the next timer falls due (for the Session's sleeping)."""
        # clocks: measured from the last time timers were checked, so a jump of the clock is never skipped
        clock = self.clocks.next_change(self._checked) if self.clocks is not None else None
        deadline = self.watch.deadline.at if self.watch.deadline else None
        times = [t for t in (deadline, self.watch.grace_at, clock) if t is not None]
        return min(times) if times else None

    _checked = 0.0

    def computer_moved(self, token: int, move: Move | None) -> None:
        """The engine's answer to EngineJob ``token`` (ignored when the game moved on)."""
        if (token != self.watch.token or self.watch.computer_shape is not None or not self.computer_to_move()
                or self.turn_state not in (COMPUTER, OUT_OF_SYNC)):
            return
        shape = self.exp.shape_of(move) if move is not None else None
        if shape is None:
            self.say(f"the engine answered an illegal move {move!r}", "error")
            return
        self.watch.computer_shape = shape
        self.record.pause_clock(self.clock.now())   # carrying the move out on the board costs nobody time
        self.emit(ev.ComputerMoveShown(shape.text, **self._move_words(shape.move)))
        if not self.moves_itself:   # the virtual board makes it at once: said once played (commit_move)
            plays = computer_plays(self.record, shape.text, self.record.mover, len(self.records))
            self.say(phrase("{plays}: move the piece as the LEDs show.", plays=plays))
        if self.turn_state == COMPUTER:
            self.engine_answered()
        self.read_board(self.clock.now())

    def read_board(self, now: float) -> None:
        """Hand the board to the current state's reader (its ``on_board``, or its parent's)."""
        name = self.state
        reader = None
        while reader is None:
            state = self.machine.get_state(name)
            reader = state.on_board if isinstance(state, states.TurnState) else None
            name = name.rpartition(states.TurnState.separator)[0]
        reader(self, now)

    # --- timers -----------------------------------------------------------------------------------
    def _fire_due(self, now: float) -> None:
        self._checked = now
        if self.clocks is not None and self.turn_state in (*TURNS, OUT_OF_SYNC):
            flagged = self.clocks.flagged(now)
            if flagged is not None:
                self.clocks.stop(now)
                self._finish("0-1" if flagged == "white" else "1-0", f"{flagged} lost on time (flag fell)")
                return
        watch = self.watch
        d = watch.deadline
        if d is not None and d.at <= now:
            watch.deadline = None
            reading.on_deadline(self, d, now)
        if watch.grace_at is not None and watch.grace_at <= now:
            watch.grace_at = None
            reading.go_out_of_sync(self)

    def arm(self, kind: str, now: float, data: DeadlineData = None, ms: int | None = None) -> None:
        """Set the turn's one deadline: ``kind`` fires once the board stayed as it is for the settle time (or
        ``ms``). Arming the deadline already pending (the board did not change) keeps its time."""
        d = self.watch.deadline
        if d is not None and d.kind == kind and d.data == data:
            return
        self.watch.deadline = Deadline(kind, now + (self.config.settle_ms if ms is None else ms) / 1000, data)

    # --- entering states ------------------------------------------------------------------------------
    def _start_turn(self) -> bool:
        """Common start of a turn: the rules may have ended the game; the mover's clock runs. False when the
        game ended instead."""
        outcome = self.game.outcome()
        if outcome is not None:
            self._finish(outcome.result, outcome.reason)
            return False
        self.record.start_turn(self.clock.now())
        if self.watch.restore and self.played != self.exp.base:
            reading.go_out_of_sync(self, force=True)
            return False
        self.watch.restore = False
        return True

    def _enter_person_turn(self, event: EventData) -> None:
        if not self._start_turn():
            return
        self.engine_progress = None
        claims.announce(self)
        self.display(self.lights.turn(self.exp, self.watch.crown))

    def _enter_computer_turn(self, event: EventData) -> None:
        if not self._start_turn():
            return
        if claims.computer_claims(self):
            return
        watch = self.watch
        if not watch.engine_asked:
            watch.engine_asked = True
            self.engine_progress = None
            self._ask_engine()
        shape = watch.computer_shape
        if shape is not None and self.state == COMPUTER_THINKING:
            self.engine_answered()   # back in sync with the move already chosen: it is shown again (queued)
        self.display(self.lights.computer(shape, self.occupancy) if shape else self.lights.thinking())

    def _ask_engine(self) -> None:
        if self.request_engine is None:
            return
        budget = None
        if self.clocks is not None:
            now = self.clock.now()
            left = self.clocks.left(self.record.mover, now)
            budget = max(0.05, left / 30 + self.clocks.control.increment * 0.8)
        self.request_engine(EngineJob(self.watch.token, self.game.board.copy(), self.settings.level, budget))

    def _enter_out_of_sync(self, event: EventData) -> None:
        if self.played == self.exp.base or (
                not self.watch.restore and self.exp.read(self.played).kind != "none"):
            self.watch.restore = False
            self.resync()   # queued: runs once this transition is complete
            return
        reading.show_sync(self)

    def _enter_game_over(self, event: EventData) -> None:
        if self.record.outcome is None:
            outcome = self.game.outcome()
            assert outcome is not None, "game_over entered without an outcome"
            self._finish(outcome.result, outcome.reason)   # in game_over already: no transition
        result = self.record.outcome[0] if self.record.outcome else "1/2-1/2"
        pieces = self.exp.pieces
        if result == "1/2-1/2":
            frame = self.lights.game_over((), pieces)
        else:
            winner = "white" if result.startswith("1-") else "black"
            winners = [sq for sq, (c, _) in pieces.items() if color_name(c) == winner]
            frame = self.lights.game_over(winners, ())
        self.display(frame)

    # --- committing -----------------------------------------------------------------------------------
    def commit_move(self, shape: MoveShape) -> None:
        """The board shows ``shape``: record it (journal first), then the machine moves to the next turn
        (``commit``). A move that cannot be saved is refused, the game unchanged, and tried again every
        RETRY_SECONDS while the board shows it (said once). A person's move may be amended until the side to
        move touches the board."""
        watch = self.watch
        by_person = not self.computer_to_move()
        by = self.record.mover
        try:
            record = self.record.play(shape.move, shape.text)
        except SaveError as exc:
            self.display(self.lights.refused(self.exp, shape.origin, shape.target))
            watch.deadline = Deadline("retry", self.clock.now() + RETRY_SECONDS)
            self.voice.save_refused(str(exc), exc, again=watch.unsaved == str(exc))
            watch.unsaved = str(exc)
            return
        crown = shape.target if shape.move.promotion else None
        previous = Amendable(watch.exp, shape, frozenset(watch.touched)) if by_person else None
        self._after_ply(record, crown=crown, previous=previous)
        if watch.amending is not None and watch.amending != shape.text:
            self.say(f"Amended: {shape.text}, not {watch.amending}.")
        if not by_person and self.moves_itself:
            played = computer_plays(self.record, shape.text, by, len(self.records) - 1, done=True)
            self.say(phrase("{plays}.", plays=played))
        if crown is not None:
            square = self.map.name(shape.target)
            self.say(f"The man on {square} is crowned." if self.moves_itself
                     else f"Crown the piece on {square}: put a second piece on it.")
        self.commit()
        self.reread()

    def reread(self) -> None:
        """A new turn reads the board as it stands (the next player may already have touched it)."""
        if self.turn_state in TURNS:
            self.read_board(self.clock.now())

    def _after_ply(self, record: PlyRecord, crown: Cell | None = None, restore: bool = False,
                   previous: Amendable | None = None) -> None:
        """A ply is recorded: the next turn's expectations, the occupancy history, the event."""
        if self.missed_info is not None and self.missed_info.objection_ply is not None \
                and len(self.records) > self.missed_info.objection_ply + 1:
            self.missed_info = None
        self._new_watch(crown, restore, previous)
        self.history = [*self.history[:len(self.records)], self.exp.base]
        board = self.game.board
        words = self._move_words(board.peek()) if record.kind == "move" and board.move_stack else {}
        self.emit(ev.MoveCommitted(len(self.records), record.text, record.by, record.fen, **words))

    def _move_words(self, move: Move) -> dict[str, Any]:
        """What the voice says of ``move``: its squares by name, the pieces it takes, whether it crowns."""
        name = self.variant.geometry.name
        return {"origin": name(move.from_square), "target": name(move.to_square),
                "captures": len(move.captures), "crowned": bool(move.promotion)}

    def confirm(self, text: str) -> None:
        """Commit the legal move ``text`` that the board cannot show (a masked or broken square); on the
        computer's turn only the computer's own move. A board out of sync is back in play for it."""
        if self.turn_state in (SETUP, GAME_OVER):
            raise Refused("there is no game in progress to confirm a move in")
        shape = self.exp.shape_of(self.game.board.parse_move(text))
        if shape is None:
            raise Refused(f"{text} is not a legal move here")
        if self.computer_to_move() and shape != self.computer_shape:
            wanted = self.computer_shape.text if self.computer_shape else "nothing yet (it is thinking)"
            raise Refused(f"{text} is not the computer's move; it plays {wanted}")
        if self.turn_state == OUT_OF_SYNC:
            self.voice.clear()
            self.resync()
            if self.turn_state not in TURNS:
                raise Refused("put the pieces back as the LEDs show first")
        self.say(phrase("{move} is confirmed by hand.", move=shape.text))
        self.commit_move(shape)

    def choose(self, text: str) -> None:
        """Resolve an ambiguity by the move's text."""
        for shape in self.watch.pending:
            if shape.text == text:
                self.commit_move(shape)
                return
        raise Refused(f"{text!r} is not one of the candidate moves {[s.text for s in self.watch.pending]}")

    def start_position_choice(self, choice: str) -> None:
        """The answer to the start-position question: ``new_game`` or ``takeback`` (to the start)."""
        plies = self.watch.start_question
        if plies is None:
            raise Refused("the board is not asking about the start position")
        if choice == "new_game":
            self.new_game()
        elif choice == "takeback":
            self.take_back_plies(plies, physical=True)
        else:
            raise Refused(f"the start position is answered by new_game or takeback, not {choice!r}")

    # --- missed captures ------------------------------------------------------------------------------
    def force_ply(self, origin: Cell, target: Cell, remove: Cell | None, text: str, by: str) -> bool:
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
        self.reread()
        return True

    def missed_choice(self, choice: str) -> None:
        """The opponent's answer to a missed capture: retract, accept or huff."""
        info = self.missed_info
        if info is None:
            raise Refused("there is no missed capture to answer")
        if choice not in info.answers:
            raise Refused(f"{self.variant.name}: a missed capture may be answered by "
                             f"{' or '.join(info.answers)}, not {choice!r}")
        self.missed_info = None
        back = "" if self.moves_itself else "put the piece back and "
        retracted = f"{info.text} is retracted: {back}capture."
        if info.objection_ply is not None:
            self.take_back_plies(1, physical=False)
            self.say(retracted)
        elif choice == "retract":
            self.say(retracted)
            self.retract()
            self.watch.restore = True
            if self.played != self.exp.base:
                reading.go_out_of_sync(self, force=True)
            else:
                self.watch.restore = False
                self.display(self.lights.turn(self.exp, self.watch.crown))
        elif choice == "accept":
            if not self.force_ply(info.origin, info.target, None, info.text, info.by):
                self.missed_info = info   # not saved: the choice is still to be made
        else:
            huffed = info.huffed
            if not self.force_ply(info.origin, info.target, huffed, info.text, info.by):
                self.missed_info = info
                return
            name = self.map.name(huffed)
            self.say(f"Huff: the piece on {name} is taken off." if self.moves_itself
                     else f"Huff: take the piece on {name} off the board.")

    # --- takeback, end --------------------------------------------------------------------------------
    def take_back_plies(self, plies: int, physical: bool, amended: Amendable | None = None) -> None:
        """Take ``plies`` plies back, then read the board again (``amended``: the last move, to be replaced by
        the one on the board, read with the squares touched making both)."""
        if not self.config.takeback and amended is None:
            raise Refused("takeback is disabled in the settings")
        touched = self.watch.touched
        plies = self.record.take_back(plies)
        self.history = self.history[:len(self.records) + 1]
        self._new_watch(restore=not physical)
        if amended is not None:
            self.watch.amending = amended.shape.text
            self.watch.touched |= amended.touched | touched
        else:
            by_hand = not physical and not self.moves_itself   # the virtual board puts them back itself
            self.say(plural("Took back {n} ply: put the pieces back as the LEDs show.",
                            "Took back {n} plies: put the pieces back as the LEDs show.", plies) if by_hand
                     else plural("Took back {n} ply.", "Took back {n} plies.", plies))
        already_out = self.turn_state == OUT_OF_SYNC
        self.take_back()
        if already_out:   # no transition: the board is read against the earlier position
            self.read_board(self.clock.now())
        else:
            self.reread()

    def takeback(self, plies: int = 1) -> None:
        """Take back ``plies`` plies by command; the LEDs then guide the pieces back."""
        if self.turn_state == SETUP:
            raise Refused("there is no move to take back")
        self.take_back_plies(plies, physical=False)

    def _finish(self, result: str, reason: str) -> None:
        """End the game now (resignation, agreement, a claim, a fallen flag, or the rules): recorded (journal,
        PDN), late engine answers dropped, said, and the machine in game_over."""
        self.watch.token = self._tokens = self._tokens + 1
        try:
            self.record.finish(result, reason)
        except SaveError as exc:
            self.voice.save_failed(exc)
        self.emit(ev.GameOver(result, reason))
        self.say(phrase("Game over: {result} ({reason}).", result=result, reason=reason))
        if self.turn_state != GAME_OVER:
            self.finish(result=result, reason=reason)

    def resign(self, color: str) -> None:
        """``color`` resigns."""
        if self.turn_state in (GAME_OVER, SETUP):
            raise Refused("there is no game in progress to resign")
        outcome = self.game.resign(Color.WHITE if color == "white" else Color.BLACK)
        self._finish(outcome.result, outcome.reason)

    def claim_draw(self, color: str) -> None:
        """``color`` claims the draw a claim rule of the variant allows now (ValueError if none)."""
        if self.turn_state in (GAME_OVER, SETUP):
            raise Refused("there is no game in progress")
        draw = self.game.claimable_draw()
        outcome = self.game.claim_draw()   # ValueError when no claim rule holds
        assert draw is not None
        self.say(phrase("{side} claims the draw ({reason}).", side=side_name(color), reason=draw.reason),
                 topic="draw")
        self._finish(outcome.result, outcome.reason)

    def board_link(self, connected: bool, message: str | None = None) -> None:
        """The board's cable dropped or came back: say so (moves made meanwhile are read when it is back);
        ``message`` says why it dropped when that is known (a board that stopped answering)."""
        if not connected:
            self.board_lost = True
            self.say(message or phrase("The board is disconnected (cable or power?): waiting for it. "
                                       "Moves made meanwhile are read when it is back."), "warning")
        elif self.board_lost:
            self.board_lost = False
            self.say(phrase("The board is connected again."))

    def offer_draw(self, color: str) -> None:
        """``color`` offers a draw; the other side answers with ``answer_draw``."""
        self.draw_offer = color
        self.say(phrase("{side} offers a draw.", side=side_name(color)), topic="draw")

    def answer_draw(self, color: str, accept: bool) -> None:
        """``color`` accepts (the game ends drawn) or declines the other side's draw offer."""
        if self.draw_offer is None or self.draw_offer == color:
            raise Refused(f"there is no draw offer for {color} to answer")
        self.draw_offer = None
        if accept:
            outcome = self.game.agree_draw()
            self._finish(outcome.result, outcome.reason)
        else:
            self.say(phrase("{side} declines the draw.", side=side_name(color)), topic="draw")

    def set_teaching(self, on: bool) -> None:
        """Watch teaching mode (whole capture paths, rule names in refusals) on or off."""
        self.teaching = on
        self.lights.teaching = on
        if self.state == PERSON_IDLE:
            self.display(self.lights.turn(self.exp, self.watch.crown))

    def show_hint(self, token: int, move: Move | None) -> None:
        """The engine's suggestion for the person to move (asked with ``engine_token`` ``token``): light it
        (from, path, pieces to take off) and say it. Without one, light every legal move instead."""
        if token != self.watch.token or self.turn_state != PERSON:
            return   # the game moved on while the engine thought
        shape = self.exp.shape_of(move) if move is not None else None
        if shape is None:
            self.say(phrase("No hint from the engine: the legal moves are lit."), "warning")
            self.display(self.lights.candidates(self.exp.shapes))
            return
        self.say(phrase("Hint: {move}.", move=shape.text))
        self.display(self.lights.hint(shape, self.occupancy))

    def pdn(self) -> str:
        """The game so far as PDN text (Result ``*`` while it is in progress)."""
        return self.record.pdn()

    def write_pdn(self) -> Path | None:
        """Write the game's PDN into its own file in the library (see ``GameRecord.write_pdn``)."""
        return self.record.write_pdn()

    # --- output -----------------------------------------------------------------------------------------
    def display(self, frame: LedFrame) -> None:
        """Show ``frame`` on the LEDs (and send it as a FrameShown) unless it is shown already."""
        if frame != self.frame:
            self.frame = frame
            self._show(frame)
            self.emit(ev.FrameShown(frame))

    def __repr__(self) -> str:
        return (f"Controller({self.variant.id}, state={self.state}, ply={len(self.records)}, "
                f"turn={self.record.mover})")
