"""Time control and clocks, the PDN file of every game, and validating a new game before applying it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rig import Rig

from controller import events as ev
from controller.clocks import GameClocks, TimeControl, TimeControlError
from controller.session import Session
from controller.settings import GameSettings
from controller.view import game_view
from rules.pdn import read_games


def test_time_control_parsing() -> None:
    assert TimeControl.parse("5+3") == TimeControl(300.0, 3.0)
    assert TimeControl.parse(" 10 ") == TimeControl(600.0, 0.0)
    assert str(TimeControl.parse("1.5+2")) == "1.5+2"
    for bad in ("", "five", "5+", "0+3", "-1+0", "5+3+1"):
        with pytest.raises(TimeControlError, match="time control"):
            TimeControl.parse(bad)


def test_game_clocks_run_only_for_the_side_to_move() -> None:
    clocks = GameClocks(TimeControl(60.0, 2.0))
    clocks.start("white", 10.0)
    assert clocks.left("white", 25.0) == 45.0 and clocks.left("black", 25.0) == 60.0
    assert clocks.press(25.0) == 15.0   # white moved after 15 s and gets 2 s back
    assert clocks.remaining["white"] == 47.0 and clocks.running == "black"
    assert clocks.flagged(84.9) is None and clocks.flagged(85.0) == "black"
    assert clocks.to_json(30.5) == {"white": 47, "black": 55, "running": "black", "time_control": "1+2"}


def test_clocks_in_state_and_pdn_then_loss_on_time(tmp_path: Path) -> None:
    r = Rig("english", tmp_path, time_control="1+2")
    start = {"white": 60, "black": 60, "running": "black", "time_control": "1+2"}
    assert game_view(r.ctl)["clocks"] == start
    r.wait(10)
    r.move("11-15")   # black (first in English) thinks 10 s, moves in 0.1 s, then 0.5 s pass
    clocks = game_view(r.ctl)["clocks"]
    assert clocks["running"] == "white"
    assert clocks["black"] == 52   # 60 - 10.1 + 2, shown rounded up
    assert clocks["white"] == 60   # 59.5 left
    assert r.ctl.records[-1].clocks == (60.0, 51.9) and r.ctl.records[-1].seconds == pytest.approx(10.1)
    r.move("22-18")
    assert game_view(r.ctl)["clocks"]["running"] == "black"
    r.wait(100)   # black's flag falls
    assert r.state == "game_over"
    over = r.of(ev.GameOver)[-1]
    assert over.result == "1-0" and "time" in over.reason and "black" in over.reason
    assert game_view(r.ctl)["clocks"]["black"] == 0 and game_view(r.ctl)["clocks"]["running"] is None
    [path] = tmp_path.glob("*-english.pdn")
    text = path.read_text()
    assert '[TimeControl "1+2"]' in text and '[Result "1-0"]' in text
    game = read_games(text)[0]
    nodes = game.mainline.moves
    assert [n.text for n in nodes] == ["11-15", "22-18"]
    assert (nodes[0].clock.white, nodes[0].clock.black) == (60, 52)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", nodes[1].clock.wall)


def test_a_move_after_the_flag_fell_is_not_accepted() -> None:
    r = Rig("english", time_control="0.5")
    r.clock.advance(31)   # no tick: the next snapshot finds the flag fallen first
    r.move("11-15")
    assert r.state == "game_over" and r.texts == []
    assert r.of(ev.GameOver)[-1].result == "1-0"


def test_every_game_gets_its_own_pdn_file_with_tags(tmp_path: Path) -> None:
    r = Rig("international", tmp_path, fen="W:W28:B23")
    r.move("28x19")
    r.ctl.new_game()
    r.set(r.ctl.start_occupancy)
    r.move("28x19")
    files = sorted(tmp_path.glob("*.pdn"))
    assert len(files) == 2, files
    for path in files:
        assert re.fullmatch(r"\d{8}-\d{6}-international(-\d+)?\.pdn", path.name), path.name
        tags = read_games(path.read_text())[0].tags
        assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", tags["Date"])
        assert tags["Event"] and tags["Site"] and tags["GameType"].startswith("20")
        assert (tags["White"], tags["Black"], tags["Result"]) == ("Person", "Person", "1-0")
    assert not (tmp_path / "last-game.pdn").exists()


def test_pdn_on_demand_is_replaced_by_the_finished_game(tmp_path: Path) -> None:
    r = Rig("english", tmp_path, human_color="black", opponent="engine")
    r.move("11-15")
    path = r.ctl.write_pdn()
    assert path is not None and '[Result "*"]' in path.read_text() and "11-15" in path.read_text()
    tags = read_games(path.read_text())[0].tags
    assert (tags["White"], tags["Black"]) == ("Computer (level 3)", "player")   # the profile the game rates
    r.ctl.resign("black")
    assert sorted(tmp_path.glob("*.pdn")) == [path]
    assert '[Result "1-0"]' in path.read_text()


def test_bad_new_game_changes_nothing() -> None:
    r = Rig("english")
    r.move("11-15")
    before = game_view(r.ctl)
    for settings, words in ((lambda: GameSettings("international", fen="W:W99:B1"), "FEN"),
                            (lambda: GameSettings("checkers-on-mars"), "unknown variant"),
                            (lambda: GameSettings("international", time_control="soon"), "time control")):
        with pytest.raises(ValueError, match=words):
            r.ctl.new_game(settings())
        assert game_view(r.ctl) == before
        assert r.ctl.variant.id == "english" and r.texts == ["11-15"]


def test_session_refuses_a_bad_new_game_with_events(tmp_path: Path) -> None:
    import asyncio

    from controller import commands as cmd
    from controller.config import Config
    from firmware_bridge.simulated import SimulatedDevice

    async def main() -> None:
        board = SimulatedDevice(8, 8)
        session = Session(Config(variant="english", opponent="person", human_color="both"), board, board,
                          tmp_path)
        async with session:
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            events = session.subscribe()
            before = session.view()
            await session.send(cmd.NewGame(variant="international", fen="W:W99:B1", opponent="person"))
            await session.idle()
            got = []
            while not events.empty():
                got.append(events.get_nowait())
            refusals = [e for e in got if isinstance(e, ev.Refusal)]
            errors = [e for e in got if isinstance(e, ev.Message) and e.level == "error"]
            assert refusals and "99" in refusals[0].message
            assert errors and "FEN" in errors[0].text
            after = session.view()
            assert {k: v for k, v in after.items() if k != "messages"} == \
                {k: v for k, v in before.items() if k != "messages"}
            # the journal still holds the English game
            assert session.journal is not None and session.journal.read().header["settings"]["variant"] == \
                "english"

    asyncio.run(main())


def test_the_computers_clock_stops_once_it_has_chosen() -> None:
    """Issue 13 item 3: the time the person takes to carry out the computer's move counts for nobody."""
    r = Rig("english", human_color="white", opponent="engine", time_control="1+2")
    assert r.state == "computer.thinking"          # Black, the computer, moves first in English
    r.wait(3.0)                                    # it thinks 3 s
    r.answer_engine("9-13")
    r.wait(60.0)                                   # the person takes a minute to move its piece
    clocks = game_view(r.ctl)["clocks"]
    assert (clocks["black"], clocks["white"], clocks["running"]) == (57, 60, None)
    r.move("9-13")
    clocks = game_view(r.ctl)["clocks"]
    assert (clocks["black"], clocks["running"]) == (59, "white")    # 57 s left plus the 2 s increment
    assert r.ctl.records[-1].seconds == 3.0 and r.ctl.outcome is None
    r.wait(30.0)
    assert game_view(r.ctl)["clocks"]["white"] == 30              # the person's own turn runs as before
