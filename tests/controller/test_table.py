"""The Table (controller/table.py): the one object every driver feeds. One dispatch table for every command,
one frame for the board and the page, refusals decided by type, health's masks applied to every driver."""

from __future__ import annotations

import io

import pytest

from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.errors import Refused
from controller.health import FAULT_LIGHT
from controller.offline import OfflinePorts
from controller.sensorlog import SensorLogWriter, play_back, read_log
from controller.settings import GameSettings
from controller.states import PERSON_IDLE
from controller.table import Table
from engine.process import ExternalEngineError
from firmware_bridge.clock import ManualClock


def table_of(variant: str = "english", **config: object) -> tuple[Table, OfflinePorts]:
    clock = ManualClock(100.0)
    cfg = Config(variant=variant, human_color="both", opponent="person", **config)  # type: ignore[arg-type]
    ports = OfflinePorts(clock)
    table = Table(cfg, ports, clock=clock, settings=GameSettings(variant, "both", "person"))
    table.begin(None, clock.now())
    return table, ports


def square(table: Table, name: str) -> tuple[int, int]:
    ctl = table.controller
    return ctl.map.rc(ctl.variant.geometry.parse_square(name))


def test_every_command_kind_has_exactly_one_handler() -> None:
    table, _ = table_of()
    kinds = {kind for name, kind in vars(cmd).items()
             if isinstance(kind, type) and issubclass(kind, cmd.Command) and not name.startswith("_")
             and kind is not cmd.Command}
    assert set(table._commands) == kinds


def test_a_move_fed_as_readings_is_played_and_the_one_frame_reaches_board_and_page() -> None:
    table, ports = table_of()
    ctl, clock = table.controller, ports.clock
    start = ctl.exp.base
    table.feed(start, clock.now())
    assert ctl.state == PERSON_IDLE
    nine, thirteen = square(table, "9"), square(table, "13")
    table.feed(start - {nine}, clock.now())
    table.feed(start - {nine} | {thirteen}, clock.now())
    for _ in range(20):
        clock.advance(0.1)
        table.tick(clock.now())
    assert [r.text for r in ctl.records] == ["9-13"]
    shown = [frame for _, frame in ports.frames]
    sent = [e.frame for e in ports.events if isinstance(e, ev.FrameShown)]
    assert shown and shown == sent, "every frame on the LEDs is the frame the page is sent, in order"
    assert table.view()["leds"] == ev.frame_to_json(shown[-1])


def test_a_stuck_sensor_is_lit_on_the_one_frame_the_board_and_the_page_get() -> None:
    table, ports = table_of(sensor_check_ms=1000)
    ctl, clock = table.controller, ports.clock
    start = ctl.exp.base
    stuck = square(table, "15") if square(table, "15") not in start else square(table, "17")
    table.feed(start | {stuck}, clock.now())       # one reed reads a piece that is not there
    for _ in range(30):
        clock.advance(0.1)
        table.tick(clock.now())
    assert any("stuck" in e.text for e in ports.events if isinstance(e, ev.Message))
    frame = ports.frames[-1][1]
    assert frame.as_dict()[stuck] == FAULT_LIGHT
    assert [e.frame for e in ports.events if isinstance(e, ev.FrameShown)][-1] == frame
    assert table.view()["leds"] == ev.frame_to_json(frame), "the page mirrors the magenta square too"


def test_the_persons_mistakes_are_refused_by_type_and_nothing_changes() -> None:
    table, ports = table_of()
    table.feed(table.controller.exp.base, ports.clock.now())
    with pytest.raises(Refused, match="no move to take back"):
        table.command(cmd.Takeback(1), ports.clock.now())
    with pytest.raises(Refused):                       # a move text the rules refuse (a RulesError inside)
        table.command(cmd.ConfirmMove("9-99"), ports.clock.now())
    with pytest.raises(Refused, match="simulated board"):
        table.command(cmd.Lift(2, 1), ports.clock.now())
    assert table.controller.records == [] and table.controller.state == PERSON_IDLE


def test_an_outcome_is_refused_only_for_refused_errors() -> None:
    assert cmd.CommandOutcome.of(Refused("there is no move to take back")) == cmd.CommandOutcome(
        "refused", "there is no move to take back")
    assert cmd.CommandOutcome.of(ValueError("invalid literal for int() with base 10: 'x'")).status == "failed"
    assert cmd.CommandOutcome.of(ExternalEngineError("the engine died")).status == "failed"
    assert cmd.CommandOutcome.of(cmd.CommandError("New game: bad level")).status == "refused"


def test_a_replayed_sensor_log_applies_the_masks_it_was_played_with() -> None:
    """A square masked from the page while the log was written is masked in its replay too: the piece put
    on it cannot be seen, and the board says so (a replay used to ignore the mask and see nothing wrong)."""
    table, ports = table_of()
    ctl, clock = table.controller, ports.clock
    stream = io.StringIO()
    writer = SensorLogWriter(stream, table.config)
    writer.game(clock.now(), ctl)
    start = ctl.exp.base
    nine, thirteen = square(table, "9"), square(table, "13")
    writer.occupancy(clock.now(), start)
    writer.command(clock.now() + 0.5, cmd.MaskSquares(((thirteen[0], thirteen[1]),), True))
    writer.occupancy(clock.now() + 1.0, start - {nine})
    writer.occupancy(clock.now() + 1.2, (start - {nine}) | {thirteen})
    result = play_back(read_log("masked.jsonl", stream.getvalue().split("\n")))
    said = "\n".join(text for _, _, text in result.said)
    assert "Masked 13" in said
    assert "cannot see a piece on 13" in said, said
    assert result.moves == []      # confirmed by hand, never guessed
