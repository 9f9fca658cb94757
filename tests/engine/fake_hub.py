"""A Hub engine that misbehaves in one chosen way, run as a real subprocess by the tests.

    python fake_hub.py MODE [PIDFILE]

It speaks enough Hub to be started and, unless MODE says otherwise, answers `go` with the first legal move
of the position it was sent. It appends "pid pgid" to PIDFILE at start so a test can check that the whole
process group is gone afterwards, and its pid to PIDFILE.go on each `go`. Modes (and the issue 22 item
each reproduces):

    good            behaves
    chatty          answers `go` with an `info` line every 20 ms, never `done` (item 1)
    flood           answers `go` with `info` lines in a tight loop, never `done` (item 1)
    flood-then-move 20 MB of `info` lines, then a legal move (item 1: only the newest info matters)
    chatty-start    prints `info` every 20 ms instead of finishing the handshake (items 1, 3)
    mute-start      never answers `hub` (item 3)
    apostrophes     `id name=Ed's-engine`, `info message=can't-see-book`, then a legal move (item 2)
    unparsable      `info pv="32-28` (a quote never closed) before its move (item 2)
    non-utf8        a name and an info line with bytes that are not UTF-8, then a legal move (item 8)
    long-line       a 1 MB line, then a legal move (item 8)
    helper          forks a helper that keeps stdout open, then exits 1 on `go` (item 4)
    crash           30 lines of traceback on stderr, then exit 1 on `go` (item 9)
    ignore-quit     plays, but ignores `quit` and SIGTERM
"""

from __future__ import annotations

import os
import signal
import sys
import time

if len(sys.argv) > 2:   # first of all, so that even an engine killed while importing is accounted for
    with open(sys.argv[2], "a", encoding="ascii") as f:
        f.write(f"{os.getpid()} {os.getpgrp()}\n")

from engine.hub_protocol import parse_message
from engine.notation import board_from_position, hub_move_text, parse_hub_move
from rules import get_variant

MODE = sys.argv[1]
out = sys.stdout.buffer


def say(line: str | bytes) -> None:
    out.write(line if isinstance(line, bytes) else line.encode())
    out.write(b"\n")
    out.flush()


def forever(line: bytes, pause: float) -> None:
    while True:
        say(line)
        if pause:
            time.sleep(pause)


def legal_move(variant: str, pos: str | None, moves: str) -> str:
    board = board_from_position(get_variant(variant), pos[0], pos[1:]) if pos else None
    if board is None:
        from rules import Board

        board = Board(variant)
    for text in moves.split():
        board.push(parse_hub_move(board, text))
    return hub_move_text(board, next(iter(board.legal_moves)))


def main() -> int:
    if MODE == "ignore-quit":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    variant, pos, moves = "international", None, ""
    for raw in sys.stdin:
        if not raw.strip():
            continue
        msg = parse_message(raw)
        if msg.command == "hub":
            if MODE == "mute-start":
                continue
            if MODE == "chatty-start":
                forever(b"info depth=1", 0.02)
            name = {"apostrophes": b"Ed's-engine", "non-utf8": b"caf\xe9\xff"}.get(MODE, MODE.encode())
            say(b"id name=" + name)
            say("wait")
        elif msg.command == "set-param" and msg.get("name") == "variant":
            variant = msg.get("value") or variant
        elif msg.command == "init":
            say("ready")
        elif msg.command == "pos":
            pos, moves = msg.get("pos"), msg.get("moves") or ""
        elif msg.command == "go":
            if len(sys.argv) > 2:
                with open(sys.argv[2] + ".go", "a", encoding="ascii") as f:
                    f.write(f"{os.getpid()}\n")
            if MODE == "chatty":
                forever(b"info depth=1 score=0.00", 0.02)
            elif MODE == "flood":
                forever(b"info depth=9 score=0.01 pv=\"32-28 19-23\"", 0)
            elif MODE == "flood-then-move":
                block = b"info depth=3 nodes=12345 pv=\"32-28 19-23 28x19\"\n" * 1000
                for _ in range(20_000_000 // len(block)):
                    out.write(block)
            elif MODE == "apostrophes":
                say("info message=can't-see-book")
            elif MODE == "unparsable":
                say('info pv="32-28')
            elif MODE == "non-utf8":
                say(b"info message=\xff\xfe\x80")
            elif MODE == "long-line":
                say(b"info pv=" + b"x" * 1_000_000)
            elif MODE == "helper":
                if os.fork() == 0:
                    time.sleep(3600)   # holds stdout open, as a wrapper script's helper would
                    os._exit(0)
                return 1
            elif MODE == "crash":
                for i in range(30):
                    print(f"Traceback line {i}: something broke", file=sys.stderr)
                sys.stderr.flush()
                return 1
            say(f"done move={legal_move(variant, pos, moves)}")
        elif msg.command == "quit" and MODE != "ignore-quit":
            return 0
    if MODE == "ignore-quit":
        time.sleep(3600)
    return 0


if __name__ == "__main__":
    sys.exit(main())
