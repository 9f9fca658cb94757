"""Events serialise to JSON; commands refuse forged input precisely; the journal survives tears."""

from __future__ import annotations

import json

import pytest

from controller import commands as cmd
from controller import events as ev
from firmware_bridge.types import GREEN, LedFrame, Light, Pattern


def test_events_to_json_round_trip_through_json() -> None:
    frame = LedFrame.of(8, 8, {(2, 3): Light(GREEN, Pattern.SLOW_BLINK)})
    samples = [ev.MoveCommitted(1, "32-28", "white", "B:W28:B1"), ev.FrameShown(frame),
               ev.Refusal("no", "rule"),
               ev.OutOfSync(((1, 1),), (((2, 2), "black", True),)), ev.EngineProgress(3, 0.5, ("1-2",)),
               ev.GameOver("1-0", "no legal move"), ev.Message("hi"), ev.ViewChanged({"a": 1})]
    for event in samples:
        data = json.loads(json.dumps(event.to_json()))
        assert data["kind"] == event.kind
    assert ev.FrameShown(frame).to_json()["frame"] == [{"row": 2, "col": 3, "rgb": [0, 255, 0],
                                                       "pattern": "slow"}]
    assert ev.OutOfSync(((1, 1),), (((2, 2), "black", True),)).to_json()["to_fill"] == [
        {"rc": [2, 2], "color": "black", "king": True}]


def test_commands_from_json() -> None:
    assert cmd.Command.from_json({"kind": "takeback", "plies": 2}) == cmd.Takeback(2)
    new = cmd.Command.from_json({"kind": "new_game", "variant": "spanish", "human_color": "black"})
    assert new == cmd.NewGame(variant="spanish", human_color="black")
    assert cmd.Command.from_json({"kind": "lift", "row": 1, "col": 2}) == cmd.Lift(1, 2)


@pytest.mark.parametrize("data,message", [
    ([], "JSON object"),
    ({"kind": "explode"}, "unknown command kind"),
    ({"kind": "takeback", "plies": "2"}, "plies"),
    ({"kind": "takeback", "plies": 0}, "Take back: the number of plies must be 1 to 1000, got 0"),
    ({"kind": "takeback", "evil": 1}, "unexpected field"),
    ({"kind": "new_game", "human_color": "green"}, "the color you play must be white, black or both"),
    ({"kind": "new_game", "level": 11}, "New game: the engine level must be 1 to 10, got 11"),
    ({"kind": "new_game", "time_control": "soon"}, "New game: time control 'soon': expected minutes"),
    ({"kind": "new_game", "level": True}, "engine level must be a whole number, got True"),
    ({"kind": "missed_capture_choice", "choice": "maybe"}, "choice"),
    ({"kind": "set_teaching", "on": "yes"}, "on"),
    ({"kind": "lift", "row": -1, "col": 0}, "row"),
    ({"kind": "resign", "color": True}, "color"),
])
def test_bad_commands_are_refused_precisely(data: object, message: str) -> None:
    with pytest.raises(cmd.CommandError, match=message):
        cmd.Command.from_json(data)
