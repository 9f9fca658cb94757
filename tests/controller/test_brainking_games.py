"""One whole game of each of BrainKing's seven games through the controller, by physical actions on the
Rig (lift, place, wait): Konane's two opening removals (a lift with no place), a Dameo linear move (the rear
man put down in front of its line), an Alquerque capture that turns backward, crowning, multiple captures.

Both sides are the engine at level 1 (seeded) choosing what the hands then do; Dameo's first move is a
linear move, Alquerque opens 1. d2-c3 d4xd2 2. d1xd3 b4xd4 (Black's b4 takes c3 to d2, then turns back up the
d-file over d3).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from rig import Rig

from controller import events as ev
from engine import Engine
from rules import Board, Move, Variant, get_variant

GAMES = ("corner", "one-way", "parachute", "gothic", "dameo", "alquerque", "hawaii")


def quick_rules(game: str) -> Variant:
    """Draws automatic and sooner (where the game has those options), so every game ends."""
    has = get_variant(game).options
    options: dict[str, object] = {}
    if "draw_claims" in has:
        options["draw_claims"] = ()
    if "no_progress_moves" in has:
        options["no_progress_moves"] = 15
    return get_variant(game, **options)


def linear(board: Board, move: Move) -> bool:
    """A Dameo linear move: a man moving more than one square without capturing."""
    g = board.variant.geometry
    (r1, c1), (r2, c2) = g.rc(move.from_square), g.rc(move.to_square)
    return not move.captures and max(abs(r2 - r1), abs(c2 - c1)) > 1


def turns_back(board: Board, move: Move) -> bool:
    """An Alquerque capture with a jump against the mover's forward direction."""
    g = board.variant.geometry
    forward = board.variant.forward(board.turn)
    rows = [g.rc(sq)[0] for sq in move.path]
    return bool(move.captures) and any((b - a) * forward < 0 for a, b in itertools.pairwise(rows))


WANTED = {"dameo": linear, "alquerque": turns_back}
OPENINGS = {"alquerque": ["d2-c3", "d4xd2", "d1xd3", "b4xd4"]}


def act(rig: Rig, move: Move) -> None:
    """The hands make `move`: lift the piece, take off what it captures, put it down (a removal: a lift)."""
    m = rig.ctl.map
    rig.lift(m.rc(move.from_square))
    if move.is_removal:
        rig.wait(0.5)
        return
    for sq in move.captures:
        rig.lift(m.rc(sq))
    rig.place(m.rc(move.to_square))
    rig.wait(rig.ctl.config.king_settle_ms / 1000 + 0.1)   # a flying king resting on its line waits longest


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_through_the_controller(game: str, tmp_path: Path) -> None:
    variant = quick_rules(game)
    rig = Rig(variant, tmp_path)
    engine = Engine(variant)
    rng = random.Random(game)
    seen = {"wanted": game not in WANTED, "removals": 0, "multiple": 0, "crowned": 0}
    while rig.ctl.turn_state != "game_over":
        assert rig.state == "person.idle", f"{game}: {rig.state} after {rig.texts}"
        board = rig.ctl.game.board
        assert len(rig.texts) < 400
        opening = OPENINGS.get(game, [])
        wanted = [m for m in board.legal_moves if game in WANTED and WANTED[game](board, m)]
        if len(rig.texts) < len(opening):
            move = board.parse_move(opening[len(rig.texts)])
        elif wanted and not seen["wanted"]:
            move = wanted[0]
        else:
            move = engine.choose_move(board, 1, rng=rng, time_limit=0.01)
        seen["wanted"] |= move in wanted
        text = board.move_text(move)
        seen["removals"] += move.is_removal
        seen["multiple"] += len(move.captures) > 1
        seen["crowned"] += move.promotion
        plies = len(rig.texts)
        act(rig, move)
        assert rig.texts[plies:] == [text], f"{game}: {text} was not committed ({rig.messages()[-300:]})"
    assert seen["wanted"], f"{game}: the scenario's move never came"
    if game == "hawaii":
        assert seen["removals"] == 2 and rig.texts[0] in ("a8xa8", "h1xh1", "d5xd5", "e4xe4")
    else:
        assert seen["removals"] == 0
    if game not in ("alquerque", "hawaii", "one-way"):
        assert seen["crowned"] or seen["multiple"], seen
    (over,) = rig.of(ev.GameOver)
    assert over.result in ("1-0", "0-1", "1/2-1/2")
    pdn = (rig.ctl.write_pdn() or Path()).read_text(encoding="utf-8")
    assert f'[GameType "{variant.pdn_gametype}"]' in pdn and rig.texts[0] in pdn
