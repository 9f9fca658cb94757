"""The guided self-test of a new or repaired board (``dboard board-test``, and the web page's Board test).

Rules-free and time-injected, like the controller: feed it the board's readings (``reading``), the person's
answers (``answer``) and the time (``tick``); show its ``frame``, say its ``prompt``; ``report`` names each
faulty square and wire. The steps:

1. every LED in turn, then the whole board in each color: the person says which stayed dark;
2. an empty board: a square that still reads is stuck;
3. a piece on each lit square in turn, kept on (when the person's pieces run out, the oldest one moves on:
   the red square is emptied first): each placement must make exactly its own square read. Nothing reads: a
   dead sensor (a whole line of them: a broken wire); another square on its column or row reads instead:
   crossed wires; its square and a twin on the same row or column: touching wires; a square across a
   rectangle of pieces: a missing diode;
4. the pieces off in the same order: each lift must stop exactly its own square reading.
A step that timed out with nothing read, after which nothing was read again (the person stopped or went
away), tested nothing: its square is "not tested", not dead (a dead sensor's step is followed by readings
of the next ones). Squares are named as on the wiring grid (a1 = row 0, column 0), wires as ``WireMap``
names them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .faults import FaultKind, SensorFault, WireMap, _vias
from .types import BLUE, GREEN, RED, WHITE, Cell, LedFrame, Light, Pattern

PHASES = ("leds", "leds-answer", "empty", "fill", "clear", "done")
COLORS = (("red", RED), ("green", GREEN), ("blue", BLUE), ("white", WHITE))
PUT, TAKE = Light(GREEN, Pattern.ON), Light(RED, Pattern.SLOW_BLINK)


def cell_name(cell: Cell) -> str:
    """``a1`` for (0, 0): the column's letter and the row counted from 1 (hardware/wiring.md)."""
    return f"{chr(ord('a') + cell[1])}{cell[0] + 1}"


def parse_cells(text: str, rows: int, cols: int) -> list[Cell]:
    """The squares named in ``text`` (``c3 f6``), or ValueError naming the one that is not a square."""
    out = []
    for word in re.split(r"[\s,]+", text.strip().lower()):
        if not word:
            continue
        match = re.fullmatch(r"([a-p])(\d{1,2})", word)
        cell = (int(match[2]) - 1, ord(match[1]) - ord("a")) if match else None
        if cell is None or not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
            last = f"{chr(ord('a') + cols - 1)}{rows}"
            raise ValueError(f"{word!r} is not a square of this {rows}x{cols} board (a1 to {last})")
        out.append(cell)
    return out


@dataclass(frozen=True)
class BoardTestReport:
    """What the self-test found: sensor and wiring faults, and the LEDs the person saw stay dark."""

    sensors: int
    faults: tuple[SensorFault, ...]
    dark_leds: tuple[Cell, ...]
    finished: bool = True
    untested: tuple[Cell, ...] = ()
    """Squares no reading tested (never reached, or timed out after the person stopped): not faults."""

    def lines(self, wires: WireMap) -> list[str]:
        """One sentence per finding (the squares named a1-style); the untested squares are not findings."""
        out = [fault.describe(cell_name, wires) for fault in self.faults]
        out += [f"The LED under {cell_name(c)} stayed dark or showed a wrong color: check its solder joints "
                f"and the data line from the LED before it in the chain." for c in self.dark_leds]
        return out

    def untested_line(self) -> str:
        """The squares the test did not reach or saw no piece on before the person stopped ("" if none)."""
        if not self.untested:
            return ""
        return (f"Not tested ({len(self.untested)} {'square' if len(self.untested) == 1 else 'squares'}, no "
                f"piece seen there before the test stopped or went on): "
                f"{' '.join(cell_name(c) for c in self.untested)}. Run the test again to check them.")

    def text(self, wires: WireMap) -> str:
        found = len(self.faults) + len(self.dark_leds)
        head = (f"Board test {'finished' if self.finished else 'stopped early'}: {self.sensors} sensors, "
                f"{found or 'no'} {'fault' if found == 1 else 'faults'} found"
                f"{f', {len(self.untested)} not tested' if self.untested else ''}.")
        untested = [self.untested_line()] if self.untested else []
        return "\n".join([head, *(f"- {line}" for line in self.lines(wires)), *untested])

    def to_json(self, wires: WireMap) -> dict[str, object]:
        return {"finished": self.finished, "sensors": self.sensors, "lines": self.lines(wires),
                "faults": [f.to_json() for f in self.faults], "dark_leds": [list(c) for c in self.dark_leds],
                "untested": [list(c) for c in self.untested], "untested_line": self.untested_line()}


@dataclass
class _Step:
    """One instruction of the fill or clear pass and what the board read before and after it."""

    place: Cell | None
    lift: Cell | None
    before: frozenset[Cell]
    expected: frozenset[Cell]
    after: frozenset[Cell] | None = None
    untouched: bool = False   # it timed out with no reading changing: nobody may have done anything


@dataclass
class BoardTest:
    """The self-test's state machine; ``cells`` are the squares with a sensor, in the order they are tested.

    ``pieces``: how many pieces the person has; ``settle``: seconds a reading must hold to count;
    ``patience``: seconds to wait on a square that reads nothing (or not as asked) before moving on;
    ``led_step``: seconds each LED of the walk stays lit; ``go_on``: how the person says "go on" ("press
    Enter" at the terminal, "click Next" on the page). ``prompt`` changes when the person has something new
    to do; ``detail`` is what the LED walk lights now ("a1", "all red"), a short line per step.
    """

    rows: int
    cols: int
    cells: Sequence[Cell]
    wires: WireMap
    pieces: int = 24
    settle: float = 0.5
    patience: float = 8.0
    led_step: float = 0.15
    go_on: str = "press Enter"
    phase: str = "leds"
    prompt: str = ""
    detail: str = ""
    frame: LedFrame = field(init=False)
    dark_leds: list[Cell] = field(default_factory=list)
    stuck: frozenset[Cell] = frozenset()
    steps: list[_Step] = field(default_factory=list)
    _reading: frozenset[Cell] = frozenset()
    _changed: float = 0.0
    _phase_at: float = 0.0
    _moved: bool = False
    _on: list[Cell] = field(default_factory=list)          # pieces on the board, oldest first

    def __post_init__(self) -> None:
        if self.pieces < 1:
            raise ValueError(f"the self-test needs at least one piece, got {self.pieces}")
        self.frame = LedFrame(self.rows, self.cols)
        self._walk = [(cell_name((r, c)), {(r, c): Light(WHITE, Pattern.ON)})
                      for r in range(self.rows) for c in range(self.cols)]
        every = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        self._walk += [(name, dict.fromkeys(every, Light(rgb, Pattern.ON)))   # each color 3 steps long
                       for name, rgb in COLORS for _ in range(3)]

    def __repr__(self) -> str:
        return (f"BoardTest({self.rows}x{self.cols}, phase={self.phase}, "
                f"step={len(self.steps)}/{2 * len(self.cells)})")

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def awaiting_answer(self) -> bool:
        """The prompt asks a question only the person can answer (the LEDs)."""
        return self.phase == "leds-answer"

    # --- inputs ----------------------------------------------------------------------------------------
    def start(self, now: float) -> None:
        self._enter("leds", now)

    def reading(self, squares: frozenset[Cell], now: float) -> None:
        """What the board reads now."""
        if squares != self._reading:
            self._reading, self._changed, self._moved = frozenset(squares), now, True

    def answer(self, text: str, now: float) -> None:
        """The person's answer: the LEDs that stayed dark, or (any other time) "next": nothing more happens
        where I was asked, go on."""
        if self.phase in ("leds", "leds-answer"):
            words = text.strip().lower()
            if words not in ("", "all lit", "ok", "yes", "y", "next"):
                self.dark_leds = parse_cells(words, self.rows, self.cols)   # ValueError for a bad square
            self._enter("empty", now)
        elif self.phase == "empty":
            self._end_empty(now)
        elif self.phase in ("fill", "clear"):
            self._record(now)

    def tick(self, now: float) -> None:
        """Let time pass: the LED walk advances; a step whose reading settled (or never came) ends."""
        if self.phase == "leds":
            index = int((now - self._phase_at) / self.led_step)
            if index >= len(self._walk):
                self._enter("leds-answer", now)
            else:
                name, lights = self._walk[index]
                self.frame = LedFrame.of(self.rows, self.cols, lights)
                self.prompt = ("LED test: watch every LED light white in turn, then the whole board red, "
                               "green, blue and white.")
                self.detail = name
            return
        quiet = now - self._changed
        if self.phase == "empty":
            if (not self._reading and quiet >= self.settle) or (self._reading and quiet >= self.patience):
                self._end_empty(now)
        elif self.phase in ("fill", "clear"):
            step = self.steps[-1]
            good = self._reading == step.expected and quiet >= self.settle
            gave_up = quiet >= self.patience and now - self._phase_at >= self.patience
            odd = self._moved and quiet >= self.patience / 2 and self._reading != step.before
            if good or gave_up or odd:
                self._record(now, untouched=gave_up and not good and not self._moved)

    # --- the steps ---------------------------------------------------------------------------------------
    def _enter(self, phase: str, now: float) -> None:
        self.phase, self._phase_at, self.detail = phase, now, ""
        self.frame = LedFrame(self.rows, self.cols)
        if phase == "leds-answer":
            self.prompt = ("Did every LED light, white in turn and then red, green, blue and white? Type the "
                           f"squares that stayed dark or showed a wrong color (like c3 f6), or {self.go_on}.")
        elif phase == "empty":
            self.prompt = (f"Take every piece off the board and wait; {self.go_on} if a square keeps reading "
                           "although it is empty.")
        elif phase == "done":
            self.prompt = "Board test finished."

    def _end_empty(self, now: float) -> None:
        self.stuck = self._reading
        self._next_step(now)

    def _next_step(self, now: float) -> None:
        done_places = sum(1 for s in self.steps if s.place is not None)
        if done_places < len(self.cells):
            place = self.cells[done_places]
            lift = self._on[0] if len(self._on) >= self.pieces else None
            self.phase = "fill"
        elif self._on:
            place, lift = None, self._on[0]
            self.phase = "clear"
        else:
            self._enter("done", now)
            return
        expected = (self._expected() - {lift}) | ({place} if place is not None else set())
        self.steps.append(_Step(place, lift, self._reading, frozenset(expected) | self.stuck))
        if lift is not None:
            self._on.remove(lift)
        if place is not None:
            self._on.append(place)
        lights = {**({lift: TAKE} if lift else {}), **({place: PUT} if place else {})}
        self.frame = LedFrame.of(self.rows, self.cols, lights)
        if place is not None and lift is not None:
            self.prompt = (f"Move the piece from the red square ({cell_name(lift)}) to the green one "
                           f"({cell_name(place)}).")
        elif place is not None:
            self.prompt = f"Put a piece on the green square ({cell_name(place)}) and leave it there."
        else:
            assert lift is not None
            self.prompt = f"Take the piece off the red square ({cell_name(lift)})."
        self.prompt += f" {self.go_on[0].upper()}{self.go_on[1:]} if nothing more happens."
        self._phase_at, self._changed, self._moved = now, now, False

    def _expected(self) -> set[Cell]:
        return set(self._on)

    def _record(self, now: float, untouched: bool = False) -> None:
        self.steps[-1].after, self.steps[-1].untouched = self._reading, untouched
        self._next_step(now)

    # --- the report --------------------------------------------------------------------------------------
    def report(self) -> BoardTestReport:
        """Every fault the steps so far show: stuck squares, crossed and touching lines, broken lines, dead
        squares, ghosts (naming the diodes that could carry them)."""
        tested = self._tested_steps()
        evidence = _Evidence(self.wires, self.stuck)
        for step in tested:
            evidence.add(step)
        placed = {s.place for s in tested if s.place is not None and s.after is not None}
        untested = tuple(c for c in self.cells if c not in placed and c not in self.stuck)
        return BoardTestReport(len(self.cells), evidence.faults([c for c in self.cells if c not in untested]),
                               tuple(self.dark_leds), self.done, tuple(sorted(untested)))

    def _tested_steps(self) -> list[_Step]:
        """The steps before the trailing run of untouched ones: once nothing is read again to the end, the
        person had stopped, so those steps tested nothing (a dead square's step has readings after it)."""
        end = len(self.steps)
        while end and (self.steps[end - 1].untouched or self.steps[end - 1].after is None):
            end -= 1
        return self.steps[:end]


class _Evidence:
    """What the steps showed (in wiring coordinates), and the fewest faults that explain it."""

    def __init__(self, wires: WireMap, stuck: frozenset[Cell]) -> None:
        self.w, self.l = wires.to_wiring, wires.to_logical
        self.stuck = stuck
        self.dead: set[Cell] = set()
        self.appeared: list[tuple[Cell, Cell, bool, _Step]] = []   # (piece put on, square that read, own?)
        self.stayed: list[tuple[Cell, _Step]] = []                 # a square that read on with its piece gone

    def add(self, step: _Step) -> None:
        if step.after is None:
            return
        gained = step.after - step.before
        x = step.place
        if x is not None and x not in self.stuck:
            if x not in step.after:
                self.dead.add(x)
            self.appeared += [(x, y, x in gained, step) for y in sorted(gained - {x})]
        z = step.lift
        if z is not None and z not in self.stuck and z in step.after and z not in step.expected:
            self.stayed.append((z, step))

    def _line_pair(self, x: Cell, y: Cell) -> tuple[int, int, int] | None:
        """(axis, a, b) when ``x`` and ``y`` share a column (rows a, b) or a row (columns a, b)."""
        (xr, xc), (yr, yc) = self.w(x), self.w(y)
        if xc == yc:
            return (0, min(xr, yr), max(xr, yr))
        if xr == yr:
            return (1, min(xc, yc), max(xc, yc))
        return None

    def faults(self, cells: Sequence[Cell]) -> tuple[SensorFault, ...]:
        out = [self._fault(FaultKind.STUCK, [c]) for c in sorted(self.stuck)]
        crossed: dict[tuple[int, int, int], set[Cell]] = {}
        shorts: dict[tuple[int, int, int], set[Cell]] = {}
        pool: list[tuple[Cell, _Step]] = []                      # readings for the diodes to explain
        for x, y, own, step in self.appeared:
            pair = self._line_pair(x, y)
            if pair is None:
                pool.append((y, step))
            elif own:                  # its own square and a twin on the same line: the lines may touch
                shorts.setdefault(pair, set()).add(y)
            else:                      # another square instead: the lines are on each other's pins
                crossed.setdefault(pair, set()).add(x)
        partners: dict[tuple[int, int], set[int]] = {}
        for axis, a, b in shorts:
            partners.setdefault((axis, a), set()).add(b)
            partners.setdefault((axis, b), set()).add(a)
        for pair in list(shorts):      # a line "touching" several others: a ghost pattern, not a short
            axis, a, b = pair
            if len(partners[(axis, a)]) > 1 or len(partners[(axis, b)]) > 1:
                pool += [(y, step) for x, y, own, step in self.appeared
                         if own and self._line_pair(x, y) == pair]
                del shorts[pair]
        pool += self.stayed
        pairs = [*crossed, *shorts]    # a square read through a crossed or touching line: that pair's doing
        pool = [(cell, step) for cell, step in pool if not any(self._through(cell, p, step) for p in pairs)]
        for (axis, a, b), on in sorted(crossed.items()):
            kind = FaultKind.CROSSED_ROWS if axis == 0 else FaultKind.CROSSED_COLUMNS
            out.append(self._fault(kind, on, axis=axis, lines=(a, b)))
            self.dead -= on
        for (axis, a, b), on in sorted(shorts.items()):
            kind = FaultKind.SHORTED_ROWS if axis == 0 else FaultKind.SHORTED_COLUMNS
            out.append(self._fault(kind, on, axis=axis, lines=(a, b)))
        out += self._open_lines(cells)
        out += [self._fault(FaultKind.DEAD, [c]) for c in sorted(self.dead)]
        out += self._ghosts(pool)
        return tuple(out)

    def _through(self, cell: Cell, pair: tuple[int, int, int], step: _Step) -> bool:
        """Whether ``cell`` reads only because its line is crossed with (or touches) ``pair``'s other line,
        where a piece stands."""
        axis, a, b = pair
        r, c = self.w(cell)
        line, along = (r, c) if axis == 0 else (c, r)
        if line not in (a, b):
            return False
        twin = (a + b - line, along) if axis == 0 else (along, a + b - line)
        return self.l(twin) in step.expected

    def _open_lines(self, cells: Sequence[Cell]) -> list[SensorFault]:
        out = []
        for axis, kind in ((0, FaultKind.OPEN_ROW), (1, FaultKind.OPEN_COLUMN)):
            lines: dict[int, list[Cell]] = {}
            for cell in cells:
                lines.setdefault(self.w(cell)[axis], []).append(cell)
            for line, on in sorted(lines.items()):       # every sensor of a line dead: one broken wire
                if len(on) >= 2 and all(c in self.dead for c in on):
                    self.dead -= set(on)
                    out.append(self._fault(kind, on, axis=axis, lines=(line,)))
        return out

    def _ghosts(self, pool: list[tuple[Cell, _Step]]) -> list[SensorFault]:
        """The fewest diodes that explain every ghost reading; a reading no rectangle explains is a reed
        that sticks now and then."""
        candidates: dict[Cell, set[Cell]] = {}
        for cell, step in pool:
            assert step.after is not None
            vias = _vias(self.w(cell), {self.w(c) for c in step.after}, {self.w(c) for c in step.expected})
            found = {self.l(v) for v in vias}
            candidates[cell] = candidates[cell] & found if cell in candidates and found else \
                found or candidates.get(cell, set())
        out = [self._fault(FaultKind.STUCK, [c]) for c, found in sorted(candidates.items()) if not found]
        left = {c for c, found in candidates.items() if found}
        while left:
            counts: dict[Cell, int] = {}
            for cell in left:
                for via in candidates[cell]:
                    counts[via] = counts.get(via, 0) + 1
            best = max(counts.values())
            vias = tuple(sorted(v for v, n in counts.items() if n == best))
            on = {c for c in left if candidates[c] & set(vias)}
            out.append(self._fault(FaultKind.GHOST, on, vias))
            left -= on
        return out

    def _fault(self, kind: FaultKind, cells: Iterable[Cell], vias: tuple[Cell, ...] = (),
               axis: int | None = None, lines: tuple[int, ...] = ()) -> SensorFault:
        cells = tuple(sorted(cells))
        if axis is None:                                 # squares: their own wires (and the diodes')
            wired = [self.w(c) for c in (*cells, *vias)]
            return SensorFault(kind, cells, tuple(sorted({r for r, _ in wired})),
                               tuple(sorted({c for _, c in wired})), vias)
        return SensorFault(kind, cells, lines if axis == 0 else (), lines if axis == 1 else ())
