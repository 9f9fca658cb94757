"""The tap gesture: a piece lifted and put back with nothing else touched asks the board what is on the square
and where it may go; a second tap within TAP_SECONDS reads the position. No move is ever read as a tap, and a
tap is never a move: the game and its record stay as they were."""

from __future__ import annotations

from rig import Rig

from controller import events as ev
from controller.announcer import position_of
from controller.gestures import TAP_SECONDS, TAP_UP, Tap, Taps
from i18n import translator

A, B = (5, 0), (4, 1)


def test_a_lift_and_a_place_on_the_same_square_is_a_tap_and_a_second_one_soon_after_a_double_tap() -> None:
    taps = Taps()
    assert taps.touched(frozenset({A}), frozenset(), 1.0) is None
    assert taps.touched(frozenset(), frozenset({A}), 1.4) == Tap(A, 1)
    assert taps.touched(frozenset({A}), frozenset(), 1.8) is None
    second = taps.touched(frozenset(), frozenset({A}), 2.2)
    assert second == Tap(A, 2) and second.reads_position
    taps.touched(frozenset({A}), frozenset(), 10.0)
    assert taps.touched(frozenset(), frozenset({A}), 10.5) == Tap(A, 1)   # more than TAP_SECONDS on: anew
    assert TAP_SECONDS < 10.5 - 2.2


def test_a_flicker_or_a_piece_held_up_long_is_no_tap() -> None:
    taps = Taps()
    taps.touched(frozenset({A}), frozenset(), 1.0)
    assert taps.touched(frozenset(), frozenset({A}), 1.0 + TAP_UP[0] / 2) is None   # a reed's flicker
    taps.touched(frozenset({A}), frozenset(), 2.0)
    assert taps.touched(frozenset(), frozenset({A}), 2.0 + TAP_UP[1] + 1) is None   # lifted to think
    taps.touched(frozenset({A}), frozenset(), 9.0)
    assert taps.touched(frozenset(), frozenset({A}), 9.0 + TAP_UP[0]) == Tap(A, 1)


def test_anything_else_touched_is_no_tap_and_ends_a_run_of_taps() -> None:
    taps = Taps()
    taps.touched(frozenset({A}), frozenset(), 0.0)
    assert taps.touched(frozenset(), frozenset({A}), 0.5) == Tap(A, 1)
    taps.touched(frozenset({A}), frozenset(), 1.0)
    assert taps.touched(frozenset(), frozenset({B}), 1.5) is None   # a move: A to B
    taps.touched(frozenset({B}), frozenset(), 2.0)
    assert taps.touched(frozenset(), frozenset({B}), 2.5) == Tap(B, 1)
    taps.touched(frozenset({A}), frozenset(), 3.0)
    taps.touched(frozenset({B}), frozenset(), 3.5)                  # two pieces up: no tap
    taps.touched(frozenset(), frozenset({B}), 4.0)
    assert taps.touched(frozenset(), frozenset({A}), 4.5) is None
    assert taps.touched(frozenset({A, B}), frozenset(), 5.0) is None
    assert taps.touched(frozenset(), frozenset({A, B}), 5.5) is None


def tap(rig: Rig, *squares: str) -> None:
    """Each square's piece lifted, held up 0.4 s and put back, 0.4 s apart."""
    for name in squares:
        rig.do(f"lift {name}, wait 0.4, place {name}, wait 0.4")


def asked(rig: Rig) -> list[tuple[str, str]]:
    return [(str(e.text), e.topic) for e in rig.of(ev.Asked)]


def test_a_tap_on_the_board_names_the_piece_and_its_moves_and_a_double_tap_reads_the_position() -> None:
    rig = Rig("international")
    tap(rig, "32")
    assert asked(rig) == [("32, white man: 32 to 27 or 32 to 28", "piece")]
    tap(rig, "32")
    assert asked(rig)[1] == (str(position_of(rig.ctl)), "position")
    assert asked(rig)[1][0].startswith("White: 31, 32, 33,") and asked(rig)[1][0].endswith("White to move.")
    tap(rig, "46", "17")
    assert asked(rig)[2:] == [("46, white man: it cannot move", "piece"), ("17, black man", "piece")]
    assert rig.texts == [] and rig.state == "person.idle" and not rig.of(ev.Refusal)


def test_a_tap_says_the_captures_a_piece_must_make_and_a_crowning() -> None:
    rig = Rig("international", fen="W:W28,K49:B23,5.")
    tap(rig, "28", "49")
    assert asked(rig) == [("28, white man: 28 takes 19", "piece"),
                          ("49, white king: it cannot move", "piece")]
    rig = Rig("english", fen="B:W1:B26.")
    tap(rig, "26")
    assert asked(rig) == [("26, black man: 26 to 30 and crowns or 26 to 31 and crowns", "piece")]


def test_a_move_made_is_no_tap_and_taps_are_not_answered_while_the_computers_move_is_carried_out() -> None:
    rig = Rig("international", human_color="white", opponent="engine")
    rig.move("32-28")
    assert rig.texts == ["32-28"] and asked(rig) == []
    rig.answer_engine("19-23")
    assert rig.state == "computer.showing"
    tap(rig, "19")   # the computer's piece picked up and put back: not a question
    assert asked(rig) == []


def test_the_answer_is_in_the_boards_language() -> None:
    rig = Rig("russian")
    tap(rig, "c3")
    [(text, _)] = asked(rig)
    said = translator("ru").render(rig.of(ev.Asked)[0].text)
    assert said != text and "c 3" in said and "b 4" in said and "d 4" in said
