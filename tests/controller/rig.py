"""A test rig: a Controller on a manual clock, driven by physical actions named in the variant's notation."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from controller import events as ev
from controller.config import Config
from controller.journal import Journal
from controller.machine import Controller
from controller.settings import EngineJob, GameSettings
from firmware_bridge.clock import ManualClock
from firmware_bridge.types import Cell
from rules import Variant
from rules.options import format_text

OPENINGS = {  # the seven scenario variants -> the first mover's move and the reply, from the start position
    "spanish": ("12-16", "21-17"),
    "international": ("32-28", "19-23"),
    "english": ("9-13", "22-18"),
    "russian": ("c3-d4", "f6-g5"),
    "italian": ("21-17", "10-14"),
    "turkish": ("a3-a4", "a6-a5"),
    "thai": ("27-24", "6-9"),
}


class Rig:
    """Physical actions (lift/place a square, wait) fed as occupancy snapshots into a Controller."""

    def __init__(self, variant: str | Variant, tmp: Path | None = None, *, human_color: str = "both",
                 opponent: str = "person", fen: str | None = None, setup: bool = True, flipped: bool = False,
                 time_control: str | None = None, **config: object) -> None:
        self.clock = ManualClock(100.0)
        self.events: list[ev.Event] = []
        self.jobs: list[EngineJob] = []
        vid, options = (variant, "") if isinstance(variant, str) else (variant.id,
                                                                       format_text(variant.option_values()))
        self.config = Config(variant=vid, variant_options=options, human_color=human_color, opponent=opponent,
                             **config)
        self.journal = Journal(tmp) if tmp is not None else None
        self.ctl = Controller(self.config, clock=self.clock, journal=self.journal, emit=self.events.append,
                              request_engine=self.jobs.append,
                              settings=GameSettings(variant, human_color, opponent, 3, fen, flipped,
                                                    time_control),
                              pdn_dir=tmp)
        self.ctl.new_game()
        self.occ: set[Cell] = set()
        if setup:
            self.set(self.ctl.exp.base)

    # squares by name ---------------------------------------------------------------------------
    def sq(self, name: str | Cell) -> Cell:
        if isinstance(name, tuple):
            return name
        return self.ctl.map.rc(self.ctl.variant.geometry.parse_square(name))

    def set(self, squares: object) -> None:
        self.occ = {self.sq(s) for s in squares}  # type: ignore[attr-defined]
        self.ctl.snapshot(frozenset(self.occ))

    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.ctl.tick()

    def lift(self, name: str | Cell, dt: float = 0.05) -> None:
        sq = self.sq(name)
        assert sq in self.occ, f"no piece on {name} to lift"
        self.occ.discard(sq)
        self.clock.advance(dt)
        self.ctl.snapshot(frozenset(self.occ))

    def place(self, name: str | Cell, dt: float = 0.05) -> None:
        sq = self.sq(name)
        assert sq not in self.occ, f"{name} is occupied"
        self.occ.add(sq)
        self.clock.advance(dt)
        self.ctl.snapshot(frozenset(self.occ))

    def do(self, script: str) -> None:
        """Run actions like ``"lift 32, place 28, wait 0.4"``."""
        for action in filter(None, (a.strip() for a in script.split(","))):
            verb, arg = action.split()
            if verb == "wait":
                self.wait(float(arg))
            else:
                getattr(self, verb)(arg)

    def move(self, text: str, settle: bool = True) -> None:
        """Play a legal move the simple way: lift the piece, take off the captured pieces, place it."""
        board = self.ctl.game.board
        move = board.parse_move(text)
        piece = board.piece_at(move.from_square)
        flying = piece is not None and piece.king and self.ctl.variant.king_flying
        m = self.ctl.map
        self.lift(m.rc(move.from_square))
        for sq in move.captures:
            self.lift(m.rc(sq))
        self.place(m.rc(move.to_square))
        if settle:   # long enough for the move to settle (a flying king may be sliding on: longer)
            self.wait(self.config.king_settle_ms / 1000 + 0.05 if flying else 0.5)

    def answer_engine(self, text: str) -> None:
        job = self.jobs[-1]
        self.ctl.computer_moved(job.token, job.board.parse_move(text))

    # observations ------------------------------------------------------------------------------
    @property
    def state(self) -> str:
        return self.ctl.state

    @property
    def texts(self) -> list[str]:
        return [r.text for r in self.ctl.records]

    def of(self, kind: type[ev.Event]) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    def messages(self) -> str:
        return "\n".join(e.text for e in self.of(ev.Message))

    def lit(self) -> dict[str, object]:
        """The lit squares by name -> Light."""
        return {self.ctl.map.name(sq): light for sq, light in self.ctl.frame.lights}


async def next_event(queue: asyncio.Queue[ev.Event], match: type | Callable[[ev.Event], bool],
                     timeout: float = 10.0) -> ev.Event:
    """The next event from a Session subscription that is of type ``match`` (or that ``match`` accepts);
    the events before it are skipped. Fails after ``timeout`` seconds in all."""
    accepts = (lambda e: isinstance(e, match)) if isinstance(match, type) else match
    async with asyncio.timeout(timeout):
        while True:
            event = await queue.get()
            if accepts(event):
                return event


async def until(what: str, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll ``predicate`` while the Session's loop runs; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)
