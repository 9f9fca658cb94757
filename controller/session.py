"""The asyncio Session: the shell around one board's ``Table``, fed from a single queue.

Sensor snapshots (from the backend's thread), commands (web page, command line), engine answers and the
results of background work all go through one asyncio queue and are handed to the Table in order on the
loop; subscribers receive every Event. After every handled input the page's view is compared with the last
one sent and a ViewChanged goes out whenever it differs (timers, clocks and engine progress included).
``send()`` returns a future of the command's CommandOutcome: done, refused (``Refused``: the person's
mistake, said as it is) or failed (anything else: ours, logged).
The Session implements the Table's ``Ports``: the LEDs at the configured brightness, the engines
(controller/consult.py: the built-in engine's process, an external Hub or DXP engine), worker threads.
With ``speech`` on, every event also goes to the board's voice (``controller.speech``): said aloud in the
configured language, or, on a board that cannot speak, said once on the page and then not at all.
Start-up: the data directory is prepared (created, checked for room, leftover PDN files settled) and the
journal read and repaired before the game resumes; what was found is said on the page, in the terminal and in
the log, and nothing found there stops the board from starting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from firmware_bridge.clock import Clock, MonotonicClock
from firmware_bridge.interfaces import BoardDevice, LedOutput
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.speaker import Speaker
from firmware_bridge.types import LedFrame, LinkStatus, Occupancy
from i18n import Phrase, phrase
from rules import Board

from . import commands as cmd
from . import events as ev
from .announcer import piece_words, position_of
from .config import Config
from .consult import Answered, EngineAnswer, Engines
from .datadir import Notice, prepare
from .errors import ControllerError
from .journal import Journal
from .opponents import Opponent
from .ports import StopFlag, Work
from .sensorlog import SensorLogWriter
from .settings import EngineJob
from .speech import Speech
from .table import Table

if TYPE_CHECKING:
    from engine.worker import WorkerProgress, WorkerResult

    from .broadcast.place import BroadcastPlace
    from .health import BoardHealth
    from .lessons import LessonDesk
    from .machine import Controller

log = logging.getLogger(__name__)

T = TypeVar("T")
TICK_SECONDS = 0.02


@dataclass(frozen=True)
class LinkChanged:
    """The board's link (a serial cable) dropped or came back."""

    connected: bool


@dataclass(frozen=True)
class _Sent:
    """A command on the queue with the future its CommandOutcome goes to."""

    command: cmd.Command
    outcome: asyncio.Future[cmd.CommandOutcome]


_Item = Occupancy | LinkChanged | LinkStatus | _Sent | EngineAnswer | Answered[Any] | None
"""What the queue carries (None: a timer fell due)."""


class Inbox:
    """The one queue a Session's inputs go through, fed from the loop or from any thread, and the work it
    runs on worker threads meanwhile (``settle`` waits for that work)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[_Item] | None = None
        self.closed = False
        """Once set (the session stops), what worker threads hand in is dropped."""
        self._work: set[asyncio.Task[None]] = set()

    def open(self) -> None:
        """Begin taking inputs, on the running loop."""
        self.loop = asyncio.get_running_loop()
        self.queue = asyncio.Queue()

    def put(self, item: _Item) -> None:
        """Queue an input (called on the loop's thread or on another one, such as a backend's)."""
        loop, queue = self.loop, self.queue
        if loop is None or queue is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            queue.put_nowait(item)
        else:
            self.put_threadsafe(item)

    def put_threadsafe(self, item: _Item) -> None:
        """Queue an input from a worker thread (dropped once closed, or once the loop has closed)."""
        loop, queue = self.loop, self.queue
        if loop is None or queue is None or self.closed:
            return
        with contextlib.suppress(RuntimeError):   # the loop is closed: the session ended meanwhile
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def later(self, seconds: float, work: Callable[[], None]) -> None:
        """Run ``work`` on the loop after ``seconds`` (from any thread)."""
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(loop.call_later, seconds, work)

    def spawn(self, work: Callable[[], None]) -> bool:
        """Run ``work`` on a worker thread, kept until it ends (False: not open, nothing run)."""
        if self.loop is None:
            return False
        task = self.loop.create_task(asyncio.to_thread(work))
        self._work.add(task)
        task.add_done_callback(self._work.discard)
        return True

    async def settle(self) -> None:
        """Wait for the work under way on worker threads (ratings, a replay's review)."""
        while self._work:
            await asyncio.gather(*self._work, return_exceptions=True)

    def __repr__(self) -> str:
        return f"Inbox(open={self.loop is not None}, closed={self.closed}, work={len(self._work)})"


class Session:
    """Runs one board's Table on the loop: the web page and the console talk to it through events and
    commands. ``opponent`` replaces the built-in engine (tests); ``sensor_log`` gets every input; ``speaker``
    replaces espeak-ng as the voice when ``config.speech`` is on (tests record what it would say)."""

    def __init__(self, config: Config, sensors: BoardDevice, leds: BoardDevice | LedOutput,
                 journal_dir: Path | None = None, *, opponent: Opponent | None = None,
                 clock: Clock | None = None, sensor_log: SensorLogWriter | None = None,
                 speaker: Speaker | None = None) -> None:
        self.config = config
        self.sensors = sensors
        self.device: BoardDevice = sensors
        """The board, as the Table's Ports name it."""
        self.leds = leds
        self.clock = clock or MonotonicClock()
        self.journal_dir = Path(journal_dir) if journal_dir is not None else None
        self.journal = Journal(self.journal_dir) if self.journal_dir is not None else None
        self._last_view: dict[str, Any] | None = None
        self._subscribers: list[asyncio.Queue[ev.Event]] = []
        self.inbox = Inbox()
        self._tasks: list[asyncio.Task[None]] = []
        self.engines = Engines(config, post=self.inbox.put_threadsafe, later=self.inbox.later,
                               on_progress=self._progressed, opponent=opponent)
        self.fresh_engine = self.engines.fresh_try
        """The Ports' fresh start for a failed external engine, at a new game."""
        self.table = Table(config, self, clock=self.clock, journal=self.journal, data_dir=self.journal_dir,
                           sensor_log=sensor_log, can_fail=_can_fail(sensors))
        self.controller: Controller = self.table.controller
        self.health: BoardHealth = self.table.health
        self.lessons: LessonDesk = self.table.lessons
        self.speech = Speech(config, speaker, self._cannot_speak) if config.speech else None
        """The board's voice (None with speech off)."""
        self._heard: asyncio.Queue[ev.Event] | None = None

    # --- Ports: what the Table needs of the world -------------------------------------------------
    def show(self, frame: LedFrame) -> None:
        """A frame to the board at the configured brightness. A frame for a game of another size waits until
        the simulated board has taken that size."""
        if (frame.rows, frame.cols) == (self.sensors.rows, self.sensors.cols):
            self.leds.show(frame.dimmed(self.config.brightness))

    def emit(self, event: ev.Event) -> None:
        for queue in self._subscribers:
            queue.put_nowait(event)

    def request_engine(self, job: EngineJob) -> None:
        if self.inbox.loop is not None:
            self.engines.play(job, self.controller.settings.opponent)

    def consult(self, board: Board, level: int, seconds: float,
                then: Callable[[WorkerResult | None], None]) -> None:
        if self.inbox.loop is not None:
            self.engines.consult(board, level, seconds, then)

    def run_in_background(self, work: Work[T], then: Callable[[T], None]) -> StopFlag:
        """Run ``work(report, stop)`` on a worker thread; each ``report(value)`` reaches ``then(value)``
        through the queue, in order with the board's input (``idle()`` waits for the work). Returns its stop
        flag."""
        stop = threading.Event()

        def report(value: T) -> None:
            self.inbox.put_threadsafe(Answered(then, value))

        if not self.inbox.spawn(lambda: work(report, stop)):
            stop.set()
        return stop

    # --- lifecycle ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume the journaled game (or start a new one) and begin handling snapshots and commands."""
        self.inbox.open()
        journaled = None
        if self.journal is not None and self.journal_dir is not None:
            notices = prepare(self.journal_dir)
            opened = self.journal.open()
            journaled = opened.state
            message = opened.message()
            if message is not None:
                notices.append(Notice("error" if opened.repair_failed else "warning", message))
            for notice in notices:
                log.log(logging.INFO if notice.level == "info" else logging.WARNING, "%s", notice.text)
                self.controller.say(notice.text, notice.level)
        self.table.begin(journaled, self.clock.now())
        if self.speech is not None:
            self._heard = self.subscribe()
            self._tasks.append(asyncio.create_task(self._speak(self._heard), name="session-speech"))
            self.speech.start()
        self.sensors.on_snapshot(self.inbox.put)
        self.sensors.on_link(lambda connected: self.inbox.put(LinkChanged(connected)))
        self.sensors.on_status(self.inbox.put)                      # health: the link's state
        self._tasks += [asyncio.create_task(self._run(), name="session-run"),
                        asyncio.create_task(self._ticker(), name="session-tick")]
        self.sensors.start()
        self.table.tick(self.clock.now())
        await self.inbox.settle()
        self._send_view()

    async def stop(self) -> None:
        """Stop handling input, close the journal and the engines."""
        self.engines.stopping = self.inbox.closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await self.inbox.settle()
        if self.speech is not None:
            await asyncio.to_thread(self.speech.close)
        if self.journal is not None:
            self.journal.close()
        await asyncio.to_thread(self.engines.close)

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

    async def send(self, command: cmd.Command) -> asyncio.Future[cmd.CommandOutcome]:
        """Queue a command; it is handled in order with the board's snapshots. The future returned gives its
        CommandOutcome once handled (done, refused with the reason, failed with the reason)."""
        inbox = self.inbox
        assert inbox.queue is not None and inbox.loop is not None, "the session is not started"
        sent = _Sent(command, inbox.loop.create_future())
        await inbox.queue.put(sent)
        return sent.outcome

    def view(self) -> dict[str, Any]:
        """What the page shows, JSON-ready (the ViewChanged payload: ``Table.view``)."""
        return self.table.view()

    @property
    def simulated(self) -> SimulatedDevice | None:
        """The simulated board, when the session runs on one (the virtual board of the web page)."""
        return self.table.simulated

    @property
    def broadcast_place(self) -> BroadcastPlace | None:
        """Where the board stands in the hall, when it broadcasts (the Table keeps it)."""
        return self.table.broadcast_place

    @property
    def ratings_path(self) -> Path | None:
        """The ratings database, ``ratings.sqlite3`` in the data directory (None without one)."""
        return self.table.rating.path

    def pdn(self) -> str:
        """The game so far as PDN text (Result ``*`` while it is in progress)."""
        return self.controller.pdn()

    def position(self, square: str | None = None) -> Phrase:
        """The position in words: each side's squares, kings named, and whose turn it is; with a ``square``
        (as the variant names it), what is on it and where it may go, as a tap on it says (raises
        ``InvalidSquareError`` naming the text for one that is not a playing square)."""
        if square is None:
            return position_of(self.controller)
        return piece_words(self.controller, self.controller.map.cell_of(square))

    async def idle(self) -> None:
        """Wait until every queued input has been handled (for tests and scripts)."""
        assert self.inbox.queue is not None
        await self.inbox.queue.join()
        await self.inbox.settle()
        if self._heard is not None:
            await self._heard.join()

    # --- the voice -----------------------------------------------------------------------------------
    async def _speak(self, heard: asyncio.Queue[ev.Event]) -> None:
        """Hand every event to the voice, in order (the Speaker's own thread does the speaking)."""
        assert self.speech is not None
        while True:
            event = await heard.get()
            try:
                self.speech.hear(event)
            except Exception:
                log.exception("the voice failed on %r", event)
            finally:
                heard.task_done()

    def _cannot_speak(self, reason: str) -> None:
        """From the Speaker's thread: the board cannot speak; said once, on the loop; the game plays on."""
        said = phrase("The board cannot speak ({reason}): the game goes on without its voice.", reason=reason)
        self.inbox.put_threadsafe(Answered(lambda text: self.controller.say(text, "warning"), said))

    # --- the loop -----------------------------------------------------------------------------------
    def _progressed(self, token: int, progress: WorkerProgress) -> None:
        self.table.engine_progress(token, progress)
        self._send_view()

    def _send_view(self) -> None:
        """Send ViewChanged when the page's view differs from the last one sent (the one mechanism)."""
        if not self._subscribers:
            self._last_view = None
            return
        view = self.view()
        if view != self._last_view:
            self._last_view = view
            self.emit(ev.ViewChanged(view))

    async def _ticker(self) -> None:
        queue = self.inbox.queue
        assert queue is not None
        while True:
            await asyncio.sleep(TICK_SECONDS)
            due = self.table.next_deadline()
            if due is not None and due <= self.clock.now():
                await queue.put(None)

    async def _run(self) -> None:
        queue = self.inbox.queue
        assert queue is not None
        while True:
            item = await queue.get()
            sent = item if isinstance(item, _Sent) else None
            error: Exception | None = None
            failed_saves = len(self.controller.save_errors)
            try:
                self._hand_to_table(item)
            except ControllerError as exc:   # Refused (the person's mistake), or ours and known (a save)
                error = exc
                self.controller.say(str(exc), "error")
            except Exception as exc:
                error = exc
                log.exception("session failed handling %r", sent.command if sent else item)
            finally:
                self._send_view()
                queue.task_done()
                if sent is not None and not sent.outcome.done():
                    outcome = cmd.CommandOutcome.of(error)
                    if outcome.status == "done" and len(self.controller.save_errors) > failed_saves:
                        outcome = cmd.CommandOutcome("failed", self.controller.save_errors[-1].reason)
                    sent.outcome.set_result(outcome)

    def _hand_to_table(self, item: _Item) -> None:
        table, now = self.table, self.clock.now()
        if item is None:
            table.tick(now)
        elif isinstance(item, Occupancy):
            table.feed(item.squares, now)
        elif isinstance(item, _Sent):
            table.command(item.command, now)
        elif isinstance(item, EngineAnswer):
            self.engines.flush_progress()   # the search's last iteration is shown before its move
            table.engine_answered(item, now)
        elif isinstance(item, Answered):
            table.answered(item.then, item.value, now)
        elif isinstance(item, LinkChanged):
            table.link(item.connected, now)
        else:
            table.link_status(item, now)

    def __repr__(self) -> str:
        return f"Session({self.table!r})"


def _can_fail(sensors: BoardDevice) -> bool:
    """A board's sensors can fail unless it is a simulated board with no switch matrix (whose faults tests
    plant): that one reads exactly the pieces put on it."""
    return not isinstance(sensors, SimulatedDevice) or sensors.matrix is not None
