"""The board's health as the person hears of it: its link, its sensors and wires, and how to play on.

``BoardHealth`` listens to the device (``firmware_bridge``: cells, wires, link states; it knows no rules) and
to the game. When the board has stayed still, disagreeing with the game, for ``sensor_check_ms``, it asks
``firmware_bridge.faults.explain`` which sensor or wiring faults turn the position (or the position after a
legal move) into what the board reads, and says so with the squares' names and wires, lights those squares
on the LEDs and shows them on the page. The person can mask a broken square (page, console, config): the
controller then sees on it whatever makes the board's reading legal, so the game is trusted for it, and a
move the board cannot see (a piece put on a masked square) is confirmed by hand. A chattering square is held
at its settled reading. The Table owns one: it hands it each reading, asks it what the game should see,
and overlays its fault squares on the one frame that leaves the Table. It reads the game through
``GameFacts`` (controller/host.py) and never calls the Controller.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from firmware_bridge.clock import Clock
from firmware_bridge.faults import FaultKind, SensorFault, SensorHistory, WireMap, explain
from firmware_bridge.selftest import BoardTest, BoardTestReport
from firmware_bridge.types import Cell, LedFrame, Light, LinkStatus, Pattern, Rgb

from .errors import Refused
from .inference import MoveShape
from .state_names import GAME_OVER, SETUP

if TYPE_CHECKING:
    from .host import GameFacts

Say = Callable[[str, str], None]
FAULT_LIGHT = Light(Rgb(255, 0, 255), Pattern.FAST_BLINK)
"""A square whose sensor or wire is at fault: magenta, fast (no hint uses it)."""
MAX_CHOICES = 6
"""Masked squares a move can involve that are tried both ways (2**6 readings at most)."""
SET_UP_SHARE = 0.75
"""While the board is rearranged (a set-up, pieces put back after a takeback) the sensors are examined only
once this share of the position reads, and only one fault explaining the rest is named: a person needs
seconds to move the pieces, and a board half done is no broken board."""


class BoardHealth:
    """What the person must know about the board itself (not the game), and what lets the game go on.

    ``wires`` names each square's row and column wire; ``masked`` names the squares not believed (the config's
    ``masked_squares``); ``check_after``: seconds of stillness before a disagreement is examined.
    """

    def __init__(self, game: GameFacts, *, say: Say, wires: WireMap, clock: Clock, masked: str = "",
                 check_after: float = 5.0, can_fail: bool = True) -> None:
        self.game = game
        self.can_fail = can_fail
        """Whether the board has sensors and wires that can fail (not a simulated board's pieces, which only
        software moves: a disagreement there is never a fault's)."""
        self._say = say
        self.wires = wires
        self.clock = clock
        self.check_after = check_after
        now = clock.now()
        self.sensors = SensorHistory()
        self.link: LinkStatus | None = None      # None: a board wired to the host, no link to watch
        self.raw: frozenset[Cell] = frozenset()
        self.faults: list[tuple[SensorFault, float]] = []     # with the time each was found
        self.masked = {self.cell(name, "masked_squares") for name in masked.replace(",", " ").split()}
        self._hidden: tuple[MoveShape, ...] = ()   # moves onto a masked square the board may be showing
        self._unseen: tuple[MoveShape, ...] = ()   # moves a dead-looking square may have hidden
        self._told: tuple[str, ...] = ()
        self._still_since = now
        self._checked = False
        self._epoch = now                          # since when the game expects what it expects now
        self._game = self._game_key()
        self.test: BoardTest | None = None          # the self-test the page runs (the game waits meanwhile)
        self.test_report: BoardTestReport | None = None

    def rewired(self, wires: WireMap) -> None:
        """The simulated board took another size for a new game: what was read of the old one is forgotten."""
        self.wires = wires
        self.sensors = SensorHistory()
        self.raw = frozenset()
        self.faults = []

    # --- names -------------------------------------------------------------------------------------------
    def name(self, cell: Cell) -> str:
        """A square's name in the variant's notation (``r3c4`` off the playing squares)."""
        return self.game.map.name(cell)

    def names(self, cells: Iterable[Cell]) -> str:
        return ", ".join(self.name(c) for c in sorted(cells))

    def cell(self, text: str, where: str = "square") -> Cell:
        """The cell a person names: a square in the variant's notation, or ``r3c4``."""
        ctl = self.game
        rows, cols = ctl.variant.height, ctl.variant.width
        if match := re.fullmatch(r"r(\d+)c(\d+)", text.strip().lower()):
            cell = (int(match[1]), int(match[2]))
            if cell[0] < rows and cell[1] < cols:
                return cell
            raise Refused(f"{where}: {text!r} is outside the {rows}x{cols} board")
        try:
            return ctl.map.cell_of(text)
        except ValueError:
            raise Refused(f"{where}: {text!r} is neither a square of {ctl.variant.name} nor rROWcCOL "
                             f"(like r3c4)") from None

    # --- readings ----------------------------------------------------------------------------------------
    def reading(self, raw: frozenset[Cell], now: float) -> frozenset[Cell]:
        """A new reading from the board; returns what the controller should see."""
        if raw != self.raw:
            self._still_since, self._checked, self._unseen = now, False, ()
        for cell in self.sensors.note(raw, now):
            self._found([SensorFault(FaultKind.CHATTER, (cell,), *_wires_of(self.wires, cell))], now)
        self.raw = raw
        return self.trusted(now)

    def trusted(self, now: float) -> frozenset[Cell]:
        """The reading as the controller should see it: chattering squares settled, masked squares trusted."""
        return self._trusting(self.sensors.steady(self.raw, now))

    def _trusting(self, reading: frozenset[Cell]) -> frozenset[Cell]:
        """Each masked square read as whatever makes the reading legal: the position itself first, then the
        one move whose piece visibly landed, then a move under way. A move that lands on a masked square
        cannot be told from a piece in the hand, and two moves that land alike from masked squares cannot be
        told apart: those are kept for the person to confirm (``unseen``), never chosen."""
        ctl, masked = self.game, self.masked
        self._hidden = ()
        if not masked:
            return reading
        exp = ctl.exp
        kept = reading - masked
        trusted = kept | (exp.base & masked)
        if ctl.turn_state in (SETUP, GAME_OVER) or not exp.shapes:
            return trusted
        involved = set(exp.base)
        for shape in exp.shapes:
            involved |= shape.passes | set(shape.captures)
        choices = sorted(masked & involved)[:MAX_CHOICES]
        fixed = (masked - set(choices)) & exp.base
        options = [kept | fixed | set(on) for n in range(len(choices) + 1)
                   for on in itertools.combinations(choices, n)]
        readings = [(exp.read(frozenset(o)), frozenset(o)) for o in options]
        for read, option in readings:
            if read.kind == "rest":
                return option
        complete = tuple(s for r, _ in readings if r.kind == "complete" for s in r.complete)
        landed = [(r, o) for r, o in readings if r.kind == "complete"
                  and any(s.target not in masked for s in r.complete)]
        if len({s for r, _ in landed for s in r.complete}) == 1:
            return landed[0][1]
        self._hidden = complete
        if landed:                            # several moves fit what the board shows: the person says which
            return trusted
        for read, option in readings:
            if read.kind == "partial":
                return option
        return trusted

    @property
    def unseen(self) -> tuple[MoveShape, ...]:
        """Moves the person may have made that the board cannot show: the page offers to confirm them."""
        shapes = self.game.exp.shapes
        found = set(self._hidden + self._unseen)
        return tuple(s for s in shapes if s in found)

    # --- after every input -------------------------------------------------------------------------------
    def follow(self, now: float) -> frozenset[Cell] | None:
        """After an input: the reading the game should see now, when it differs from what it saw (masked
        squares after the game moved on); None when it is current, or while the self-test has the board (whose
        time this is). The Table feeds it and asks again: a reading may commit a move."""
        if self.test is not None:
            self.test_tick(now)
            return None
        key = self._game_key()
        if key != self._game:
            self._game, self._epoch, self._checked, self._unseen = key, now, False, ()
            self._still_since = max(self._still_since, now)
            self.sensors.moved(now)
        trusted = self.trusted(now)
        return None if trusted == self.game.occupancy else trusted

    def after_input(self, now: float) -> None:
        """Once the game has seen the board: look for faults when it has been still long enough, and offer
        the moves it cannot show."""
        if self.test is not None:
            return
        if self._due() and now - self._still_since >= self.check_after:
            self._examine(now)
        self._tell_unseen()
        self._recover(now)

    def next_deadline(self) -> float | None:
        """When the board will have been still long enough to be examined, or a chattering square settled
        (during the self-test: at once, for its LED walk and timeouts)."""
        if self.test is not None:
            return self.clock.now()
        times = [self.sensors.next_deadline(self.raw)]
        if self._due():
            times.append(self._still_since + self.check_after)
        return min((t for t in times if t is not None), default=None)

    def _game_key(self) -> tuple[int, int, bool]:
        """Changes whenever the game the board is expected to show does: a new game, a ply, a takeback."""
        ctl = self.game
        return id(ctl.record), len(ctl.records), ctl.turn_state == SETUP

    def _due(self) -> bool:
        """The board disagrees with the game and has not been examined since it last changed."""
        return self.can_fail and not self._checked and self._unsettled()

    def _unsettled(self) -> bool:
        ctl = self.game
        return ctl.turn_state != GAME_OVER and ctl.occupancy != ctl.exp.base

    def _examine(self, now: float) -> None:
        """The board is still and disagrees with the game: which faults explain it? Against the position
        first; then against each legal move (a stuck origin that did not see its piece leave; a landing square
        that did not see it arrive: those moves are offered for confirmation, never blamed on a square).
        While the board is rearranged (a set-up, a position to restore) only as ``_rearranged`` allows;
        mid-game, a reading that is a legal move under way is never blamed on the board."""
        self._checked = True
        ctl, masked = self.game, self.masked
        exp = ctl.exp
        reading = self.sensors.steady(self.raw, now) - masked
        expected = exp.base - masked
        every = [(r, c) for r in range(self.wires.rows) for c in range(self.wires.cols)]
        frozen = self.sensors.unchanged_since(self._epoch, every)
        if ctl.rearranging:
            # at set-up the LEDs have asked for these squares the whole time
            self._rearranged(reading, expected, every if ctl.turn_state == SETUP else frozen, now)
            return
        # a legal reading is a move under way, unless what differs never changed (a dead landing square
        # after a confirmed move reads like a capture begun by taking the captured piece off)
        legal = exp.read(ctl.occupancy).kind != "none" and not (ctl.occupancy ^ exp.base) <= frozen
        found = None if legal else explain(reading, expected, self.wires, frozen=frozen)
        if found is not None:
            self._found(found, now)
            return
        by_move = [(s, f) for s in exp.shapes
                   if (f := explain(reading, s.result - masked, self.wires, frozen=frozen))]
        if not by_move:
            return
        fewest = min(len(f) for _, f in by_move)
        best = [(s, f) for s, f in by_move if len(f) == fewest]
        if len(best) == 1 and not legal and any(x.kind is not FaultKind.DEAD for x in best[0][1]):
            self._found(best[0][1], now)      # one move explains it, by a square that did not see it leave
        else:
            self._unseen = tuple(s for s, _ in best)   # the person says which; then the square is named

    def _rearranged(self, reading: frozenset[Cell], expected: frozenset[Cell], frozen: Iterable[Cell],
                    now: float) -> None:
        """The person is putting the pieces where the LEDs ask (a set-up, a takeback): name a fault only
        when most of the position stands and one fault alone explains what still differs (a square that
        stays wrong while the rest is right); several are a board still being rearranged."""
        if len(reading & expected) < SET_UP_SHARE * len(expected):
            return
        faults = explain(reading, expected, self.wires, frozen=list(frozen)) or []
        if len(faults) == 1:
            self._found(faults, now)

    def _found(self, faults: Iterable[SensorFault], now: float) -> None:
        known = {(f.kind, f.cells) for f, _ in self.faults}
        for fault in faults:
            if (fault.kind, fault.cells) in known:
                continue
            self.faults.append((fault, now))
            self._say(self.sentence(fault), "warning")

    def remedy(self, fault: SensorFault) -> frozenset[Cell]:
        """The squares to mask to play on: a broken line's playing squares (it reads nothing); the squares
        of touching or crossed lines that are not played on (a piece on one line shows on the other); else
        the squares that read wrongly. None for chatter: the board waits for a chattering square itself."""
        if fault.kind is FaultKind.CHATTER:
            return frozenset()
        if fault.kind in (FaultKind.STUCK, FaultKind.DEAD, FaultKind.GHOST):
            return frozenset(fault.cells)
        playing = self.game.map.playing()
        to_wiring = self.wires.to_wiring        # a line fault names rows or columns, never both
        lines = [(r, c) for r in range(self.wires.rows) for c in range(self.wires.cols)
                 if to_wiring((r, c))[0] in fault.rows or to_wiring((r, c))[1] in fault.cols]
        if fault.kind in (FaultKind.OPEN_ROW, FaultKind.OPEN_COLUMN):
            return frozenset(c for c in lines if c in playing)
        return frozenset(c for c in lines if c not in playing) | frozenset(fault.cells)

    def sentence(self, fault: SensorFault) -> str:
        """The fault in plain words, and how to play on."""
        text = fault.describe(self.name, self.wires)
        cells = sorted(self.remedy(fault) - self.masked)
        if not cells:
            return text
        names = " ".join(self.name(c) for c in cells)
        return (f"{text} To play on, mask {self.names(cells)}: the Mask button on the page, or "
                f"`mask {names}` at the console; moves landing there are then confirmed by hand.")

    def _tell_unseen(self) -> None:
        texts = tuple(s.text for s in self.unseen)
        if texts == self._told or not texts:
            self._told = texts
            return
        self._told = texts
        how = f"(the Confirm button on the page, or `confirm {texts[0]}` at the console)"
        hidden = [s for s in self.unseen if s in self._hidden]
        moves = " or ".join(s.text for s in hidden)
        targets = {s.target for s in hidden}
        if hidden and targets <= self.masked:
            self._say(f"The board cannot see a piece on {self.names(targets)} (masked): if you put it there, "
                      f"confirm {moves} {how}.", "info")
        elif hidden:
            self._say(f"The board cannot see which piece moved (masked squares): {moves}? Confirm it {how}.",
                      "info")
        else:
            self._say(f"The board cannot tell which move was made (a sensor seems not to see it): "
                      f"{' or '.join(texts)}? Confirm it {how}.", "info")

    def _recover(self, now: float) -> None:
        """Forget a fault once its squares have changed since it was found and read as the game says."""
        ctl = self.game
        if ctl.turn_state in (SETUP, GAME_OVER) or ctl.occupancy != ctl.exp.base:
            return
        base = ctl.exp.base
        self.faults = [(f, t) for f, t in self.faults
                       if self.sensors.unchanged_since(t, f.cells)
                       or any((c in self.raw) != (c in base) for c in f.cells)]

    # --- the self-test, from the page ----------------------------------------------------------------------
    def board_test(self, action: str, text: str, now: float) -> None:
        """Start, answer or stop the board's guided self-test (firmware_bridge.selftest)."""
        if action == "start":
            rows, cols = self.wires.rows, self.wires.cols
            every = [(r, c) for r in range(rows) for c in range(cols)]
            self.test = BoardTest(rows, cols, every, self.wires, pieces=max(1, (rows - 2) * cols // 2),
                                  go_on="click Next")
            self.test_report = None
            self.test.start(now)
            self.test.reading(self.raw, now)
            self._say("Board test: follow the LEDs and the page; the game waits meanwhile.", "info")
        elif self.test is None:
            raise Refused("no board test is running")
        elif action == "answer":
            self.test.answer(text, now)
        else:
            self._end_test(stopped=True)
        self.test_tick(now)

    def test_tick(self, now: float) -> None:
        """Time passes (or a reading came) during the self-test: its LEDs, and its end."""
        test = self.test
        if test is None:
            return
        test.reading(self.raw, now)
        test.tick(now)
        if test.done:
            self._end_test(stopped=False)

    def _end_test(self, stopped: bool) -> None:
        assert self.test is not None
        self.test_report, self.test = self.test.report(), None
        found = len(self.test_report.faults) + len(self.test_report.dark_leds)
        self._say(f"Board test {'stopped' if stopped else 'finished'}: {found or 'no'} "
                  f"{'fault' if found == 1 else 'faults'} found (the page lists them).", "info")

    @property
    def testing(self) -> bool:
        return self.test is not None

    # --- LEDs --------------------------------------------------------------------------------------------
    def leds(self) -> LedFrame | None:
        """What the board's LEDs should show: the self-test's frame while it runs, else the game's frame with
        the squares at fault lit (None before the game has lit anything)."""
        if self.test is not None:
            return self.test.frame
        return self.overlay(self.game.frame) if self.game.frame is not None else None

    def overlay(self, frame: LedFrame) -> LedFrame:
        """``frame`` with the squares at fault lit magenta (masked ones stay as the game lights them);
        the self-test's frames are shown as they are."""
        lit = self._fault_cells()
        if not lit or self.test is not None:
            return frame
        lights = frame.as_dict()
        lights.update(dict.fromkeys(lit, FAULT_LIGHT))
        return LedFrame.of(frame.rows, frame.cols, lights)

    def _fault_cells(self) -> frozenset[Cell]:
        return frozenset(c for f, _ in self.faults for c in f.cells if c not in self.masked)

    # --- the person's answers ------------------------------------------------------------------------------
    def mask(self, cells: Iterable[Cell], masked: bool = True) -> None:
        """Stop (or resume) believing the sensors of ``cells``."""
        ctl = self.game
        cells = set(cells)
        for r, c in cells:
            if not (0 <= r < ctl.variant.height and 0 <= c < ctl.variant.width):
                raise Refused(f"({r}, {c}) is outside the {ctl.variant.height}x{ctl.variant.width} board")
        if masked:
            self.masked |= cells
            them = "them" if len(cells) > 1 else "it"
            self._say(f"Masked {self.names(cells)}: the game is trusted for {them}; a move that lands there "
                      f"is confirmed by hand.", "info")
        else:
            self.masked -= cells
            self._say(f"{self.names(cells)} {'are' if len(cells) > 1 else 'is'} read again.", "info")
        self._checked = False

    # --- the link (serial boards) ----------------------------------------------------------------------
    def link_status(self, status: LinkStatus) -> None:
        """The device's link changed state: tell the person what it means for the game."""
        before, self.link = self.link, status
        if before is not None and before.port != status.port:
            self._say(f"The board is now on {status.port} (it was {before.port}).", "info")
        if before is not None and (before.state, before.reason) == (status.state, status.reason):
            return
        if status.state == "not responding" and (before is None or before.state != "connected"):
            self._say(_not_responding(status), "warning")   # a connected board's drop is told by drop_message
        elif status.ok and before is not None and before.state == "not responding" \
                and not self.game.board_lost:
            self._say(f"The board answers again on {status.port}.", "info")

    def drop_message(self, connected: bool) -> str | None:
        """The sentence for a link that dropped because the board stopped answering (None: the usual one)."""
        if connected or self.link is None or self.link.state != "not responding":
            return None
        return _not_responding(self.link)

    @property
    def link_ok(self) -> bool:
        """Whether the board answers (always, for a board wired to the host)."""
        return self.link is None or self.link.ok

    # --- the page ------------------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """What the page shows of the board's health (merged into the Session's state)."""
        link = None if self.link is None else {"state": self.link.state, "port": self.link.port,
                                                "reason": self.link.reason}
        faults = [f.to_json() | {"text": self.sentence(f), "squares": [self.name(c) for c in f.cells],
                                 "mask": [list(c) for c in sorted(self.remedy(f))]}
                  for f, _ in self.faults]
        test = self.test
        return {"board_link": link,
                "board_health": {"faults": faults, "masked": [list(c) for c in sorted(self.masked)],
                                 "masked_names": [self.name(c) for c in sorted(self.masked)],
                                 "unseen": [s.text for s in self.unseen],
                                 "chatter": self.sensors.chatter_count},
                "board_test": {"running": test is not None, "phase": test.phase if test else None,
                               "prompt": test.prompt if test else "",
                               "detail": test.detail if test else "",
                               "asks": test.awaiting_answer if test else False,
                               "report": self.test_report.to_json(self.wires) if self.test_report else None}}

    def __repr__(self) -> str:
        return (f"BoardHealth(link={self.link.state if self.link else 'wired'}, "
                f"faults={[f.kind.value for f, _ in self.faults]}, masked={sorted(self.masked)})")


def _wires_of(wires: WireMap, cell: Cell) -> tuple[tuple[int], tuple[int]]:
    r, c = wires.to_wiring(cell)
    return (r,), (c,)


def _not_responding(status: LinkStatus) -> str:
    """The sentence for a board that does not answer: what was seen, and what to check."""
    text = f"The board is not responding on {status.port}: {status.reason}."
    if "wrong speed or firmware" in status.reason:
        return (text + " Check that the profile's serial.baud matches the firmware (115200) and that the "
                       "board runs the draughts-board firmware; it is tried again meanwhile.")
    return text + " Reconnecting; moves made meanwhile are read when it answers."
