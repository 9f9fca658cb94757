"""How the sensor logs of tests/data/sensor-logs were made: each misreading cause of issue 23, played by
scripted hands on the simulated board (4 ms debounce, like the board's firmware) and logged as `dboard play
--sensor-log` logs it. The scripts are in words (``lift 9, place 13, wait 0.25``); README.md lists what each
log shows. The logs kept here were written with the controller of commit e96fb21 (before issue 23), whose
misreadings their `recorded` notes keep; so this writes into the directory it is given, never over them.
Run: .venv/bin/python tests/data/sensor-logs/make_logs.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools

from controller.config import Config
from controller.consult import EngineAnswer
from controller.hands import Hands, Step
from controller.inference import trace
from controller.offline import OfflinePorts
from controller.sensorlog import SensorLogWriter
from controller.settings import GameSettings
from controller.table import Table
from firmware_bridge.clock import ManualClock

DEBOUNCE = 0.004
OUT = Path(sys.argv[1]) if len(sys.argv) == 2 else None


def make(path: str, variant: str, script: str, *, fen: str | None = None, human_color: str = "both",
         opponent: str = "person", **config: object) -> None:
    """Play ``script`` on a fresh board of ``variant`` (set up first) and write its sensor log to ``path``."""
    clock = ManualClock(5000.0)
    assert OUT is not None
    out = OUT / path
    out.parent.mkdir(parents=True, exist_ok=True)
    cfg = Config(variant=variant, human_color=human_color, opponent=opponent, **config)  # type: ignore[arg-type]
    with open(out, "w", encoding="utf-8") as stream:
        writer = SensorLogWriter(stream, cfg)
        ports = OfflinePorts(clock)
        table = Table(cfg, ports, clock=clock, settings=GameSettings(variant, human_color, opponent, 3, fen),
                      sensor_log=writer, can_fail=False)
        ctl = table.controller
        hands = Hands(table, clock, debounce=DEBOUNCE)
        ctl.new_game()
        writer.game(clock.now(), ctl)
        hands.set_up(ctl.exp.base)
        hands.wait(0.5)
        for action in filter(None, (a.strip() for a in script.split(","))):
            verb, *args = action.split()
            if verb == "engine":   # the engine's answer to the request standing
                job = ports.jobs[-1]
                table.engine_answered(EngineAnswer(job.token, job.board.parse_move(args[0])), clock.now())
            elif verb == "setup":
                hands.device.set_occupancy(ctl.start_occupancy if args == ["start"] else ctl.exp.base)
                hands.wait(0.0)
            elif verb == "move":
                move = ctl.game.board.parse_move(args[0])
                cells = [ctl.map.rc(move.from_square), *(ctl.map.rc(sq) for sq in move.captures)]
                for cell in cells:
                    hands.do(Step("lift", cell))
                    hands.wait(0.1)
                hands.do(Step("place", ctl.map.rc(move.to_square)))
                hands.wait(0.6)
            elif verb == "slide":   # touching the corners crossed and the squares passed, 50 ms each
                cells = trace([ctl.map.rc(ctl.variant.geometry.parse_square(sq)) for sq in args])
                hands.do(Step("lift", cells[0]))
                for a, b in itertools.pairwise(cells):
                    for corner in ((a[0], b[1]), (b[0], a[1])):
                        if corner not in ctl.map.playing():
                            hands.do(Step("knock", corner, 0.05))
                    if b != cells[-1]:
                        hands.do(Step("knock", b, 0.05))
                hands.do(Step("place", cells[-1]))
                hands.wait(0.6)
            elif verb == "plies":   # quiet moves that leave the next side no capture, the first legal ones
                for _ in range(int(args[0])):
                    board = ctl.game.board
                    for move in board.legal_moves:
                        after = board.copy()
                        after.push(move)
                        if not move.captures and not any(m.captures for m in after.legal_moves):
                            break
                    hands.do(Step("lift", ctl.map.rc(move.from_square)))
                    hands.wait(0.2)
                    hands.do(Step("place", ctl.map.rc(move.to_square)))
                    hands.wait(0.8)
            elif verb == "restart":   # the moved pieces taken off one by one, then put on the start squares
                now = frozenset(hands.device.occupied)
                for cell in sorted(now - ctl.start_occupancy):
                    hands.do(Step("lift", cell))
                    hands.wait(0.3)
                for cell in sorted(ctl.start_occupancy - now):
                    hands.do(Step("place", cell))
                    hands.wait(0.3)
            elif verb == "wait":
                hands.wait(float(args[0]))
            else:
                cell = ctl.map.rc(ctl.variant.geometry.parse_square(args[0])) if not args[0].startswith("r") \
                    else (int(args[0][1:].split("c")[0]), int(args[0].split("c")[1]))
                seconds = float(args[1]) if verb == "knock" else 0.0
                edges = int(args[1]) if verb == "flicker" else 0
                hands.do(Step(verb, cell, seconds, edges))
                hands.wait(0.05)
        hands.wait(1.0)
    print(f"{path}: {', '.join(r.text for r in ctl.records)} ({ctl.state})")


# 1. Change of mind: a man put on one legal square and moved on to another 0.25 s later.
CHANGE_OF_MIND = {
    "english": ("9", "13", "14", None),
    "international": ("32", "27", "28", None),
    "russian": ("c3", "b4", "d4", None),
    "italian": ("22", "18", "19", None),
    "turkish": ("d4", "c4", "d5", "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:"
                                  "Ba5,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    "spanish": ("11", "14", "15", None),
}

# 2. A piece knocked onto a square it may move to, put back (then a 40 ms knock), and the real move at once.
KNOCK_THEN_MOVE = {
    "english": ("11", "15", "9", "13"),
    "international": ("34", "29", "32", "28"),
    "russian": ("e3", "f4", "c3", "d4"),
    "italian": ("23", "19", "22", "18"),
    "turkish": ("c3", "c4", "a3", "a4"),
    "spanish": ("10", "13", "12", "16"),
}

# 3. A flying king resting 0.4 s on each square it passes; and a king capture landing first on the nearest
#    square beyond the captured piece, then moved on to the square meant.
FLYING = {   # FEN, king, squares passed (rested on), target; capture FEN, king, captured, landings
    "international": ("W:WK46,31:B5", "46", ["41", "37", "32"], "28",
                      "W:WK46,35:B37,5", "46", "37", ["32", "28", "23"]),
    "russian": ("W:WKa1,c1:Bh8,f8", "a1", ["b2", "c3", "d4"], "e5",
                "W:WKa1,c1:Bc3,h8", "a1", "c3", ["d4", "e5", "f6"]),
    "spanish": ("W:WK1,6:B32,30", "1", ["5", "10"], "14",
                "W:WK1,6:B5,32,30", "1", "5", ["10", "14", "19"]),
    "turkish": ("W:WKa1,h2:Bh8,g8", "a1", ["a2", "a3", "a4"], "a5",
                "W:WKa1,h2:Ba3,h8,g8", "a1", "a3", ["a4", "a5", "a6"]),
}

# 4. While a king move settles, an opponent's piece brushed (read empty for 50 ms); then the king moves on.
BRUSH = {   # FEN, king, rested on, brushed opponent piece, target
    "international": ("W:WK46,31:B5,9", "46", "37", "9", "28"),
    "russian": ("W:WKa1,c1:Bh8,f8", "a1", "c3", "f8", "e5"),
    "spanish": ("W:WK1,6:B32,30", "1", "10", "30", "14"),
    "turkish": ("W:WKa1,h2:Bh8,g8", "a1", "a3", "g8", "a5"),
}

# 5. The computer's move carried out as another legal move (the person plays the first mover).
COMPUTER = {   # the person's move, the computer's, the one made for it instead
    "english": ("black", "9-13", "22-18", "22-17"),
    "international": ("white", "32-28", "19-23", "19-24"),
    "russian": ("white", "c3-d4", "f6-g5", "f6-e5"),
    "italian": ("white", "21-17", "10-14", "10-13"),
    "turkish": ("white", "a3-a4", "a6-a5", "b6-b5"),
    "spanish": ("white", "12-16", "21-17", "21-18"),
}

# 6. Diagonal slides brushing the corner sensors of squares that are not played on (men and kings).
SLIDES = {   # FEN, three moves slid
    "english": ("B:W22,30:BK5,10", ["10 14", "30 26", "5 9"]),
    "international": ("W:WK46,33:B5,20", ["33 28", "20 25", "46 32"]),
    "russian": ("W:WKa1,e3:Bh8,c7", ["e3 f4", "c7 d6", "a1 d4"]),
    "italian": ("W:WK29,24:B5,1", ["24 20", "5 9", "29 25"]),
    "spanish": ("W:WK1,10:B32,28", ["10 14", "28 24", "1 10"]),
}

# 7a. The side not to move lifts a piece (held 1 s, put back), then the side to move plays.
NOT_YOUR_TURN = {
    "english": ("22", "9-13"), "international": ("19", "32-28"), "russian": ("f6", "c3-d4"),
    "italian": ("10", "21-17"), "turkish": ("a6", "a3-a4"), "spanish": ("21", "12-16"),
}


def main() -> None:
    for variant, (origin, first, then, fen) in CHANGE_OF_MIND.items():
        make(f"change-of-mind/{variant}.jsonl", variant,
             f"lift {origin}, place {first}, wait 0.25, lift {first}, place {then}, wait 1.5", fen=fen)
    for variant, (knocked, onto, origin, target) in KNOCK_THEN_MOVE.items():
        make(f"knock-put-back/{variant}.jsonl", variant,
             f"lift {knocked}, place {onto}, wait 0.15, lift {onto}, place {knocked}, knock {knocked} 0.04, "
             f"lift {origin}, place {target}, wait 1.5")
    for variant, (fen, king, passed, target, cfen, cking, captured, landings) in FLYING.items():
        rests = ", ".join(f"place {sq}, wait 0.4, lift {sq}" for sq in passed)
        make(f"flying-king-rest/{variant}.jsonl", variant,
             f"lift {king}, {rests}, place {target}, wait 2", fen=fen)
        first, *_, last = landings
        make(f"king-capture-landing/{variant}.jsonl", variant,
             f"lift {cking}, lift {captured}, place {first}, wait 0.4, lift {first}, place {last}, wait 2",
             fen=cfen)

    for variant, (fen, king, rest, brushed, target) in BRUSH.items():
        make(f"brushed-reply/{variant}.jsonl", variant,
             f"lift {king}, place {rest}, wait 0.15, knock {brushed} 0.05, wait 0.05, lift {rest}, "
             f"place {target}, wait 2", fen=fen)
    for variant, (color, mine, theirs, instead) in COMPUTER.items():
        origin, target = (instead.split("-"))
        make(f"computer-move-wrong/{variant}.jsonl", variant,
             f"move {mine}, wait 0.5, engine {theirs}, wait 0.5, lift {origin}, place {target}, wait 4",
             human_color=color, opponent="engine")
    for variant, (fen, slides) in SLIDES.items():
        make(f"corner-slides/{variant}.jsonl", variant, ", ".join(f"slide {s}" for s in slides), fen=fen)
    for variant, (theirs, move) in NOT_YOUR_TURN.items():
        make(f"not-your-turn/{variant}.jsonl", variant, f"lift {theirs}, wait 1, place {theirs}, move {move}")
        make(f"start-position-early/{variant}.jsonl", variant, "plies 4, restart, wait 1")
    make("refusal-reason/italian.jsonl", "italian", "lift 8, lift 12, place 15, wait 1",
         fen="B:W12,17,20,22,25,26,27,28,29,31,32:B1,2,3,4,6,7,8,9,10,13")


if __name__ == "__main__":
    if OUT is None:
        raise SystemExit("usage: make_logs.py OUT_DIR")
    main()
