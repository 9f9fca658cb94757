"""A damaged or hostile ratings file in the data directory (issue 30): the board reads the rating at start
and writes it when a game against the engine ends; either way it logs or says one warning naming the file,
leaves the file as it was, and plays on (a new game follows)."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from pathlib import Path

import pytest
from rig import next_event

from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.session import Session
from engine.ratings import RatingStore
from firmware_bridge.simulated import SimulatedDevice


class _NeverAsked:
    def choose_move(self, board, level):
        raise AssertionError("the engine was not expected to move")


def _spoil(path: Path, kind: str) -> None:
    if kind == "not sqlite":
        path.write_text("player,rating\nann,1500\n")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        with RatingStore(path) as store:
            store.add_player("ann")
            store.record_engine_game("ann", "english", 4, 1.0)
        column, bad = {"text rating": ("rating", "abc"), "negative rd": ("rd", -5.0),
                       "huge rating": ("rating", 1e308)}[kind]
        with sqlite3.connect(path) as db:
            db.execute(f"UPDATE ratings SET {column} = ?", (bad,))
        db.close()


def _state(path: Path) -> object:
    return path.read_bytes() if path.is_file() else os.lstat(path).st_mode


@pytest.mark.parametrize(("kind", "reason"), [
    ("not sqlite", "not a sound ratings database (file is not a database)"),
    ("fifo", "the ratings database is a FIFO, not a regular file"),
    ("text rating", "rating: expected a number, got a text 'abc'"),
    ("negative rd", "rd: -5.0 is outside"),
    ("huge rating", "rating: 1e+308 is outside"),
])
def test_the_board_plays_on_over_a_damaged_ratings_file(tmp_path: Path, kind: str, reason: str,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "ratings.sqlite3"
    _spoil(path, kind)
    before = _state(path)

    async def main_() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="black", opponent="engine", level=4, settle_ms=50,
                        player="ann")
        async with Session(config, board, board, tmp_path, opponent=_NeverAsked()) as session:
            events = session.subscribe()
            await session.send(cmd.NewGame("english", "white", "engine", 4, fen="W:W18:B14"))
            await session.idle()
            ctl = session.controller
            board.set_occupancy(ctl.exp.base)
            await session.idle()
            [shape] = ctl.exp.shapes   # 18x9 takes the last black man
            board.lift(shape.origin)
            for sq in shape.captures:
                board.lift(sq)
            board.place(shape.target)
            assert (await next_event(events, ev.GameOver)).result == "1-0"
            said = await next_event(events, lambda e: isinstance(e, ev.Message) and "rating" in e.text)
            assert said.text.startswith(f"Your rating could not be updated: {path}: ") and reason in said.text
            await session.send(cmd.NewGame("english", "both", "person", 4))   # and the board plays on
            await session.idle()
            assert session.view()["state"] != "game_over"

    with caplog.at_level(logging.WARNING):
        asyncio.run(asyncio.wait_for(main_(), 60))
    read = [r.getMessage() for r in caplog.records if "cannot read the ratings" in r.getMessage()]
    assert read and all(reason in m for m in read), read   # the rating read at start: one warning each time
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
    assert _state(path) == before
