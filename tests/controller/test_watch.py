"""What belongs to one ply (controller/turn.py): a new Watch starts clean, and a missed capture knows its
answers and the piece a huff takes off."""

from __future__ import annotations

from rig import Rig

from controller.watch import MissedCapture, Watch


def test_a_new_turn_shares_nothing_with_the_one_before() -> None:
    r = Rig("english")
    first = Watch(r.ctl.exp, 1)
    first.touched.add((0, 0))
    first.told.add((0, 0))
    second = Watch(r.ctl.exp, 2)
    assert second.touched == set() and second.told == set() and second.after == {}
    assert second.deadline is None and second.previous is None and second.pending == ()


def test_a_move_replaces_the_turn_whole() -> None:
    r = Rig("english")
    before = r.ctl.watch
    r.move("9-13")
    after = r.ctl.watch
    assert after is not before and after.token > before.token
    assert after.previous is not None and after.previous.shape.text == "9-13", "amendable until touched"


def missed(policy: str, origin: tuple[int, int] = (5, 0), should: tuple[tuple[int, int], ...] = ((5, 2),)
           ) -> MissedCapture:
    return MissedCapture(origin=origin, target=(4, 1), should=should, text="x", policy=policy, by="white")


def test_the_answers_a_missed_capture_allows_follow_the_policy() -> None:
    assert missed("opponent_choice_retract_or_accept").answers == ("retract", "accept")
    assert missed("opponent_choice_retract_or_huff").answers == ("retract", "huff")
    assert missed("accept_on_next_move").answers == ("retract",)
    assert missed("reject").answers == ()


def test_a_huff_takes_off_the_piece_that_should_have_captured() -> None:
    assert missed("opponent_choice_retract_or_huff").huffed == (5, 2)
    moved = missed("opponent_choice_retract_or_huff", origin=(5, 2), should=((5, 2), (5, 4)))
    assert moved.huffed == (4, 1), "the piece that should have captured moved: it is taken off where it went"
