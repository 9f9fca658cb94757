"""PDN and FEN for BrainKing's games and for variants played with options: private GameTypes, the
VariantOptions tag, written and read back (docs/rules/README.md#notation)."""

from __future__ import annotations

import pytest
from _rulestest import playout

import rules
from rules.pdn import PdnGameError, game_from_board, read_games, validate_game, variant_of
from rules.pdn.writer import write_game

BRAINKING = {"corner": "56,W,8,8,A0,0", "one-way": "57,W,8,8,A0,0", "parachute": "58,W,8,8,A0,0",
             "gothic": "59,W,8,8,A0,0", "dameo": "60,W,8,8,A0,0", "alquerque": "61,W,5,5,A0,0",
             "hawaii": "62,B,8,8,A0,0"}


@pytest.mark.parametrize("game", sorted(BRAINKING))
def test_private_gametype_written_and_read_back(game: str) -> None:
    """Each game is written with its private GameType and read back move for move, removals included."""
    board = playout(rules.get_variant(game), 40, game)
    text = write_game(game_from_board(board, result="*"))
    assert f'[GameType "{BRAINKING[game]}"]' in text and f'[Variant "{game}"]' in text
    (read,) = read_games(text)
    assert validate_game(read) == []
    assert variant_of(read) == board.variant
    replay = rules.Board(game)
    for node in read.mainline.moves:
        replay.push(replay.parse_move(node.text))
    assert replay == board
    del read.tags["Variant"]            # the GameType alone names the game too
    assert variant_of(read).id == game


@pytest.mark.parametrize("game", sorted(BRAINKING))
def test_fen_round_trip(game: str) -> None:
    board = playout(rules.get_variant(game), 15, "fen " + game)
    again = rules.Board(game, board.fen())
    assert again == board and again.fen() == board.fen()


def test_konane_removals_in_pdn() -> None:
    board = rules.Board("hawaii")
    board.push_text("d5xd5")
    board.push_text("d4xd4")
    text = write_game(game_from_board(board))
    assert "1. d5xd5 d4xd4" in text
    (read,) = read_games(text)
    assert validate_game(read) == []


def test_options_travel_in_the_tags() -> None:
    """Thai with White first: GameType 31,W and the VariantOptions tag; read back, White moves first."""
    thai = rules.get_variant("thai", first="white", allow_180=False)
    board = playout(thai, 6, "thai")
    text = write_game(game_from_board(board, result="*"))
    assert '[GameType "31,W,8,8,N2,0"]' in text and '[VariantOptions "first=white allow_180=false"]' in text
    (read,) = read_games(text)
    assert variant_of(read) == thai and validate_game(read) == []
    turkish = rules.get_variant("turkish", promotion_mid_capture="continue_as_king")
    text = write_game(game_from_board(rules.Board(turkish)))
    assert '[GameType "30"]' in text and "promotion_mid_capture=continue_as_king" in text
    assert variant_of(read_games(text)[0]) == turkish
    plain = write_game(game_from_board(rules.Board("thai")))
    assert "VariantOptions" not in plain


def test_a_gametype_start_color_is_the_first_option() -> None:
    (read,) = read_games('[GameType "31,W,8,8,N2,0"]\n\n1. 8-12 *\n')
    assert variant_of(read).first == rules.Color.WHITE and validate_game(read) == []


@pytest.mark.parametrize(("tag", "message"), [
    ("colour=white", "VariantOptions tag: variant thai has no option 'colour'; its options: first,"),
    ("allow_180=perhaps", "VariantOptions tag: variant thai: option allow_180 expects true or false, "
                          "not 'perhaps'"),
    ("first", "VariantOptions tag: 'first' is not name=value (like first=white)"),
    ("far_row_crowns=true", "VariantOptions tag: variant thai has no option 'far_row_crowns'"),
])
def test_a_bad_options_tag_is_one_precise_error(tag: str, message: str) -> None:
    (read,) = read_games(f'[GameType "31"]\n[VariantOptions "{tag}"]\n\n1. 22-18 *\n')
    with pytest.raises(PdnGameError) as caught:
        variant_of(read)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert str(caught.value).startswith("2:1: game 1: ")
    (error,) = validate_game(read)
    assert message in str(error)
