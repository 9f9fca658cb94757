"""Variants as data: ids, aliases, options, GameType mapping and set-ups."""

from __future__ import annotations

import pytest

from rules import VARIANT_IDS, Board, Color, UnknownVariantError, get_variant, variant_for_gametype
from rules.options import VariantOptionError, format_text, parse_text, to_json


def test_all_ids_and_aliases() -> None:
    assert len(VARIANT_IDS) == 23
    assert get_variant("konane").id == "hawaii"
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
    with pytest.raises(UnknownVariantError, match="variant thai: option first expects white or black"):
        get_variant("thai", first="red")


@pytest.mark.parametrize(("variant", "options", "message"), [
    ("thai", {"colour": "white"}, "variant thai has no option 'colour'; its options: first, precedence,"),
    ("thai", {"far_row_crowns": True}, "variant thai has no option 'far_row_crowns' (it is not one of its"),
    ("hawaii", {"allow_180": True}, "variant hawaii has no option 'allow_180' (it is not one of its rules); "
                                    "its options: first"),
    ("thai", {"allow_180": "maybe"}, "variant thai: option allow_180 expects true or false, not 'maybe'"),
    ("thai", {"first": 3}, "variant thai: option first expects white or black, not 3"),
    ("spanish", {"repetition": 1}, "option repetition expects a whole number from 2 to 1000, not 1"),
    ("spanish", {"no_progress_moves": "soon"},
     "option no_progress_moves expects a whole number from 1 to 1000, or none, not 'soon'"),
    ("spanish", {"precedence": ["max_pieces", "most"]}, "option precedence expects a list of max_pieces,"),
    ("spanish", {"no_progress_moves": 99999999999999999},                  # issue 30 item 12
     "option no_progress_moves expects a whole number from 1 to 1000, or none, not 99999999999999999"),
    ("spanish", {"no_progress_moves": "\u00b2"}, "option no_progress_moves expects a whole number from 1"),
    ("spanish", {"repetition": "1" * 5000}, "from 2 to 1000, not '" + "1" * 39 + "..."),
    ("turkish", {"promotion_mid_capture": "fly"}, "expects one of stop, continue_as_king, pass_through"),
])
def test_bad_options_are_one_precise_error(variant: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(VariantOptionError) as caught:
        get_variant(variant, **options)
    assert str(caught.value).startswith(message) or message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_options_are_read_from_text_and_written_back() -> None:
    thai = get_variant("thai", **parse_text("first=white allow_180=false"))
    assert thai.first == Color.WHITE and not thai.allow_180
    assert thai.option_values() == {"first": Color.WHITE, "allow_180": False}
    assert format_text(thai.option_values()) == "first=white allow_180=false"
    spanish = get_variant("spanish", **parse_text("precedence=max_pieces no_progress_moves=none "
                                                  "no_progress_reason='{n} king moves each'"))
    assert spanish.precedence == ("max_pieces",) and spanish.no_progress_moves is None
    again = get_variant("spanish", **parse_text(format_text(spanish.option_values())))
    assert again == spanish and get_variant("spanish", **to_json(spanish.option_values())) == spanish
    assert get_variant("russian", precedence="none").precedence == ()
    assert get_variant("thai").option_values() == {} and repr(thai) == "Variant('thai', 8x8, first=white " \
        "allow_180=false)"
    with pytest.raises(VariantOptionError, match="'first' is not name=value"):
        parse_text("first")
    with pytest.raises(VariantOptionError, match="option first is given twice"):
        parse_text("first=white first=black")


@pytest.mark.parametrize(
    ("tag", "vid"),
    [("20", "international"), ("20,W,10,10,N2,0", "international"), ("21", "english"), ("22", "italian"),
     ("24", "spanish"), ("25", "russian"), ("26", "brazilian"), ("27", "canadian"), ("28", "portuguese"),
     ("29", "czech"), ("30", "turkish"), ("31", "thai"), ("56", "corner"), ("57", "one-way"),
     ("58", "parachute"), ("59", "gothic"), ("60", "dameo"), ("61,W,5,5,A0,0", "alquerque"),
     ("62", "hawaii")],
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
    """(BrainKing's Corner, One Way, Parachute, Alquerque and Hawaii start otherwise: test_brainking.py.)"""
    for vid in set(VARIANT_IDS) - {"corner", "one-way", "parachute", "alquerque", "hawaii"}:
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
