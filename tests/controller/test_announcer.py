"""What the board says of each event, in English exactly, and in every language the move's squares as the
variant writes them; the events said come from the Controller as it plays (the rig)."""

from __future__ import annotations

import pytest
from rig import Rig

from controller import events as ev
from controller.announcer import Announcer, move_words, spoken_square
from i18n import LANGUAGES, translator


def said(announcer: Announcer, *events: ev.Event) -> list[str]:
    return [str(a.text) for event in events for a in announcer.hear(event)]


def view(**state: object) -> ev.ViewChanged:
    return ev.ViewChanged({"draw_offer": None, "clocks": None, **state})


@pytest.mark.parametrize("event,text", [
    (ev.ComputerMoveShown("32-28", "32", "28"), "32 to 28"),
    (ev.ComputerMoveShown("32x23", "32", "23", captures=1), "32 takes 23"),
    (ev.ComputerMoveShown("23x43", "23", "43", captures=2), "23 takes 2 pieces, to 43"),
    (ev.ComputerMoveShown("42-47", "42", "47", crowned=True), "42 to 47 and crowns"),
    (ev.ComputerMoveShown("c3:e5", "c3", "e5", captures=1), "c 3 takes e 5"),
    (ev.Refusal("19-24: a capture was compulsory", "compulsory capture"), "Refused: capturing is compulsory"),
    (ev.Refusal("19x30: take the most", "maximum capture"), "Refused: take the most pieces"),
    (ev.Refusal("new game refused: no such variant", "game settings"), "Refused"),
    (ev.GameOver("1-0", "black has no legal move"), "Game over: White wins"),
    (ev.GameOver("0-1", "white resigns"), "Game over: Black wins"),
    (ev.GameOver("1/2-1/2", "agreed"), "Game over: a draw"),
])
def test_what_is_said_of_each_event(event: ev.Event, text: str) -> None:
    assert said(Announcer(), event) == [text]


def test_a_draw_offer_is_said_once_when_it_is_made() -> None:
    announcer = Announcer()
    assert said(announcer, view(), view(draw_offer="black"), view(draw_offer="black"), view()) == [
        "Black offers a draw"]
    assert said(announcer, view(draw_offer="white")) == ["White offers a draw"]


def test_low_time_is_said_as_the_running_clock_passes_each_mark() -> None:
    announcer = Announcer()

    def clocks(white: int, black: int = 300, running: str = "white") -> ev.ViewChanged:
        return view(clocks={"white": white, "black": black, "running": running, "time_control": "5+0"})

    heard = said(announcer, clocks(62), clocks(61), clocks(60), clocks(59), clocks(31), clocks(29),
                 clocks(10, running="white"), clocks(1))
    assert heard == ["White has 60 seconds left", "White has 29 seconds left", "White has 10 seconds left"]
    assert said(announcer, clocks(10, 9, running="black")) == ["Black has 9 seconds left"]   # said once
    assert said(announcer, clocks(10, 5, running="black")) == []
    assert said(Announcer(), clocks(11), clocks(1)) == ["White has 1 second left"]


def test_blind_mode_says_every_lift_place_and_move() -> None:
    blind = Announcer(blind=True)
    events = [ev.PiecesTouched(lifted=("32",)), ev.PiecesTouched(placed=("28",)),
              ev.MoveCommitted(1, "32-28", "white", "B:W28", "32", "28"),
              ev.PiecesTouched(lifted=("c3", "d4")),
              ev.MoveCommitted(2, "19x28", "black", "W:B28", "19", "28", captures=1, crowned=True)]
    assert said(blind, *events) == ["32 up", "28 down", "32 to 28, played", "c 3 up", "d 4 up",
                                    "19 takes 28 and crowns, played"]
    assert said(Announcer(), *events) == []


def test_a_set_up_is_said_as_counts() -> None:
    squares = tuple(str(n) for n in range(1, 21))
    assert said(Announcer(blind=True), ev.PiecesTouched(placed=squares)) == ["20 pieces put down"]
    assert said(Announcer(blind=True), ev.PiecesTouched(("1",), squares)) == [
        "1 piece lifted", "20 pieces put down"]


def test_squares_are_spoken_as_words() -> None:
    assert [spoken_square(s) for s in ("32", "d4", "h8", "a10", "r3c4")] == ["32", "d 4", "h 8", "a 10",
                                                                             "r 3 c 4"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_language_says_the_squares_as_the_variant_writes_them(language: str) -> None:
    render = translator(language).render
    for words, squares in [(move_words("32", "28"), ("32", "28")), (move_words("32", "23", 1), ("32", "23")),
                           (move_words("c3", "e5", 3, True), ("c 3", "e 5", "3"))]:
        text = render(words)
        assert text and all(square in text for square in squares), (language, text)


def test_the_controller_announces_the_computers_move_its_captures_and_crowning() -> None:
    """The events come from the Controller as it plays: the computer's move shown, its capture counted, its
    crowning; the person's move, lifts and places in blind mode."""
    rig = Rig("international", human_color="white", opponent="engine", fen="B:W28,38:B23")
    rig.answer_engine("23x43")
    assert said(Announcer(), *rig.events) == ["23 takes 2 pieces, to 43"]
    rig = Rig("international", human_color="white", opponent="engine", fen="B:W28:B42")
    rig.answer_engine("42-47")
    rig.events.clear()
    rig.move("42-47")
    assert said(Announcer(blind=True), *rig.events) == ["42 up", "47 down", "42 to 47 and crowns, played"]
    rig = Rig("russian", human_color="both", opponent="person")
    rig.events.clear()
    rig.move("c3-d4")
    assert said(Announcer(blind=True), *rig.events) == ["c 3 up", "d 4 down", "c 3 to d 4, played"]


def test_a_refusal_on_the_board_is_said_by_its_rule() -> None:
    rig = Rig("international", human_color="both", opponent="person", fen="W:W28:B23,1")
    rig.events.clear()
    rig.do("lift 28, place 22, wait 0.5")
    assert said(Announcer(), *rig.events) == ["Refused: capturing is compulsory"]
