"""Validation: GameType and Variant tags pick the rules, FEN/SetUp the start, every move is checked."""

from __future__ import annotations

import pytest
from _pdnhelpers import read_text

import rules
from rules.pdn.validate import variant_of, variant_text


@pytest.mark.parametrize(("tag", "variant_id"), [
    ('[GameType "20"]', "international"),
    ('[GameType "20,W,10,10,N2,0"]', "international"),
    ('[GameType "21"]', "english"),
    ('[GameType "22"]', "italian"),
    ('[GameType "25"]', "russian"),
    ('[GameType "26"]', "brazilian"),
    ('[GameType "30"]', "turkish"),
    ('[Variant "giveaway"]', "giveaway"),
    ('[GameType "21"][Variant "giveaway"]', "giveaway"),
    ("", "international"),
])
def test_variant_from_tags(tag: str, variant_id: str) -> None:
    (game,) = read_text(tag + "\n*")
    assert variant_of(game).id == variant_id


def test_default_variant_applies_only_without_a_tag() -> None:
    (game,) = read_text("1. 11-15 23-19 *", validate=True, variant="english")
    assert game.variant_id == "english" and not game.errors
    (game,) = read_text('[GameType "21"]\n1. 11-15 23-19 *', validate=True, variant="russian")
    assert game.variant_id == "english" and not game.errors


def test_fen_with_setup_and_second_player_first() -> None:
    (game,) = read_text('[SetUp "1"]\n[FEN "B:W31-50:B1-20"]\n1... 20-25 2. 32-28 *', validate=True)
    assert not game.errors and game.start_ply == 1
    assert all(isinstance(node.move, rules.Move) for node in game.moves)


def test_russian_colon_captures_and_short_forms() -> None:
    (game,) = read_text('[GameType "25"]\n1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. e3-f4 b6-a5 4. f2-e3 c7-b6 '
                        "5. c1-b2 b6-c5 6. d4:b6 a5:c7 *", validate=True)
    assert not game.errors
    assert [bool(n.move.captures) for n in game.moves][-2:] == [True, True]  # type: ignore[union-attr]


def test_ambiguous_capture_needs_intermediate_squares() -> None:
    fen = '[FEN "W:WK47:B6,37,42,31,9,23,21"]\n'
    (game,) = read_text(fen + "1. 47x26 *", validate=True)
    # from-to only as the last move: nothing tells the captures apart; read as the first, with a warning
    (warning,) = game.warnings
    assert not game.errors
    assert str(warning) == ("2:4: game 1: move 1. 47x26 is ambiguous ('47x26' is ambiguous: it could be "
                            "47x29x12x26 or 47x20x3x26); read as 47x29x12x26")
    # when later moves tell them apart, the one that lets the game go on is chosen
    (game,) = read_text(fen + "1. 47x26 23-28 *", validate=True)
    assert not game.errors and game.warnings[0].message.endswith("read as 47x20x3x26")
    board = rules.Board.from_fen("international", "W:WK47:B6,37,42,31,9,23,21")
    assert board.move_text(game.moves[0].move) == "47x20x3x26"  # type: ignore[arg-type]
    for text in ("47x29x12x26", "47x20x3x26"):
        (game,) = read_text(fen + f"1. {text} *", validate=True)
        assert not game.errors and not game.warnings
        assert rules.Board.from_fen("international", "W:WK47:B6,37,42,31,9,23,21").move_text(
            game.moves[0].move) == text  # type: ignore[arg-type]


def test_numeric_and_algebraic_texts_are_both_read() -> None:
    board = rules.Board("international")
    assert variant_text("c3-d4", board.variant.geometry) == variant_text("c3-d4", board.variant.geometry)
    russian = rules.get_variant("russian").geometry
    assert variant_text("10-14", russian) == "c3-d4"
    assert variant_text("c3d4", russian) == "c3-d4"
    (game,) = read_text('[GameType "25"]\n1. 10-14 22-19 *', validate=True)
    assert not game.errors


def test_giveaway_game_validates_with_its_private_tag() -> None:
    (game,) = read_text('[Variant "giveaway"]\n1. 11-15 23-19 2. 15x24 28x19 *', validate=True)
    assert game.variant_id == "giveaway", [str(e) for e in game.errors]
