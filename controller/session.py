"""The asyncio Session: one game at a time on one board, the Controller driven from a single queue.

Sensor snapshots (from the backend's thread), commands (web page, command line) and engine answers all go
through one asyncio queue and are handled in order on the loop; subscribers receive every Event.
The computer opponent is any object with ``choose_move(board, level) -> Move`` run in a worker thread, or by
default the engine's own process (``engine.worker.EngineWorker``) so a search never blocks the board; its
iterations arrive as throttled EngineProgress events. ``opponent="external"`` plays a Hub engine (the
config's ``external_engine`` command), ``"dxp"`` a DXP engine (``dxp_engine``), each falling back to the
built-in engine, with a Message, when it fails (controller/opponents.py).
One mechanism keeps the page current: after every handled input the state is compared with the last one
sent and a StateChanged goes out whenever it differs (timers, clocks and engine progress included).
Additions: ``save_pdn()`` (also the ``SavePdn`` command) writes the game in progress; ``send()`` returns a
future of the command's Outcome (done, refused or failed, with the reason); a new game over an unfinished one
with moves saves that one to the library first; ``sensor_log`` (a ``SensorLogWriter``, ``dboard play
--sensor-log``) receives every input the controller handles.
Start-up: the data directory is prepared (created, checked for room, leftover PDN files settled) and the
journal read and repaired before the game resumes; what was found is said on the page, in the terminal and in
the log, and nothing found there stops the board from starting.
The virtual board (a SimulatedDevice with ``auto_computer`` on) moves the pieces the game moves itself: the
computer's moves, the set-up of every new position, the pieces put back after a takeback; the controller's
messages then say what it did (``Controller.moves_itself``).
Ratings: when a game against the built-in engine ends (not when it is abandoned), the person's Glicko-2
rating in that variant is updated against the level's fixed rating in ``<data dir>/ratings.sqlite3`` (the
file ``dboard ratings`` reads), on a worker thread; a Message tells the change and ``state()["rating"]`` shows
the person's current rating.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from firmware_bridge.clock import Clock, MonotonicClock
from firmware_bridge.device import wire_map
from firmware_bridge.interfaces import BoardDevice, LedOutput
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.types import LedFrame, LinkStatus, Occupancy
from rules import Board, Move, Variant, get_variant

from . import commands as cmd
from . import events as ev
from . import view
from .broadcast.place import BroadcastPlace, load_place, save_place
from .config import Config
from .datadir import Notice, prepare
from .durable import SaveError
from .health import BoardHealth
from .journal import Journal
from .lessons import LessonDesk
from .machine import Controller
from .opponents import (
    EXTERNAL_OPPONENTS,
    ExternalOpponent,
    Opponent,
    WorkerOpponent,
    external_for,
    think_in_background,
)
from .sensorlog import SensorLogWriter
from .settings import EngineJob, GameSettings

log = logging.getLogger(__name__)

TICK_SECONDS = 0.02
DRAW_MARGIN = 30
"""The computer accepts a draw offer unless its engine sees it ahead by more than this (1/100 of a man)."""
PROGRESS_SECONDS = 0.1
"""At most one EngineProgress event per this many seconds (the newest iteration is always delivered)."""


@dataclass(frozen=True)
class _Link:
    """The board's link (a serial cable) dropped or came back."""

    connected: bool


@dataclass(frozen=True)
class _Consulted:
    """The built-in engine answered a question asked for the person (a hint, a draw offer): ``then`` runs on
    the loop with its result (None when it failed)."""

    then: Callable[[Any], None]
    result: Any


@dataclass(frozen=True)
class _Sent:
    """A command on the queue with the future its Outcome goes to."""

    command: cmd.Command
    outcome: asyncio.Future[cmd.Outcome]


@dataclass(frozen=True)
class _EngineAnswer:
    token: int
    move: Move | None
    note: str | None = None


class Session:
    """Owns the Controller, its journal and opponent; the web page and CLI talk to it via events/commands."""

    def __init__(self, config: Config, sensors: BoardDevice, leds: BoardDevice | LedOutput,
                 journal_dir: Path | None = None, *, opponent: Opponent | None = None,
                 clock: Clock | None = None, sensor_log: SensorLogWriter | None = None) -> None:
        self.config = config
        self.sensors = sensors
        self.leds = leds
        self.clock = clock or MonotonicClock()
        self.journal_dir = Path(journal_dir) if journal_dir is not None else None
        self.journal = Journal(self.journal_dir) if self.journal_dir is not None else None
        self._opponent = opponent
        self.sensor_log = sensor_log
        self._owned_opponent: WorkerOpponent | None = None
        self._external: ExternalOpponent | None = None
        self._last_state: dict[str, Any] | None = None
        self._progress_lock = threading.Lock()
        self._progress: Any = None
        self._progress_due = False
        self._search_token = -1
        self._builtin_lock = threading.Lock()
        self._rating: dict[str, Any] | None = None
        self._rating_key: tuple[str, str, int] | None = None
        self._rated_game: Any = None
        self._background: set[asyncio.Task[Any]] = set()
        self._subscribers: list[asyncio.Queue[ev.Event]] = []
        self._queue: asyncio.Queue[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._stopping = False
        self.auto_computer = config.auto_computer
        """On the simulated board, the computer's moves play themselves."""
        self._auto_played = -1
        self._arranged: tuple[int, str] | None = None
        self.broadcast_place = load_place(self.journal_dir, config) if config.broadcast else None
        """Where the board stands in the hall and who plays at it, when it broadcasts (``SetBroadcast``)."""
        self.controller = Controller(config, clock=self.clock, journal=self.journal, emit=self._publish,
                                     show=self._show_leds, request_engine=self._request_engine,
                                     pdn_dir=self.journal_dir / "games" if self.journal_dir else None)
        self.health = BoardHealth(self.controller, say=self.controller.say, show=self._show_frame,
                                  wires=wire_map(sensors), clock=self.clock, masked=config.masked_squares,
                                  check_after=config.sensor_check_ms / 1000, can_fail=_can_fail(sensors))
        self.lessons = LessonDesk(self.journal_dir)
        """The exercise or replay under way (controller/lessons.py)."""
        self._tell_controller()

    def _show_leds(self, frame: LedFrame) -> None:
        """The controller's frame to the board, with the squares whose sensors are at fault lit (health);
        not while the board's self-test has the LEDs."""
        if not self.health.testing:
            self._show_frame(self.health.overlay(frame))

    def _show_frame(self, frame: LedFrame) -> None:
        """A frame to the board at the configured brightness (the web page shows the controller's whole). A
        frame for a game of another size waits until the simulated board has taken that size."""
        if (frame.rows, frame.cols) != (self.sensors.rows, self.sensors.cols):
            return
        self.leds.show(frame.dimmed(self.config.brightness))

    # --- lifecycle ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume the journaled game (or start a new one) and begin handling snapshots and commands."""
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        ctl = self.controller
        state = None
        if self.journal is not None and self.journal_dir is not None:
            notices = prepare(self.journal_dir)
            opened = self.journal.open()
            state = opened.state
            message = opened.message()
            if message is not None:
                notices.append(Notice("error" if opened.repair_failed else "warning", message))
            for notice in notices:
                log.log(logging.INFO if notice.level == "info" else logging.WARNING, "%s", notice.text)
                ctl.say(notice.text, notice.level)
        if state is not None:
            ctl.resume(state, ctl.settings)   # a finished game goes to the library, then a new game begins
        else:
            ctl.new_game(at_start=True)
        if self.sensor_log is not None:
            self.sensor_log.game(self.clock.now(), ctl)
        self.sensors.on_snapshot(self._post)
        self.sensors.on_link(self._post_link)
        self.sensors.on_status(self._post)                      # health: the link's state
        self._tasks = [asyncio.create_task(self._run(), name="session-run"),
                       asyncio.create_task(self._ticker(), name="session-tick")]
        self.sensors.start()
        self._arrange()
        self._refresh_rating()
        await self._settle_background()
        self._broadcast_state()

    async def stop(self) -> None:
        """Stop handling input, close the journal and the engine process."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await self._settle_background()
        if self.journal is not None:
            self.journal.close()
        if self._external is not None:
            await asyncio.to_thread(self._external.close)
            self._external = None
        if self._owned_opponent is not None:
            self._owned_opponent.close()
            self._owned_opponent = None

    async def __aenter__(self) -> Session:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.stop()

    # --- outside API ------------------------------------------------------------------------------
    def subscribe(self) -> asyncio.Queue[ev.Event]:
        """A queue that receives every event from now on."""
        queue: asyncio.Queue[ev.Event] = asyncio.Queue()
        self._subscribers.append(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[ev.Event]) -> None:
        """Stop sending events to ``queue`` (no error if it was not subscribed)."""
        with contextlib.suppress(ValueError):
            self._subscribers.remove(queue)

    async def send(self, command: cmd.Command) -> asyncio.Future[cmd.Outcome]:
        """Queue a command; it is handled in order with the board's snapshots. The future returned gives its
        Outcome once handled (done, refused with the reason, failed with the reason)."""
        assert self._queue is not None and self._loop is not None, "the session is not started"
        sent = _Sent(command, self._loop.create_future())
        await self._queue.put(sent)
        return sent.outcome

    def state(self) -> dict[str, Any]:
        """The full JSON-ready state (the StateChanged payload), with the person's rating, whether the
        computer's moves play themselves (None on a real board, where they never do) and the board's health (a
        board that does not answer is not connected, whatever the controller last heard)."""
        auto = self.auto_computer if self.simulated is not None else None
        place = self.broadcast_place.to_json() if self.broadcast_place is not None else None
        state = (view.game_state(self.controller)
                 | {"rating": self._rating, "auto_computer": auto, "broadcast": place} | self.health.state()
                 | {"lesson": self.lessons.to_json(self.controller),
                    "exercise_variants": self.lessons.variants})
        state["board_connected"] = state["board_connected"] and self.health.link_ok
        return state

    @property
    def ratings_path(self) -> Path | None:
        """The ratings database, ``ratings.sqlite3`` in the data directory (None without one)."""
        from engine.ratings import RATINGS_FILE

        return self.journal_dir / RATINGS_FILE if self.journal_dir is not None else None

    def pdn(self) -> str:
        """The game so far as PDN text (Result ``*`` while it is in progress)."""
        return self.controller.pdn()

    def save_pdn(self) -> Path | None:
        """Write the game so far (finished or not) to its file under ``games/``; None without a data dir."""
        return self.controller.write_pdn()

    async def idle(self) -> None:
        """Wait until every queued input has been handled (for tests and scripts)."""
        assert self._queue is not None
        await self._queue.join()
        await self._settle_background()

    async def _settle_background(self) -> None:
        """Wait for the rating reads and writes under way (they run on worker threads)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    # --- internals ----------------------------------------------------------------------------------
    def _post_link(self, connected: bool) -> None:
        self._post(_Link(connected))

    def _post(self, item: Occupancy | _Link | LinkStatus) -> None:
        """Queue an input from the board (called on the backend's thread, or on the loop's)."""
        loop, queue = self._loop, self._queue
        if loop is None or queue is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            queue.put_nowait(item)
        else:
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def _publish(self, event: ev.Event) -> None:
        if self.sensor_log is not None and isinstance(event, ev.MoveCommitted):
            self.sensor_log.recorded(self.clock.now(), event.ply, event.text)
        for queue in self._subscribers:
            queue.put_nowait(event)
        if isinstance(event, ev.GameOver):
            self._rate_game(event.result)

    def _broadcast_state(self) -> None:
        """Send StateChanged when the visible state differs from the last one sent (the one mechanism)."""
        self._refresh_rating()
        if not self._subscribers:
            self._last_state = None
            return
        state = self.state()
        if state != self._last_state:
            self._last_state = state
            self._publish(ev.StateChanged(state))

    async def _ticker(self) -> None:
        assert self._queue is not None
        while True:
            await asyncio.sleep(TICK_SECONDS)
            times = (self.controller.next_deadline(), self.health.next_deadline())
            due = min((t for t in times if t is not None), default=None)
            if due is not None and due <= self.clock.now():
                await self._queue.put(None)

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            item = await self._queue.get()
            sent = item if isinstance(item, _Sent) else None
            error: Exception | None = None
            failed_saves = len(self.controller.save_errors)
            try:
                self._handle(sent.command if sent else item)
                self.lessons.follow(self.controller)
                self._arrange()
                self._play_for_the_computer()
            except ValueError as exc:
                error = exc
                self.controller.say(str(exc), "error")
            except Exception as exc:
                error = exc
                log.exception("session failed handling %r", sent.command if sent else item)
            finally:
                self._broadcast_state()
                self._queue.task_done()
                if sent is not None and not sent.outcome.done():
                    outcome = cmd.Outcome.of(error)
                    if outcome.status == "done" and len(self.controller.save_errors) > failed_saves:
                        outcome = cmd.Outcome("failed", self.controller.save_errors[-1].reason)
                    sent.outcome.set_result(outcome)

    def _log_input(self, item: Any) -> None:
        """The sensor log gets each input as the controller is about to handle it, at the controller time."""
        log, ctl, now = self.sensor_log, self.controller, self.clock.now()
        if log is None:
            return
        if isinstance(item, Occupancy):
            log.occupancy(now, item.squares)
        elif isinstance(item, _EngineAnswer) and item.move is not None and item.token == ctl.engine_token:
            shape = ctl.exp.shape_of(item.move)
            if shape is not None:
                log.engine(now, shape.text)
        elif isinstance(item, cmd.Command):
            log.command(now, item)

    def _handle(self, item: Any) -> None:
        ctl = self.controller
        self._log_input(item)
        now = self.clock.now()
        if item is None:
            ctl.tick()
        elif isinstance(item, Occupancy):
            view = self.health.reading(item.squares, now)          # health: masked, chattering squares
            if not self.health.testing:                            # health: the self-test has the board
                ctl.snapshot(view)
        elif isinstance(item, _Link):
            ctl.board_link(item.connected, self.health.drop_message(item.connected))
        elif isinstance(item, _Consulted):
            item.then(item.result)
        elif isinstance(item, LinkStatus):
            self.health.link_status(item)
        elif isinstance(item, _EngineAnswer):
            self._flush_progress()   # the search's last iteration is shown before its move
            if item.note is not None and item.token == ctl.engine_token:
                ctl.say(item.note, "warning")
            ctl.computer_moved(item.token, item.move)
        elif isinstance(item, cmd.Command):
            self._command(item)
        self.health.after_input(self.clock.now())                    # health: faults, masked squares

    def _command(self, c: cmd.Command) -> None:
        ctl = self.controller
        if isinstance(c, cmd.NewGame | cmd.SetupPosition):
            self.lessons.stop()
        if isinstance(c, cmd.StartExercise | cmd.StartReplay | cmd.LessonStep):
            self.lessons.command(self, c)
        elif ctl.command(c):   # the game's own commands (takeback, resign, draws, answers)
            if isinstance(c, cmd.OfferDraw):
                self._answer_for_the_computer(c.color)
        elif isinstance(c, cmd.NewGame):
            settings = GameSettings(self._variant_of(c), c.human_color, c.opponent, c.level, c.fen,
                                    ctl.settings.flipped, c.time_control, c.player or ctl.settings.player)
            self._check_new_game(settings)
            self._check_board_fits(settings)
            if self._save_unfinished():
                ctl.new_game(settings)
                self._fit_board()
                ctl.snapshot(self.sensors.snapshot().squares)
        elif isinstance(c, cmd.SetupPosition):
            settings = dataclasses.replace(ctl.settings, fen=c.fen)
            self._check_new_game(settings)
            if self._save_unfinished():
                ctl.new_game(settings)
        elif isinstance(c, cmd.SavePdn):
            path = self.save_pdn()
            if path is None:
                raise ValueError("there is no data directory to save the game in")
            ctl.say(f"The game so far is saved in the library as {path.name}.")
        elif isinstance(c, cmd.Hint):
            if self.lessons.lesson is not None and self.lessons.lesson.kind == "exercise":
                self.lessons.lesson.step(ctl, "hint")   # an exercise's hint is its solution's first move
            else:
                self._hint()
        elif isinstance(c, cmd.SetAutoComputer):
            if self.simulated is None:
                raise ValueError("the computer's moves play themselves only on the simulated board")
            self.auto_computer = c.on
            self._tell_controller()
        elif isinstance(c, cmd.SetBroadcast):
            self._move_broadcast(c.place())
        elif isinstance(c, cmd.MaskSquares):
            self.health.mask(c.cells, c.masked)
        elif isinstance(c, cmd.ConfirmMove):
            ctl.confirm(c.text)
        elif isinstance(c, cmd.BoardTest):
            self.health.board_test(c.action, c.text, self.clock.now())
        elif isinstance(c, cmd.Lift | cmd.Place):
            board = self.sensors
            if not hasattr(board, "lift"):
                raise ValueError("virtual lift/place needs the simulated board")
            getattr(board, "lift" if isinstance(c, cmd.Lift) else "place")((c.row, c.col))

    def _move_broadcast(self, place: BroadcastPlace) -> None:
        """Keep the board's new place in the hall (it outlives a power cut) and have the publisher follow."""
        if self.broadcast_place is None:
            raise ValueError("this board does not broadcast (set broadcast = true in its config)")
        if place == self.broadcast_place:
            return
        try:
            save_place(self.journal_dir, place)
        except OSError as exc:
            raise SaveError.of("the broadcast place", exc) from exc
        self.broadcast_place = place
        self._publish(ev.BroadcastMoved(place.to_json()))
        players = f": {place.white} - {place.black}" if place.white or place.black else ""
        self.controller.say(f"Broadcasting as {place.event}, round {place.round}, board {place.board}"
                            f"{players}.")

    @property
    def simulated(self) -> SimulatedDevice | None:
        """The simulated board, when the session runs on one (the virtual board of the web page)."""
        return self.sensors if isinstance(self.sensors, SimulatedDevice) else None

    def _check_board_fits(self, settings: GameSettings) -> None:
        """A real board cannot change size: a new game of another size is refused, naming both sizes (the
        simulated board follows the game: ``_fit_board``)."""
        variant = settings.variant
        size, board = (variant.height, variant.width), (self.sensors.rows, self.sensors.cols)
        if size != board and self.simulated is None:
            message = (f"this board is {board[0]}x{board[1]}; {variant.name} is played on "
                       f"{size[0]}x{size[1]}: choose a {board[0]}x{board[1]} variant")
            self._publish(ev.Refusal(f"new game refused: {message}", "game settings"))
            raise ValueError(f"New game refused: {message}")

    def _fit_board(self) -> None:
        """The simulated board takes the size of the game now started (empty), and shows its LEDs."""
        ctl, board = self.controller, self.simulated
        if board is None or (board.rows, board.cols) == (ctl.variant.height, ctl.variant.width):
            return
        board.resize(ctl.variant.height, ctl.variant.width)
        self.health.rewired(wire_map(self.sensors))
        if ctl.frame is not None:
            self._show_leds(ctl.frame)

    def _tell_controller(self) -> None:
        """The controller's messages follow who moves the pieces the game asks for: the virtual board
        itself (``auto_computer``), or hands."""
        self.controller.virtual = self.simulated is not None
        self.controller.moves_itself = self.controller.virtual and self.auto_computer

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
        """On the simulated board, make the computer's move as soon as it is shown (once per move)."""
        lesson = self.lessons.lesson
        if self.auto_computer and (lesson is None or lesson.kind == "exercise"):   # a replay steps by hand
            self.carry_out_shown_move()

    def carry_out_shown_move(self) -> None:
        """On the simulated board, make the move the LEDs show (once per move); on a real board the person
        makes it."""
        ctl, board = self.controller, self.simulated
        shape = ctl.computer_shape
        if board is None or shape is None or ctl.state != "computer.showing" or self._auto_played == \
                ctl.engine_token:
            return
        self._auto_played = ctl.engine_token
        for verb, square in shape.by_hand():
            (board.lift if verb == "lift" else board.place)(square)

    def _consult(self, board: Board, seconds: float, then: Callable[[Any], None]) -> None:
        """Ask the built-in engine about ``board`` on a worker thread (at the game's level, as the computer
        would play); ``then(result)`` runs on the loop with its WorkerResult, or None when it failed."""
        loop, queue = self._loop, self._queue
        if loop is None or queue is None:
            return
        level = self.controller.settings.level

        def work() -> None:
            from engine.worker import game_line

            result = None
            try:
                worker = self._builtin().worker
                search = worker.start_search(board.fen(), board.variant, level, seconds,
                                             line=game_line(board))
                result = worker.wait(search, timeout=seconds * 10 + 30)
            except Exception:
                if not self._stopping:
                    log.exception("the engine could not be consulted")
            if not self._stopping:
                with contextlib.suppress(RuntimeError):   # the loop is closed: the session ended meanwhile
                    loop.call_soon_threadsafe(queue.put_nowait, _Consulted(then, result))

        threading.Thread(target=work, name="engine-consulted", daemon=True).start()   # never joined at exit

    def _hint(self) -> None:
        """The engine's move for the person to move, lit on the board (at the game's engine level)."""
        ctl = self.controller
        if ctl.turn_state != "person":
            raise ValueError("a hint is for the person to move: wait for your turn")
        token, board = ctl.engine_token, ctl.game.board.copy()
        ctl.say("Thinking of a hint...")

        def show(result: Any) -> None:
            move = board.parse_move(result.move_text) if result is not None and result.move_text else None
            ctl.show_hint(token, move)

        self._consult(board, min(self.config.engine_time, 2.0), show)

    def _answer_for_the_computer(self, offered_by: str) -> None:
        """The computer answers a person's draw offer: it accepts unless it sees itself ahead."""
        ctl = self.controller
        s = ctl.settings
        computer = "black" if offered_by == "white" else "white"
        if s.plays(computer) != "computer" or s.opponent != "engine" or ctl.turn_state in ("game_over",
                                                                                            "setup"):
            return
        if ctl.state == "computer.thinking":
            ctl.answer_draw(computer, accept=False)
            ctl.say("The computer is thinking: offer the draw again on your move.")
            return
        token, board = ctl.engine_token, ctl.game.board.copy()

        def answer(result: Any) -> None:
            if ctl.draw_offer != offered_by or ctl.engine_token != token:
                return   # answered, withdrawn, or the game moved on
            if result is None:
                ctl.answer_draw(computer, accept=False)
                return
            # the score is the side to move's, in hundredths of a man
            ahead = result.score if board.turn.name.lower() == computer else -result.score
            ctl.answer_draw(computer, accept=ahead <= DRAW_MARGIN)

        self._consult(board, min(self.config.engine_time, 1.0), answer)

    def begin_lesson(self, settings: GameSettings) -> bool:
        """Start a lesson's game (an exercise or a replay): like a new game, but never written to the library.
        False when the game in progress could not be saved first."""
        self._check_new_game(settings)
        self._check_board_fits(settings)
        if not self._save_unfinished():
            return False
        ctl = self.controller
        library, ctl.pdn_dir = ctl.pdn_dir, None
        try:
            ctl.new_game(settings)
        finally:
            ctl.pdn_dir = library
        self._fit_board()
        ctl.snapshot(self.sensors.snapshot().squares)
        return True

    def run_in_background(self, work: Callable[[Callable[[Any], None]], None],
                          then: Callable[[Any], None]) -> None:
        """Run ``work(report)`` on a worker thread; each ``report(value)`` runs ``then(value)`` on the loop,
        in order with the board's input (``idle()`` waits for the work)."""
        loop, queue = self._loop, self._queue
        if loop is None or queue is None:
            return

        def report(value: Any) -> None:
            if not self._stopping:
                with contextlib.suppress(RuntimeError):   # the loop is closed: the session ended meanwhile
                    loop.call_soon_threadsafe(queue.put_nowait, _Consulted(then, value))

        self._background_task(asyncio.to_thread(work, report))

    def _save_unfinished(self) -> bool:
        """A new game over one with moves and no result first saves it (result ``*``) to the library, so that
        a stray click loses nothing; when it cannot be saved the new game is refused (False)."""
        ctl = self.controller
        if not ctl.records or ctl.outcome is not None:
            return True
        try:
            path = self.save_pdn()
        except SaveError as exc:
            ctl.refuse_unsaved(f"New game refused: {exc} (the game goes on)", exc)
            return False
        if path is not None:
            plies = len(ctl.records)
            ctl.say(f"The unfinished game ({plies} {'ply' if plies == 1 else 'plies'}) is saved in the "
                    f"library as {path.name}.")
        return True

    def _variant_of(self, c: cmd.NewGame) -> Variant:
        """The new game's variant with its options; an unknown one is refused, changing nothing."""
        try:
            return get_variant(c.variant, **(c.variant_options or {}))
        except ValueError as exc:
            self._publish(ev.Refusal(f"new game refused: {exc}", "game settings"))
            raise ValueError(f"New game refused: {exc}") from None

    def _check_new_game(self, settings: GameSettings) -> None:
        """Validate before anything changes; a new game also gives a failed external engine a fresh try."""
        try:
            settings.check()
        except ValueError as exc:
            self._publish(ev.Refusal(f"new game refused: {exc}", "game settings"))
            raise ValueError(f"New game refused: {exc}") from None
        if self._external is not None:
            old, self._external = self._external, None
            threading.Thread(target=old.close, name="external-engine-close", daemon=True).start()

    # --- ratings ------------------------------------------------------------------------------------
    def _background_task(self, coro: Any) -> None:
        if self._loop is None:
            coro.close()
            return
        task = self._loop.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _refresh_rating(self) -> None:
        """Read the person's rating in the game's variant when the player or variant changed."""
        s = self.controller.settings
        key = (s.player, s.variant.id, s.level)
        if key == self._rating_key or self.ratings_path is None or self._loop is None:
            return
        self._rating_key = key
        self._background_task(self._read_rating(self.ratings_path, *key))

    async def _read_rating(self, path: Path, player: str, variant: str, level: int) -> None:
        try:
            rating = await asyncio.to_thread(_stored_rating, path, player, variant, level)
        except (sqlite3.Error, OSError) as exc:
            log.warning("cannot read the ratings in %s: %s", path, exc)
            return
        self._show_rating(player, variant, rating)

    def _show_rating(self, player: str, variant: str, rating: Any) -> None:
        if self._rating_key is not None and (player, variant) == self._rating_key[:2]:
            self._rating = {"player": player, "variant": variant, "rating": round(rating.rating, 1),
                            "rd": round(rating.rd, 1)}
            self._broadcast_state()

    def _rate_game(self, result: str) -> None:
        """A game ended: against the built-in engine, update the person's rating (once per game)."""
        ctl, path = self.controller, self.ratings_path
        s = ctl.settings
        if (path is None or s.opponent != "engine" or s.human_color not in ("white", "black")
                or self._rated_game == ctl.record.started or self.lessons.lesson is not None):
            return
        self._rated_game = ctl.record.started  # a takeback after the end, a second ending: counted once
        winner = "white" if result == "1-0" else "black" if result == "0-1" else None
        score = 0.5 if winner is None else 1.0 if winner == s.human_color else 0.0
        self._background_task(self._record_rating(path, s.player, s.variant.id, s.level, score))

    async def _record_rating(self, path: Path, player: str, variant: str, level: int, score: float) -> None:
        try:
            old, new = await asyncio.to_thread(_record_engine_game, path, player, variant, level, score)
        except (sqlite3.Error, OSError, ValueError) as exc:
            log.warning("cannot update the rating in %s: %s", path, exc)
            self.controller.say(f"Your rating could not be updated: {exc}", "warning")
            self._broadcast_state()
            return
        self.controller.say(f"Your {variant} rating: {old.rating:.0f} -> {new.rating:.0f} "
                             f"(RD {old.rd:.0f} -> {new.rd:.0f})")
        self._show_rating(player, variant, new)
        self._broadcast_state()

    def _engine_progress(self, progress: Any) -> None:
        """Called on the engine worker's reader thread: keep the newest iteration and have the loop publish it
        at most every PROGRESS_SECONDS."""
        loop = self._loop
        if loop is None:
            return
        with self._progress_lock:
            self._progress = (self._search_token, progress)
            if self._progress_due:
                return
            self._progress_due = True
        loop.call_soon_threadsafe(loop.call_later, PROGRESS_SECONDS, self._flush_progress)

    def _flush_progress(self) -> None:
        with self._progress_lock:
            pending, self._progress, self._progress_due = self._progress, None, False
        ctl = self.controller
        if pending is None or pending[0] != ctl.engine_token or ctl.turn_state == "game_over":
            return  # it belongs to a search for an earlier turn
        progress = pending[1]
        event = ev.EngineProgress(progress.depth, progress.score / 100, tuple(progress.pv_text))
        ctl.progress = event.to_json()
        self._publish(event)
        self._broadcast_state()

    def _request_engine(self, job: EngineJob) -> None:
        loop, queue = self._loop, self._queue
        if loop is None or queue is None:
            return
        if self.lessons.lesson is not None or self.controller.settings.human_color == "none":
            move = self.lessons.answer(job)   # a replay's record, an exercise's line
            if move is not None:
                queue.put_nowait(_EngineAnswer(job.token, move))
                return
            if not self.lessons.leaves_to_engine(job):
                if self.lessons.lesson is None:
                    self.controller.say("The replay was interrupted by a restart: start it again, or a new "
                                        "game.", "warning")
                return
        self._search_token = job.token
        opponent: Any = self._opponent
        kind = self.controller.settings.opponent
        if opponent is None and kind in EXTERNAL_OPPONENTS:
            self._external = external_for(kind, self.config, job.board.variant, self._builtin,
                                          self._external)
            opponent = self._external
        elif opponent is None:
            opponent = self._builtin()

        def deliver(move: Move | None, note: str | None) -> None:
            if self._stopping:
                return   # the session closed the engine under this search: nobody waits for it
            with contextlib.suppress(RuntimeError):   # the loop is closed: the session ended meanwhile
                loop.call_soon_threadsafe(queue.put_nowait, _EngineAnswer(job.token, move, note))

        think_in_background(opponent, job.board, job.level, job.seconds, deliver)

    def _builtin(self) -> WorkerOpponent:
        """The built-in engine's worker process (started on first use; thread-safe)."""
        with self._builtin_lock:
            if self._owned_opponent is None:
                self._owned_opponent = WorkerOpponent(self.config, self._engine_progress)
            return self._owned_opponent

    def __repr__(self) -> str:
        return f"Session({self.controller!r})"


def _can_fail(sensors: BoardDevice) -> bool:
    """A board's sensors can fail unless it is a simulated board with no switch matrix (whose faults tests
    plant): that one reads exactly the pieces put on it."""
    return not isinstance(sensors, SimulatedDevice) or sensors.matrix is not None


def _stored_rating(path: Path, player: str, variant: str, level: int) -> Any:
    """The player's rating in ``variant``; before their first rated game, the one it will be rated from (the
    level's, with the full uncertainty)."""
    from engine.glicko2 import DEFAULT_RD, Rating
    from engine.ratings import RatingStore, UnknownPlayerError, level_rating

    unrated = Rating(level_rating(variant, level).rating, DEFAULT_RD)
    if not path.exists():
        return unrated
    with RatingStore(path) as store:
        try:
            return store.starting_rating(player, variant, level)
        except UnknownPlayerError:
            return unrated


def _record_engine_game(path: Path, player: str, variant: str, level: int, score: float) -> tuple[Any, Any]:
    """Store a finished game against the engine at ``level``; the rating before and after it."""
    from engine.ratings import RatingStore

    with RatingStore(path) as store:
        store.add_player(player)
        old = store.starting_rating(player, variant, level)
        return old, store.record_engine_game(player, variant, level, score)
