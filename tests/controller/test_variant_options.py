"""Variant options reach a game (docs/rules/README.md#options): the config file's [variant_options] table and
--variant-options, the console's `new`, the journal of a resumed game, the PDN written; bad input is one
precise line."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from rig import Rig

from controller import cli, config
from controller.record import GameRecord
from controller.settings import GameSettings
from controller.view import game_view
from firmware_bridge.clock import ManualClock
from rules import Color, get_variant

TURKISH_STOP = "W:Wd6:Bd7,e8,a2"   # by default d6xf8 (crowned at the end); with stop, d6xd8


def test_config_table_and_command_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('variant = "thai"\n[variant_options]\nfirst = "white"\nallow_180 = false\n')
    loaded = config.load(path)
    assert loaded.variant_options == "first=white allow_180=false"
    assert loaded.game_variant() == get_variant("thai", first="white", allow_180=False)
    args = cli.build_parser().parse_args(["play", "--config", str(path), "--variant-options", "first=black"])
    assert config.from_args(args).game_variant().first == Color.BLACK
    args = cli.build_parser().parse_args(["play", "--config", str(path), "--variant", "spanish"])
    assert config.from_args(args).game_variant() == get_variant("spanish"), "the file's options were Thai's"


@pytest.mark.parametrize(("text", "message"), [
    ('variant = "thai"\n[variant_options]\ncolour = "white"\n',
     "[variant_options]: variant thai has no option 'colour'; its options: first,"),
    ('variant = "thai"\n[variant_options]\nallow_180 = 3\n',
     "[variant_options]: variant thai: option allow_180 expects true or false, not 3"),
    ('variant = "thai"\n[variant_options]\nfar_row_crowns = true\n',
     "[variant_options]: variant thai has no option 'far_row_crowns' (it is not one of its rules)"),
    ('variant = "hawaii"\nvariant_options = "allow_180=true"\n',
     "variant_options: variant hawaii has no option 'allow_180' (it is not one of its rules); "
     "its options: first"),
])
def test_bad_options_in_the_config_file_are_one_line(tmp_path: Path, text: str, message: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError) as caught:
        config.load(path)
    assert message in str(caught.value) and str(path) in str(caught.value)
    assert cli.main(["play", "--config", str(path), "--no-web", "--no-journal"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--variant", "thai", "--variant-options", "first=green"],
     "variant_options: variant thai: option first expects white or black, not 'green'"),
    (["--variant", "thai", "--variant-options", "first"], "variant_options: 'first' is not name=value"),
    (["--variant", "czech", "--variant-options", "parachutist_multi_jump=true"],
     "variant czech has no option 'parachutist_multi_jump'"),
])
def test_bad_options_on_the_command_line_are_one_line(argv: list[str], message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", *argv, "--no-web", "--no-journal"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dboard play: error: ") and err.count("\n") == 1 and message in err


def test_the_game_plays_by_its_options_and_writes_them(tmp_path: Path) -> None:
    turkish = get_variant("turkish", promotion_mid_capture="stop")
    rig = Rig(turkish, tmp_path, fen=TURKISH_STOP)
    assert rig.ctl.exp.shapes[0].text == "d6xd8"
    rig.move("d6xd8")
    assert rig.texts == ["d6xd8"]
    assert game_view(rig.ctl)["variant_options"] == {"promotion_mid_capture": "stop"}
    pdn = rig.ctl.pdn()
    assert '[GameType "30,W,8,8,A0,0"]' in pdn and '[VariantOptions "promotion_mid_capture=stop"]' in pdn


def test_a_resumed_game_keeps_its_options(tmp_path: Path) -> None:
    thai = get_variant("thai", first="white", allow_180=False)
    rig = Rig(thai, tmp_path)
    assert rig.ctl.game.board.turn == Color.WHITE
    rig.move(rig.ctl.exp.shapes[0].text)
    state = rig.journal.read() if rig.journal else None
    assert state is not None and state.header["settings"]["variant_options"] == {"first": "white",
                                                                                  "allow_180": False}
    resumed = GameRecord.resume(state, clock=ManualClock(0.0), wall=lambda: rig.ctl.record.started)
    assert resumed.variant == thai and resumed.game.board == rig.ctl.game.board
    old = dict(state.header["settings"])
    del old["variant_options"]   # a journal written before options: the variant's defaults
    assert GameSettings.from_json(old).variant == get_variant("thai")


def test_the_console_new_game_takes_options(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("new thai first=white\nsetup\npdn\nnew thai colour=white\nquit\n")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = cli.main(["play", "--variant", "english", "--opponent", "person", "--human-color", "both",
                         "--no-web", "--no-journal", "--script", str(script)])
    text = buffer.getvalue()
    assert '[VariantOptions "first=white"]' in text and '[GameType "31,W,8,8,N2,0"]' in text
    assert "variant thai has no option 'colour'" in text
    assert code == 0
