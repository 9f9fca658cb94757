"""The page's view of the game (controller/view.py): the ViewChanged payload's game part, its keys and
values for a fresh game and after a move."""

from __future__ import annotations

from rig import Rig

from controller import events as ev
from controller.states import COMPUTER_THINKING, PERSON_IDLE
from controller.view import game_view

KEYS = {"variant", "variant_name", "variant_options", "first", "rows", "cols", "orientation", "pieces",
        "turn", "state", "legal_moves", "moves", "last_move", "legal_paths", "start_fen", "draw_offer",
        "leds", "clocks", "engine", "human_color", "teaching", "messages", "alert", "question", "result",
        "claimable_draw", "board_connected", "occupancy", "fen"}


def test_a_fresh_game_as_the_page_sees_it() -> None:
    r = Rig("english")
    state = game_view(r.ctl)
    assert set(state) == KEYS
    assert state["variant"] == "english" and state["rows"] == state["cols"] == 8
    assert state["state"] == PERSON_IDLE and state["turn"] == "black" == state["first"]
    assert state["orientation"] == "white-near" and state["human_color"] == "both"
    assert len(state["pieces"]) == 24 and {"row", "col", "color", "king"} == set(state["pieces"][0])
    assert state["moves"] == [] and state["last_move"] is None and state["result"] is None
    assert "9-13" in state["legal_moves"] and len(state["legal_paths"]) == len(state["legal_moves"])
    assert state["fen"] == state["start_fen"] == r.ctl.game.board.fen()
    assert state["occupancy"] == [list(sq) for sq in sorted(r.ctl.exp.base)]
    assert state["leds"] == ev.frame_to_json(r.ctl.frame)
    assert state["messages"] == list(r.ctl.messages) and state["messages"][-1]["text"] == (
        "The board is set up: play.")
    assert state["alert"] is None and state["question"] is None and state["clocks"] is None
    assert state["engine"] == {"opponent": "person", "level": 3, "progress": None, "thinking": False,
                               "move": None}
    assert state["board_connected"] is True
    assert state["draw_offer"] is None and state["claimable_draw"] is None


def test_after_a_move_the_record_and_the_last_move_show() -> None:
    r = Rig("english")
    r.move("9-13")
    state = game_view(r.ctl)
    (move,) = state["moves"]
    assert move == {"ply": 1, "text": "9-13", "by": "black", "fen": r.ctl.game.board.fen()}
    origin, target = r.sq("9"), r.sq("13")
    assert state["last_move"] == {"from": list(origin), "to": list(target), "captures": []}
    assert state["turn"] == "white" and state["fen"] == move["fen"] != state["start_fen"]
    assert list(target) in state["occupancy"] and list(origin) not in state["occupancy"]


def test_the_engine_thinking_shows() -> None:
    r = Rig("english", human_color="white", opponent="engine")
    assert r.state == COMPUTER_THINKING
    engine = game_view(r.ctl)["engine"]
    assert engine["thinking"] is True and engine["opponent"] == "engine" and engine["move"] is None
    r.answer_engine("11-15")
    engine = game_view(r.ctl)["engine"]
    assert engine == {"opponent": "engine", "level": 3, "progress": None, "thinking": False, "move": "11-15"}
