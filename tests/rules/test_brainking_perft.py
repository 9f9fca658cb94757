"""Perft of BrainKing's seven games against the project's own table, and the rules core against a
deliberately simple second generator (tests/rules/simple_movegen.py): move by move over the start of the tree,
along random games and on dense random positions, options included. The table:
docs/rules/reference-data.md#brainkings-games-the-projects-own-counts.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from simple_movegen import Simple, SimpleMove, play, position_of

import rules

GAMES = ("corner", "one-way", "parachute", "gothic", "dameo", "alquerque", "hawaii")
DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "reference-data.md"


def table() -> dict[str, dict[str, str]]:
    """The BrainKing table of the reference-data page: {row label: {game: cell}}."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### BrainKing's games"):text.index("## Rule-test positions")]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in section.splitlines()
            if line.startswith("|") and not line.startswith("|---")]
    head = rows[0][1:]
    return {row[0]: dict(zip(head, row[1:], strict=True)) for row in rows[1:]}


TABLE = table()


def depths(cell: str) -> range:
    low, _, high = cell.partition("-")
    return range(int(low), int(high or low) + 1)


def main_moves(board: rules.Board) -> set[SimpleMove]:
    g = board.variant.geometry
    return {SimpleMove(g.rc(m.from_square), g.rc(m.to_square), frozenset(g.rc(c) for c in m.captures),
                       m.promotion) for m in board.legal_moves}


@pytest.mark.parametrize("game", GAMES)
def test_perft_from_the_start_matches_the_table(game: str) -> None:
    board = rules.Board(game)
    for depth in depths(TABLE["in the tests"][game]):
        assert rules.perft(board, depth) == int(TABLE[str(depth)][game].replace(",", "")), (game, depth)


@pytest.mark.parametrize("game", GAMES)
def test_the_simple_generator_agrees_over_the_tree(game: str) -> None:
    """Every position to the table's "tree" depth: the same moves, the same position after each, and so the
    same perft at that depth."""
    simple = Simple(game)
    counted: dict[tuple[str, int], int] = {}

    def walk(board: rules.Board, depth: int) -> int:
        key = (board.fen(), depth)
        if key in counted:
            return counted[key]
        pos, turn = position_of(board)
        mine, theirs = main_moves(board), set(simple.moves(pos, turn))
        assert mine == theirs, f"{game} {board.fen()}: core only {mine - theirs}, simple only {theirs - mine}"
        total = len(mine)
        if depth > 1:
            total = 0
            g = board.variant.geometry
            for move in board.legal_moves:
                child = board.copy()
                child.push(move)
                simple_move = SimpleMove(g.rc(move.from_square), g.rc(move.to_square),
                                         frozenset(g.rc(c) for c in move.captures), move.promotion)
                assert play(pos, simple_move) == position_of(child)[0], f"{game} {board.fen()} {move}"
                total += walk(child, depth - 1)
        counted[key] = total
        return total

    depth = int(TABLE["tree"][game])
    assert walk(rules.Board(game), depth) == int(TABLE[str(depth)][game].replace(",", ""))


@pytest.mark.parametrize(("game", "options"), [(g, {}) for g in GAMES] + [
    ("parachute", {"parachutist_multi_jump": True}), ("hawaii", {"first": "white"})])
def test_the_simple_generator_agrees_along_random_games(game: str, options: dict[str, object]) -> None:
    """Random games reach what the opening tree does not: kings, long and multiple captures, crowning."""
    variant = rules.get_variant(game, **options)
    simple = Simple(game, parachutist_multi_jump=bool(options.get("parachutist_multi_jump")))
    rng = random.Random(game)
    seen = {"kings": 0, "multiple": 0, "positions": 0}
    for _ in range(20):
        board = rules.Board(variant)
        for _ply in range(150):
            pos, turn = position_of(board)
            mine = main_moves(board)
            theirs = set(simple.moves(pos, turn))
            assert mine == theirs, f"{game} {board.fen()}: core {mine - theirs}, simple {theirs - mine}"
            seen["positions"] += 1
            seen["kings"] += any(king for _, king in pos.values())
            seen["multiple"] += any(len(m.captured) > 1 and m.frm != m.to for m in mine)
            if not mine:
                break
            board.push(rng.choice(list(board.legal_moves)))
    assert seen["positions"] > 200 and seen["multiple"] > 0, seen
    if game not in ("alquerque", "hawaii"):
        assert seen["kings"] > 0, seen


def dense_position(variant: rules.Variant, rng: random.Random) -> str:
    """Up to 10 pieces a side anywhere, kings common (in the games that have them), men one or two rows short
    of crowning often, parachutists in Parachute: what opening trees and random games rarely reach."""
    g = variant.geometry
    crown = {c: set(variant.crown_squares(c)) for c in rules.Color}
    free = sorted(g.squares)
    rng.shuffle(free)
    blocks: dict[str, list[str]] = {"W": [], "B": []}
    for side, color in (("W", rules.Color.WHITE), ("B", rules.Color.BLACK)):
        for _ in range(rng.randint(1, 10)):
            sq = free.pop()
            king = variant.move_kind not in ("alquerque", "konane") and rng.random() < 0.35
            if sq in crown[color] and variant.move_kind != "parachute":
                king = True                     # a man is never left uncrowned there
            blocks[side].append(("K" if king else "") + g.name(sq))
    return f"{rng.choice('WB')}:W{','.join(blocks['W'])}:B{','.join(blocks['B'])}"


@pytest.mark.parametrize(("game", "options"), [(g, {}) for g in GAMES if g != "hawaii"] + [
    ("parachute", {"parachutist_multi_jump": True})])
def test_the_simple_generator_agrees_on_dense_random_positions(game: str, options: dict[str, object]) -> None:
    variant = rules.get_variant(game, **options)
    simple = Simple(game, parachutist_multi_jump=bool(options.get("parachutist_multi_jump")))
    rng = random.Random(f"dense {game} {options}")
    captures = 0
    for _ in range(400):
        board = rules.Board(variant, dense_position(variant, rng))
        pos, turn = position_of(board)
        mine, theirs = main_moves(board), set(simple.moves(pos, turn))
        assert mine == theirs, f"{game} {board.fen()}: core only {mine - theirs}, simple only {theirs - mine}"
        captures += any(m.captured for m in mine)
    assert captures >= 80


def test_the_table_is_in_the_page() -> None:
    """The table the tests read is the one the page shows (a change of layout must not empty the test)."""
    assert set(TABLE) >= {"1", "2", "3", "4", "5", "in the tests", "tree"}
    assert all(set(TABLE[row]) == set(GAMES) for row in TABLE)
    assert re.search(r"\| 5 \| 78 \| 46 \|", DOC.read_text(encoding="utf-8"))
