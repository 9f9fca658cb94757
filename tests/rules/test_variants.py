"""Variants as data: ids, aliases, options, GameType mapping and set-ups."""

from __future__ import annotations

import pytest

from rules import VARIANT_IDS, Board, Color, UnknownVariantError, get_variant, variant_for_gametype


def test_all_ids_and_aliases() -> None:
    assert len(VARIANT_IDS) == 16
    assert get_variant("french").id == "international"
    assert get_variant("FMJD").id == "international"
    assert get_variant("checkers").id == "english"
    assert get_variant("classic").id == "english"
    assert get_variant("french").missed_capture_policy == "opponent_choice_retract_or_accept"
    assert get_variant("international").missed_capture_policy == "reject"
    assert get_variant("french", missed_capture_policy="reject") == get_variant("fmjd")


def test_unknown_variant_lists_valid_ids() -> None:
    with pytest.raises(UnknownVariantError, match=r"'chess'.*international"):
        get_variant("chess")


def test_options_override_and_validate() -> None:
    thai = get_variant("thai", first=Color.WHITE)
    assert thai.first == Color.WHITE and get_variant("thai").first == Color.BLACK
    assert Board(thai).turn == Color.WHITE
    assert get_variant("spanish", no_progress=20).no_progress_moves == 20
    assert get_variant("turkish", promotion_mid_capture="stop").promotion_mid_capture == "stop"
    with pytest.raises(ValueError, match="color"):
        get_variant("thai", color="white")
    with pytest.raises(UnknownVariantError, match="promotion_mid_capture"):
        get_variant("turkish", promotion_mid_capture="fly")
    with pytest.raises(UnknownVariantError, match="option first of variant thai: expected white or black"):
        get_variant("thai", first="red")


@pytest.mark.parametrize(
    ("tag", "vid"),
    [("20", "international"), ("20,W,10,10,N2,0", "international"), ("21", "english"), ("22", "italian"),
     ("24", "spanish"), ("25", "russian"), ("26", "brazilian"), ("27", "canadian"), ("28", "portuguese"),
     ("29", "czech"), ("30", "turkish"), ("31", "thai")],
)
def test_gametype_mapping(tag: str, vid: str) -> None:
    assert variant_for_gametype(tag).id == vid
    assert get_variant(vid).pdn_gametype.split(",")[0] == tag.split(",")[0]


def test_unknown_gametype() -> None:
    with pytest.raises(ValueError, match="99"):
        variant_for_gametype("99")


@pytest.mark.parametrize(
    ("vid", "men", "first"),
    [("spanish", 12, Color.WHITE), ("international", 20, Color.WHITE), ("canadian", 30, Color.WHITE),
     ("english", 12, Color.BLACK), ("thai", 8, Color.BLACK), ("turkish", 16, Color.WHITE),
     ("spanish-nordic", 20, Color.WHITE), ("italian", 12, Color.WHITE)],
)
def test_setups(vid: str, men: int, first: Color) -> None:
    b = Board(vid)
    assert len(b.men(Color.WHITE)) == men == len(b.men(Color.BLACK))
    assert b.turn == first


def test_white_men_start_on_rank_one_side() -> None:
    for vid in VARIANT_IDS:
        b = Board(vid)
        g = b.variant.geometry
        white_rows = {g.rc(s)[0] for s in b.men(Color.WHITE)}
        black_rows = {g.rc(s)[0] for s in b.men(Color.BLACK)}
        assert max(white_rows) < min(black_rows), vid


def test_spanish_start_fen_uses_iberian_numbers() -> None:
    assert Board("spanish").fen() == "W:W" + ",".join(map(str, range(1, 13))) + ":B" + ",".join(
        map(str, range(21, 33)))


def test_variant_is_hashable_value() -> None:
    assert get_variant("russian") == get_variant("russian")
    assert hash(get_variant("russian")) == hash(get_variant("russian"))
    assert get_variant("russian") != get_variant("brazilian")
