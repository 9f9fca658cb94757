"""`dboard play`: the main job - a game on the board (the simulated board unless a profile names a real one).

In a terminal it is a small REPL: type physical actions (``lift 32``, ``place 28``, ``wait 0.5``), a move
in the variant's notation (``32-28``: the pieces are moved on the simulated board for you), or a command
(``new``, ``takeback [n]``, ``retract``/``accept``/``huff``, ``resign``, ``draw``/``decline``, ``claim``,
``hint``, ``pdn``, ``save``, ``show``, ``mask``/``unmask``/``confirm``/``health`` for a board with a broken
square, ``help``, ``quit``); a command word is never read as a move. On a real board the pieces are moved
by hand and the console keeps the commands. ``--script FILE`` reads the same lines from a file. On the
simulated board the computer's moves play themselves (``--no-auto-computer``: type ``computer`` to make
them). Ctrl-C stops it cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from firmware_bridge.device import open_device, serial_link
from firmware_bridge.interfaces import BoardDevice
from firmware_bridge.profile import load_profile
from firmware_bridge.simulated import SimulatedDevice
from i18n import Translator, translator
from rules import get_variant
from rules.options import parse_text, to_json

from . import commands as cmd
from . import config as config_module
from . import events as ev
from .broadcast import broadcasting
from .config import Config
from .datadir import DataDirBusy, DataDirLock, holder
from .extras import MQTT, WEB, require
from .replay import read_record
from .sensorlog import SensorLogWriter
from .session import Session
from .squares import BoardMap
from .states import COMPUTER_SHOWING, COMPUTER_THINKING, GAME_OVER

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard play`` subcommand."""
    parser = sub.add_parser("play", help="play a game on the board (simulated by default)",
                            description="Play on the board: against the built-in engine or a person.")
    config_module.add_arguments(parser)
    parser.add_argument("--script", type=Path,
                        help="read actions and moves from FILE instead of the terminal")
    parser.add_argument("--no-journal", action="store_true",
                        help="do not journal the game to the data directory")
    parser.add_argument("--no-web", action="store_true",
                        help="do not serve the web page (see --listen, --port)")
    parser.add_argument("--sensor-log", type=Path, metavar="FILE",
                        help="write every occupancy change (with its time, the game, the engine's moves and "
                             "commands) to FILE as JSON lines, for `dboard replay-sensors`")
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
    if config.broadcast:
        require(MQTT, "Broadcasting to a hall (broadcast = true)", instead="set broadcast = false")
    if web:
        require(WEB, "The web page", instead="run with --no-web")
        check_port(config.listen, config.port, journal)   # before anything on disk is touched
    lock = DataDirLock(journal, "dboard play", config.port if web else None).acquire() if journal else None
    sensor_log = None
    if args.sensor_log is not None:
        try:
            sensor_log = SensorLogWriter(open(args.sensor_log, "w", encoding="utf-8"), config)  # noqa: SIM115
        except OSError as exc:
            raise SystemExit(f"dboard play: error: cannot write the sensor log {args.sensor_log}: "
                             f"{exc.strerror or exc}") from None
    try:
        return asyncio.run(_play(config, lines, journal, web, sensor_log))
    except asyncio.CancelledError:   # SIGTERM (systemctl stop) or Ctrl-C: the board was closed on the way out
        print("\nStopped: the board is dark and the game is saved.", flush=True)   # past a prompt
        return 0
    finally:
        if lock is not None:
            lock.release()
        if sensor_log is not None:
            sensor_log.close()


def check_port(listen: str, port: int, data_dir: Path | None) -> None:
    """Raise (one line) when the web page's port cannot be listened on, naming the ``dboard play`` that
    holds the data directory when there is one; nothing is written."""
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in listen else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((listen, port))
        except OSError as exc:
            who = holder(data_dir) if data_dir is not None else None
            if data_dir is not None and who is not None:
                raise DataDirBusy(data_dir, who) from None
            raise OSError(f"cannot listen on {listen}:{port}: {exc.strerror}") from None


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


def simulated(device: BoardDevice) -> SimulatedDevice | None:
    """The simulated board the console may move pieces on, or None for a real (or mapped) board."""
    return device if isinstance(device, SimulatedDevice) else None


LEGEND = ("w/b white/black man, W/B king, * a piece the game does not expect there; [ ] lit by the LEDs; "
          "an empty square shows its name")


def render(state: dict[str, Any]) -> str:
    """The board as it stands, White's side at the bottom: each occupied square shows the game's piece there,
    an empty playing square its name (the names moves are typed with), lit squares in brackets, a legend."""
    variant = get_variant(state["variant"])
    squares = BoardMap(variant, state.get("orientation") == "white-far")
    pieces = {(p["row"], p["col"]): ("W" if p["king"] else "w") if p["color"] == "white" else
              ("B" if p["king"] else "b") for p in state["pieces"]}
    lit = {(light["row"], light["col"]) for light in state["leds"]}
    occupied = {tuple(cell) for cell in state["occupancy"]}
    playing = squares.playing()
    width = max(len(squares.name(cell)) for cell in playing) + 2
    lines = []
    for row in reversed(range(state["rows"])):
        line = ""
        for col in range(state["cols"]):
            cell = (row, col)
            if cell in occupied:
                text = pieces.get(cell, "*")
            else:
                text = squares.name(cell) if cell in playing else ""
            text = f"[{text}]" if cell in lit else text
            line += text.center(width) if cell in playing or text else " " * width
        lines.append(line.rstrip())
    return "\n".join([*lines, LEGEND])


def health_report(state: dict) -> str:
    """The board's health as the console prints it: link, faults with what to do, masked squares."""
    link, health = state.get("board_link"), state["board_health"]
    lines = [f"link: {link['state']} on {link['port']}" + (f" ({link['reason']})" if link["reason"] else "")
             if link else "link: wired to the host"]
    lines += [f"fault: {fault['text']}" for fault in health["faults"]] or ["no sensor or wire at fault"]
    if health["masked_names"]:
        lines.append("masked: " + " ".join(health["masked_names"]))
    if health["unseen"]:
        lines.append("to confirm: " + " or ".join(health["unseen"]))
    return "\n".join(lines)


def words_of(session: Session) -> Translator:
    """The console's language: the board's."""
    return translator(session.config.language)


def read_position(session: Session, words: Translator, square: str | None = None) -> str:
    """The position in words (with a ``square``: what is on it and where it may go), in the board's
    language; also said aloud when the board speaks."""
    text = session.position(square)
    if session.speech is not None:
        session.speech.say(text, "position" if square is None else "piece")
    return words.render(text)


def _print_event(event: ev.Event, words: Translator) -> None:
    """One event as the console prints it, its sentences in the board's language."""
    if isinstance(event, ev.MoveCommitted):
        print(f"move {event.ply}: {event.text} ({event.by})")
    elif isinstance(event, ev.Message):
        print(f"[{event.level}] {words.render(event.text)}")
    elif isinstance(event, ev.Refusal):
        print(f"[refused: {words.gettext(event.rule)}] {words.render(event.message)}")
    elif isinstance(event, ev.GameOver):
        print(f"game over: {event.result} ({event.reason})")


async def _printer(events: asyncio.Queue[ev.Event], words: Translator) -> None:
    while True:
        _print_event(await events.get(), words)


async def _printed(events: asyncio.Queue[ev.Event]) -> None:
    """Wait until the printer has printed every event so far, so that what the session said (the computer's
    answer to a draw offer, a game's end) comes before the board and the prompt, however busy the machine."""
    while not events.empty():   # (the printer prints an event in the step that takes it off the queue)
        await asyncio.sleep(0)


def _simulated_only(device: SimulatedDevice | None, what: str) -> SimulatedDevice:
    """The simulated board, or a ValueError: the console cannot move the pieces of a real board."""
    if device is None:
        raise ValueError(f"{what!r}: on a real board, move the pieces by hand (the LEDs show the computer's "
                         f"moves); `help` lists the commands")
    return device


def _cell(device: SimulatedDevice, session: Session, words: list[str]) -> tuple[int, int]:
    """The cell named by a square of the game (``32``, ``c3``) or by ``ROW COL`` from White's side; a
    ValueError naming what is wrong otherwise."""
    if len(words) == 1:
        ctl = session.controller
        try:
            return ctl.map.cell_of(words[0])
        except ValueError as exc:
            raise ValueError(f"{words[0]!r} is not a square of {ctl.variant.name}: {exc}") from None
    try:
        row, col = int(words[0]), int(words[1])
    except ValueError:
        raise ValueError(f"expected a square name or ROW COL numbers, got {' '.join(words)!r}") from None
    if not (0 <= row < device.rows and 0 <= col < device.cols):
        raise ValueError(f"({row}, {col}) is off the {device.rows}x{device.cols} board: rows "
                         f"0-{device.rows - 1}, columns 0-{device.cols - 1}")
    return row, col


def _execute(session: Session, device: SimulatedDevice | None, text: str) -> None:
    """Make the move ``text`` (or the computer's pending move) physically on the simulated board."""
    device = _simulated_only(device, text)
    ctl = session.controller
    shape = ctl.computer_shape if text == "computer" else None
    if shape is None:
        move = ctl.game.board.parse_move(text)
        shape = ctl.exp.shape_of(move)
        if shape is None:
            raise ValueError(f"{text} is not a legal move here")
    for verb, square in shape.by_hand():   # (a Konane removal put its piece back: "Took back 1 ply")
        (device.lift if verb == "lift" else device.place)(square)


HELP = """\
A move in the variant's notation (32-28, 27x18, or 27x18x9 when the path is ambiguous) is made on the
simulated board for you; `computer` makes the computer's pending move as the LEDs show it.
  lift SQUARE, place SQUARE     pick up or put down one piece (a square's name, or ROW COL from White's
                                side, 0 at White's left, for a square that is not played on)
  wait SECONDS                  let time pass (a piece held up, a clock running)
  setup                         put every piece where the game expects it
  new [VARIANT [NAME=VALUE ...]] a new game with the same players (then `setup`); the variant's options,
                                e.g. `new thai first=white` (without: this game's, or the variant's defaults)
  takeback [N]                  take back N plies (default 1)
  retract | accept | huff       answer a missed compulsory capture
  resign [white|black]          resign (default: your color)
  draw [white|black]            offer a draw (default: your color; the computer answers at once), or
                                accept the one the other side offers; `decline` declines it
  claim [white|black]           claim a draw the rules allow now (English repetition, 40 moves; ...)
  hint                          ask the engine for a move, shown by the LEDs
  show | pdn | save             the board, the game so far as PDN, save it to the data directory
  read [SQUARE]                 the position in words (each side's squares, kings named, whose turn),
                                or what is on SQUARE and where it may go; aloud too when the board speaks
  health                        the board's link and any sensor or wire found at fault
  mask SQUARE... | unmask ...   stop (or resume) believing broken squares' sensors (18, or r3c4 off the
                                playing squares): the game is trusted for them
  confirm MOVE                  make a move the board cannot show (a piece put on a masked square)
  exercise [VARIANT] [ID]       set up an exercise as the LEDs show (default: your next unsolved one); the
                                computer plays its line's replies; `next` sets up the next one
  replay FILE [GAME]            replay a game of a PDN file; then forward, back (the LEDs show each move)
  stop                          end the exercise or replay: its position stays for free play
  help                          this list
  quit                          stop"""


def _new_game(session: Session, words: list[str]) -> cmd.NewGame:
    """``new [VARIANT [NAME=VALUE ...]]``: the same players as this game, or after a lesson as the game
    before it (a replay stopped leaves free play); this game's variant and options unless named."""
    s = session.controller.settings
    players = session.lessons.home or s
    color = players.human_color if players.human_color != "none" else session.config.human_color
    same = not words or words[0] == s.variant.id
    options = parse_text(" ".join(words[1:])) if len(words) > 1 else (
        to_json(s.variant.option_values()) if same else {})
    return cmd.NewGame(words[0] if words else s.variant.id, color, players.opponent, players.level,
                       players.time_control, variant_options=options)


USAGE = {"lift": "lift SQUARE (or ROW COL)", "place": "place SQUARE (or ROW COL)", "wait": "wait SECONDS",
         "mask": "mask SQUARE...", "unmask": "unmask SQUARE...", "confirm": "confirm MOVE",
         "exercise": "exercise [VARIANT] [ID]", "replay": "replay FILE [GAME]", "draw": "draw [white|black]",
         "offer": "draw [white|black]", "decline": "decline [white|black]"}
"""The commands whose words were not as expected: a command word is never read as a move."""


def _other(color: str) -> str:
    return "black" if color == "white" else "white"


def _your_color(session: Session) -> str:
    """The person's color (with two people at the board: the side to move)."""
    s = session.controller.settings
    if s.opponent != "person" and s.human_color in ("white", "black"):
        return s.human_color
    return session.controller.game.board.turn.name.lower()


def _draw(session: Session, verb: str, words: list[str]) -> cmd.Command:
    """``draw``/``offer`` offers a draw, or accepts the offer of the other side; ``decline`` declines it."""
    ctl = session.controller
    named = words[0].lower() if words else None
    if named not in (None, "white", "black"):
        raise ValueError(f"usage: {USAGE[verb]}")
    answerer = _other(ctl.draw_offer) if ctl.draw_offer is not None else None
    if verb == "decline":
        if answerer is None:
            raise ValueError("there is no draw offer to decline")
        return cmd.DeclineDraw(named or answerer)
    if named is None and answerer is not None and ctl.settings.plays(answerer) == "person":
        return cmd.AcceptDraw(answerer)
    color = named or _your_color(session)
    return cmd.AcceptDraw(color) if color == answerer else cmd.OfferDraw(color)


async def _answered(session: Session, offered_by: str, seconds: float = 30.0) -> None:
    """Wait while the computer considers a draw offer (it answers at once, after a short look)."""
    ctl, waited = session.controller, 0.0
    s = ctl.settings
    if s.opponent != "engine" or s.plays(_other(offered_by)) != "computer":
        return
    while ctl.draw_offer == offered_by and ctl.turn_state != GAME_OVER and waited < seconds:
        await asyncio.sleep(0.02)
        waited += 0.02
    await session.idle()


async def _line(session: Session, device: SimulatedDevice | None, line: str) -> bool:
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
    if verb in ("lift", "place") and len(words) in (2, 3):
        cell = _cell(_simulated_only(device, verb), session, words[1:])
        await session.send(cmd.Lift(*cell) if verb == "lift" else cmd.Place(*cell))
    elif verb == "wait" and len(words) == 2:
        await asyncio.sleep(float(words[1]))
    elif verb == "setup":
        _simulated_only(device, verb).set_occupancy(session.controller.exp.base)
    elif verb == "takeback":
        await session.send(cmd.Takeback(int(words[1]) if len(words) > 1 else 1))
    elif verb in ("retract", "accept", "huff"):
        await session.send(cmd.MissedCaptureChoice(verb))
    elif verb == "new":   # new [VARIANT [name=value ...]]: that variant with those options, or this game's
        await session.send(_new_game(session, words[1:]))
    elif verb == "claim":
        color = words[1] if len(words) > 1 else session.controller.game.board.turn.name.lower()
        await session.send(cmd.ClaimDraw(color))
    elif verb in ("draw", "offer", "decline") and len(words) <= 2:
        command = _draw(session, verb, words[1:])
        await session.send(command)
        await session.idle()
        if isinstance(command, cmd.OfferDraw):
            await _answered(session, command.color)
    elif verb == "resign":
        color = words[1] if len(words) > 1 else session.controller.settings.human_color
        await session.send(cmd.Resign(color))
    elif verb == "hint":
        await session.send(cmd.Hint())
    elif verb in ("mask", "unmask") and len(words) > 1:
        cells = tuple(session.health.cell(word) for word in words[1:])
        await session.send(cmd.MaskSquares(cells, verb == "mask"))
    elif verb == "confirm" and len(words) == 2:
        await session.send(cmd.ConfirmMove(words[1]))
    elif verb == "health":
        print(health_report(session.view()))
    elif verb == "exercise" and len(words) <= 3:
        variant = words[1] if len(words) > 1 else session.controller.variant.id
        await session.send(cmd.StartExercise(variant, words[2] if len(words) > 2 else ""))
    elif verb == "replay" and len(words) in (2, 3):
        text = read_record(Path(words[1]).expanduser())
        await session.send(cmd.StartReplay(pdn=text, game=int(words[2]) if len(words) > 2 else 1,
                                           variant=session.controller.variant.id))
    elif verb in ("forward", "back", "stop", "next"):
        await session.send(cmd.LessonStep(verb))
    elif verb == "pdn":
        print(session.controller.pdn())
    elif verb == "save":
        await session.send(cmd.SavePdn())
    elif verb == "show":
        pass   # the board is printed after every line
    elif verb == "read":   # the position in words, and aloud with speech on: for a blind player
        print(read_position(session, words_of(session), words[1] if len(words) > 1 else None))
    elif verb in USAGE:
        raise ValueError(f"usage: {USAGE[verb]}")
    else:
        _execute(session, device, line.strip())
    await session.idle()
    return True


def _stdin_lines() -> asyncio.Queue[str]:
    """Lines typed at the terminal ('' at its end), read by a daemon thread: a pending read never keeps the
    program from stopping on Ctrl-C or SIGTERM, as a read in the loop's executor would."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read() -> None:
        while True:
            line = sys.stdin.readline()
            loop.call_soon_threadsafe(lines.put_nowait, line)
            if not line:
                return

    threading.Thread(target=read, name="console-input", daemon=True).start()
    return lines


async def _check_link(hardware: BoardDevice, seconds: float = 3.0) -> None:
    """Say so when a serial board does not answer at start (unplugged, wrong device); it is still awaited."""
    link = serial_link(hardware)
    if link is not None and not await asyncio.to_thread(link.wait_synced, seconds):
        print(f"[warning] no answer from the board on {link.port} after {seconds:g} s: is it plugged in? "
              f"Waiting for it (serial_port names another device).", flush=True)


async def _computer(session: Session, device: SimulatedDevice | None, seconds: float = 120.0) -> None:
    """Wait while the computer thinks (on the simulated board its move then plays itself, unless
    ``auto_computer`` is off: then say how to make it)."""
    ctl = session.controller
    waited = 0.0
    if ctl.settings.human_color == "none" and session.lessons.lesson is None:
        seconds = 0.0   # a replay resumed after a restart: no record and no engine answers it
    while ctl.state == COMPUTER_THINKING and waited < seconds:
        await asyncio.sleep(0.02)
        waited += 0.02
    await session.idle()
    if ctl.state == COMPUTER_SHOWING and ctl.computer_shape is not None and device is not None:
        print(f"(type {ctl.computer_shape.text} or `computer` to make the computer's move on the board)")


async def _play(config: Config, lines: Iterable[str] | None, journal: Path | None, web: bool = False,
                sensor_log: SensorLogWriter | None = None) -> int:
    variant = config.game_variant()
    hardware = open_sensors(config, variant.height, variant.width)
    device = simulated(hardware)
    session = Session(config, hardware, hardware, journal, sensor_log=sensor_log)
    main = asyncio.current_task()
    assert main is not None
    with contextlib.suppress(NotImplementedError):   # stop cleanly: LEDs dark, GPIO freed, journal shut
        for stop in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(stop, main.cancel)
    try:
        return await _run_session(session, device, config, lines, web)
    finally:
        hardware.close()


async def _run_session(session: Session, device: SimulatedDevice | None, config: Config,
                       lines: Iterable[str] | None, web: bool) -> int:
    async with session, broadcasting(session, config):
        words = translator(config.language)
        for message in session.view()["messages"]:   # said while starting (a resumed game), before we listen
            print(f"[{message['level']}] {words.render(message['text'])}")
        events = session.subscribe()
        printer = asyncio.create_task(_printer(events, words))
        if device is not None:
            device.set_occupancy(session.controller.exp.base)
        else:
            print(f"Board: {session.sensors!r}. Move the pieces by hand; the LEDs show what to do.")
            await _check_link(session.sensors)
        server = None
        if web:
            from web.server import start_server

            server = await start_server(session, config)   # prints "Open http://HOST:PORT/"
        await session.idle()
        await _computer(session, device)
        await _printed(events)
        print(render(session.view()))
        interactive = lines is None
        if interactive:
            shapes = session.controller.exp.shapes
            example = shapes[0].text if shapes else "32-28"
            what = f"a move (like {example}) or a command" if device is not None else "a command"
            print(f"Type {what}; `help` lists them, `quit` stops.")
        source = iter(lines) if lines is not None else None
        typed = _stdin_lines() if interactive else None
        quit_asked = False
        while True:   # past a game's end too: the next game starts when the pieces are set up again
            line: str | None
            if typed is not None:
                sys.stdout.write(f"{session.controller.state}> ")
                sys.stdout.flush()
                line = await typed.get()
                if not line:
                    break
            else:
                assert source is not None
                line = next(source, None)
                if line is None:
                    break
            try:
                if not await _line(session, device, line):
                    quit_asked = True
                    break
            except ValueError as exc:
                print(f"error: {exc}")
                continue
            await _computer(session, device)
            await _printed(events)
            print(render(session.view()))
        if not quit_asked and (server is not None or device is None):
            # Input ended (or the game did): a real board and the web page stay in play until Ctrl-C, so a
            # service with no terminal keeps running and the next game starts when the pieces are set up.
            print("The board stays live; press Ctrl-C to stop.", flush=True)
            await (server.wait() if server is not None else asyncio.Event().wait())
        if server is not None:
            await server.stop()
        await asyncio.sleep(0.05)
        printer.cancel()
        if session.controller.turn_state == GAME_OVER:
            print(session.controller.pdn())
    return 0
