"""Crash test: SIGKILL at random points; the journal replays to the last move the LEDs confirmed."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.journal import read_journal
from controller.record import game_of
from rules import get_variant

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant,seed", [("international", 1), ("spanish", 2), ("russian", 3)])
def test_sigkill_loses_no_confirmed_move(tmp_path: Path, variant: str, seed: int) -> None:
    rng = random.Random(seed)
    for round_ in range(3):
        directory = tmp_path / f"r{round_}"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        driver = str(Path(__file__).with_name("crash_driver.py"))
        proc = subprocess.Popen([sys.executable, driver, str(directory), variant, str(seed * 10 + round_)],
                                stdout=subprocess.PIPE, stdin=subprocess.PIPE, env=env, cwd=ROOT)
        assert proc.stdout is not None
        confirmed = 0
        target = rng.randint(3, 40)
        while confirmed < target:
            line = proc.stdout.readline()
            if not line or line.startswith(b"GAMEOVER"):
                break
            confirmed = int(line.split()[1])
        time.sleep(rng.random() * 0.05)  # die somewhere in the middle of the next move
        os.kill(proc.pid, signal.SIGKILL)
        rest = proc.stdout.read().decode().split()
        proc.wait()
        assert proc.stdin is not None
        proc.stdin.close()
        numbers = [int(token) for token in rest if token.isdigit()]
        if numbers:
            confirmed = numbers[-1]  # the last move the LEDs confirmed (a new game restarts at ply 1)
        state = read_journal(directory / "game.journal")
        assert state is not None
        records = state.records
        # every confirmed move is on disk; at most one more (journaled, killed before the LEDs showed it)
        assert confirmed <= len(records) <= confirmed + 1, (confirmed, len(records))
        game = game_of(get_variant(variant), None, records)
        assert game.board.fen() == (records[-1].fen if records else game.board.fen())
