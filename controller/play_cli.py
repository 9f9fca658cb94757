"""`dboard play`: the main job - a game on the board (the simulated board unless a profile names a real one).

In a terminal it is a small REPL: type physical actions (``lift 2 3``, ``place 3 4``, ``wait 0.5``), a move
in the variant's notation (``32-28``: the pieces are moved on the simulated board for you), or a command
(``new``, ``takeback [n]``, ``retract``/``accept``/``huff``, ``resign``, ``claim``, ``hint``, ``pdn``,
``save``, ``show``, ``help``, ``quit``). On a real board the pieces are moved by hand and the console keeps
the commands. ``--script FILE`` reads the same lines from a file; ``--auto-computer`` executes the
computer's moves on the simulated board.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Iterable
from pathlib import Path

from firmware_bridge.device import open_device, serial_link
from firmware_bridge.interfaces import BoardDevice
from firmware_bridge.profile import load_profile
from firmware_bridge.simulated import SimulatedDevice

from . import commands as cmd
from . import config as config_module
from . import events as ev
from .config import Config
from .session import Session

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard play`` subcommand."""
    parser = sub.add_parser("play", help="play a game on the board (simulated by default)",
                            description="Play on the board: against the built-in engine or a person.")
    config_module.add_arguments(parser)
    parser.add_argument("--script", type=Path,
                        help="read actions and moves from FILE instead of the terminal")
    parser.add_argument("--auto-computer", action="store_true",
                        help="execute the computer's moves on the simulated board automatically")
    parser.add_argument("--no-journal", action="store_true",
                        help="do not journal the game to the data directory")
    parser.add_argument("--no-web", action="store_true",
                        help="do not serve the web page (see --listen, --port)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``dboard play``: run a Session on the configured board with the console (and web page) as controls."""
    config = config_module.from_args(args)
    logging.getLogger("transitions").setLevel(logging.WARNING)  # its per-transition INFO lines are noise here
    if args.script is not None:
        try:
            lines: Iterable[str] | None = args.script.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise SystemExit(f"dboard play: error: cannot read script {args.script}: {exc}") from None
    else:
        lines = None
    journal = None if args.no_journal else config.data_path
    web = not args.no_web and args.script is None
    try:
        return asyncio.run(_play(config, lines, journal, args.auto_computer or args.script is not None, web))
    except asyncio.CancelledError:   # SIGTERM (systemctl stop): the board was closed on the way out
        return 0


def open_sensors(config: Config, rows: int, cols: int) -> BoardDevice:
    """The board ``dboard play`` runs on: a simulated board of the variant's size, or the profile's board.

    A profile must have the variant's size; ``serial_port`` overrides a serial profile's device.
    """
    if config.profile == "simulated":
        return SimulatedDevice(rows, cols)
    profile = load_profile(config.profile)
    if (profile.rows, profile.cols) != (rows, cols):
        raise ValueError(f"board profile {profile.name!r} is {profile.rows}x{profile.cols}, but "
                         f"{config.variant} is played on {rows}x{cols}: choose a {rows}x{cols} profile or "
                         f"another variant")
    return open_device(profile, port=config.serial_port or None)


def simulated(board: BoardDevice) -> SimulatedDevice | None:
    """The simulated board the console may move pieces on, or None for a real (or mapped) board."""
    return board if isinstance(board, SimulatedDevice) else None


def render(state: dict) -> str:
    """The position as text, row 0 (White's side) at the bottom: w/b men, W/B kings, * lit squares."""
    cells = {(p["row"], p["col"]): ("W" if p["king"] else "w") if p["color"] == "white" else
             ("B" if p["king"] else "b") for p in state["pieces"]}
    lit = {(light["row"], light["col"]) for light in state["leds"]}
    lines = []
    for row in reversed(range(state["rows"])):
        line = "".join((cells.get((row, col), ".") + ("*" if (row, col) in lit else " "))
                       for col in range(state["cols"]))
        lines.append(f"{row:2d} {line}")
    lines.append("   " + "".join(f"{col:<2d}" for col in range(state["cols"])))
    return "\n".join(lines)


def _print_event(event: ev.Event) -> None:
    if isinstance(event, ev.MoveCommitted):
        print(f"move {event.ply}: {event.text} ({event.by})")
    elif isinstance(event, ev.Message):
        print(f"[{event.level}] {event.text}")
    elif isinstance(event, ev.Refusal):
        print(f"[refused: {event.rule}] {event.message}")
    elif isinstance(event, ev.GameOver):
        print(f"game over: {event.result} ({event.reason})")


async def _printer(session: Session) -> None:
    queue = session.subscribe()
    while True:
        _print_event(await queue.get())


def _simulated_only(board: SimulatedDevice | None, what: str) -> SimulatedDevice:
    """The simulated board, or a ValueError: the console cannot move the pieces of a real board."""
    if board is None:
        raise ValueError(f"{what!r}: on a real board, move the pieces by hand (the LEDs show the computer's "
                         f"moves); `help` lists the commands")
    return board


def _execute(session: Session, board: SimulatedDevice | None, text: str) -> None:
    """Make the move ``text`` (or the computer's pending move) physically on the simulated board."""
    board = _simulated_only(board, text)
    ctl = session.controller
    shape = ctl.computer_shape if text == "computer" else None
    if shape is None:
        move = ctl.game.board.parse_move(text)
        shape = ctl.exp.shape_of(move)
        if shape is None:
            raise ValueError(f"{text} is not a legal move here")
    board.lift(shape.origin)
    for sq in shape.captures:
        board.lift(sq)
    board.place(shape.target)


HELP = """\
A move in the variant's notation (32-28, 27x18, or 27x18x9 when the path is ambiguous) is made on the
simulated board for you; `computer` makes the computer's pending move as the LEDs show it.
  lift ROW COL, place ROW COL   pick up or put down one piece (rows and columns as `show` numbers them)
  wait SECONDS                  let time pass (a piece held up, a clock running)
  setup                         put every piece where the game expects it
  new [VARIANT]                 a new game with the same players (then `setup`)
  takeback [N]                  take back N plies (default 1)
  retract | accept | huff       answer a missed compulsory capture
  resign [white|black]          resign (default: your color)
  claim [white|black]           claim a draw the rules allow now (English repetition, 40 moves; ...)
  hint                          ask the engine for a move, shown by the LEDs
  show | pdn | save             the board, the game so far as PDN, save it to the data directory
  help                          this list
  quit                          stop"""


async def _line(session: Session, board: SimulatedDevice | None, line: str) -> bool:
    """Handle one input line; False to quit."""
    words = line.split()
    if not words or words[0].startswith("#"):
        return True
    verb = words[0].lower()
    if verb in ("quit", "exit"):
        return False
    if verb in ("help", "?"):
        print(HELP)
        return True
    if verb in ("lift", "place") and len(words) == 3:
        _simulated_only(board, verb)
        square = (int(words[1]), int(words[2]))
        await session.send(cmd.Lift(*square) if verb == "lift" else cmd.Place(*square))
    elif verb == "wait" and len(words) == 2:
        await asyncio.sleep(float(words[1]))
    elif verb == "setup":
        _simulated_only(board, verb).set_occupancy(session.controller.exp.base)
    elif verb == "takeback":
        await session.send(cmd.Takeback(int(words[1]) if len(words) > 1 else 1))
    elif verb in ("retract", "accept", "huff"):
        await session.send(cmd.MissedCaptureChoice(verb))
    elif verb == "new":
        s = session.controller.settings
        await session.send(cmd.NewGame(words[1] if len(words) > 1 else s.variant, s.human_color, s.opponent,
                                       s.level, s.time_control))
    elif verb == "claim":
        color = words[1] if len(words) > 1 else session.controller.game.board.turn.name.lower()
        await session.send(cmd.ClaimDraw(color))
    elif verb == "resign":
        color = words[1] if len(words) > 1 else session.controller.settings.human_color
        await session.send(cmd.Resign(color))
    elif verb == "hint":
        await session.send(cmd.Hint())
    elif verb == "pdn":
        print(session.controller.pdn())
    elif verb == "save":
        await session.send(cmd.SavePdn())
    elif verb == "show":
        pass   # the board is printed after every line
    else:
        _execute(session, board, line.strip())
    await session.idle()
    return True


async def _check_link(hardware: BoardDevice, seconds: float = 3.0) -> None:
    """Say so when a serial board does not answer at start (unplugged, wrong device); it is still awaited."""
    link = serial_link(hardware)
    if link is not None and not await asyncio.to_thread(link.wait_synced, seconds):
        print(f"[warning] no answer from the board on {link.port} after {seconds:g} s: is it plugged in? "
              f"Waiting for it (serial_port names another device).", flush=True)


async def _computer(session: Session, board: SimulatedDevice | None, auto: bool,
                    seconds: float = 120.0) -> None:
    """Wait while the computer thinks; with ``auto`` make its move on the board."""
    ctl = session.controller
    waited = 0.0
    while ctl.state == "computer.thinking" and waited < seconds:
        await asyncio.sleep(0.02)
        waited += 0.02
    await session.idle()
    if ctl.state != "computer.showing" or ctl.computer_shape is None or board is None:
        return
    if auto:
        _execute(session, board, "computer")
        await session.idle()
    else:
        print(f"(type {ctl.computer_shape.text} or `computer` to make the computer's move on the board)")


async def _play(config: Config, lines: Iterable[str] | None, journal: Path | None, auto: bool,
                web: bool = False) -> int:
    from rules import get_variant

    variant = get_variant(config.variant)
    hardware = open_sensors(config, variant.height, variant.width)
    board = simulated(hardware)
    session = Session(config, hardware, hardware, journal)
    main = asyncio.current_task()
    with contextlib.suppress(NotImplementedError):   # stop as on Ctrl-C: LEDs dark, GPIO freed, journal shut
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)  # type: ignore[union-attr]
    try:
        return await _run_session(session, board, config, lines, auto, web)
    finally:
        hardware.close()


async def _run_session(session: Session, board: SimulatedDevice | None, config: Config,
                       lines: Iterable[str] | None, auto: bool, web: bool) -> int:
    async with session:
        for message in session.state()["messages"]:   # said while starting (a resumed game), before we listen
            print(f"[{message['level']}] {message['text']}")
        printer = asyncio.create_task(_printer(session))
        if board is not None:
            board.set_occupancy(session.controller.exp.base)
        else:
            print(f"Board: {session.sensors!r}. Move the pieces by hand; the LEDs show what to do.")
            await _check_link(session.sensors)
        server = None
        if web:
            from web.server import start_server

            server = await start_server(session, config)   # prints "Open http://HOST:PORT/"
        await session.idle()
        await _computer(session, board, auto)
        print(render(session.state()))
        interactive = lines is None
        if interactive:
            shapes = session.controller.exp.shapes
            example = shapes[0].text if shapes else "32-28"
            what = f"a move (like {example}) or a command" if board is not None else "a command"
            print(f"Type {what}; `help` lists them, `quit` stops.")
        loop = asyncio.get_running_loop()
        source = iter(lines) if lines is not None else None
        quit_asked = False
        while True:   # past a game's end too: the next game starts when the pieces are set up again
            if interactive:
                sys.stdout.write(f"{session.controller.state}> ")
                sys.stdout.flush()
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line:
                    break
            else:
                assert source is not None
                line = next(source, None)
                if line is None:
                    break
            try:
                if not await _line(session, board, line):
                    quit_asked = True
                    break
            except ValueError as exc:
                print(f"error: {exc}")
                continue
            await _computer(session, board, auto)
            print(render(session.state()))
        if not quit_asked and (server is not None or board is None):
            # Input ended (or the game did): a real board and the web page stay in play until Ctrl-C, so a
            # service with no terminal keeps running and the next game starts when the pieces are set up.
            print("The board stays live; press Ctrl-C to stop.", flush=True)
            await (server.wait() if server is not None else asyncio.Event().wait())
        if server is not None:
            await server.stop()
        await asyncio.sleep(0.05)
        printer.cancel()
        if session.controller.turn_state == "game_over":
            print(session.controller.pdn())
    return 0
