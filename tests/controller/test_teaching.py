"""Teaching mode's words for a lifted piece that cannot move (issue 28 item 20): the rule that holds it, on
the rules core's own positions, and the refusal the controller makes of it."""

from __future__ import annotations

from rig import Rig

from controller import events as ev
from controller.teaching import why_immobile
from firmware_bridge.types import ORANGE, RED
from rules import Board, Illegal


def square(board: Board, name: str) -> int:
    return board.variant.geometry.parse_square(name)


def test_a_man_held_by_a_capture_elsewhere_names_the_capture() -> None:
    board = Board("international", "W:W28,40:B23")
    why = why_immobile(board, square(board, "40"))
    assert why.reason is Illegal.MUST_CAPTURE
    assert why.text == "the man on 40 cannot move: a capture is compulsory (28x19)"


def test_a_man_outranked_by_a_longer_capture_names_the_precedence_rule() -> None:
    board = Board("international", "W:W28,33,40:B23,22,12,34")
    why = why_immobile(board, square(board, "28"))   # 28x19 is a capture, but 40 takes two
    assert why.reason is Illegal.MUST_TAKE_MAXIMUM
    assert why.text.startswith("the man on 28 cannot move: it could capture, but the capture taking the most")
    assert why.text.endswith("40x7 or 40x27")


def test_a_blocked_man_and_king_are_called_blocked() -> None:
    board = Board("english")                           # Black to move; 1 stands behind 5 and 6
    assert why_immobile(board, square(board, "1")).text == ("the man on 1 cannot move: it is blocked, no "
                                                            "square it may move to is free")
    board = Board("english", "B:W:BK1,5,6")
    why = why_immobile(board, square(board, "1"))
    assert why.reason is Illegal.PIECE_MOVEMENT and why.text.startswith("the king on 1 cannot move")


def test_teaching_mode_says_why_a_lifted_man_cannot_move_once_a_turn() -> None:
    r = Rig("international", fen="W:W28,40:B23", teaching=True)
    r.do("lift 40")
    (refusal,) = r.of(ev.Refusal)
    assert refusal.message == ("The man on 40 cannot move: a capture is compulsory (28x19). The rule of "
                               "compulsory capture: see the International draughts rules, section "
                               "'capturing'. Put it back")
    assert refusal.rule == "compulsory capture" and refusal.section == "docs/rules/international.md#capturing"
    assert r.lit()["40"].rgb == RED and r.lit()["28"].rgb == ORANGE
    assert r.ctl.alert is not None and "cannot move" in r.ctl.alert["text"]
    r.do("place 34")                                   # put down where it cannot go: nothing said twice
    assert len(r.of(ev.Refusal)) == 1 and "cannot move" in r.ctl.alert["text"]
    r.do("lift 34, place 40")
    assert r.state == "person.idle" and r.ctl.alert is None
    r.do("lift 40, place 40")                          # said once a turn
    assert len(r.of(ev.Refusal)) == 1


def test_outside_teaching_mode_the_red_light_alone_says_it() -> None:
    r = Rig("international", fen="W:W28,40:B23")
    r.do("lift 40")
    assert not r.of(ev.Refusal) and r.lit()["40"].rgb == RED
