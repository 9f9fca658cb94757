"""The native core as plain portable C: tests/rules/native_harness.c, built with -DDC_NO_BUILTINS (no GCC
bit builtins, no prefetch: the code paths a compiler without them takes) and strict warnings, must count
the same perft as the rules core in every variant. The same harness cross-compiles for the Raspberry Pi.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from _rulestest import playout

import rules
from rules.native import native_variant_ids, rules_params

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).with_name("native_harness.c")
FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-unused-function",
         "-DDC_NO_BUILTINS"]


def harness_input(variant: rules.Variant, board: rules.Board, depth: int, search_depth: int) -> str:
    """The harness's stdin: the variant's native parameters, the position and the depths."""
    p = rules_params(variant)
    dense = {sq: i for i, sq in enumerate(p["squares"])}  # type: ignore[arg-type]
    out: list[object] = [p["n"], p["pad_size"], *p["squares"]]  # type: ignore[misc]
    for table in ("adj", "step"):
        for row in p[table]:  # type: ignore[attr-defined]
            out += row
    for kind in p["dirs"]:  # type: ignore[attr-defined]
        for dirs in kind:
            out += [len(dirs), *dirs]
    for crown in p["crown"]:  # type: ignore[attr-defined]
        out += [len(crown), *crown]
    out += [p[k] for k in ("man_long", "king_flying", "king_mode", "removal_end", "mid", "man_takes_kings",
                           "partial", "land_to_continue")]
    out += [*p["rev"], len(p["precedence"]), *p["precedence"]]  # type: ignore[misc, arg-type]
    for row in p["zobrist"]:  # type: ignore[attr-defined]
        out += row
    out.append(p["zturn"])
    white, black, kings = board.bitboards()
    for bits in (white, black, kings):
        squares = [dense[s] for s in variant.geometry.bits(bits)]
        out += [len(squares), *squares]
    out += [int(board.turn), depth, search_depth]
    return " ".join(str(x) for x in out)


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gcc = shutil.which("gcc")
    assert gcc, "gcc is needed (./dev test installs it)"
    exe = tmp_path_factory.mktemp("harness") / "harness"
    subprocess.run([gcc, *FLAGS, "-I", str(ROOT / "rules" / "csrc"), "-I", str(ROOT / "engine" / "csrc"),
                    str(HARNESS), "-o", str(exe)], check=True, capture_output=True, timeout=120)
    return exe


def _midgame(variant: str, seed: int) -> rules.Board:
    return rules.Board(variant, playout(variant, 30, seed).fen())


@pytest.mark.parametrize("variant_id", native_variant_ids())
def test_plain_c_build_counts_the_same_perft(harness: Path, variant_id: str) -> None:
    variant = rules.get_variant(variant_id)
    for board, depth in ((rules.Board(variant), 4), (_midgame(variant_id, 3), 3)):
        done = subprocess.run([str(harness)], input=harness_input(variant, board, depth, 4), text=True,
                              capture_output=True, check=True, timeout=120)
        lines = done.stdout.splitlines()
        expected = [f"perft {d} {mode} {rules.perft(board, d, mode == 'keep')}"
                    for d in range(1, depth + 1) for mode in ("drop", "keep")]
        assert lines[:-1] == expected, board.fen()
        assert lines[-1].startswith("search 4 nodes ")
