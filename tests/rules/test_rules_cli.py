"""The `dboard perft` and `dboard moves` subcommands (run in-process through controller.cli.main)."""

from __future__ import annotations

import pytest

from controller.cli import main


def test_perft_prints_counts_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "international", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in out] == ["9", "81", "658"]
    assert all("nps" in line for line in out)


def test_perft_divide_and_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "english", "2", "--divide", "--keep-duplicates"]) == 0
    out = capsys.readouterr().out
    assert "9-13: 7" in out and "total 49" in out


def test_moves_lists_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "russian", "--fen", "W:Wc3:Bd4"]) == 0
    assert capsys.readouterr().out.split() == ["c3:e5"]


def test_moves_and_perft_take_variant_options(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rules/turkish.md#crowning: with promotion_mid_capture=stop the capture ends crowned on d8."""
    assert main(["moves", "turkish", "--fen", "W:Wd6:Bd7,e8,a2", "--variant-options",
                 "promotion_mid_capture=stop"]) == 0
    assert capsys.readouterr().out.split() == ["d6xd8"]
    assert main(["moves", "thai"]) == 0
    black = capsys.readouterr().out.split()
    assert main(["moves", "thai", "--variant-options", "first=white"]) == 0
    white = capsys.readouterr().out.split()
    assert len(white) == len(black) == 7 and not set(white) & set(black), "White's first moves, not Black's"
    assert main(["perft", "hawaii", "2"]) == 0
    assert [line.split()[2] for line in capsys.readouterr().out.splitlines()] == ["4", "12"]


@pytest.mark.parametrize("argv", [["moves", "chess"], ["perft", "english", "2", "--fen", "W:Wz9"],
                                  ["moves", "thai", "--variant-options", "first=green"],
                                  ["perft", "hawaii", "2", "--variant-options", "allow_180=true"]])
def test_bad_input_is_one_line_and_nonzero(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code not in (0, None)
    assert "error:" in str(exc.value) and "\n" not in str(exc.value)


def test_perft_stops_at_the_first_depth_without_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 20: `perft english 99 --fen W:W1` printed 99 lines of 0 (White's man on 1 is stuck)."""
    assert main(["perft", "english", "20", "--fen", "W:W1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in out[:1]] == [["perft(1)", "=", "0"]]
    assert out[1:] == ["stopped at depth 1: the side to move has no legal move, so every deeper count is 0 "
                       "too"]
    assert main(["perft", "english", "9", "--fen", "W:W5:B"]) == 0   # 5-1, crowned; Black has no piece
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in out[:-1]] == ["1", "0"]
    assert out[-1] == "stopped at depth 2: every line ends within 1 ply, so every deeper count is 0 too"


@pytest.mark.parametrize("depth", ["0", "21", "99"])
def test_perft_refuses_a_depth_beyond_its_range(depth: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["perft", "english", depth, "--fen", "W:W1"])
    assert str(exc.value) == f"error: depth must be 1 to 20, not {depth}"
