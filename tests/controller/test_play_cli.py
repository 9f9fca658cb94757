"""`dboard play`: games driven by a script and printed to the console, on the simulated board and on a
serial board (the emulated MCU on a pseudo-terminal)."""

from __future__ import annotations

import os
import pty
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from card import command, open_card_for_a_process
from rig import Rig

from firmware_bridge.emulator import BoardEmulator

ROOT = Path(__file__).resolve().parents[2]
TWO_PEOPLE = ("--variant", "english", "--opponent", "person", "--human-color", "both", "--no-web")


def play(tmp_path: Path, lines: str, *options: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    """Run ``dboard -q play OPTIONS --script FILE`` with ``lines`` in FILE; check the exit code."""
    script = tmp_path / "lines.txt"
    script.write_text(lines, encoding="utf-8")
    command = [sys.executable, "-m", "controller.cli", "-q", "play", *options, "--script", str(script)]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == expect, out.stderr
    return out


def test_play_script_person_against_person(tmp_path: Path) -> None:
    text = play(tmp_path, "# moves by text and by physical actions\nhelp\n9-13\nlift 2 2\nplace 3 1\n"
                "show\nlift 0 0\nwait 0.1\nplace 0 0\nresign white\n", *TWO_PEOPLE, "--no-journal").stdout
    assert "takeback [N]" in text and "retract | accept | huff" in text   # the help list
    assert "move 1: 9-13 (black)" in text
    assert "move 2: 22-17 (white)" in text  # lift 2 2 / place 3 1 is c3-b4, 22-17 in English numbering
    assert "game over: 0-1 (resignation)" in text
    assert '[Result "0-1"]' in text and '[Termination "Normal"]' in text   # issue 13 item 10
    assert "1. 9-13 22-17 {resignation} 0-1" in text


SAID = [("nl", "Nieuwe partij Engels dammen"), ("ru", "Английские шашки"),
        ("en", "New game of English draughts")]


@pytest.mark.parametrize(("language", "said"), SAID)
def test_the_console_speaks_the_boards_language(tmp_path: Path, language: str, said: str) -> None:
    """Issue 31: config ``language`` (here --language) is the terminal's language too."""
    text = play(tmp_path, "offer white\n", *TWO_PEOPLE, "--no-journal", "--language", language).stdout
    assert said in text, text
    offer = {"nl": "Wit", "ru": "Белые", "en": "White offers a draw."}[language]
    assert offer in text.split("[info]", 2)[-1], text


def test_play_goes_on_after_a_game_with_a_new_one(tmp_path: Path) -> None:
    text = play(tmp_path, "9-13\nresign white\nnew\nsetup\n10-14\npdn\n", *TWO_PEOPLE, "--no-journal").stdout
    assert "game over: 0-1 (resignation)" in text
    assert "New game of English draughts.\n" in text   # the simulated board sets itself up
    assert "move 1: 10-14 (black)" in text and "1. 10-14 *" in text


def test_play_says_it_resumes_an_unfinished_game(tmp_path: Path) -> None:
    """The resume message is said while the session starts; the console must still show it."""
    data = ("--data-dir", str(tmp_path / "data"))
    first = play(tmp_path, "9-13\n22-17\n", *TWO_PEOPLE, *data).stdout
    assert "Resuming" not in first and "move 2: 22-17 (white)" in first
    second = play(tmp_path, "pdn\n", *TWO_PEOPLE, *data).stdout
    assert "[info] Resuming the game of English draughts after 2 plies." in second
    assert "1. 9-13 22-17 *" in second


def test_play_on_a_serial_board(tmp_path: Path) -> None:
    """`dboard play --profile 8x8-serial`: the emulated MCU on a pty is the board; a move made on its switches
    is committed, and the console refuses to move pieces it cannot reach."""
    english = Rig("english")   # the controller's own square <-> (row, col) mapping and start position
    start, rc = english.ctl.exp.base, english.sq
    with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=3) as emu:
        emu.set_occupancy(start)

        def black_plays_9_13() -> None:   # by hand, once the host has shown its first LED frame
            emu.wait_for_leds(20)
            time.sleep(0.3)
            emu.lift(rc("9"))
            time.sleep(0.1)
            emu.place(rc("13"))

        hand = threading.Thread(target=black_plays_9_13)
        hand.start()
        text = play(tmp_path, "9-13\nwait 4\npdn\nquit\n", *TWO_PEOPLE, "--no-journal",
                    "--profile", "8x8-serial", "--serial-port", emu.port).stdout
        hand.join()
    assert "Board: SerialDevice(" in text
    assert "error: '9-13': on a real board, move the pieces by hand" in text
    assert "move 1: 9-13 (black)" in text
    assert "1. 9-13 *" in text


def test_play_refuses_a_profile_of_the_wrong_size(tmp_path: Path) -> None:
    out = play(tmp_path, "", "--variant", "international", "--profile", "8x8-serial", "--no-web", expect=1)
    assert out.stderr.strip().endswith("board profile '8x8-serial' is 8x8, but international is played on "
                                       "10x10: choose a 10x10 profile or another variant")


def test_play_says_when_the_serial_board_does_not_answer(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-tty"
    text = play(tmp_path, "quit\n", *TWO_PEOPLE, "--no-journal", "--profile", "8x8-serial",
                "--serial-port", str(missing)).stdout
    assert f"[warning] no answer from the board on {missing} after 3 s: is it plugged in?" in text


def test_play_resumes_a_game_before_its_first_move(tmp_path: Path) -> None:
    data = ("--data-dir", str(tmp_path / "data"))
    play(tmp_path, "", *TWO_PEOPLE, *data)
    again = play(tmp_path, "", *TWO_PEOPLE, *data).stdout
    assert "Resuming the game of English draughts before its first move." in again


def test_play_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """`systemctl stop` sends SIGTERM: the session and the board are closed and the exit code is 0.

    Item 14 of issue 13: sent as soon as the LEDs lit, the signal could land under load while the service
    was still starting (checking the serial link, reading its empty stdin); it stopped cleanly but had not
    yet printed "The board stays live". Waiting for that line alone is not enough either: the LED frame
    crosses the serial link on its own thread and can arrive after it. So the signal waits for both. Only
    the reading thread reads stdout (communicate() would read the same pipe and close it under the
    thread); a service that never comes up is killed, not left running."""
    with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=5) as emu:
        command = [sys.executable, "-m", "controller.cli", "-q", "play", *TWO_PEOPLE, "--no-journal",
                   "--profile", "8x8-serial", "--serial-port", emu.port]
        service = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            assert service.stdout is not None and service.stderr is not None
            _until(_lines_of(service.stdout), "The board stays live")  # input ended: it runs as a service
            assert emu.wait_for_leds(20)  # and the set-up hint reached the board
            service.terminate()
            service.wait(timeout=20)
            err = service.stderr.read()
        finally:
            if service.poll() is None:
                service.kill()
                service.wait()
    assert service.returncode == 0, err
    assert "Traceback" not in err


PLAY_ENGLISH_AS_BLACK = [sys.executable, "-m", "controller.cli", "-q", "play", "--variant", "english",
                         "--opponent", "engine", "--human-color", "black", "--level", "1",
                         "--engine-time", "0.1", "--no-web", "--no-journal"]


def test_play_at_a_terminal_tells_how_to_make_the_computers_move() -> None:
    out = subprocess.run([*PLAY_ENGLISH_AS_BLACK, "--no-auto-computer"], input="9-13\nquit\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Type a move (like 9-13) or a command; `help` lists them, `quit` stops." in out.stdout
    assert "move 1: 9-13 (black)" in out.stdout
    assert "or `computer` to make the computer's move on the board)" in out.stdout
    assert "move 2:" not in out.stdout


def test_on_the_simulated_board_the_computers_move_plays_itself() -> None:
    """Issue 13 item 2: the default on the simulated board; nothing to carry out by hand."""
    out = subprocess.run(PLAY_ENGLISH_AS_BLACK, input="9-13\nquit\n", capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "move 1: 9-13 (black)" in out.stdout and "move 2:" in out.stdout and "(white)" in out.stdout
    assert "to make the computer's move" not in out.stdout


def test_the_console_board_names_its_squares_and_refuses_cells_off_the_board() -> None:
    """Issue 13 item 11: square names, an explained legend, and `lift 9 9` on 8x8 refused in words."""
    out = subprocess.run([sys.executable, "-m", "controller.cli", "-q", "play", *TWO_PEOPLE, "--no-journal"],
                         input="lift 9 9\nlift 9\nlift 99\nquit\n", capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "error: (9, 9) is off the 8x8 board: rows 0-7, columns 0-7" in out.stdout
    assert "error: '99' is not a square of English draughts" in out.stdout
    assert "[ ] lit by the LEDs" in out.stdout
    board = out.stdout.split("w/b white/black man")[-2].splitlines()[-8:]   # after `lift 9`
    assert board[2].split() == ["[9]", "b", "b", "b"], board                  # 9 empty and lit (the hand)
    assert board[3].split() == ["[13]", "[14]", "15", "16"], board            # where it may go


@pytest.mark.parametrize(("human", "until"), [
    ("black", "`quit` stops."),                       # at the prompt, reading the terminal
    ("white", "New game of English draughts"),        # the computer (Black) thinking, its worker busy
])


def test_ctrl_c_stops_at_once(human: str, until: str) -> None:
    """Issue 13 item 7: Ctrl-C ends `dboard play` cleanly with one line, at the prompt or while the engine's
    worker is searching. The terminal sends SIGINT to the whole foreground process group (the console and
    the worker process); the console reads a real pseudo-terminal, as at a keyboard."""
    controller_side, console_side = pty.openpty()
    command = [*PLAY_ENGLISH_AS_BLACK[:-4], "--level", "10", "--engine-time", "30", "--human-color", human,
               "--no-web", "--no-journal"]
    proc = subprocess.Popen(command, stdin=console_side, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, start_new_session=True)
    os.close(console_side)
    try:
        assert proc.stdout is not None
        seen = ""
        while until not in seen:
            seen += proc.stdout.readline()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        os.close(controller_side)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert out.strip().splitlines()[-1] == "Stopped: the board is dark and the game is saved."


def test_sigterm_stops_play_at_once_while_an_engine_is_wedged(tmp_path: Path, fake_hub) -> None:
    """An engine that prints `info` for ever and ignores everything: SIGTERM still ends `dboard play` within
    2 s (it ran on until SIGKILL), and the engine's whole process group goes with it."""
    fake = fake_hub("chatty")
    script = tmp_path / "lines.txt"
    script.write_text("show\n", encoding="utf-8")
    command = [sys.executable, "-m", "controller.cli", "-q", "play", "--variant", "english", "--opponent",
               "external", "--external-engine", fake.command, "--human-color", "white",
               "--engine-time", "600", "--no-web", "--no-journal", "--script", str(script)]
    service = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not fake.asked.exists() and time.monotonic() < deadline:   # the engine is thinking
            time.sleep(0.02)
        assert fake.asked.exists(), service.stderr
        stopped = time.monotonic()
        service.terminate()
        _out, err = service.communicate(timeout=2.0)
        took = time.monotonic() - stopped
    finally:
        service.kill()
        service.wait()
    assert service.returncode == 0 and "Traceback" not in err, err
    assert took < 2.0
    fake.assert_gone()


def test_play_against_a_dxp_engine(tmp_path: Path) -> None:
    """`dboard play --opponent dxp --dxp-engine HOST:PORT`: the DXP engine (`dboard dxp --listen`) plays
    White's moves, made on the simulated board by --auto-computer (through the script)."""
    command = [sys.executable, "-m", "controller.cli", "-q", "dxp", "--listen", "0", "--level", "1",
               "--time", "0.05"]
    follower = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        port = int(follower.stdout.readline().rsplit(":", 1)[1])  # type: ignore[union-attr]
        out = play(tmp_path, "19-23\n", "--variant", "international", "--human-color", "black", "--opponent",
                   "dxp", "--dxp-engine", f"127.0.0.1:{port}", "--no-journal", "--no-web").stdout
    finally:
        follower.kill()
        follower.wait()
    moves = [line for line in out.splitlines() if line.startswith("move ")]
    assert [move.split()[-1] for move in moves] == ["(white)", "(black)", "(white)"], out
    assert moves[1] == "move 2: 19-23 (black)" and out.count("The computer (white) played") == 2, out
    assert "failed" not in out, out
# --- the data directory: one writer, a port checked first, damage that never stops the board -------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _lines_of(stream: Any) -> queue.Queue[str]:
    """The lines a process prints, as they come (read on a thread)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
    return lines


def _until(lines: queue.Queue[str], text: str, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while True:
        line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        if text in line:
            return line


def _at_terminal(*options: str, typed: str = "quit\n") -> subprocess.CompletedProcess[str]:
    """Run ``dboard -q play OPTIONS`` as at a terminal (the web page served), ``typed`` on its input."""
    command = [sys.executable, "-m", "controller.cli", "-q", "play", *options]
    return subprocess.run(command, input=typed, capture_output=True, text=True, cwd=ROOT, timeout=60)


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_a_second_instance_names_the_running_one_and_touches_nothing(tmp_path: Path) -> None:
    """Issue 13 item 4: a second `dboard play --port 8081` shared game.journal with no lock, the moves
    interleaved and every later start failed. Now the second one says, in one line, which PID and port hold
    the data directory, and exits non-zero; with the same port it says the same, before touching anything."""
    data = tmp_path / "data"
    port = _free_port()
    first = subprocess.Popen([sys.executable, "-m", "controller.cli", "-q", "play", *TWO_PEOPLE[:-1],
                              "--data-dir", str(data), "--port", str(port)], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert first.stdout is not None and first.stdin is not None
        lines = _lines_of(first.stdout)
        _until(lines, f"Open http://127.0.0.1:{port}/")
        first.stdin.write("9-13\n")
        first.stdin.flush()
        _until(lines, "move 1: 9-13 (black)")
        before = _snapshot(data)
        expected = (f"dboard play: error: the data directory {data} is in use by dboard play (PID "
                    f"{first.pid}, web port {port}): stop it first, or give this one another --data-dir\n")
        for options in (("--port", str(_free_port())), ("--port", str(port)), ("--no-web",)):
            second = _at_terminal(*TWO_PEOPLE[:-1], "--data-dir", str(data), *options, typed="22-17\n")
            assert second.returncode == 1 and second.stderr == expected, options
            assert _snapshot(data) == before
        first.stdin.write("quit\n")
        first.stdin.flush()
        assert first.wait(timeout=30) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    third = play(tmp_path, "22-17\n", *TWO_PEOPLE, "--data-dir", str(data)).stdout   # free again
    assert "Resuming the game of English draughts after 1 ply." in third and "move 2: 22-17 (white)" in third


def test_a_busy_port_is_found_before_anything_on_disk_is_touched(tmp_path: Path) -> None:
    """Issue 13 item 4: a second instance that failed on a busy port had already overwritten the journal."""
    data = tmp_path / "data"
    play(tmp_path, "9-13\n22-17\nresign white\n", *TWO_PEOPLE, "--data-dir", str(data))   # an ended game
    before = _snapshot(data)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = _at_terminal(*TWO_PEOPLE[:-1], "--data-dir", str(data), "--port", str(port))
    assert out.returncode == 1
    assert out.stderr.splitlines() == [f"dboard play: error: cannot listen on 127.0.0.1:{port}: Address "
                                       f"already in use"]
    assert _snapshot(data) == before


def test_play_starts_on_a_damaged_journal_and_says_what_it_kept(tmp_path: Path) -> None:
    """Issue 20 items 4 and 6: damage made `dboard play` exit (two with a traceback), and what was dropped was
    never said. Now it starts, keeps the valid prefix, and says so in the terminal and the log."""
    data = tmp_path / "data"
    play(tmp_path, "9-13\n22-17\n", *TWO_PEOPLE, "--data-dir", str(data))
    journal = data / "game.journal"
    tail = b'{"type":"move","text":null}\n\xff\xfe garbage\n'
    with open(journal, "ab") as fh:
        fh.write(tail)
    script = tmp_path / "pdn.txt"
    script.write_text("pdn\n", encoding="utf-8")
    command = [sys.executable, "-m", "controller.cli", "play", *TWO_PEOPLE, "--data-dir", str(data),
               "--script", str(script)]   # not quiet: the log's warnings are wanted
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    [copy] = data.glob("game.journal.damaged-*")
    said = (f"The journal {journal} was damaged at line 4 (it has no checksum): kept the game up to ply 2 "
            f"(lines 1-3), dropped 2 lines ({len(tail)} bytes); the damaged journal is kept as {copy}.")
    assert f"[warning] {said}" in out.stdout and said in out.stderr   # the terminal and the log
    assert "Resuming the game of English draughts after 2 plies." in out.stdout
    assert "1. 9-13 22-17 *" in out.stdout
    assert "Traceback" not in out.stderr


def test_sigterm_on_a_read_only_card_exits_cleanly(tmp_path: Path) -> None:
    """Issue 20 item 3: SIGTERM on a read-only card exited with a traceback. Here the card turns read-only
    mid-game (the wrapper in the process): the next move is refused, and `systemctl stop` still ends the
    board cleanly."""
    card = open_card_for_a_process(tmp_path)
    english = Rig("english")
    start, rc = english.ctl.exp.base, english.sq
    with BoardEmulator(8, 8, link=str(tmp_path / "tty"), seed=5) as emu:
        service = subprocess.Popen(command(card, "-q", "play", *TWO_PEOPLE, "--data-dir", str(card.path),
                                           "--profile", "8x8-serial", "--serial-port", emu.port),
                                   cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            assert service.stdout is not None
            lines = _lines_of(service.stdout)
            _until(lines, "The board stays live")
            emu.set_occupancy(start)
            _until(lines, "The board is set up: play.")
            emu.lift(rc("9"))
            emu.place(rc("13"))
            _until(lines, "move 1: 9-13 (black)")
            card.read_only()
            emu.lift(rc("22"))
            emu.place(rc("17"))
            _until(lines, "[refused: saving] can't save the move: the card is read-only")
            service.terminate()
            _, err = service.communicate(timeout=20)
        finally:
            if service.poll() is None:   # a failed wait above: leave no board running
                service.kill()
                service.wait()
    assert service.returncode == 0, err
    assert "Traceback" not in err


def test_play_masks_a_square_and_confirms_a_move_it_cannot_see(tmp_path: Path) -> None:
    """The console's side of a broken square: mask it, put a piece there (unseen), confirm the move."""
    text = play(tmp_path, "mask 13\nhealth\nlift 5 1\nplace 4 0\nhealth\nconfirm 9-13\nunmask 13\nhealth\n"
                "pdn\n", *TWO_PEOPLE, "--no-journal").stdout
    assert "[info] Masked 13: the game is trusted for it" in text
    assert "link: wired to the host\nno sensor or wire at fault\nmasked: 13" in text
    assert "The board cannot see a piece on 13 (masked): if you put it there, confirm 9-13" in text
    assert "to confirm: 9-13" in text
    assert "[info] 9-13 is confirmed by hand." in text and "move 1: 9-13 (black)" in text
    assert "[info] 13 is read again." in text and "1. 9-13 *" in text


def test_the_config_masks_squares_and_a_bad_name_is_one_line(tmp_path: Path) -> None:
    """``masked_squares`` in the config file: masked from the start, a move onto it waits for a confirmation;
    a name that is no square stops `dboard play` with the key and what was expected, not a traceback."""
    config = tmp_path / "config.toml"
    config.write_text('masked_squares = "13 r0c1"\n', encoding="utf-8")
    text = play(tmp_path, "health\nlift 5 1\nplace 4 0\nconfirm 9-13\npdn\n", *TWO_PEOPLE, "--no-journal",
                "--config", str(config)).stdout
    assert "masked: r0c1 13" in text           # r0c1: a light square, named by row and column
    assert "The board cannot see a piece on 13 (masked): if you put it there, confirm 9-13" in text
    assert "1. 9-13 *" in text
    config.write_text('masked_squares = "13 99"\n', encoding="utf-8")
    out = play(tmp_path, "", *TWO_PEOPLE, "--config", str(config), expect=1)
    assert out.stderr.strip() == ("dboard play: error: masked_squares: '99' is neither a square of English "
                                  "draughts nor rROWcCOL (like r3c4)")


# --- issue 28: the console's replay, draw offer and exercises ----------------------------------------------

REPLAY = ('[Event "Manchester 1841"]\n[GameType "21"]\n\n'
          '1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 *\n')
AGAINST_THE_ENGINE = ("--variant", "english", "--opponent", "engine", "--human-color", "black",
                      "--level", "1", "--engine-time", "0.1", "--no-web", "--no-journal")


def test_stop_ends_a_replay_at_once_and_the_prompt_answers(tmp_path: Path) -> None:
    """Issue 28 item 1: after `stop` the replay committed one more move, said it was "interrupted by a
    restart" and the prompt stayed in computer.thinking (each line waited for an engine nobody asked). Now
    the position reached stands for free play: the next move typed is played at once, by either side, and
    `new` goes back to the game before the replay (the person as Black against the engine)."""
    record = tmp_path / "game.pdn"
    record.write_text(REPLAY, encoding="utf-8")
    out = _at_terminal(*AGAINST_THE_ENGINE, typed=f"replay {record}\nsetup\nforward\nforward\nforward\nstop\n"
                                                  "22-17\n9-14\nnew\nquit\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Replaying Event 'Manchester 1841' (8 plies)" in text
    assert "move 3: 8-11 (black)" in text and "move 4:" not in text.split("The replay stopped")[0]
    assert "The replay stopped after 3 plies: its position stays for free play" in text
    assert "restart" not in text
    after = text.split("The replay stopped")[1]
    assert "person.idle> " in after                      # the prompt answers in the person's turn
    assert "move 1: 22-17 (white)" in after and "move 2: 9-14 (black)" in after
    assert "New game of English draughts" in after.split("move 2: 9-14 (black)")[1]
    assert "computer.thinking> " not in after


def test_draw_offers_a_draw_the_computer_answers_at_once() -> None:
    """Issue 28 item 10: `draw` was read as a move ("'draw' is not a move") and `help` listed no draw
    offer. Now it offers one with the page's command (OfferDraw), the computer answers before the next
    prompt (a level-1 engine sees the start position level and accepts), and `help` lists it."""
    out = _at_terminal(*AGAINST_THE_ENGINE, typed="help\ndraw\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "  draw [white|black]            offer a draw" in out.stdout
    assert "`decline` declines it" in out.stdout
    assert "not a move" not in out.stdout
    said = out.stdout.split("[info] Black offers a draw.")[1]
    assert said.index("game over: 1/2-1/2 (agreement)") < said.index("game_over> ")


def test_between_two_people_draw_offers_and_answers_and_command_words_are_never_moves() -> None:
    """With two people `draw` offers for the side to move, `decline` or `draw` answers for the other side;
    a command with the wrong words says how it is used instead of being read as a move."""
    out = _at_terminal(*TWO_PEOPLE, "--no-journal", typed="draw\ndecline\ndraw white\nmask\nconfirm\n"
                                                        "draw purple\ndraw\nquit\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "[info] Black offers a draw.\n" in text and "[info] White declines the draw." in text
    assert "[info] White offers a draw." in text
    assert "error: usage: mask SQUARE..." in text and "error: usage: confirm MOVE" in text
    assert "error: usage: draw [white|black]" in text and "not a move" not in text
    assert text.index("[info] White offers a draw.") < text.index("game over: 1/2-1/2 (agreement)")


def test_an_exercise_plays_its_line_out_and_next_sets_up_the_next_one() -> None:
    """Issue 28 item 13: after the right move nobody was to move and the prompt offered nothing. Now the
    computer plays the line's replies on the simulated board by itself, the person's next move of the line
    is confirmed, and once the line is played out `next` sets up the next exercise of the variant."""
    out = _at_terminal(*AGAINST_THE_ENGINE, typed="exercise english english-01\nsetup\n23-18\n18x2\nnext\n"
                                                  "quit\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Right: 23-18 is the solution" in text and "Exercise english-01 solved." in text
    assert "move 2: 27-31 (black)" in text                  # the line's reply, played by itself
    assert "move 3: 18x2 (white)" in text and "Right: 18x2, as the line goes." in text
    assert "move 4: 10-15 (black)" in text
    assert "The line is played out: exercise english-01 is done. Type `next`" in text
    after = text.split("The line is played out")[1]
    assert "Exercise english-02 (2 of 28)" in after and after.rstrip().endswith("person.idle>")


def test_konane_starts_from_the_console() -> None:
    """Issue 30 item 11: the opening removal typed at the prompt was made by lifting the piece and putting
    it back, so it was recorded and at once taken back ("Took back 1 ply"); now both removals and the first
    jump are recorded."""
    out = _at_terminal("--variant", "hawaii", "--human-color", "both", "--opponent", "person", "--no-journal",
                       "--no-web", typed="e4xe4\nd4xd4\ne6xe4\nshow\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "Took back" not in out.stdout and "error" not in out.stdout
    for number, move in enumerate(("e4xe4", "d4xd4", "e6xe4"), 1):
        assert f"move {number}: {move}" in out.stdout


def test_read_says_the_position_in_words_in_the_boards_language(tmp_path: Path) -> None:
    """Issue 31 (blind mode): ``read`` gives each side's squares in order, kings named, and whose turn."""
    text = play(tmp_path, "read\n9-13\nread\n", *TWO_PEOPLE, "--no-journal").stdout
    assert ("White: 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32. "
            "Black: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12. Black to move.") in text, text
    assert "Black: 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13. White to move." in text
    russian = play(tmp_path, "read\n", *TWO_PEOPLE, "--no-journal", "--language", "ru").stdout
    assert "21, 22, 23" in russian and "White:" not in russian and "Black to move" not in russian, russian
