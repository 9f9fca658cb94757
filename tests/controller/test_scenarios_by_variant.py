"""Issue 6 scenarios in every variant where the case exists: physical actions (lift, place, wait) on a Rig.

Positions are hand-built on a diagonal 8x8 sketch (White at the bottom, White to move) and written below in
each variant's own notation: mirrored left-right on the light-square boards (spanish, italian), the same
cells on the 10x10 international board, re-drawn orthogonally for turkish. Every FEN is checked against
rules.Board (its legal moves are listed next to it) before a scenario uses it.

Coverage (X = scenario below; a reason = the case cannot arise in that variant):

| case                                        | spa | int | eng | rus | ita | tur | tha |
|---------------------------------------------|-----|-----|-----|-----|-----|-----|-----|
| commit at once (simple move, last capture)  |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| settle: flying king passing squares         |  X  |  X  |  a  |  X  |  a  |  X  |  X  |
| settle: flying king capture, landing choice |  X  |  X  |  a  |  X  |  a  |  X  |  d  |
| settle: stop during a multi-capture         |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| capture orders (before/during/after, path   |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
|   touched or skipped)                       |     |     |     |     |     |     |     |
| capture ending on its own starting square   |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| same occupancy from two moves: touch / ask  |  b  |  X  |  b  |  b  |  b  |  X  |  b  |
| wrong color of squares                     |  X  |  X  |  X  |  X  |  X  |  c  |  X  |
| promotion: LEDs ask to crown                |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| computer: shown, exact only, other refused, |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
|   quick reply (after an at-once commit)     |     |     |     |     |     |     |     |
| computer capture, any order of events       |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| computer king move pending settle + reply   |  X  |  X  |  a  |  X  |  a  |  X  |  X  |
| takeback by restoring (incl. a capture)     |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| start position starts a new game            |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| out of sync after grace, exact squares      |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| flicker shorter than settle                 |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| missed capture per policy (all: "reject")   |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| LED hints (turn start, lift, "no", capture) |  X  |  X  |  X  |  X  |  X  |  X  |  X  |
| teaching mode                               |  X  |  X  |  X  |  X  |  X  |  X  |  X  |

a: English and Italian kings are not flying: every king or man move has one landing square, nothing passes.
b: The rules core gives one Move per (from, to, captured set), so two legal moves leave the same occupancy
   only when two different kings each capture the same pieces and come home. Turkish and international
   have such positions (g3xg3 / c4xc4 and 31x31 / 9x9 below: asked, decided by touch or by command).
   Short kings (english, italian) cannot: a short king lands only on squares whose (row+col)/2 and
   (row-col)/2 keep their parities; kings on different such lattices could jump each common piece along
   one diagonal only (no closed route), so both circuits tour the same landing squares and the first
   lands on the second king's square. For spanish, russian and thai no position was found: every pair of
   king squares round every four-piece diamond, then at least 3 million random positions per variant of
   one king and 4-12 pieces, with a second king tried on every free square whenever the first had a
   circuit. There the controller's touch disambiguation and "ask" LEDs/choice are driven with two real
   moves of one man put to the question directly (test_ambiguity_asks_and_touch_decides, all variants).
c: Turkish draughts plays on every square: there is no wrong color.
d: Thai kings land directly behind the piece they take: one landing square, so the capture commits at once
   (checked in the same test).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rig import OPENINGS, Rig

from controller import events as ev
from controller import reading
from controller.inference import disambiguate
from firmware_bridge.types import BLUE, CYAN, GREEN, ORANGE, PURPLE, RED, WHITE, YELLOW, Light, Pattern
from rules import Board, Game

ON, SLOW, FAST = Pattern.ON, Pattern.SLOW_BLINK, Pattern.FAST_BLINK
VARIANTS = ("spanish", "international", "english", "russian", "italian", "turkish", "thai")
FLYING = ("spanish", "international", "russian", "turkish", "thai")
DIAGONAL_COLORED = ("spanish", "international", "english", "russian", "italian", "thai")


@dataclass(frozen=True)
class Pos:
    """A verified position: FEN, the squares each role stands on, and its legal moves in rules order."""

    fen: str
    sq: dict[str, object]
    moves: tuple[str, ...]


def _p(fen: str, sq: dict[str, object], moves: list[str]) -> Pos:
    return Pos(fen, sq, tuple(moves))


# multi: a man's two-piece capture (man over caps via landing to target), the only legal move.
# circuit: a king capturing caps in order through landings and back onto its own square.
# fly: a lone flying king with a free line (near, mid ... end) and a second white piece.
# promo: a man one step from crowning; black's reply. missed: capturer must take victim, idle may not move.
POSITIONS: dict[str, dict[str, Pos]] = {
    "spanish": {
        "multi": _p("W:W2:B6,14,32", {"man": "2", "caps": ("6", "14"), "landing": "11", "target": "18"},
                    ["2x18"]),
        "circuit": _p("W:WK2:B6,14,13,5,32",
                      {"king": "2", "caps": ("6", "14", "13", "5"), "landings": ("11", "18", "9"), "x": "7"},
                      ["2x2"]),
        "fly": _p("W:WK1,4:B25,26", {"king": "1", "near": "5", "mid": "10", "end": "32"},
                  ["4-8", "4-7", "1-5", "1-10", "1-14", "1-19", "1-23", "1-28", "1-32"]),
        "promo": _p("W:W27,4:B17,16", {"man": "27", "to": "30", "reply_from": "17", "reply_to": "13"},
                    ["4-8", "27-31", "4-7", "27-30"]),
        "missed": _p("W:W10,1:B14,32", {"capturer": "10", "idle": "1", "idle_to": "5", "landing": "19"},
                     ["10x19"]),
    },
    "international": {
        "multi": _p("W:W47:B42,32,14", {"man": "47", "caps": ("42", "32"), "landing": "38", "target": "27"},
                    ["47x27"]),
        "circuit": _p("W:WK47:B42,32,31,41,14",
                      {"king": "47", "caps": ("42", "32", "31", "41"), "landings": ("38", "27", "36"),
                       "x": "49"},
                      ["47x36x27x38x47", "47x36x9x20x47"]),
        "fly": _p("W:WK46,49:B16,17", {"king": "46", "near": "41", "mid": "37", "end": "5"},
                  ["49-43", "49-44", "46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10",
                   "46-5"]),
        "promo": _p("W:W8,49:B26,34", {"man": "8", "to": "2", "reply_from": "26", "reply_to": "31"},
                    ["49-43", "8-2", "49-44", "8-3"]),
        "missed": _p("W:W37,46:B32,14", {"capturer": "37", "idle": "46", "idle_to": "41", "landing": "28"},
                     ["37x28"]),
    },
    "english": {
        "multi": _p("W:W30:B26,18,4", {"man": "30", "caps": ("26", "18"), "landing": "23", "target": "14"},
                    ["30x14"]),
        "circuit": _p("W:WK30:B26,18,17,25,4",
                      {"king": "30", "caps": ("26", "18", "17", "25"), "landings": ("23", "14", "21"),
                       "x": "32"},
                      ["30x30"]),
        "promo": _p("W:W7,32:B13,20", {"man": "7", "to": "2", "reply_from": "13", "reply_to": "17"},
                    ["32-27", "7-2", "32-28", "7-3"]),
        "missed": _p("W:W22,29:B18,4", {"capturer": "22", "idle": "29", "idle_to": "25", "landing": "15"},
                     ["22x15"]),
    },
    "russian": {
        "multi": _p("W:Wc1:Bd2,d4,h8", {"man": "c1", "caps": ("d2", "d4"), "landing": "e3", "target": "c5"},
                    ["c1:c5"]),
        "circuit": _p("W:WKc1:Bd2,d4,b4,b2,h8",
                      {"king": "c1", "caps": ("d2", "d4", "b4", "b2"), "landings": ("e3", "c5", "a3"),
                       "x": "g1"},
                      ["c1:c1"]),
        "fly": _p("W:WKa1,g1:Ba7,c7", {"king": "a1", "near": "b2", "mid": "c3", "end": "h8"},
                  ["g1-f2", "g1-h2", "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"]),
        "promo": _p("W:We7,g1:Ba5,h4", {"man": "e7", "to": "d8", "reply_from": "a5", "reply_to": "b4"},
                    ["g1-f2", "e7-d8", "g1-h2", "e7-f8"]),
        "missed": _p("W:Wc3,a1:Bd4,h8", {"capturer": "c3", "idle": "a1", "idle_to": "b2", "landing": "e5"},
                     ["c3:e5"]),
    },
    "italian": {
        "multi": _p("W:W31:B27,19,1", {"man": "31", "caps": ("27", "19"), "landing": "22", "target": "15"},
                    ["31x15"]),
        "circuit": _p("W:WK31:B27,19,20,28,1",
                      {"king": "31", "caps": ("27", "19", "20", "28"), "landings": ("22", "15", "24"),
                       "x": "29"},
                      ["31x31"]),
        "promo": _p("W:W6,29:B16,17", {"man": "6", "to": "3", "reply_from": "16", "reply_to": "20"},
                    ["29-25", "6-2", "29-26", "6-3"]),
        "missed": _p("W:W23,32:B19,1", {"capturer": "23", "idle": "32", "idle_to": "28", "landing": "14"},
                     ["23x14"]),
    },
    "turkish": {
        "multi": _p("W:Wc3:Bc4,d5,h7", {"man": "c3", "caps": ("c4", "d5"), "landing": "c5", "target": "e5"},
                    ["c3xe5"]),
        "circuit": _p("W:WKa1:Ba2,b3,c2,b1,g7,h7",
                      {"king": "a1", "caps": ("a2", "b3", "c2", "b1"), "landings": ("a3", "c3", "c1"),
                       "x": "h1"},
                      ["a1xa1"]),
        "fly": _p("W:WKa1,h2:Bg7,h7", {"king": "a1", "near": "a2", "mid": "a3", "end": "a8"},
                  ["h2-h3", "h2-g2", "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1-a7", "a1-a8", "a1-b1",
                   "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1"]),
        "promo": _p("W:Wb7,h2:Bg6,a4", {"man": "b7", "to": "b8", "reply_from": "a4", "reply_to": "a3"},
                    ["h2-h3", "b7-b8", "h2-g2", "b7-a7", "b7-c7"]),
        "missed": _p("W:Wc3,a2:Bc4,h7", {"capturer": "c3", "idle": "a2", "idle_to": "a3", "landing": "c5"},
                     ["c3xc5"]),
    },
    "thai": {
        "multi": _p("W:W3:B7,15,29", {"man": "3", "caps": ("7", "15"), "landing": "10", "target": "19"},
                    ["3-19"]),
        "circuit": _p("W:WK3:B7,15,16,8,29",
                      {"king": "3", "caps": ("7", "15", "16", "8"), "landings": ("10", "19", "12"), "x": "1"},
                      ["3-3"]),
        "fly": _p("W:WK4,1:B28,27", {"king": "4", "near": "8", "mid": "11", "end": "29"},
                  ["1-6", "1-5", "4-8", "4-11", "4-15", "4-18", "4-22", "4-25", "4-29"]),
        "promo": _p("W:W26,1:B20,13", {"man": "26", "to": "31", "reply_from": "20", "reply_to": "16"},
                    ["1-6", "26-31", "1-5", "26-30"]),
        "missed": _p("W:W11,4:B15,29", {"capturer": "11", "idle": "4", "idle_to": "8", "landing": "18"},
                     ["11-18"]),
    },
}

# Black (the computer) to move with a flying king: its move stops short of the line's end, so it waits for
# the settle time; White's reply.
KING_REPLIES = {
    "spanish": ("B:W1,3:BK32,26", "32-23", "1-5"),
    "international": ("B:W46,48:BK14,17", "14-23", "46-41"),
    "russian": ("B:Wa1,e1:BKh8,c7", "h8-f6", "a1-b2"),
    "turkish": ("B:Wa2,e2:BKh8,c7", "h8-h6", "a2-a3"),
    "thai": ("B:W4,2:BK29,27", "29-22", "4-8"),
}


def rig(variant: str, key: str, **kw: object) -> tuple[Rig, dict[str, object]]:
    """A Rig on a table position, after checking the position with the rules core."""
    pos = POSITIONS[variant][key]
    board = Board(variant, pos.fen)
    assert tuple(board.move_text(m) for m in board.legal_moves) == pos.moves, f"{variant} {key} moved on"
    r = Rig(variant, fen=pos.fen, **kw)
    assert r.state == "person.idle"
    return r, pos.sq


@pytest.mark.parametrize("variant", VARIANTS)
def test_table_positions_are_legal_and_undecided(variant: str) -> None:
    for key, pos in POSITIONS[variant].items():
        game = Game(variant, fen=pos.fen)
        assert game.outcome() is None, f"{variant} {key}"
        assert tuple(game.board.move_text(m) for m in game.board.legal_moves) == pos.moves
    assert set(POSITIONS[variant]) == {"multi", "circuit", "promo", "missed"} | (
        {"fly"} if variant in FLYING else set())
    assert Board(variant).variant.king_flying == (variant in FLYING)


# --- commit at once / settle ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_simple_move_and_last_capture_commit_at_once(variant: str) -> None:
    r = Rig(variant)
    first, _ = OPENINGS[variant]
    r.move(first, settle=False)
    assert r.texts == [first]
    r, sq = rig(variant, "multi")
    (text,) = POSITIONS[variant]["multi"].moves
    r.do(f"lift {sq['man']}, lift {sq['caps'][0]}, lift {sq['caps'][1]}")
    assert r.texts == []
    r.place(sq["target"])  # no time passes after this: nothing could extend the capture
    assert r.texts == [text] and r.state == "person.idle"


@pytest.mark.parametrize("variant", FLYING)
def test_flying_king_passing_squares_waits_for_settle(variant: str) -> None:
    r, sq = rig(variant, "fly")
    king, near, mid, end = sq["king"], sq["near"], sq["mid"], sq["end"]
    r.do(f"lift {king}, place {near}")
    assert r.state == "person.settling" and r.texts == []
    r.do(f"lift {near}, place {mid}")
    settle = r.config.king_settle_ms / 1000
    r.wait(settle - 0.1)
    assert r.texts == [], "committed before the king's settle time"
    r.wait(0.15)
    assert r.texts == [f"{king}-{mid}"] and r.state == "person.idle"
    r2, _ = rig(variant, "fly")
    r2.do(f"lift {king}, place {near}, lift {near}, place {end}")
    assert r2.texts == [f"{king}-{end}"], "a slide to the end of the line commits at once"


# A flying king capturing one piece with a choice of landing squares: (FEN, king, captured, first landing,
# last landing, legal moves). Thai kings land directly behind the piece they take (one landing: at once).
KING_LANDINGS = {
    "spanish": ("W:WK1:B10,17,25", "1", "10", "14", "32", ["1x14", "1x19", "1x23", "1x28", "1x32"]),
    "international": ("W:WK46:B37,26,16", "46", "37", "32", "5",
                      ["46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"]),
    "russian": ("W:WKa1:Bc3,a5,a7", "a1", "c3", "d4", "h8", ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]),
    "turkish": ("W:WKa1:Ba3,g7,h7", "a1", "a3", "a4", "a8", ["a1xa4", "a1xa5", "a1xa6", "a1xa7", "a1xa8"]),
    "thai": ("W:WK4:B11,20,28", "4", "11", "15", "15", ["4-15"]),
}


@pytest.mark.parametrize("variant", FLYING)
def test_flying_king_capture_with_a_choice_of_landing_waits_for_settle(variant: str) -> None:
    fen, king, taken, first, last, moves = KING_LANDINGS[variant]
    board = Board(variant, fen)
    assert [board.move_text(m) for m in board.legal_moves] == moves
    sep = board.variant.capture_separator
    r = Rig(variant, fen=fen)
    r.do(f"lift {king}, lift {taken}, place {first}")
    if len(moves) == 1:
        assert r.texts == [f"{king}{sep}{first}"], "a single landing square commits at once"
        return
    assert r.state == "person.settling" and r.texts == []
    r.wait(r.config.king_settle_ms / 1000 - 0.1)
    assert r.texts == [], "committed before the king's settle time"
    r.wait(0.15)
    assert r.texts == [f"{king}{sep}{first}"]
    r = Rig(variant, fen=fen)
    r.do(f"lift {king}, lift {taken}, place {last}")
    assert r.texts == [f"{king}{sep}{last}"], "the last landing square commits at once"


@pytest.mark.parametrize("variant", VARIANTS)
def test_stop_during_a_multi_capture_never_commits_nor_loses_sync(variant: str) -> None:
    r, sq = rig(variant, "multi")
    r.do(f"lift {sq['man']}, place {sq['landing']}")
    assert r.state == "person.capturing"
    r.wait(10)
    assert r.state == "person.capturing" and r.texts == [] and not r.of(ev.OutOfSync)
    r.do(f"lift {sq['landing']}, lift {sq['caps'][0]}, lift {sq['caps'][1]}, place {sq['target']}")
    assert r.texts == list(POSITIONS[variant]["multi"].moves)


# --- order of events -------------------------------------------------------------------------------------

ORDERS = {
    "captured_first": "lift {c0}, lift {c1}, lift {man}, place {target}",
    "captured_during": "lift {man}, lift {c0}, place {target}, lift {c1}",
    "captured_after": "lift {man}, place {target}, lift {c1}, lift {c0}",
    "path_touched": "lift {man}, place {landing}, lift {c0}, lift {landing}, lift {c1}, place {target}",
    "path_touched_captured_after": "lift {man}, place {landing}, lift {landing}, place {target}, lift {c0}, "
                                   "lift {c1}",
    "path_skipped": "lift {man}, lift {c1}, lift {c0}, place {target}",
}


@pytest.mark.parametrize("order", sorted(ORDERS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_in_any_order(variant: str, order: str) -> None:
    r, sq = rig(variant, "multi")
    caps = sq["caps"]
    r.do(ORDERS[order].format(c0=caps[0], c1=caps[1], man=sq["man"], target=sq["target"],
                              landing=sq["landing"]))
    assert r.texts == list(POSITIONS[variant]["multi"].moves)
    assert r.state == "person.idle" and not r.of(ev.Refusal)


def _circuit(r: Rig, sq: dict[str, object]):
    king = r.sq(sq["king"])
    caps = {r.sq(c) for c in sq["caps"]}
    [shape] = [s for s in r.ctl.exp.shapes if s.origin == king == s.target and set(s.captures) == caps]
    return shape


@pytest.mark.parametrize("how", ["king_untouched", "king_lifted_and_replaced", "king_walks_the_circuit"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_ending_on_its_own_starting_square(variant: str, how: str) -> None:
    r, sq = rig(variant, "circuit")
    shape = _circuit(r, sq)
    assert shape.text in POSITIONS[variant]["circuit"].moves
    king, caps, landings = sq["king"], sq["caps"], sq["landings"]
    if how == "king_untouched":
        r.do(", ".join(f"lift {c}" for c in caps))
    elif how == "king_lifted_and_replaced":
        r.do(f"lift {king}, " + ", ".join(f"lift {c}" for c in reversed(caps)) + f", place {king}")
    else:
        steps = [f"lift {king}"]
        for cap, landing in zip(caps, landings, strict=False):
            steps += [f"place {landing}", f"lift {cap}", f"lift {landing}"]
        steps += [f"lift {caps[-1]}", f"place {king}"]
        r.do(", ".join(steps))
    r.wait(0.35)
    assert r.texts == [shape.text]
    assert r.state == "person.idle" and r.ctl.game.board.turn.name == "BLACK"


@pytest.mark.parametrize("variant", VARIANTS)
def test_ambiguity_asks_and_touch_decides(variant: str) -> None:
    """Two candidate moves (note b): touched squares pick one, else the LEDs ask and the person chooses."""
    r, sq = rig(variant, "promo")
    man = r.sq(sq["man"])
    a, b = sorted(r.ctl.exp.shapes_from(man), key=lambda s: s.target != r.sq(sq["to"]))[:2]
    assert disambiguate((a, b), frozenset({man, a.target})) == (a,)
    assert disambiguate((a, b), frozenset({man, b.target})) == (b,)
    assert disambiguate((a, b), frozenset({man})) == (a, b)
    r.ctl.lift()
    r.ctl.settle()  # the hands as they are when a settled board shows two moves
    reading.ask_between(r.ctl, (a, b))
    assert r.state == "person.ambiguous"
    names = {r.ctl.map.name(s) for s in (*a.path, *b.path)}
    assert r.lit() == dict.fromkeys(names, Light(CYAN, FAST))
    assert f"{a.text} or {b.text}" in r.messages()
    r.ctl.choose(b.text)
    assert [e.text for e in r.of(ev.MoveCommitted)] == [b.text]
    r.do(f"lift {sq['man']}, place {r.ctl.map.name(b.target)}, wait 0.5")  # the board catches up
    assert r.texts == [b.text] and r.state == "person.idle"


# Two kings that each capture the same pieces and come home leave the same occupancy (found by a search
# over random positions): variant -> (FEN, first circuit, its landing squares, second circuit, captured).
TWINS = {
    "turkish": ("W:WKg3,Kc4:Bg4,b4,e4,f3,h5,g6,c2,d6", "g3xg3", ("e3", "e6", "h6", "h2", "b2", "b6", "g6"),
                "c4xc4", ("g4", "b4", "e4", "f3", "h5", "g6", "c2", "d6")),
    "international": ("W:WK9,K31:B22,20,7,21,30,8,28,42", "31x31", ("13", "2", "16", "32", "14", "25", "48"),
                      "9x9", ("22", "20", "7", "21", "30", "8", "28", "42")),
}


def _twins(variant: str) -> tuple[Rig, object, object]:
    fen, first, _, second, _ = TWINS[variant]
    board = Board(variant, fen)
    texts = [board.move_text(m) for m in board.legal_moves]
    assert first in texts and second in texts and len(texts) in (12, 16)
    r = Rig(variant, fen=fen)
    [same] = [shapes for shapes in r.ctl.exp.by_result.values() if len(shapes) > 1]
    one, two = sorted(same, key=lambda s: s.text != first)
    assert (one.text, two.text) == (first, second) and one.result == two.result
    return r, one, two


@pytest.mark.parametrize("variant", sorted(TWINS))
def test_same_occupancy_from_two_moves_is_asked_then_touch_decides(variant: str) -> None:
    r, one, two = _twins(variant)
    _, first, _, second, captured = TWINS[variant]
    r.do(", ".join(f"lift {sq}" for sq in captured))  # only the captured pieces come off
    r.wait(0.35)
    assert r.state == "person.ambiguous" and r.texts == []
    assert f"{first} or {second}" in r.messages()
    lit = r.lit()
    assert {r.ctl.map.name(sq) for sq in (*one.path, *two.path)} == set(lit)
    assert set(lit.values()) == {Light(CYAN, FAST)}
    king = r.ctl.map.name(two.origin)
    r.do(f"lift {king}, place {king}")  # lifting and replacing the king that moved names it
    r.wait(0.35)
    assert r.texts == [second] and r.state == "game_over"


@pytest.mark.parametrize("variant", sorted(TWINS))
def test_same_occupancy_from_two_moves_chosen_by_command(variant: str) -> None:
    r, one, two = _twins(variant)
    r.do(", ".join(f"lift {sq}" for sq in TWINS[variant][4]) + ", wait 0.35")
    assert r.state == "person.ambiguous"
    with pytest.raises(ValueError, match="not one of the candidate moves"):
        r.ctl.choose(next(s.text for s in r.ctl.exp.shapes if s not in (one, two)))
    r.ctl.choose(one.text)
    assert r.texts == [one.text] and r.state == "game_over"


@pytest.mark.parametrize("variant", sorted(TWINS))
def test_same_occupancy_from_two_moves_told_apart_by_the_squares_touched(variant: str) -> None:
    r, one, _ = _twins(variant)
    _, first, landings, second, captured = TWINS[variant]
    king = r.ctl.map.name(one.origin)
    steps = [f"lift {king}"]
    for landing in landings:  # the king rests on each landing square of its route
        if r.sq(landing) not in r.occ:
            steps += [f"place {landing}", f"lift {landing}"]
    steps += [f"lift {sq}" for sq in captured] + [f"place {king}"]
    r.do(", ".join(steps))
    r.wait(0.35)
    assert r.texts == [first] and r.state == "game_over"
    assert f"or {second}" not in r.messages()


# --- wrong color, promotion ------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", DIAGONAL_COLORED)
def test_wrong_color_of_squares(variant: str) -> None:
    r = Rig(variant, setup=False)
    cols = r.ctl.variant.width
    mirrored = {(row, cols - 1 - col) for row, col in r.ctl.exp.base}
    assert not mirrored & r.ctl.map.playing()
    r.set(mirrored)
    assert r.state == "setup"
    assert "wrong color of squares" in r.messages()
    lights = r.ctl.frame.as_dict()
    assert {s for s, light in lights.items() if light == Light(RED, FAST)} == mirrored
    r.set(r.ctl.exp.base)
    assert r.state == "person.idle"
    r.move(OPENINGS[variant][0], settle=False)
    assert len(r.texts) == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_promotion_asks_to_crown(variant: str) -> None:
    r, sq = rig(variant, "promo")
    man, to = sq["man"], sq["to"]
    r.do(f"lift {man}, place {to}")
    assert r.texts == [f"{man}-{to}"]
    assert r.lit()[to] == Light(PURPLE, FAST)
    assert f"Crown the piece on {to}" in r.messages()
    assert r.ctl.game.board.piece_at(r.ctl.variant.geometry.parse_square(to)).king
    r.do(f"lift {sq['reply_from']}, place {sq['reply_to']}")
    assert r.texts == [f"{man}-{to}", f"{sq['reply_from']}-{sq['reply_to']}"]
    assert r.lit().get(to) != Light(PURPLE, FAST), "the crown request ends with the next move"


# --- the computer's move ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_computer_move_shown_exact_only_then_quick_reply(variant: str) -> None:
    first_mover = Board(variant).variant.first.name.lower()
    human = "black" if first_mover == "white" else "white"
    r = Rig(variant, human_color=human, opponent="engine")
    assert r.state == "computer.thinking" and r.jobs
    computer, reply = OPENINGS[variant]
    r.answer_engine(computer)
    origin, target = computer.split("-")
    assert r.lit()[origin] == Light(YELLOW, ON) and r.lit()[target] == Light(YELLOW, SLOW)
    other = next(s for s in r.ctl.exp.shapes if s.text != computer and not s.captures)
    o_from, o_to = (r.ctl.map.name(other.origin), r.ctl.map.name(other.target))
    r.do(f"lift {o_from}, place {o_to}")
    assert r.texts == [] and f"not the computer's move {computer}" in r.messages()
    r.do(f"lift {o_to}, place {o_from}")
    assert r.state == "computer.showing" and r.lit()[origin].rgb == YELLOW
    r.do(f"lift {origin}, place {target}")
    assert r.texts == [computer] and r.state == "person.idle"
    r.move(reply, settle=False)  # the person answers at once
    assert r.texts == [computer, reply]


@pytest.mark.parametrize("variant", VARIANTS)
def test_computer_capture_accepted_in_any_order(variant: str) -> None:
    pos = POSITIONS[variant]["multi"]
    sq, caps = pos.sq, pos.sq["caps"]
    for order, script in ORDERS.items():
        r = Rig(variant, fen=pos.fen, human_color="black", opponent="engine")
        r.answer_engine(pos.moves[0])
        assert r.lit()[caps[0]] == Light(RED, FAST) and r.lit()[sq["target"]] == Light(YELLOW, SLOW)
        r.do(script.format(c0=caps[0], c1=caps[1], man=sq["man"], target=sq["target"], landing=sq["landing"]))
        assert r.texts == list(pos.moves), order
        assert r.state == "person.idle"


@pytest.mark.parametrize("variant", FLYING)
def test_computer_king_move_waits_and_quick_reply_commits_it(variant: str) -> None:
    fen, computer, reply = KING_REPLIES[variant]
    board = Board(variant, fen)
    assert computer in [board.move_text(m) for m in board.legal_moves]
    r = Rig(variant, fen=fen, human_color="white", opponent="engine")
    r.answer_engine(computer)
    origin, target = computer.split("-")
    r.do(f"lift {origin}, place {target}")
    assert r.state == "computer.showing" and r.texts == [], "the king could still slide on"
    r_from, r_to = reply.split("-")
    r.do(f"lift {r_from}, place {r_from}")   # a brush of the person's piece commits nothing
    assert r.texts == [] and r.state == "computer.showing"
    r.lift(r_from)  # the person's reply starts within the settle time: a lift held for settle_ms
    assert r.texts == []
    r.wait(r.config.settle_ms / 1000)
    assert r.texts == [computer] and r.state == "person.lifted"
    r.place(r_to)
    assert r.texts == [computer, reply]


# --- takeback, new game ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_takeback_by_restoring_the_position_before_a_capture(variant: str) -> None:
    r, sq = rig(variant, "multi")
    fen = r.ctl.game.board.fen()
    (text,) = POSITIONS[variant]["multi"].moves
    r.move(text)
    assert r.texts == [text]
    r.do(f"lift {sq['target']}, place {sq['caps'][1]}, place {sq['man']}")
    assert r.texts == [text], "not all restored yet"
    r.do(f"place {sq['caps'][0]}")   # nobody touched the board since: the mover's own takeback, at once
    assert r.texts == [] and r.ctl.game.board.fen() == fen and r.state == "person.idle"
    assert "Took back 1 ply" in r.messages()


@pytest.mark.parametrize("variant", VARIANTS)
def test_setting_up_the_start_position_starts_a_new_game(variant: str) -> None:
    r = Rig(variant, takeback=False)
    first, reply = OPENINGS[variant]
    r.move(first)
    r.move(reply)
    for move in (reply, first):  # (lifting first could show a capture's result, e.g. 28x19 in international)
        a, b = move.split("-")
        r.do(f"place {a}, lift {b}")
    assert r.texts == [first, reply]
    r.wait(0.35)
    assert r.texts == [] and r.state == "person.idle"
    assert r.messages().count(f"New game of {r.ctl.variant.name}") == 2
    r.move(first, settle=False)
    assert r.texts == [first]


# --- out of sync, flicker ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_out_of_sync_after_grace_names_exact_squares_and_resumes(variant: str) -> None:
    r, sq = rig(variant, "circuit")
    king, x = sq["king"], sq["x"]
    far = r.ctl.map.name(max(r.ctl.exp.base - {r.sq(king)} - {r.sq(c) for c in sq["caps"]}))
    r.do(f"lift {king}, place {x}, lift {far}")  # the king knocked onto x, a black piece off the board
    r.wait(2.8)
    assert r.state != "out_of_sync", "out of sync before the grace time"
    r.wait(0.3)
    assert r.state == "out_of_sync"
    sync = r.of(ev.OutOfSync)[-1]
    assert sync.to_empty == (r.sq(x),)
    assert set(sync.to_fill) == {(r.sq(king), "white", True), (r.sq(far), "black", False)}
    lit = r.lit()
    assert lit[x] == Light(RED, FAST) and lit[king] == Light(WHITE, FAST) and lit[far] == Light(BLUE, SLOW)
    assert f"take the piece off {x}" in r.messages() and f"put a white king on {king}" in r.messages()
    r.place(far)
    assert r.state == "out_of_sync" and r.lit() == {x: Light(RED, FAST), king: Light(WHITE, FAST)}
    r.do(f"lift {x}, place {king}")
    assert r.state == "person.idle" and not r.of(ev.MoveCommitted)
    r.do(", ".join(f"lift {c}" for c in sq["caps"]) + ", wait 0.35")
    assert len(r.texts) == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_flicker_shorter_than_settle_changes_nothing(variant: str) -> None:
    r = Rig(variant)
    frame = r.ctl.frame
    empty = r.ctl.map.name(min(r.ctl.map.playing() - r.ctl.exp.base))
    mover = OPENINGS[variant][0].split("-")[0]
    r.place(empty, dt=0.01)
    r.lift(empty, dt=0.1)
    r.lift(mover, dt=0.01)
    r.place(mover, dt=0.1)
    r.wait(5)
    assert r.state == "person.idle" and r.texts == [] and r.ctl.frame == frame
    assert not r.of(ev.OutOfSync) and not r.of(ev.Refusal)


# --- missed captures, hints, teaching ----------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_missed_capture_is_refused_per_policy(variant: str) -> None:
    r, sq = rig(variant, "missed")
    assert r.ctl.variant.missed_capture_policy == "reject"
    idle, idle_to, capturer = sq["idle"], sq["idle_to"], sq["capturer"]
    r.do(f"lift {idle}, place {idle_to}, wait 0.4")
    assert r.texts == [] and r.state != "person.missed_capture"
    assert r.of(ev.Refusal)[-1].rule == "compulsory capture"
    lit = r.lit()
    assert lit[capturer] == Light(ORANGE, FAST) and lit[idle] == lit[idle_to] == Light(RED, FAST)
    r.wait(3)
    assert r.state == "out_of_sync" and r.of(ev.OutOfSync)[-1].to_empty == (r.sq(idle_to),)
    r.do(f"lift {idle_to}, place {idle}")
    assert r.state == "person.idle"
    (text,) = POSITIONS[variant]["missed"].moves
    r.move(text, settle=False)
    assert r.texts == [text]


@pytest.mark.parametrize("variant", VARIANTS)
def test_led_hints(variant: str) -> None:
    r, sq = rig(variant, "missed")
    capturer, idle, landing = sq["capturer"], sq["idle"], sq["landing"]
    assert r.lit() == {capturer: Light(ORANGE, SLOW)}, "turn start: the piece that must capture"
    r.lift(capturer)
    assert r.lit()[landing] == Light(GREEN, ON) and r.lit()[capturer] == Light(CYAN, ON)
    r.place(capturer)
    r.lift(idle)
    assert r.lit() == {idle: Light(RED, FAST), capturer: Light(ORANGE, FAST)}, "the 'no' pattern"
    r.place(idle)
    assert r.lit() == {capturer: Light(ORANGE, SLOW)}

    r = Rig(variant)  # a piece that is blocked in the start position: "no", and nothing must capture
    blocked = next(s for s in sorted(r.ctl.exp.base) if r.ctl.exp.own(s) and not r.ctl.exp.shapes_from(s))
    r.lift(blocked)
    assert r.lit() == {r.ctl.map.name(blocked): Light(RED, FAST)}

    r, sq = rig(variant, "multi")
    c0, c1 = sq["caps"]
    r.do(f"lift {sq['man']}, place {sq['landing']}")
    assert r.lit() == {sq["target"]: Light(GREEN, ON), c0: Light(RED, SLOW), c1: Light(RED, SLOW)}
    r.lift(c0)
    assert r.lit() == {sq["target"]: Light(GREEN, ON), c1: Light(RED, SLOW)}

    if variant in FLYING:
        r, sq = rig(variant, "fly")
        king = sq["king"]
        r.lift(king)
        dests = {m.split("-")[1] for m in POSITIONS[variant]["fly"].moves if m.startswith(f"{king}-")}
        assert {s for s, light in r.lit().items() if light == Light(GREEN, ON)} == dests
    else:
        r = Rig(variant)
        origin, target = OPENINGS[variant][0].split("-")
        r.lift(origin)
        assert r.lit()[target] == Light(GREEN, ON)


@pytest.mark.parametrize("variant", VARIANTS)
def test_teaching_mode(variant: str) -> None:
    plain, sq = rig(variant, "multi")
    taught, _ = rig(variant, "multi", teaching=True)
    path = {sq["landing"], sq["target"]}
    assert path <= set(taught.lit()) and not path & set(plain.lit())
    assert plain.lit()[sq["man"]].rgb == ORANGE == taught.lit()[sq["man"]].rgb

    r, sq = rig(variant, "missed", teaching=True)
    r.do(f"lift {sq['idle']}, place {sq['idle_to']}")
    (refusal,) = r.of(ev.Refusal)
    assert "The rule of compulsory capture" in refusal.message and refusal.section.endswith("#capturing")
    assert sq["landing"] in r.lit(), "teaching shows the capture path with the refusal"
    plain, _ = rig(variant, "missed")
    plain.do(f"lift {sq['idle']}, place {sq['idle_to']}")
    assert "rule of" not in plain.of(ev.Refusal)[0].message and sq["landing"] not in plain.lit()
