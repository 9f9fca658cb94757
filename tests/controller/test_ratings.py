"""Ratings wired into play: a finished game against the built-in engine updates the person's Glicko-2 rating
in ``<data dir>/ratings.sqlite3``; person-vs-person and abandoned games do not."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from rig import next_event

from controller import commands as cmd
from controller import events as ev
from controller.cli import main
from controller.config import Config
from controller.session import Session
from engine.glicko2 import Rating, Result, update
from engine.ratings import DEFAULT_DB_PATH, RatingStore, level_rating
from firmware_bridge.simulated import SimulatedDevice


class _NeverAsked:
    """An opponent the tests never reach (the person moves first); fails loudly if asked."""

    def choose_move(self, board, level):
        raise AssertionError("the engine was not expected to move")



def _rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT p.name, r.variant, r.rating, r.rd, r.volatility, r.games FROM ratings r "
                           "JOIN players p ON p.id = r.player_id ORDER BY p.name, r.variant").fetchall()


def _is_rating_message(event: ev.Event) -> bool:
    return isinstance(event, ev.Message) and "rating:" in event.text


def test_a_won_game_against_the_engine_updates_the_rating_as_glicko2_computes(tmp_path: Path,
                                                                              capsys) -> None:
    async def main_() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine", level=4, settle_ms=50,
                        player="ann")
        async with Session(config, board, board, tmp_path, opponent=_NeverAsked()) as session:
            events = session.subscribe()
            start = Rating(level_rating("english", 4).rating, 350.0)   # unrated: rated from the level chosen
            assert session.view()["rating"] == {"player": "ann", "variant": "english",
                                                 "rating": start.rating, "rd": 350.0}
            assert not (tmp_path / "ratings.sqlite3").exists()  # reading does not create the database
            await session.send(cmd.NewGame("english", "white", "engine", 4, fen="W:W18:B14"))
            await session.idle()
            ctl = session.controller
            board.set_occupancy(ctl.exp.base)
            await session.idle()
            assert session.view()["state"] == "person.idle"
            [shape] = ctl.exp.shapes  # 18x9 takes the last black man
            board.lift(shape.origin)
            for sq in shape.captures:
                board.lift(sq)
            board.place(shape.target)
            over = await next_event(events, ev.GameOver)
            assert over.result == "1-0"
            message = await next_event(events, _is_rating_message)
            await session.idle()
            expected = update(start, [Result(level_rating("english", 4), 1.0)])
            assert start.rating + 100 < expected.rating < start.rating + 250   # issue 13 item 9: sensibly
            assert message.text == (f"Your english rating: {start.rating:.0f} -> {expected.rating:.0f} "
                                    f"(RD 350 -> {expected.rd:.0f})")
            [(name, variant, rating, rd, vol, games)] = _rows(tmp_path / "ratings.sqlite3")
            assert (name, variant, games) == ("ann", "english", 1)
            assert (rating, rd, vol) == (expected.rating, expected.rd, expected.volatility)
            state = session.view()
            assert state["rating"] == {"player": "ann", "variant": "english",
                                       "rating": round(expected.rating, 1), "rd": round(expected.rd, 1)}
            assert message.text in [m["text"] for m in state["messages"]]

            # a takeback after the end and the same ending again: the game is rated once
            await session.send(cmd.Takeback(1))
            await session.idle()
            board.lift(shape.target)
            board.place(shape.origin)
            for sq in shape.captures:
                board.place(sq)
            await session.idle()
            assert session.view()["state"] == "person.idle"
            board.lift(shape.origin)
            for sq in shape.captures:
                board.lift(sq)
            board.place(shape.target)
            await next_event(events, ev.GameOver)
            await session.idle()
            assert [row[5] for row in _rows(tmp_path / "ratings.sqlite3")] == [1]

    asyncio.run(main_())
    # `dboard ratings` with the same data directory reads the same database
    assert main(["ratings", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ann" in out and "english" in out
    assert DEFAULT_DB_PATH.expanduser() == Config().data_path / "ratings.sqlite3"


def test_losses_are_rated_per_player_and_abandoned_or_person_games_are_not(tmp_path: Path) -> None:
    db = tmp_path / "ratings.sqlite3"

    async def main_() -> None:
        board = SimulatedDevice(8, 8)
        # English: Black moves first, so the person (black) can resign before the engine is ever asked
        config = Config(variant="english", human_color="black", opponent="engine", level=7)
        async with Session(config, board, board, tmp_path, opponent=_NeverAsked()) as session:
            events = session.subscribe()
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            await session.send(cmd.Resign("black"))
            message = await next_event(events, _is_rating_message)
            start = Rating(level_rating("english", 7).rating, 350.0)
            lost = update(start, [Result(level_rating("english", 7), 0.0)])
            assert start.rating - 250 < lost.rating < start.rating - 100   # not 1500 -> 954 (issue 13 item 9)
            assert message.text == (f"Your english rating: {start.rating:.0f} -> {lost.rating:.0f} "
                                    f"(RD 350 -> {lost.rd:.0f})")
            await session.idle()
            assert _rows(db) == [("player", "english", lost.rating, lost.rd, lost.volatility, 1)]

            await session.send(cmd.NewGame("english", "black", "engine", 2, player="zoe"))
            await session.idle()
            assert session.view()["rating"]["player"] == "zoe"
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            await session.send(cmd.Resign("black"))
            await next_event(events, _is_rating_message)
            level_2 = level_rating("english", 2)
            zoe = update(Rating(level_2.rating, 350.0), [Result(level_2, 0.0)])
            await session.idle()
            assert session.view()["rating"]["rating"] == round(zoe.rating, 1)

            # abandoned mid-way by a new game: not rated
            await session.send(cmd.NewGame("english", "black", "engine", 2, player="zoe"))
            await session.idle()
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            await session.send(cmd.NewGame("english", "both", "person", 3, player="zoe"))
            await session.idle()
            # person against person: not rated
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            await session.send(cmd.Resign("white"))
            await next_event(events, ev.GameOver)
            await session.idle()
        with RatingStore(db) as store:
            assert store.rating("zoe", "english") == zoe
            assert [(r.player, r.games) for r in store.table()] == [("player", 1), ("zoe", 1)]

    asyncio.run(main_())


def test_without_a_data_directory_nothing_is_stored(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))

    async def main_() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="black", opponent="engine")
        async with Session(config, board, board, None, opponent=_NeverAsked()) as session:
            events = session.subscribe()
            board.set_occupancy(session.controller.exp.base)
            await session.idle()
            await session.send(cmd.Resign("black"))
            await next_event(events, ev.GameOver)
            await session.idle()
            assert session.view()["rating"] is None
            assert not any(_is_rating_message(e) for e in _drain(events))
    asyncio.run(main_())
    assert not list(tmp_path.rglob("*.sqlite3"))


def _drain(queue: asyncio.Queue) -> list[ev.Event]:
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out
