"""Each way the board misread a move (issue 23), as a sensor log in tests/data/sensor-logs/ replayed through
the controller in every variant it applies to: what must be recorded, said and lit now."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.sensorlog import Playback, lit, play_back, read_log
from controller.view import game_view

LOGS = Path(__file__).resolve().parents[1] / "data" / "sensor-logs"


def replayed(cause: str, variant: str) -> Playback:
    return play_back(read_log(LOGS / cause / f"{variant}.jsonl"))


def said(result: Playback, level: str | None = None) -> str:
    return "\n".join(text for _, lvl, text in result.said if level in (None, lvl))


# 1. a man put on one legal square and moved on to another 0.25 s later (the logged board recorded the first)
@pytest.mark.parametrize(("variant", "first", "meant"), [
    ("english", "9-13", "9-14"), ("international", "32-27", "32-28"), ("russian", "c3-b4", "c3-d4"),
    ("italian", "22-18", "22-19"), ("turkish", "d4-c4", "d4-d5"), ("spanish", "11-14", "11-15")])
def test_change_of_mind_amends_the_move(variant: str, first: str, meant: str) -> None:
    result = replayed("change-of-mind", variant)
    assert result.logged == [first], "the log shows the misreading it was made for"
    assert result.moves == [meant] and result.state == "person.idle"
    assert f"Amended: {meant}, not {first}." in said(result)
    assert not result.refusals and result.alert is None


# 2. a piece knocked onto a square it may move to, put back, a 40 ms knock, the real move at once
@pytest.mark.parametrize(("variant", "knocked", "meant"), [
    ("english", "11-15", "9-13"), ("international", "34-29", "32-28"), ("russian", "e3-f4", "c3-d4"),
    ("italian", "23-19", "22-18"), ("turkish", "c3-c4", "a3-a4"), ("spanish", "10-13", "12-16")])
def test_knock_put_back_then_the_real_move_is_a_takeback(variant: str, knocked: str, meant: str) -> None:
    result = replayed("knock-put-back", variant)
    assert result.logged == [knocked]
    assert result.moves == [meant] and result.state == "person.idle"
    assert not result.refusals and result.alert is None


FLYING = {   # variant: the king's slide resting 0.4 s on each square passed; a capture landing first nearby
    "international": ("46-41", "46-28", "46x32", "46x23"),
    "russian": ("a1-b2", "a1-e5", "a1:d4", "a1:f6"),
    "spanish": ("1-5", "1-14", "1x10", "1x19"),
    "turkish": ("a1-a2", "a1-a5", "a1xa4", "a1xa6"),
}


# 3. a flying king resting 0.4 s on the squares it passes; a king capture landing first on the nearest square
@pytest.mark.parametrize("variant", sorted(FLYING))
def test_flying_king_resting_on_its_way_is_not_committed_there(variant: str) -> None:
    wrong, meant, _, _ = FLYING[variant]
    result = replayed("flying-king-rest", variant)
    assert result.logged == [wrong]
    assert result.moves == [meant] and result.state == "person.idle"
    assert "Amended" not in said(result), "the king's longer settle waited for it"


@pytest.mark.parametrize("variant", sorted(FLYING))
def test_king_capture_moved_on_to_a_further_landing_square(variant: str) -> None:
    _, _, first, meant = FLYING[variant]
    result = replayed("king-capture-landing", variant)
    assert result.logged == [first]
    assert result.moves == [meant] and result.state == "person.idle"


# 4. while a king move settles, an opponent's piece brushed (read empty for 50 ms), then the king moves on
@pytest.mark.parametrize(("variant", "wrong", "meant"), [
    ("international", "46-37", "46-28"), ("russian", "a1-c3", "a1-e5"), ("spanish", "1-10", "1-14"),
    ("turkish", "a1-a3", "a1-a5")])
def test_a_brushed_opponent_piece_does_not_commit_the_settling_move(variant: str, wrong: str,
                                                                    meant: str) -> None:
    result = replayed("brushed-reply", variant)
    assert result.logged == [wrong]
    assert result.moves == [meant] and result.state == "person.idle"


# 5. the computer's move carried out as another legal move
@pytest.mark.parametrize(("variant", "person", "computer", "made"), [
    ("english", "9-13", "22-18", "22-17"), ("international", "32-28", "19-23", "19-24"),
    ("russian", "c3-d4", "f6-g5", "f6-e5"), ("italian", "21-17", "10-14", "10-13"),
    ("turkish", "a3-a4", "a6-a5", "b6-b5"), ("spanish", "12-16", "21-17", "21-18")])
def test_the_computers_move_played_wrongly_lights_what_to_fix(variant: str, person: str, computer: str,
                                                              made: str) -> None:
    result = replayed("computer-move-wrong", variant)
    assert result.moves == [person] and result.state == "computer.showing"
    assert result.alert is not None and f"That is {made}, not the computer's move {computer}" in result.alert
    leds = lit(result.frame, result.map)
    origin, target = made.split("-")
    their = "white" if variant == "english" else "blue"
    assert leds[target] == ("red", "fast"), "the piece that must go back: lift it here"
    assert leds[origin] == (their, "slow"), "and put it back here"
    assert leds[computer.split("-")[1]][0] == "yellow", "the computer's move is still shown"


# 6. diagonal slides brushing the corner sensors of squares that are not played on (men and kings)
@pytest.mark.parametrize(("variant", "moves"), [
    ("english", ["10-14", "30-26", "5-9"]), ("international", ["33-28", "20-25", "46-32"]),
    ("russian", ["e3-f4", "c7-d6", "a1-d4"]), ("italian", ["24-20", "5-9", "29-25"]),
    ("spanish", ["10-14", "28-24", "1-10"])])
def test_slides_brushing_corner_sensors_are_read_without_refusals(variant: str, moves: list[str]) -> None:
    result = replayed("corner-slides", variant)
    assert result.moves == moves and not result.refusals
    assert not any(frame.lights and any(light.rgb.r == 255 and light.rgb.g == 0 for _, light in frame.lights)
                   for _, frame in result.frames), "no red light during the slides"


# 7a. the side not to move lifts a piece: told at once, its square lit red
@pytest.mark.parametrize(("variant", "lifted", "move"), [
    ("english", "22", "9-13"), ("international", "19", "32-28"), ("russian", "f6", "c3-d4"),
    ("italian", "10", "21-17"), ("turkish", "a6", "a3-a4"), ("spanish", "21", "12-16")])
def test_not_your_turn_is_said_and_lit_at_once(variant: str, lifted: str, move: str) -> None:
    result = replayed("not-your-turn", variant)
    log = read_log(LOGS / "not-your-turn" / f"{variant}.jsonl")
    lifted_at = next(e.t for e in log.entries if e.kind == "occupancy" and e.data[1]) - log.start
    warnings = [(at, text) for at, level, text in result.said if level == "warning"]
    assert warnings and warnings[0][0] - lifted_at < 0.01, "said as the lift is seen, not after the grace"
    assert warnings[0][1].startswith("Not your turn") and f"back on {lifted}" in warnings[0][1]
    frames = [frame for at, frame in result.frames if lifted_at <= at < lifted_at + 0.5]
    assert frames and lit(frames[0], result.map)[lifted] == ("red", "fast")
    assert result.moves == [move] and result.alert is None, "the alert is gone once the piece is back"


# 7b. the start position set up after four plies: the board asks whether it is a new game or a takeback
@pytest.mark.parametrize("variant", ["english", "international", "russian", "italian", "turkish", "spanish"])
@pytest.mark.parametrize("answer", ["new_game", "takeback"])
def test_start_position_early_in_a_game_asks(variant: str, answer: str) -> None:
    result = replayed("start-position-early", variant)
    assert len(result.moves) == 4 and result.state == "out_of_sync", "nothing taken back before the answer"
    assert game_view(result.controller)["question"] == {"kind": "start_position", "plies": 4}
    assert result.alert is not None and "a new game, or take back all 4?" in result.alert
    assert {color for color, _ in lit(result.frame, result.map).values()} == {"cyan"}
    ctl = result.controller
    started = ctl.record.started
    ctl.start_position_choice(answer)
    assert ctl.records == [] and ctl.turn_state in ("person", "computer") and ctl.alert is None
    assert (ctl.record.started is started) == (answer == "takeback")


# 7c. a capture the rules outrank, stopped on its first landing square: the refusal gives the real reason
def test_refusal_of_an_outranked_capture_names_the_rule() -> None:
    result = replayed("refusal-reason", "italian")
    assert result.refusals == ["8x15 is not a legal move: the capture taking the most pieces is compulsory: "
                               "7x30 (maximum capture)"]
