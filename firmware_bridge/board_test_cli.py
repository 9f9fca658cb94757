"""``dboard board-test``: the guided self-test (firmware_bridge.selftest) at the terminal.

On a real board the person follows the prompts and the LEDs. On a simulated profile the terminal also moves
the pieces (``place c3``, ``lift c3``), and ``--plant`` builds the board on a switch matrix with faults, so
the self-test can be tried (and tested) without hardware: ``--plant "stuck b8, dead e4, short-cols 6 7"``.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from .cli import board_arguments, profile_of
from .clock import Clock, MonotonicClock
from .device import open_device, wire_map
from .gpio_model import SwitchMatrix
from .profile import Profile
from .selftest import BoardTest, BoardTestReport, parse_cells
from .simulated import SimulatedDevice
from .types import LedFrame

PLANTS = ("stuck", "dead", "no-diode", "open-row", "open-col", "short-rows", "short-cols", "cross-rows",
          "cross-cols")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``board-test`` subcommand."""
    p = sub.add_parser("board-test", help="guided self-test of a new or repaired board: LEDs, sensors, wires",
                       description="Light each LED in turn, ask for a piece on each square, and report the "
                                   "stuck, dead, crossed, shorted and ghosting sensors and wires found.")
    board_arguments(p)
    p.add_argument("--pieces", type=int, help="pieces at hand (default: a draughts set for the board's size)")
    p.add_argument("--settle", type=float, default=0.5, help="seconds a reading must hold (default 0.5)")
    p.add_argument("--led-step", type=float, default=0.15, help="seconds each LED stays lit (default 0.15)")
    p.add_argument("--patience", type=float, default=8.0,
                   help="seconds to wait on a square that does not read as asked (default 8)")
    p.add_argument("--plant", default="",
                   help=f"simulated profiles: faults to build in, e.g. 'stuck b8, short-cols 6 7' "
                        f"({', '.join(PLANTS)})")
    p.set_defaults(func=board_test)


def plant(matrix: SwitchMatrix, spec: str) -> None:
    """Build the faults of ``spec`` (``stuck b8, dead e4, open-row 3, short-cols 6 7, no-diode a1``) into
    ``matrix``; ValueError names the part that is not understood."""
    for part in filter(None, (p.strip() for p in spec.split(","))):
        kind, *args = part.split()
        if kind not in PLANTS:
            raise ValueError(f"--plant: unknown fault {kind!r} in {part!r} (known: {', '.join(PLANTS)})")
        if kind in ("stuck", "dead", "no-diode"):
            for cell in parse_cells(" ".join(args), matrix.rows, matrix.cols):
                if kind == "no-diode":
                    matrix.remove_diode(cell)
                else:
                    matrix.stick(cell, closed=kind == "stuck")
            continue
        try:
            lines = [int(a) for a in args]
            getattr(matrix, kind.replace("-", "_"))(*lines)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"--plant: {part!r}: {exc}") from None


def run(board: Any, test: BoardTest, *, say: Callable[[str], None], lines: Callable[[], list[str]],
        clock: Clock, wait: Callable[[float], None]) -> BoardTestReport:
    """Drive ``test`` on ``board`` until it is done: its readings in, its frames out, its prompts said once
    and each LED step as a short line, the person's ``lines`` answered (on a simulated board ``place c3`` /
    ``lift c3`` move a piece)."""
    shown: LedFrame | None = None
    said = detail = ""
    test.start(clock.now())
    while not test.done:
        now = clock.now()
        test.reading(board.snapshot().squares, now)
        for line in lines():
            _line(board, test, line.strip(), now, say)
        test.tick(now)
        if test.frame != shown:
            shown = test.frame
            board.show(shown)
        if test.prompt != said:
            said = test.prompt
            say(said)
        if test.detail != detail:
            detail = test.detail
            if detail:
                say(f"  LED test: {detail}")
        wait(0.02)
    board.show(LedFrame(board.rows, board.cols))
    return test.report()


def _line(board: Any, test: BoardTest, line: str, now: float, say: Callable[[str], None]) -> None:
    verb, _, rest = line.partition(" ")
    if verb in ("place", "lift") and isinstance(board, SimulatedDevice):
        for cell in parse_cells(rest, board.rows, board.cols):
            (board.place if verb == "place" else board.lift)(cell)
        return
    try:
        test.answer(line, now)
    except ValueError as exc:
        say(f"error: {exc}")


def default_pieces(profile: Profile) -> int:
    """A draughts set for the board: the men of both sides (24 on 8x8, 40 on 10x10)."""
    return max(1, (profile.rows - 2) * profile.cols // 2)


def board_test(args: argparse.Namespace) -> int:
    """Run the self-test at the terminal; the report ends it (Ctrl-C: the report so far)."""
    profile = profile_of(args)
    overrides: dict[str, Any] = {}
    if args.plant:
        if profile.backend != "simulated":
            raise SystemExit("error: --plant builds faults into a simulated board; this profile's is real")
        matrix = SwitchMatrix(profile.rows, profile.cols)
        try:
            plant(matrix, args.plant)
        except ValueError as exc:
            raise SystemExit(f"error: {exc}") from None
        overrides["matrix"] = matrix
    board = open_device(profile, port=args.port, **overrides)
    sensors = sorted(profile.sensor_squares())
    test = BoardTest(profile.rows, profile.cols, sensors, wire_map(board), settle=args.settle,
                     pieces=args.pieces or default_pieces(profile), patience=args.patience,
                     led_step=args.led_step)
    typed: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_stdin, args=(typed,), name="board-test stdin", daemon=True).start()
    clock = MonotonicClock()
    simulated = board if isinstance(board, SimulatedDevice) else None
    hint = " Type `place c3` / `lift c3` to move the simulated pieces." if simulated else ""
    print(f"dboard board-test: {profile.name} ({profile.backend}), {len(sensors)} sensors, "
          f"{test.pieces} pieces.{hint}", flush=True)
    with board:
        try:
            wait: Callable[[float], None] = time.sleep if simulated is None else partial(_tick, simulated)
            report = run(board, test, say=lambda text: print(text, flush=True), lines=lambda: _drain(typed),
                         clock=clock, wait=wait)
        except KeyboardInterrupt:
            report = test.report()
    print(report.text(wire_map(board)), flush=True)
    return 0 if not report.faults and not report.dark_leds and not report.untested else 1


def _tick(board: SimulatedDevice, seconds: float) -> None:
    time.sleep(seconds)
    board.advance(seconds)


def _read_stdin(out: queue.Queue[str]) -> None:
    for line in sys.stdin:
        out.put(line)


def _drain(typed: queue.Queue[str]) -> list[str]:
    lines = []
    while not typed.empty():
        lines.append(typed.get_nowait())
    return lines
