"""The Controller's voice (controller/voice.py): what each way of speaking sends and keeps, the alert that
stands until the board is right again, and the phrasing shared by several sentences."""

from __future__ import annotations

from datetime import datetime

from rig import Rig

from controller import events as ev
from controller.durable import SaveError
from controller.record import GameRecord
from controller.settings import GameSettings
from controller.voice import HISTORY, Voice, computer_plays, set_up_request
from firmware_bridge.clock import ManualClock
from rules import Board, Illegal, get_variant


def voice() -> tuple[Voice, list[ev.Event]]:
    events: list[ev.Event] = []
    return Voice(events.append), events


def test_say_sends_a_message_and_keeps_the_last_ones() -> None:
    v, events = voice()
    v.say("hello")
    v.say("careful", "warning")
    assert events == [ev.Message("hello", "info"), ev.Message("careful", "warning")]
    assert list(v.messages) == [{"text": "hello", "level": "info"}, {"text": "careful", "level": "warning"}]
    assert v.alert is None, "a sentence is not an alert"
    for i in range(HISTORY + 5):
        v.say(f"line {i}")
    assert len(v.messages) == HISTORY and v.messages[-1]["text"] == f"line {HISTORY + 4}"


def test_warn_says_it_and_stands_as_the_alert_until_cleared() -> None:
    v, events = voice()
    v.warn("Put the piece back on 31.")
    assert events == [ev.Message("Put the piece back on 31.", "warning")]
    assert v.alert == {"text": "Put the piece back on 31.", "level": "warning"}
    v.say("something else")
    assert v.alert is not None, "other sentences leave the alert standing"
    v.clear()
    assert v.alert is None


def test_refuse_names_the_rule_and_its_section_of_the_rules_page() -> None:
    v, events = voice()
    v.refuse("12-16 must capture", Illegal.MUST_CAPTURE, get_variant("english"))
    section = f"docs/rules/english.md#{Illegal.MUST_CAPTURE.section}"
    assert events == [ev.Refusal("12-16 must capture", Illegal.MUST_CAPTURE.rule, section)]
    text = f"Refused: 12-16 must capture ({Illegal.MUST_CAPTURE.rule})"
    assert list(v.messages) == [{"text": text, "level": "refusal", "section": section}]
    assert v.alert == {"text": text, "level": "refusal"}


def test_a_save_refused_is_said_once_and_every_failure_is_kept() -> None:
    v, events = voice()
    full = SaveError("save the move", "the card is full")
    v.save_refused(str(full), full)
    assert events == [ev.Refusal(str(full), "saving")]
    assert v.alert == {"text": f"Refused: {full}", "level": "refusal"}
    v.clear()
    v.save_refused(str(full), full, again=True)   # the same move failing again: the alert, nothing said
    assert len(events) == 1 and v.alert == {"text": f"Refused: {full}", "level": "refusal"}
    assert v.save_errors == [full, full]
    v.save_failed(full)
    assert events[-1] == ev.Message(f"{full}.", "error") and v.save_errors == [full, full, full]


def test_the_controller_speaks_through_its_voice() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    assert r.ctl.say == r.ctl.voice.say and r.ctl.messages is r.ctl.voice.messages
    assert r.ctl.refuse_unsaved == r.ctl.voice.save_refused and r.ctl.save_errors is r.ctl.voice.save_errors
    r.ctl.say("from outside")
    assert r.events[-1] == ev.Message("from outside") and r.ctl.messages[-1]["text"] == "from outside"
    r.move("32-28")
    r.do("lift 31")
    assert r.ctl.alert is r.ctl.voice.alert and r.ctl.alert is not None
    r.do("place 31")
    assert r.ctl.alert is None, "the board is right again: the alert is gone"


def test_the_computers_move_in_words() -> None:
    variant = get_variant("english")
    kwargs = {"clock": ManualClock(0.0), "wall": datetime.now}
    game = GameRecord(GameSettings(variant, "white", "engine", 3, None, False), **kwargs)
    assert computer_plays(game, "11-15", "black", 0) == "The computer (black) plays 11-15"
    assert computer_plays(game, "11-15", "black", 0, done=True) == "The computer (black) played 11-15"
    replay = GameRecord(GameSettings(variant, "none", "engine", 3, None, False), **kwargs)
    assert [computer_plays(replay, "x", "black", ply) for ply in (0, 1, 2)] == ["Move 1: x", "Move 1: x",
                                                                                 "Move 2: x"]


def test_a_new_game_asks_for_the_start_position_or_the_position_lit() -> None:
    variant = get_variant("english")
    start = Board(variant).fen()
    assert set_up_request(variant, start, moves_itself=False, virtual=False) == ": set up the start position."
    assert "Arrange pieces on the page" in set_up_request(variant, start, moves_itself=False, virtual=True)
    assert set_up_request(variant, "W:W15:B10", moves_itself=False, virtual=False).startswith(
        ": set up the position shown")
    assert set_up_request(variant, start, moves_itself=True, virtual=True) == "."
