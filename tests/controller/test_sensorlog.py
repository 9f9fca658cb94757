"""Sensor logs: written by a running Session (`dboard play --sensor-log`), read back with line-exact errors,
and replayed by `dboard replay-sensors` to the same moves."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller import cli
from controller import commands as cmd
from controller.config import Config
from controller.sensorlog import SensorLogError, SensorLogWriter, play_back, read_log
from controller.session import Session
from firmware_bridge.simulated import SimulatedDevice
from rules import Board, Move

LOGS = Path(__file__).resolve().parents[1] / "data" / "sensor-logs"


class FirstMove:
    """A computer opponent that always plays its first legal move (quick and predictable)."""

    def choose_move(self, board: Board, level: int) -> Move:
        return next(iter(board.legal_moves))


async def _session_log(config: Config, actions: list[cmd.Command], opponent: FirstMove | None = None,
                       plies: int = 0) -> tuple[str, list[str]]:
    """Play ``actions`` through a Session on the simulated board with a sensor log: the log and the moves."""
    stream = io.StringIO()
    board = SimulatedDevice(8, 8)
    session = Session(config, board, board, opponent=opponent, sensor_log=SensorLogWriter(stream, config))
    async with session:
        board.set_occupancy(session.controller.exp.base)
        await session.idle()
        for action in actions:
            await session.send(action)
            await session.idle()
        for _ in range(500):   # the computer's move, played on the simulated board by itself
            if len(session.controller.records) >= plies:
                break
            await asyncio.sleep(0.01)
            await session.idle()
        moves = [r.text for r in session.controller.records]
    return stream.getvalue(), moves


def test_a_change_of_mind_on_the_web_pages_virtual_board_is_logged_and_replayed() -> None:
    config = Config(variant="english", human_color="both", opponent="person")
    # black's man 9 (row 5, col 1) put on 13 (4, 0), then moved on to 14 (4, 2): the page's lift/place
    actions = [cmd.Lift(5, 1), cmd.Place(4, 0), cmd.Lift(4, 0), cmd.Place(4, 2)]
    text, moves = asyncio.run(_session_log(config, actions))
    assert moves == ["9-14"]
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["log"] == "dboard sensor log" and lines[0]["game"]["settings"]["variant"] == "english"
    assert lines[0]["config"]["settle_ms"] == 300 and "token" not in lines[0]["config"]
    assert not any("command" in line for line in lines), "virtual lifts are logged as the occupancy they make"
    assert [line["recorded"] for line in lines if "recorded" in line] == ["9-13", "9-14"]
    result = play_back(read_log("web.jsonl", text.splitlines()))
    assert result.moves == ["9-14"] and result.logged == ["9-13", "9-14"]
    assert result.said[-1][2] == "Amended: 9-14, not 9-13."


def test_a_game_against_the_computer_logs_the_engines_moves_and_commands() -> None:
    config = Config(variant="russian", human_color="white", opponent="engine")
    actions: list[cmd.Command] = [cmd.Lift(2, 2), cmd.Place(3, 3)]   # c3-d4
    text, moves = asyncio.run(_session_log(config, actions, FirstMove(), plies=2))
    assert moves[0] == "c3-d4" and len(moves) == 2
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["engine"] for line in lines if "engine" in line] == [moves[1]]
    result = play_back(read_log("game.jsonl", text.splitlines()))
    assert result.moves == moves == result.logged and result.state == "person.idle"
    takeback = json.dumps({"t": lines[-1]["t"] + 1, "command": {"kind": "takeback", "plies": 2}})
    result = play_back(read_log("game.jsonl", [*text.splitlines(), takeback]))
    assert result.moves == [] and result.state == "out_of_sync"
    assert any(text.startswith("Took back 2 plies") for _, _, text in result.said)


def test_dboard_play_writes_a_sensor_log_that_replays_to_the_same_moves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("lift 32\nplace 27\nwait 0.3\nlift 27\nplace 28\nwait 0.1\nlift 19\nplace 23\n")
    log = tmp_path / "play.jsonl"
    assert cli.main(["play", "--variant", "international", "--opponent", "person", "--human-color", "both",
                     "--no-journal", "--script", str(script), "--sensor-log", str(log)]) == 0
    assert "Amended: 32-28, not 32-27." in capsys.readouterr().out
    assert cli.main(["replay-sensors", str(log), "--expect", "32-28 19-23"]) == 0
    out = capsys.readouterr().out
    assert "moves: 32-28 19-23" in out and "recorded when logged: 32-27 32-28 19-23" in out
    assert "as expected" in out
    assert cli.main(["replay-sensors", str(log), "--expect", "32-27 19-23", "--quiet-messages"]) == 1
    assert "MISMATCH: expected 32-27 19-23, the replay recorded 32-28 19-23" in capsys.readouterr().out


def test_replay_prints_refusals_and_the_final_leds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay-sensors", str(LOGS / "computer-move-wrong" / "international.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "moves: 32-28" in out and "refusals: none" in out and "state: computer.showing" in out
    assert "LEDs: 23 yellow slow, 24 red fast, 19 blue slow" in out
    assert cli.main(["replay-sensors", str(LOGS / "refusal-reason" / "italian.jsonl")]) == 0
    assert "refusals: 8x15 is not a legal move" in capsys.readouterr().out


HEADER = {"log": "dboard sensor log", "version": 1, "rows": 8, "cols": 8, "config": {}, "t": 1.0,
          "game": {"settings": {"variant": "english"}, "plies": []}}


@pytest.mark.parametrize(("lines", "error"), [
    ([], r"x.jsonl: empty: no sensor log header"),
    (['{"t": 1, "on": []}'], r"x.jsonl:1: not a sensor log"),
    ([json.dumps({**HEADER, "version": 9})], r"x.jsonl:1: sensor log version 9, this program reads version"),
    ([json.dumps({**HEADER, "game": {"settings": {"variant": "chess"}}})], r"x.jsonl:1: bad header: .*chess"),
    ([json.dumps(HEADER), "nonsense", '{"t": 2, "on": []}'], r"x.jsonl:2: not JSON \(Expecting value"),
    ([json.dumps(HEADER), '{"on": []}'], r"x.jsonl:2: expected an object with a time"),
    ([json.dumps(HEADER), '{"t": 0.5, "on": []}'], r"x.jsonl:2: time 0.5 is earlier than the line before"),
    ([json.dumps(HEADER), '{"t": 2, "on": [[1]]}'], r"x.jsonl:2: expected a list of \[row, col\] cells"),
    ([json.dumps(HEADER), '{"t": 2, "command": {"kind": "fly"}}'], r"x.jsonl:2: unknown command kind"),
    ([json.dumps(HEADER), '{"t": 2, "mood": "happy"}'], r"x.jsonl:2: expected on/off, engine, command"),
])
def test_a_bad_log_is_refused_naming_the_line(lines: list[str], error: str) -> None:
    with pytest.raises(SensorLogError, match=error):
        read_log("x.jsonl", lines)


def test_a_torn_last_line_is_ignored_and_a_missing_file_is_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = read_log("x.jsonl", [json.dumps(HEADER), '{"t": 2, "on": [[2, 0]]}', '{"t": 3, "on": [[2'])
    assert [e.data for e in log.entries] == [([(2, 0)], [])]
    with pytest.raises(SystemExit, match=r"replay-sensors: error: .*nothing.jsonl: cannot read the sensor"):
        cli.main(["replay-sensors", str(tmp_path / "nothing.jsonl")])


def _plies(*texts: str) -> list[dict[str, object]]:
    board, out = Board("english"), []
    for text in texts:
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        out.append({"type": "move", "text": text, "fen": board.fen(), "by": by, "clocks": [60.0, 60.0]})
    return out


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-10**25, 10**25) | st.floats(allow_nan=False)
                       | st.text(max_size=6),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                   max_size=3),
                       max_leaves=10)
PLY_FIELDS = st.sampled_from(["type", "text", "fen", "by", "seconds", "clocks", "wall"])


@settings(max_examples=200, deadline=None)
@given(target=st.sampled_from(["plies", "ply", "header", "line", "nesting"]), field=PLY_FIELDS,
       key=st.sampled_from(["rows", "cols", "config", "game", "t"]), value=JSONISH,
       depth=st.integers(1, 5000))
def test_a_hostile_header_or_line_is_one_error_naming_the_line(target: str, field: str, key: str,
                                                               value: object, depth: int) -> None:
    """Wrong types anywhere in the header's game (missing text, a string for the plies, clocks of one
    number), in its fields, in a line, or deep nesting: ``FILE:LINE: ...`` or a clean log (issue 30, 8)."""
    header = json.loads(json.dumps(HEADER))
    header["game"]["plies"] = _plies("11-15", "23-19")
    lines = ['{"t": 2, "on": [[0, 1]]}']
    if target == "plies":
        header["game"]["plies"] = value
    elif target == "ply":
        if value is None:
            header["game"]["plies"][1].pop(field, None)
        else:
            header["game"]["plies"][1][field] = value
    elif target == "header":
        header[key] = value
    elif target == "line":
        lines = [json.dumps({"t": 2, field: value})]
    else:
        lines = ['{"t": 2, "on": ' + "[" * depth + "]" * depth + "}", '{"t": 3, "on": []}']
    try:
        log = read_log("x.jsonl", [json.dumps(header), *lines])
    except SensorLogError as exc:
        assert str(exc).startswith(("x.jsonl:1: bad header: ", "x.jsonl:1: ", "x.jsonl:2: ")), str(exc)
        assert "\n" not in str(exc)
        return
    assert all(r.text in ("11-15", "23-19") for r in log.records) and len(log.records) <= 2


def test_the_header_names_what_is_wrong_in_its_game() -> None:
    bad = "x.jsonl:1: bad header: game: "
    for change, error in (
            (lambda g: g["plies"][1].pop("text"), bad + "ply 2: its 'text' is missing"),
            (lambda g: g.__setitem__("plies", "11-15"), bad + "the plies must be a list"),
            (lambda g: g["plies"][0].__setitem__("clocks", 5), bad + "ply 1: its clocks are not two numbers"),
            (lambda g: g["plies"][0].__setitem__("text", "12-16"), bad + "ply 1: its position after 12-16")):
        header = json.loads(json.dumps(HEADER))
        header["game"]["plies"] = _plies("11-15", "23-19")
        change(header["game"])
        with pytest.raises(SensorLogError, match=error):
            read_log("x.jsonl", [json.dumps(header)])
