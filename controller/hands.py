"""Human hands on the simulated board: gestures around an intended legal move, and what the board made of it.

``Hands`` drive a ``SimulatedDevice`` that feeds a Table on one ``ManualClock``, as a board feeds the
Session's: raw contact edges are debounced into readings, and the Table's timers fire when they fall due.
``storm`` composes a gesture around a legal move the person means (slides brushing corner sensors, knocks,
contact flickers, pauses, touch-downs on landing squares, captured pieces taken off by a second hand, a
change of mind, a knock put back before the real move) and ``Trial.outcome`` judges it: the intended move
recorded, the board asking, a wrong move recorded, or nothing sensible (stuck).
Used by the tests and bench/storm.py.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TextIO, TypeVar

from firmware_bridge.clock import ManualClock
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.types import Cell
from rules import Board, Color, get_variant

from .config import Config
from .consult import EngineAnswer
from .inference import Expectation, MoveShape, trace
from .machine import Controller
from .offline import OfflinePorts
from .sensorlog import SensorLogWriter
from .settings import EngineJob, GameSettings
from .states import PERSON_AMBIGUOUS
from .table import Table

T = TypeVar("T")

Verdict = Literal["intended", "asked", "wrong", "stuck"]
VERDICTS: tuple[Verdict, ...] = ("intended", "asked", "wrong", "stuck")


class Chooser(Protocol):
    """Where a storm's choices come from: a seeded ``random.Random`` (the bench) or hypothesis (the tests)."""

    def chance(self, p: float) -> bool: ...
    def pick(self, items: Sequence[T]) -> T: ...
    def between(self, low: float, high: float) -> float: ...


class RandomChooser:
    """Choices from a seeded ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def between(self, low: float, high: float) -> float:
        return round(self.rng.uniform(low, high), 3)

    def __repr__(self) -> str:
        return f"RandomChooser({self.rng!r})"


@dataclass(frozen=True)
class Step:
    """One physical action: ``lift``/``place`` a cell, ``wait`` seconds, ``knock`` a cell for seconds (its
    contact flips and flips back), ``flicker`` a cell (``edges`` pairs of 1 ms contact chatter)."""

    verb: str
    cell: Cell | None = None
    seconds: float = 0.0
    edges: int = 0
    move: str = ""

    def text(self, name: Callable[[Cell], str]) -> str:
        """The step in words, squares by their names (``lift 32``, ``wait 0.25``, ``knock 19 0.04``)."""
        if self.verb == "wait":
            return f"wait {self.seconds:g}"
        if self.verb == "answer":
            return f"the engine answers {self.move}"
        assert self.cell is not None
        if self.verb == "knock":
            return f"knock {name(self.cell)} {self.seconds:g}"
        if self.verb == "flicker":
            return f"flicker {name(self.cell)} {self.edges}"
        return f"{self.verb} {name(self.cell)}"


class Hands:
    """A person's hands on a simulated board that feeds a Table, on one ManualClock: contact edges debounced
    into readings in order, the Table's timers fired when due. ``on_snapshot`` sees every reading first."""

    def __init__(self, table: Table, clock: ManualClock, *, debounce: float = 0.03,
                 on_snapshot: Callable[[float, frozenset[Cell]], None] | None = None,
                 jobs: Sequence[EngineJob] = ()) -> None:
        self.table = table
        self.jobs = jobs
        """The engine requests the Table made (its OfflinePorts' ``jobs``): an ``answer`` step answers the
        newest."""
        self.ctl = table.controller
        self.clock = clock
        self.device = SimulatedDevice(self.ctl.map.rows, self.ctl.map.cols, debounce=debounce, clock=clock,
                                      auto_settle=False)
        self._listener = on_snapshot
        self.device.on_snapshot(lambda occ: self._feed(occ.squares))

    def _feed(self, squares: frozenset[Cell]) -> None:
        if self._listener is not None:
            self._listener(self.clock.now(), squares)
        self.table.feed(squares, self.clock.now())

    def set_up(self, squares: frozenset[Cell]) -> None:
        """Every piece where ``squares`` says, at once (one snapshot)."""
        self.device.set_occupancy(squares)
        self.wait(0.0)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass: debounced changes and the Table's timers fire in time order."""
        target = self.clock.now() + seconds
        for _ in range(10_000):
            due = self.table.next_deadline()
            step_to = target if due is None or due > target else max(due, self.clock.now())
            self.device.advance(step_to - self.clock.now())
            self.table.tick(self.clock.now())
            if step_to >= target:
                return
        raise RuntimeError(f"the Table's timers never settled ({self.table!r})")

    def do(self, step: Step) -> None:
        """Carry out one physical action."""
        device = self.device
        if step.verb == "wait":
            self.wait(step.seconds)
            return
        if step.verb == "answer":
            job = self.jobs[-1]
            self.table.engine_answered(EngineAnswer(job.token, job.board.parse_move(step.move)),
                                       self.clock.now())
            return
        assert step.cell is not None
        if step.verb == "lift":
            device.lift(step.cell, bounce=0)
        elif step.verb == "place":
            device.place(step.cell, bounce=0)
        elif step.verb == "knock":
            closed = device.raw_closed(step.cell)
            (device.lift if closed else device.place)(step.cell, bounce=0)
            self.wait(step.seconds)
            (device.place if closed else device.lift)(step.cell, bounce=0)
        elif step.verb == "flicker":
            device.noise(step.cell, edges=step.edges)
        else:
            raise ValueError(f"unknown gesture {step.verb!r}")

    def __repr__(self) -> str:
        return f"Hands({self.table!r}, debounce={self.device.debounce})"


def offline_table(config: Config, clock: ManualClock, settings: GameSettings) -> Table:
    """A Table with no engine and no board of its own (the hands bring theirs), as a storm trial needs."""
    return Table(config, OfflinePorts(clock), clock=clock, settings=settings, can_fail=False)


@dataclass
class Trial:
    """One storm trial: the position, the move the person meant, the gesture, and what was recorded."""

    variant: str
    fen: str
    meant: list[str]
    steps: list[str] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)
    state: str = ""
    candidates: list[str] = field(default_factory=list)
    outcome: Verdict = "stuck"

    def __repr__(self) -> str:
        return (f"Trial({self.variant} {self.fen!r}: meant {self.meant}, recorded {self.recorded}, "
                f"{self.state}, {self.outcome}; {', '.join(self.steps)})")


def judge(meant: list[str], recorded: list[str], state: str, candidates: list[str]) -> Verdict:
    """The oracle: the moves meant recorded, or the board asking (the move meant among the candidates it
    offers) - never a silent wrong move. Anything else is stuck."""
    if recorded == meant and not state.startswith(("out_of_sync", "setup")):
        return "intended"
    if len(recorded) > len(meant) or recorded != meant[:len(recorded)]:
        return "wrong"
    if not recorded and state == PERSON_AMBIGUOUS and meant[0] in candidates:
        return "asked"
    return "stuck"


class _Gesture:
    """Builds the steps of one gesture around an intended move (see ``storm``)."""

    def __init__(self, ctl: Controller, choose: Chooser) -> None:
        self.ctl = ctl
        self.choose = choose
        self.exp = ctl.exp
        self.playing = ctl.map.playing()
        self.occ = set(ctl.exp.base)
        self.steps: list[Step] = []

    # physical bookkeeping
    def add(self, step: Step) -> None:
        self.steps.append(step)
        if step.verb == "lift":
            self.occ.discard(step.cell)
        elif step.verb == "place" and step.cell is not None:
            self.occ.add(step.cell)

    def lift(self, cell: Cell) -> None:
        if cell in self.occ:
            self.add(Step("lift", cell))

    def place(self, cell: Cell) -> None:
        if cell not in self.occ:
            self.add(Step("place", cell))

    def pause(self, low: float = 0.0, high: float = 0.4) -> None:
        self.add(Step("wait", seconds=self.choose.between(low, high)))

    def noise(self) -> None:
        """Now and then: contact chatter somewhere, or an unrelated piece brushed (seen or not)."""
        if self.choose.chance(0.15):
            edges = int(self.choose.between(1, 5))
            self.add(Step("flicker", self.choose.pick(sorted(self.playing)), edges=edges))
        if self.choose.chance(0.1) and self.occ:
            seconds = self.choose.between(0.005, 0.2)
            self.add(Step("knock", self.choose.pick(sorted(self.occ)), seconds=seconds))

    def corners(self, a: Cell, b: Cell) -> list[Cell]:
        """The squares not played on that touch the corner a diagonal step from ``a`` to ``b`` crosses."""
        (r1, c1), (r2, c2) = a, b
        if abs(r1 - r2) != 1 or abs(c1 - c2) != 1:
            return []
        return [cell for cell in ((r1, c2), (r2, c1)) if cell not in self.playing]

    # the parts of a gesture
    def wrong_piece_first(self) -> None:
        """Another own piece lifted first, held a while and put back."""
        own = [sq for sq in sorted(self.occ) if self.exp.own(sq)]
        if own:
            sq = self.choose.pick(own)
            self.lift(sq)
            self.pause(0.05, 1.5)
            self.place(sq)
            self.pause(0.0, 0.3)

    def knock_onto_legal(self, intended: MoveShape) -> None:
        """An own piece knocked onto a square it may legally move to, put back, then (soon) the real move."""
        quiet = [s for s in self.exp.shapes if not s.captures and s.origin != intended.origin
                 and s.target != intended.target]
        if not quiet:
            return
        other = self.choose.pick(quiet)
        self.lift(other.origin)
        self.place(other.target)
        self.pause(0.0, 1.0)
        self.lift(other.target)
        self.place(other.origin)
        if self.choose.chance(0.5):
            self.add(Step("knock", other.origin, seconds=self.choose.between(0.035, 0.08)))
        self.pause(0.0, 0.3)

    def change_of_mind(self, intended: MoveShape) -> Cell:
        """The piece put on another legal square first, then moved on (or put back for another piece's move):
        where the intended piece stands when the real move goes on."""
        same = [s for s in self.exp.shapes if s.origin == intended.origin and s.target != intended.target
                and not s.captures and not intended.captures]
        other = [s for s in self.exp.shapes if s.origin != intended.origin and not s.captures
                 and not intended.captures and s.target != intended.target]
        decoys = same + other
        if not decoys:
            return intended.origin
        decoy = self.choose.pick(decoys)
        self.lift(decoy.origin)
        self.place(decoy.target)
        self.pause(0.05, 1.0)
        self.lift(decoy.target)
        if decoy.origin == intended.origin:
            return decoy.target
        self.place(decoy.origin)
        self.pause(0.0, 0.3)
        return intended.origin

    def carry(self, intended: MoveShape, start: Cell) -> None:
        """The move itself: lift, slide or carry along the path (touching down, resting), the captured pieces
        taken off at any moment by either hand, place. A removal (Konane's opening) is the piece taken off."""
        if intended.move.is_removal:
            self.lift(start)
            self.noise()
            return
        captures = list(intended.captures)
        king = self.exp.pieces[intended.origin][1]
        flying = king and self.ctl.variant.king_flying
        early = [sq for sq in captures if self.choose.chance(0.25)]
        for sq in early:
            self.lift(sq)
            self.noise()
        self.lift(start)
        self.noise()
        style = self.choose.pick(["carry", "slide", "touch-down"])
        path = list(intended.path) if start == intended.origin else [start, intended.target]
        here = start
        for leg_end in path[1:]:
            (r1, c1), (r2, c2) = here, leg_end
            aligned = r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)
            # from a square off the intended line (a change of mind) the piece is carried in the air
            cells = list(trace([here, leg_end])) if aligned else [here, leg_end]
            for a, b in itertools.pairwise(cells):
                if style == "slide":
                    for corner in self.corners(a, b):
                        if self.choose.chance(0.5):
                            self.add(Step("knock", corner, seconds=self.choose.between(0.01, 0.09)))
                if b == leg_end:
                    break
                if b in self.occ or b not in self.playing:
                    continue
                if flying and self.choose.chance(0.2):
                    self.add(Step("flicker", b, edges=int(self.choose.between(1, 6))))   # a reed on the way
                if style == "slide" and self.choose.chance(0.5):
                    self.add(Step("knock", b, seconds=self.choose.between(0.01, 0.12)))
                elif flying and self.choose.chance(0.3):
                    self.place(b)   # a flying king resting on a square it passes (now and then for long)
                    self.pause(0.1, 0.8 if self.choose.chance(0.8) else 2.0)
                    self.lift(b)
                elif self.choose.chance(0.1):
                    self.pause(0.0, 4.0)   # the piece held up, thinking
            if leg_end != intended.target and style == "touch-down" and leg_end not in self.occ:
                self.place(leg_end)
                self.pause(0.05, 0.6)
                self.lift(leg_end)
            for sq in captures:
                if sq in self.occ and self.choose.chance(0.3):
                    self.lift(sq)
                    if self.choose.chance(0.2):   # the captured piece's reed chatters as it comes off
                        self.add(Step("flicker", sq, edges=int(self.choose.between(1, 4))))
            here = leg_end
            self.noise()
        if flying and self.choose.chance(0.15):   # the landing square's reed flickers as the king arrives
            self.add(Step("flicker", intended.target, edges=int(self.choose.between(1, 4))))
        self.place(intended.target)
        if self.choose.chance(0.15):   # the piece straightened on its square
            self.pause(0.0, 0.5)
            self.add(Step("knock", intended.target, seconds=self.choose.between(0.01, 0.3)))
        rest = [sq for sq in captures if sq in self.occ]
        for sq in rest:
            self.pause(0.0, 0.5)
            self.lift(sq)
        if intended.origin == intended.target and intended.target not in self.occ:
            self.place(intended.target)   # a circular capture ends where it began

    def while_thinking(self, answer: MoveShape) -> None:
        """While the computer thinks, the person's hands on the board: a piece of their own lifted (not their
        turn), held and put back, knocked, or a reed chattering; the engine's ``answer`` comes meanwhile,
        now and then while a piece is still in the hand."""
        own = [sq for sq in sorted(self.occ)
               if sq in self.exp.pieces and self.exp.pieces[sq][0] != self.exp.turn]
        answered = False
        for _ in range(int(self.choose.between(0, 3))):
            if own and self.choose.chance(0.6):
                sq = self.choose.pick(own)
                self.lift(sq)
                self.pause(0.05, 2.5)
                if not answered and self.choose.chance(0.3):
                    answered = True
                    self.add(Step("answer", move=answer.text))
                    self.pause(0.0, 1.0)
                self.place(sq)
            elif own:
                self.add(Step("knock", self.choose.pick(own), seconds=self.choose.between(0.01, 0.3)))
            self.noise()
            self.pause(0.0, 0.8)
        if not answered:
            self.add(Step("answer", move=answer.text))

    def after(self) -> None:
        """After the move: an opponent's piece brushed while the move settles, a flicker, the board left."""
        opponent = [sq for sq in sorted(self.occ) if sq in self.exp.pieces
                    and self.exp.pieces[sq][0] != self.exp.turn]
        if opponent and self.choose.chance(0.2):
            self.pause(0.0, 0.2)
            self.add(Step("knock", self.choose.pick(opponent), seconds=self.choose.between(0.04, 0.2)))
        self.noise()

    def reply(self, intended: MoveShape) -> str | None:
        """The opponent answers (a legal move from the position after ``intended``): lift, take off, place."""
        board = self.ctl.game.board.copy()
        board.push(intended.move)
        after = Expectation(board, self.ctl.map)
        if not after.shapes or len(self.exp.by_result[intended.result]) > 1:
            return None   # no reply, or the board must first ask which move was meant
        answer = self.choose.pick(after.shapes)
        self.pause(0.1, 1.5)   # a hand reacts: not in the same instant the mover lets go
        self.lift(answer.origin)
        if answer.move.is_removal:   # taken off, and that is the move
            return answer.text
        self.pause(0.05, 0.6)
        for sq in answer.captures:
            self.lift(sq)
            self.noise()
        self.place(answer.target)
        if answer.origin == answer.target and answer.target not in self.occ:
            self.place(answer.target)
        return answer.text


def storm(ctl: Controller, choose: Chooser) -> tuple[list[str], list[Step]]:
    """A gesture around a legal move of the side to move (and now and then the opponent's answer): the moves
    meant and the steps the hands make."""
    gesture = _Gesture(ctl, choose)
    intended = choose.pick(ctl.exp.shapes)
    gesture.noise()
    if choose.chance(0.15):
        gesture.wrong_piece_first()
    if choose.chance(0.2):
        gesture.knock_onto_legal(intended)
    start = intended.origin
    if choose.chance(0.3):
        start = gesture.change_of_mind(intended)
    gesture.carry(intended, start)
    gesture.after()
    meant = [intended.text]
    if choose.chance(0.3):
        answer = gesture.reply(intended)
        meant += [answer] if answer is not None else []
    gesture.add(Step("wait", seconds=4.0))
    return meant, gesture.steps


def computer_storm(ctl: Controller, choose: Chooser) -> tuple[list[str], list[Step]]:
    """The person's hands while the computer thinks (their pieces lifted, knocked), then the engine's answer,
    then the person carrying the computer's move out the way people do: the move meant and the steps."""
    gesture = _Gesture(ctl, choose)
    answer = choose.pick(ctl.exp.shapes)
    gesture.while_thinking(answer)
    gesture.pause(0.1, 1.0)
    gesture.carry(answer, answer.origin)
    gesture.after()
    gesture.add(Step("wait", seconds=4.0))
    return [answer.text], gesture.steps


def random_position(variant_id: str, rng: random.Random, kings: bool) -> str:
    """A FEN: the start position played on for a few random plies, or (``kings``) a few kings and men of each
    side on random squares, with a legal move for the side to move."""
    variant = get_variant(variant_id)
    for _ in range(1000):
        if not kings:
            board = Board(variant)
            for _ in range(rng.randrange(0, 16)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if any(True for _ in board.legal_moves):
                return board.fen()
            continue
        squares = list(variant.geometry.squares)
        rng.shuffle(squares)
        chosen = squares[:rng.randrange(4, 10)]
        pieces: dict[int, tuple[Color, bool]] = {}
        for i, sq in enumerate(chosen):
            color = Color.WHITE if i % 2 == 0 else Color.BLACK
            row = variant.geometry.rc(sq)[0]
            last = variant.height - 1 if color == Color.WHITE else 0
            pieces[sq] = (color, i < 4 or row == last or row == variant.height - 1 - last)
        from .record import fen_of

        turn = rng.choice([Color.WHITE, Color.BLACK])
        try:
            board = Board(variant, fen_of(variant, pieces, turn))
        except ValueError:
            continue
        if any(True for _ in board.legal_moves):
            return board.fen()
    raise RuntimeError(f"no playable random position found for {variant_id}")


def trial(variant: str, fen: str, choose: Chooser, *, debounce: float = 0.03, computer: bool = False,
          config: dict[str, Any] | None = None, log: TextIO | None = None) -> Trial:
    """One storm trial from ``fen``: two people on one board (every reply a person's), or with ``computer``
    a person against the computer, which is to move in ``fen``; ``log`` receives its sensor log."""
    clock = ManualClock(1000.0)
    mover = Board(variant, fen).turn.name.lower()
    human, opponent = ("black" if mover == "white" else "white", "engine") if computer else ("both", "person")
    cfg = Config(variant=variant, human_color=human, opponent=opponent, **(config or {}))
    writer = SensorLogWriter(log, cfg) if log is not None else None
    ports = OfflinePorts(clock)
    settings = GameSettings(get_variant(variant), human, opponent, 3, fen)
    table = Table(cfg, ports, clock=clock, settings=settings, sensor_log=writer, can_fail=False)
    ctl = table.controller
    hands = Hands(table, clock, debounce=debounce, jobs=ports.jobs)
    ctl.new_game()
    if writer is not None:
        writer.game(clock.now(), ctl)
    hands.set_up(ctl.exp.base)
    meant, steps = (computer_storm if computer else storm)(ctl, choose)
    before = len(ctl.records)
    for step in steps:
        hands.do(step)
    recorded = [r.text for r in ctl.records[before:]]
    candidates = [s.text for s in ctl.watch.pending] if ctl.state == PERSON_AMBIGUOUS else []
    result = Trial(variant, fen, meant, [s.text(ctl.map.name) for s in steps], recorded, ctl.state,
                   candidates)
    result.outcome = judge(meant, recorded, ctl.state, candidates)
    return result
