"""The game at the board, sans-IO: the one object every driver feeds, in the spirit of h11's ``Connection``.

A ``Table`` owns the Controller (the rules of the hands and the game), board health (what the sensors can be
trusted for) and the lesson desk, and is fed values: ``feed(squares, now)`` with each reading of the board,
``command(c, now)`` with each command (one dispatch table), ``engine_answered``, ``answered`` (background
work done), ``link``/``link_status``, and ``tick(now)`` when ``next_deadline()`` falls due. After each input
the same follow-up runs: health's trusted reading fed until the game sees what the board shows, faults
looked for, the lesson followed, the virtual board's pieces moved. It reaches the outside only through
``Ports`` (controller/ports.py). One frame leaves it (``frame``): the game's, with the squares at fault lit,
or the board test's; the board's LEDs and the page both get that one.

Drivers: the Session (asyncio, a real or virtual board), ``sensorlog.replay`` (a log on a simulated clock),
``hands.Hands`` (the storm's simulated hands), the tests.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from firmware_bridge.base import SquareError
from firmware_bridge.clock import Clock
from firmware_bridge.device import wire_map
from firmware_bridge.faults import WireMap
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.types import Cell, LedFrame, LinkStatus
from i18n import phrase, plural
from rules import RulesError, Variant, get_variant

from . import commands as cmd
from . import events as ev
from . import view
from .broadcast.place import BroadcastPlace, load_place, save_place
from .config import Config
from .consult import EngineAnswer
from .durable import SaveError
from .errors import Refused
from .health import BoardHealth
from .journal import Journal, JournaledGame
from .lessons import LessonDesk
from .machine import Controller
from .ports import InputLog, Ports, StopFlag, Work
from .ratings import PersonRating
from .settings import EngineJob, GameSettings
from .states import COMPUTER_SHOWING, COMPUTER_THINKING, GAME_OVER, PERSON, SETUP

if TYPE_CHECKING:
    from engine.worker import WorkerProgress, WorkerResult

T = TypeVar("T")
DRAW_MARGIN = 30
"""The computer accepts a draw offer unless its engine sees it ahead by more than this (1/100 of a man)."""
HINT_SECONDS = 2.0
DRAW_SECONDS = 1.0
FOLLOW_VIEWS = 3
"""Health's reading is fed at most this often after one input (one may commit a move, which changes it)."""


class Table:
    """One board's game, fed values by a driver. ``data_dir`` (None: nothing kept) holds the journal's game
    library, the exercises' progress, the ratings and the broadcast place; ``sensor_log`` gets every input."""

    def __init__(self, config: Config, ports: Ports, *, clock: Clock, journal: Journal | None = None,
                 data_dir: Path | None = None, settings: GameSettings | None = None,
                 sensor_log: InputLog | None = None, can_fail: bool = True) -> None:
        self.config = config
        self.ports = ports
        self.clock = clock
        self.data_dir = data_dir
        self.sensor_log = sensor_log
        self.controller = ctl = Controller(
            config, clock=clock, journal=journal, emit=self._emit, show=lambda frame: self._light(),
            request_engine=self._request_engine, settings=settings,
            pdn_dir=data_dir / "games" if data_dir is not None else None)
        self.health = BoardHealth(ctl, say=ctl.say, wires=self._wires(), clock=clock,
                                  masked=config.masked_squares, check_after=config.sensor_check_ms / 1000,
                                  can_fail=can_fail)
        self.lessons = LessonDesk(data_dir)
        """The exercise or replay under way (controller/lessons.py)."""
        self.rating = PersonRating(data_dir, ports.run_in_background, ctl.say)
        self.broadcast_place = load_place(data_dir, config) if config.broadcast else None
        """Where the board stands in the hall and who plays at it, when it broadcasts (``SetBroadcast``)."""
        self.auto_computer = config.auto_computer
        """On the virtual board, the computer's moves play themselves."""
        self.frame: LedFrame | None = None
        """The frame that left last: on the board's LEDs and on the page alike."""
        self._answers: deque[EngineAnswer] = deque()   # a lesson's own answers, handled after this input
        self._auto_played = -1
        self._arranged: tuple[int, str] | None = None
        ctl.virtual = self.simulated is not None
        ctl.moves_itself = ctl.virtual and self.auto_computer
        self._commands = self._dispatch()

    @property
    def simulated(self) -> SimulatedDevice | None:
        """The virtual board, when the Table runs on one (its pieces move by clicks, and by themselves)."""
        device = self.ports.device
        return device if isinstance(device, SimulatedDevice) else None

    def _wires(self) -> WireMap:
        device = self.ports.device
        if device is None:
            return WireMap(self.controller.variant.height, self.controller.variant.width)
        return wire_map(device)

    # --- inputs ---------------------------------------------------------------------------------------
    def begin(self, journaled: JournaledGame | None, now: float) -> None:
        """Resume the ``journaled`` game (a finished one goes to the library, then a new game), or start a
        new game when there is none."""
        ctl = self.controller
        if journaled is not None:
            ctl.resume(journaled, ctl.settings)
        else:
            ctl.new_game(at_start=True)
        if self.sensor_log is not None:
            self.sensor_log.game(now, ctl)

    def feed(self, squares: frozenset[Cell], now: float) -> None:
        """A reading of the board: every occupied square (the device's view, before health)."""
        if self.sensor_log is not None:
            self.sensor_log.occupancy(now, squares)
        trusted = self.health.reading(squares, now)   # chattering squares settled, masked ones trusted
        if not self.health.testing:                    # the self-test has the board meanwhile
            self._see(trusted, now)
        self._handled(now)

    def command(self, c: cmd.Command, now: float) -> None:
        """Carry out ``c``. ``Refused`` says why it cannot be (nothing changed); anything else is a
        failure."""
        if self.sensor_log is not None:
            self.sensor_log.command(now, c)
        try:
            self._commands[type(c)](c, now)
        except RulesError as exc:      # a move or position the person named that the rules refuse
            raise Refused(str(exc)) from exc
        self._handled(now)

    def engine_answered(self, answer: EngineAnswer, now: float) -> None:
        """The computer's move for the search ``answer.token`` (stale answers change nothing)."""
        self._engine_move(answer, now)
        self._handled(now)

    def engine_progress(self, token: int, progress: WorkerProgress) -> None:
        """The newest iteration of the search for ``token`` (an earlier turn's is dropped)."""
        ctl = self.controller
        if token != ctl.engine_token or ctl.turn_state == GAME_OVER:
            return
        event = ev.EngineProgress(progress.depth, progress.score / 100, tuple(progress.pv_text))
        ctl.engine_progress = event.to_json()
        self.ports.emit(event)

    def answered(self, then: Callable[[T], None], value: T, now: float) -> None:
        """Work done away from the Table (see ``Ports.run_in_background``) hands its value back."""
        then(value)
        self._handled(now)

    def link(self, connected: bool, now: float) -> None:
        """The board's link (a serial cable) dropped or came back."""
        self.controller.board_link(connected, self.health.drop_message(connected))
        self._handled(now)

    def link_status(self, status: LinkStatus, now: float) -> None:
        """The link's state in detail (health tells the person what it means)."""
        self.health.link_status(status)
        self._handled(now)

    def tick(self, now: float) -> None:
        """Time passed: fire the timers that fell due (settling, clocks, health's examination)."""
        self.controller.tick(now)
        self._handled(now)

    def next_deadline(self) -> float | None:
        """When ``tick`` is next needed (None: only an input changes anything)."""
        times = (self.controller.next_deadline(), self.health.next_deadline())
        return min((t for t in times if t is not None), default=None)

    # --- after every input ------------------------------------------------------------------------------
    def _handled(self, now: float) -> None:
        """The follow-up of every input, then the lesson's own answers it queued, each as an input."""
        self._follow(now)
        while self._answers:
            self._engine_move(self._answers.popleft(), now)
            self._follow(now)

    def _follow(self, now: float) -> None:
        ctl, health = self.controller, self.health
        for _ in range(FOLLOW_VIEWS):
            trusted = health.follow(now)
            if trusted is None:
                break
            self._see(trusted, now)
        health.after_input(now)
        self.lessons.follow(ctl)
        self._arrange()
        self._play_for_the_computer()
        self.rating.refresh(ctl.settings)
        self._light()

    def _see(self, trusted: frozenset[Cell], now: float) -> None:
        """The game sees ``trusted`` (health's reading of the board): the one way a reading reaches it."""
        self.controller.snapshot(trusted, now)

    def _light(self) -> None:
        """Send the one frame (the game's LEDs with health's fault squares) to the board and the page when it
        changed."""
        frame = self.health.leds()
        if frame is None or frame == self.frame:
            return
        self.frame = frame
        self.ports.show(frame)
        self.ports.emit(ev.FrameShown(frame))

    def _emit(self, event: ev.Event) -> None:
        """The Controller's events, on their way out (its frames leave through ``_light`` instead)."""
        if isinstance(event, ev.FrameShown):
            return
        if isinstance(event, ev.MoveCommitted) and self.sensor_log is not None:
            self.sensor_log.recorded(self.clock.now(), event.ply, event.text)
        self.ports.emit(event)
        if isinstance(event, ev.GameOver):
            ctl, in_lesson = self.controller, self.lessons.lesson is not None
            self.rating.game_over(ctl.settings, event.result, ctl.record.started, in_lesson)

    # --- the engine -------------------------------------------------------------------------------------
    def _request_engine(self, job: EngineJob) -> None:
        """The Controller asks the computer's move: a lesson's record or line answers it, else the engine."""
        lessons = self.lessons
        if lessons.lesson is not None or self.controller.settings.human_color == "none":
            move = lessons.answer(job)   # a replay's record, an exercise's line
            if move is not None:
                self._answers.append(EngineAnswer(job.token, move))
                return
            if not lessons.leaves_to_engine(job):
                if lessons.lesson is None:
                    self.controller.say(phrase("The replay was interrupted by a restart: start it again, "
                                               "or a new game."), "warning")
                return
        self.ports.request_engine(job)

    def _engine_move(self, answer: EngineAnswer, now: float) -> None:
        ctl = self.controller
        if self.sensor_log is not None and answer.move is not None and answer.token == ctl.engine_token:
            shape = ctl.exp.shape_of(answer.move)
            if shape is not None:
                self.sensor_log.engine(now, shape.text)
        if answer.note is not None and answer.token == ctl.engine_token:
            ctl.say(answer.note, "warning")
        ctl.computer_moved(answer.token, answer.move)

    def _hint(self) -> None:
        """The engine's move for the person to move, lit on the board (an exercise's: its solution's)."""
        ctl, lesson = self.controller, self.lessons.lesson
        if lesson is not None and lesson.kind == "exercise":
            lesson.step(ctl, "hint")
            return
        if ctl.turn_state != PERSON:
            raise Refused("a hint is for the person to move: wait for your turn")
        token, board = ctl.engine_token, ctl.game.board.copy()
        ctl.say(phrase("Thinking of a hint..."))

        def show(result: WorkerResult | None) -> None:
            move = board.parse_move(result.move_text) if result is not None and result.move_text else None
            ctl.show_hint(token, move)

        self.ports.consult(board, ctl.settings.level, min(self.config.engine_time, HINT_SECONDS), show)

    def _offer_draw(self, color: str) -> None:
        """``color`` offers a draw; the computer answers it: it accepts unless it sees itself ahead."""
        ctl = self.controller
        ctl.offer_draw(color)
        s = ctl.settings
        computer = "black" if color == "white" else "white"
        if s.plays(computer) != "computer" or s.opponent != "engine" or ctl.turn_state in (GAME_OVER, SETUP):
            return
        if ctl.state == COMPUTER_THINKING:
            ctl.answer_draw(computer, accept=False)
            ctl.say(phrase("The computer is thinking: offer the draw again on your move."), topic="draw")
            return
        token, board = ctl.engine_token, ctl.game.board.copy()

        def answer(result: WorkerResult | None) -> None:
            if ctl.draw_offer != color or ctl.engine_token != token:
                return   # answered, withdrawn, or the game moved on
            if result is None:
                ctl.answer_draw(computer, accept=False)
                return
            # the score is the side to move's, in hundredths of a man
            ahead = result.score if board.turn.name.lower() == computer else -result.score
            ctl.answer_draw(computer, accept=ahead <= DRAW_MARGIN)

        self.ports.consult(board, s.level, min(self.config.engine_time, DRAW_SECONDS), answer)

    # --- new games and lessons --------------------------------------------------------------------------
    def _new_game(self, c: cmd.NewGame) -> None:
        ctl = self.controller
        settings = GameSettings(self._variant_of(c), c.human_color, c.opponent, c.level, c.fen,
                                ctl.settings.flipped, c.time_control, c.player or ctl.settings.player)
        self._start_game(settings, library=True)

    def _setup_position(self, c: cmd.SetupPosition) -> None:
        settings = dataclasses.replace(self.controller.settings, fen=c.fen)
        self._check_new_game(settings)
        if self._save_unfinished():
            self.controller.new_game(settings)

    def begin_lesson(self, settings: GameSettings) -> bool:
        """Start a lesson's game (an exercise or a replay): like a new game, but never written to the library.
        False when the game in progress could not be saved first."""
        return self._start_game(settings, library=False)

    def _start_game(self, settings: GameSettings, *, library: bool) -> bool:
        """A new game with ``settings`` (checked, the board's size too, the unfinished game saved first), on
        the board as it reads now; ``library`` False keeps it out of the game library. False when the game
        in progress could not be saved."""
        self._check_new_game(settings)
        self._check_board_fits(settings)
        if not self._save_unfinished():
            return False
        ctl = self.controller
        kept, ctl.pdn_dir = ctl.pdn_dir, ctl.pdn_dir if library else None
        try:
            ctl.new_game(settings)
        finally:
            ctl.pdn_dir = kept
        self._fit_board()
        now = self.clock.now()
        self._see(self.health.trusted(now), now)
        return True

    def run_in_background(self, work: Work[T], then: Callable[[T], None]) -> StopFlag:
        """Run ``work(report, stop)`` away from the Table (a lesson's review): ``Ports.run_in_background``."""
        return self.ports.run_in_background(work, then)

    def _save_unfinished(self) -> bool:
        """A new game over one with moves and no result first saves it (result ``*``) to the library, so that
        a stray click loses nothing; when it cannot be saved the new game is refused (False)."""
        ctl = self.controller
        if not ctl.records or ctl.outcome is not None:
            return True
        try:
            path = ctl.write_pdn()
        except SaveError as exc:
            ctl.refuse_unsaved(f"New game refused: {exc} (the game goes on)", exc)
            return False
        if path is not None:
            plies = len(ctl.records)
            ctl.say(plural("The unfinished game ({n} ply) is saved in the library as {file}.",
                           "The unfinished game ({n} plies) is saved in the library as {file}.", plies,
                           file=path.name))
        return True

    def _refuse_new_game(self, message: str) -> Refused:
        """The new game's settings are refused: a Refusal for the page, and the error to raise."""
        self.ports.emit(ev.Refusal(f"new game refused: {message}", "game settings"))
        return Refused(f"New game refused: {message}")

    def _variant_of(self, c: cmd.NewGame) -> Variant:
        """The new game's variant with its options; an unknown one is refused, changing nothing."""
        try:
            return get_variant(c.variant, **(c.variant_options or {}))
        except ValueError as exc:
            raise self._refuse_new_game(str(exc)) from None

    def _check_new_game(self, settings: GameSettings) -> None:
        """Validate before anything changes; a new game also gives a failed external engine a fresh try."""
        try:
            settings.check()
        except ValueError as exc:
            raise self._refuse_new_game(str(exc)) from None
        self.ports.fresh_engine()

    def _check_board_fits(self, settings: GameSettings) -> None:
        """A real board cannot change size: a new game of another size is refused, naming both sizes (the
        virtual board follows the game: ``_fit_board``)."""
        device, variant = self.ports.device, settings.variant
        if device is None or self.simulated is not None:
            return
        size, board = (variant.height, variant.width), (device.rows, device.cols)
        if size != board:
            raise self._refuse_new_game(f"this board is {board[0]}x{board[1]}; {variant.name} is played on "
                                        f"{size[0]}x{size[1]}: choose a {board[0]}x{board[1]} variant")

    def _fit_board(self) -> None:
        """The virtual board takes the size of the game now started (empty), and shows its LEDs."""
        ctl, board = self.controller, self.simulated
        if board is None or (board.rows, board.cols) == (ctl.variant.height, ctl.variant.width):
            return
        board.resize(ctl.variant.height, ctl.variant.width)
        self.health.rewired(wire_map(board))
        self.frame = None   # the frame shown before was for the other size: show it again
        self._light()

    # --- the virtual board ------------------------------------------------------------------------------
    def _arrange(self) -> None:
        """On the virtual board that moves its own pieces, stand the pieces where the game expects them
        when the game (not the board) moved them: a new game, a set-up, a lesson, a resumed game (``setup``),
        a takeback, a wrong exercise try, a retracted or huffed move (a position to restore). Once a turn and
        state: a board that still reads otherwise (a fault planted in its switch matrix) is left to the
        health."""
        ctl, board = self.controller, self.simulated
        if board is None or not self.auto_computer or self.health.testing:   # the self-test has the board
            return
        need = (ctl.engine_token, ctl.turn_state)
        if self._arranged == need:
            return
        if ctl.rearranging:
            self._arranged = need
            board.set_occupancy(ctl.exp.base)

    def _play_for_the_computer(self) -> None:
        """On the virtual board, make the computer's move as soon as it is shown (once per move)."""
        lesson = self.lessons.lesson
        if self.auto_computer and (lesson is None or lesson.kind == "exercise"):   # a replay steps by hand
            self.carry_out_shown_move()

    def carry_out_shown_move(self) -> None:
        """On the virtual board, make the move the LEDs show (once per move); on a real board the person
        makes it."""
        ctl, board = self.controller, self.simulated
        shape = ctl.computer_shape
        if board is None or shape is None or ctl.state != COMPUTER_SHOWING or self._auto_played == \
                ctl.engine_token:
            return
        self._auto_played = ctl.engine_token
        for verb, square in shape.by_hand():
            (board.lift if verb == "lift" else board.place)(square)

    def _set_auto_computer(self, on: bool) -> None:
        if self.simulated is None:
            raise Refused("the computer's moves play themselves only on the simulated board")
        self.auto_computer = on
        self.controller.moves_itself = on

    def _lift_or_place(self, c: cmd.Lift | cmd.Place) -> None:
        board = self.simulated
        if board is None:
            raise Refused("virtual lift/place needs the simulated board")
        try:
            (board.lift if isinstance(c, cmd.Lift) else board.place)((c.row, c.col))
        except SquareError as exc:   # a square off the virtual board
            raise Refused(str(exc)) from exc

    # --- the rest of the commands -----------------------------------------------------------------------
    def _save_pdn(self) -> None:
        path = self.controller.write_pdn()
        if path is None:
            raise Refused("there is no data directory to save the game in")
        self.controller.say(phrase("The game so far is saved in the library as {file}.", file=path.name))

    def _move_broadcast(self, place: BroadcastPlace) -> None:
        """Keep the board's new place in the hall (it outlives a power cut) and have the publisher follow."""
        if self.broadcast_place is None:
            raise Refused("this board does not broadcast (set broadcast = true in its config)")
        if place == self.broadcast_place:
            return
        try:
            save_place(self.data_dir, place)
        except OSError as exc:
            raise SaveError.of("the broadcast place", exc) from exc
        self.broadcast_place = place
        self.ports.emit(ev.BroadcastMoved(place.to_json()))
        where = dict(event=place.event, round=place.round, board=place.board)
        if place.white or place.black:
            said = phrase("Broadcasting as {event}, round {round}, board {board}: {white} - {black}.",
                          white=place.white, black=place.black, **where)
        else:
            said = phrase("Broadcasting as {event}, round {round}, board {board}.", **where)
        self.controller.say(said)

    def _lesson_command(self, c: cmd.Command) -> None:
        from engine.exercises import ExerciseError

        try:
            self.lessons.command(self, c)
        except ExerciseError as exc:   # an exercise the page named that the collection does not have
            raise Refused(str(exc)) from exc

    def _dispatch(self) -> dict[type[cmd.Command], Callable[[Any, float], None]]:
        """Every command's handler: a new command is one class in commands.py and one line here."""
        ctl, health, lessons = self.controller, self.health, self.lessons

        def new_game(c: cmd.NewGame | cmd.SetupPosition, now: float) -> None:
            lessons.stop()
            self._new_game(c) if isinstance(c, cmd.NewGame) else self._setup_position(c)

        return {
            cmd.NewGame: new_game,
            cmd.SetupPosition: new_game,
            cmd.Takeback: lambda c, now: ctl.takeback(c.plies),
            cmd.Resign: lambda c, now: ctl.resign(c.color),
            cmd.OfferDraw: lambda c, now: self._offer_draw(c.color),
            cmd.AcceptDraw: lambda c, now: ctl.answer_draw(c.color, True),
            cmd.DeclineDraw: lambda c, now: ctl.answer_draw(c.color, False),
            cmd.ClaimDraw: lambda c, now: ctl.claim_draw(c.color),
            cmd.SetTeaching: lambda c, now: ctl.set_teaching(c.on),
            cmd.MissedCaptureChoice: lambda c, now: ctl.missed_choice(c.choice),
            cmd.StartPositionChoice: lambda c, now: ctl.start_position_choice(c.choice),
            cmd.ChooseMove: lambda c, now: ctl.choose(c.text),
            cmd.ConfirmMove: lambda c, now: ctl.confirm(c.text),
            cmd.Hint: lambda c, now: self._hint(),
            cmd.SavePdn: lambda c, now: self._save_pdn(),
            cmd.SetAutoComputer: lambda c, now: self._set_auto_computer(c.on),
            cmd.SetBroadcast: lambda c, now: self._move_broadcast(c.place()),
            cmd.MaskSquares: lambda c, now: health.mask(c.cells, c.masked),
            cmd.BoardTest: lambda c, now: health.board_test(c.action, c.text, now),
            cmd.Lift: lambda c, now: self._lift_or_place(c),
            cmd.Place: lambda c, now: self._lift_or_place(c),
            cmd.StartExercise: lambda c, now: self._lesson_command(c),
            cmd.StartReplay: lambda c, now: self._lesson_command(c),
            cmd.LessonStep: lambda c, now: self._lesson_command(c),
        }

    # --- the state the page shows -----------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The full JSON-ready state (the ViewChanged payload): the game, the person's rating, whether the
        computer's moves play themselves (None on a real board, where they never do), the broadcast place,
        the board's health (a board that does not answer is not connected, whatever the game last heard),
        the lesson, and the one frame on the LEDs."""
        ctl, health = self.controller, self.health
        auto = self.auto_computer if self.simulated is not None else None
        place = self.broadcast_place.to_json() if self.broadcast_place is not None else None
        state = (view.game_view(ctl)
                 | {"rating": self.rating.to_json(), "auto_computer": auto, "broadcast": place}
                 | health.view()
                 | {"lesson": self.lessons.to_json(ctl), "exercise_variants": self.lessons.variants})
        state["board_connected"] = state["board_connected"] and health.link_ok
        state["leds"] = ev.frame_to_json(self.frame) if self.frame is not None else []
        return state

    def __repr__(self) -> str:
        return f"Table({self.controller!r}, {self.health!r}, {self.lessons!r})"

