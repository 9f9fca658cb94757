"""The Session's event stream: ViewChanged after every visible change, engine progress, clocks on the loop,
SavePdn, and the external engine opponent with its fallback."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

from rig import next_event

import rules
from controller import commands as cmd
from controller import events as ev
from controller.config import Config
from controller.session import Session
from engine.worker import WorkerProgress
from firmware_bridge.clock import ManualClock
from firmware_bridge.simulated import SimulatedDevice
from rules.pdn import read_games

HERE = Path(__file__).parent
WAIT = 20.0   # seconds for an event of these engine-driven sessions


def _drain(queue: asyncio.Queue) -> list[ev.Event]:
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out



def _states(events: list[ev.Event]) -> list[dict]:
    return [e.view for e in events if isinstance(e, ev.ViewChanged)]


async def _started(session: Session, board: SimulatedDevice) -> asyncio.Queue:
    board.set_occupancy(session.controller.exp.base)
    await session.idle()
    events = session.subscribe()
    return events


async def _one_move(session: Session, board: SimulatedDevice) -> asyncio.Queue:
    """English from its start position, 9-13 played on the simulated board; the events since the start."""
    events = await _started(session, board)
    board.lift((5, 1))
    board.place((4, 0))
    await next_event(events, ev.MoveCommitted, WAIT)
    return events


def test_hint_resign_and_timers_each_send_state_changed(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        clock = ManualClock(100.0)
        config = Config(variant="english", human_color="both", opponent="person", grace_ms=1000)
        async with Session(config, board, board, tmp_path, clock=clock) as session:
            events = await _started(session, board)
            await session.send(cmd.Hint())   # the engine's move for the person to move (issue 13 item 6)
            hint = await next_event(
                events, lambda e: isinstance(e, ev.Message) and e.text.startswith("Hint:"), WAIT)
            await session.idle()
            state = _states(_drain(events))[-1]
            assert state["leds"] == session.view()["leds"] and len(state["leds"]) >= 2
            assert hint.text.removeprefix("Hint: ").rstrip(".") in state["legal_moves"]

            board.lift((5, 1))     # a black man off the board and onto a square it cannot reach
            board.place((3, 3))
            await session.idle()
            _drain(events)
            clock.advance(1.5)     # the grace time runs out: the ticker puts the board out of sync
            state = (await next_event(events, ev.ViewChanged, WAIT)).view
            assert state["state"] == "out_of_sync"
            board.lift((3, 3))
            board.place((5, 1))
            await session.idle()
            assert session.view()["state"] == "person.idle"

            _drain(events)
            await session.send(cmd.Resign("white"))
            await session.idle()
            got = _drain(events)
            assert any(isinstance(e, ev.GameOver) for e in got)
            assert _states(got)[-1]["result"] == {"result": "0-1", "reason": "resignation"}

    asyncio.run(main())


def test_draw_agreement_sends_state_changed(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="both", opponent="person")
        async with Session(config, board, board, None, clock=ManualClock(0.0)) as session:
            events = await _started(session, board)
            await session.send(cmd.OfferDraw("white"))
            await session.send(cmd.AcceptDraw("black"))
            await session.idle()
            states = _states(_drain(events))
            assert len(states) == 2 and states[-1]["result"]["result"] == "1/2-1/2"

    asyncio.run(main())


def test_clocks_run_on_the_session_and_the_flag_ends_the_game(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        clock = ManualClock(0.0)
        config = Config(variant="english", human_color="both", opponent="person")
        async with Session(config, board, board, tmp_path, clock=clock) as session:
            await session.send(cmd.NewGame("english", "both", "person", 3, "1+0"))
            events = await _started(session, board)
            assert session.view()["clocks"]["black"] == 60
            clock.advance(20.5)
            state = (await next_event(events, ev.ViewChanged, WAIT)).view
            assert state["clocks"]["black"] == 40 and state["clocks"]["white"] == 60
            clock.advance(40)
            over = await next_event(events, ev.GameOver, WAIT)
            assert over.result == "1-0" and "time" in over.reason
            [path] = (tmp_path / "games").glob("*-english.pdn")
            assert '[TimeControl "1+0"]' in path.read_text()
            assert '[Termination "Time forfeit"]' in path.read_text()   # issue 13 item 10

    asyncio.run(main())


def test_save_pdn_command_writes_the_game_in_progress(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="both", opponent="person", settle_ms=0)
        async with Session(config, board, board, tmp_path, clock=ManualClock(0.0)) as session:
            events = await _one_move(session, board)
            await session.send(cmd.Command.from_json({"kind": "save_pdn"}))
            await session.idle()
            [path] = (tmp_path / "games").glob("*.pdn")
            game = read_games(path.read_text())[0]
            assert game.tags["Result"] == "*" and len(game.mainline.moves) == 1
            said = [e.text for e in _drain(events) if isinstance(e, ev.Message) and path.name in e.text]
            assert said and not any(str(path.parent) in text for text in said)   # issue 21 item 9: no path

    asyncio.run(main())


class _Blocked:
    """An opponent that thinks until released (keeps the session in computer_move_pending)."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def choose_move(self, board, level):
        self.release.wait(10)
        return board.legal_moves[0]


def test_engine_progress_is_throttled_and_the_newest_is_delivered(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine")
        opponent = _Blocked()
        async with Session(config, board, board, None, opponent=opponent) as session:
            events = await _started(session, board)
            assert session.view()["state"] == "computer.thinking"

            def burst() -> None:   # as the worker's reader thread would
                for depth in range(1, 41):
                    progress = WorkerProgress(1, depth, 10 * depth, (f"pv{depth}",), 100, 0.01)
                    session.engines.progressed(progress)

            await asyncio.to_thread(burst)
            got: list[ev.EngineProgress] = []
            while not got or got[-1].depth != 40:   # the newest iteration always arrives, last
                event = await next_event(events, ev.EngineProgress, WAIT)
                assert isinstance(event, ev.EngineProgress)
                got.append(event)
            await session.idle()
            got += [e for e in _drain(events) if isinstance(e, ev.EngineProgress)]
            assert 1 <= len(got) <= 3, [e.depth for e in got]
            assert (got[-1].depth, got[-1].score, got[-1].pv) == (40, 4.0, ("pv40",))
            assert session.view()["engine"]["progress"]["depth"] == 40
            opponent.release.set()

    asyncio.run(main())


def test_the_engine_worker_reports_progress_at_a_searching_level(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine", level=9, engine_time=1.0)
        start = rules.Board("english")   # the computer (Black) moves first, from here
        first_moves = {start.move_text(m) for m in start.legal_moves}
        async with Session(config, board, board, None) as session:
            events = await _started(session, board)
            # (the native engine may have played already: the last iteration is delivered before its move)
            progress = await next_event(events, ev.EngineProgress, timeout=30)
            assert progress.depth >= 1 and progress.pv and progress.pv[0] in first_moves
            await next_event(events, lambda e: isinstance(e, ev.ViewChanged) and e.view["engine"]["move"],
                         timeout=30)

    asyncio.run(main())


def test_a_randomised_level_reports_its_search_iterations_too(tmp_path: Path) -> None:
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine", level=3, engine_time=5.0,
                        auto_computer=False)   # its move waits on the board: its progress is not stale
        async with Session(config, board, board, None) as session:
            events = await _started(session, board)
            progress = await next_event(events, ev.EngineProgress, timeout=30)
            assert 1 <= progress.depth <= 2 and progress.pv[0] in session.view()["legal_moves"]
            assert session.view()["engine"]["progress"]["depth"] == progress.depth

    asyncio.run(main())


def _external_game(tmp_path: Path, command: str) -> tuple[list[ev.Event], str]:
    async def main() -> tuple[list[ev.Event], str]:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="white", opponent="engine", engine_time=0.3,
                        external_engine=command)
        async with Session(config, board, board, None) as session:
            await session.send(cmd.NewGame("english", "white", "external", 1))
            events = await _started(session, board)
            assert session.view()["state"] == "computer.thinking"   # Black moves first in English
            seen: list[ev.Event] = []

            def done(event: ev.Event) -> bool:
                seen.append(event)
                return isinstance(event, ev.ViewChanged) and bool(event.view["engine"]["move"])

            event = await next_event(events, done, timeout=40)
            return seen, event.view["engine"]["move"]

    got, move = asyncio.run(main())
    return got, move


def test_external_hub_engine_plays(tmp_path: Path) -> None:
    got, move = _external_game(tmp_path, f"{sys.executable} -m engine.hub")
    assert move
    assert not [e for e in got if isinstance(e, ev.Message) and "external" in e.text]


def test_external_engine_that_dies_is_replaced_by_the_builtin_engine(tmp_path: Path) -> None:
    got, move = _external_game(tmp_path, f"{sys.executable} -c 'raise SystemExit(3)'")
    assert move
    [note] = [e for e in got if isinstance(e, ev.Message) and "external engine failed" in e.text]
    assert note.level == "warning" and "built-in engine" in note.text


def test_external_engine_with_an_illegal_move_is_replaced(tmp_path: Path) -> None:
    got, move = _external_game(tmp_path, f"{sys.executable} {HERE / 'illegal_hub.py'}")
    assert move
    [note] = [e for e in got if isinstance(e, ev.Message) and "external engine failed" in e.text]
    assert "illegal" in note.text


def test_state_gives_the_page_paths_positions_draw_offer_and_pdn() -> None:
    """What the web page builds on (issue 13): every legal move's cells (to move by clicks on the virtual
    board), the position before and after each ply (to view earlier positions), the draw offer waiting for
    an answer (Accept/Decline shown only then) and the game so far as PDN (copy PDN)."""
    async def main() -> None:
        board = SimulatedDevice(10, 10)
        fen = "B:W28,33:B23,19"   # Black to move in a set-up position: 19x... is no capture, 23x32 is
        config = Config(variant="international", human_color="both", opponent="person", settle_ms=0)
        async with Session(config, board, board, None) as session:
            await session.send(cmd.SetupPosition(fen))
            await session.idle()
            events = await _started(session, board)
            state = session.view()
            assert state["start_fen"] == state["fen"] and state["moves"] == []
            [capture] = state["legal_paths"]
            assert capture["text"] == "23x32"
            geometry = rules.get_variant("international").geometry
            cells = [[*geometry.rc(geometry.parse_square(s))] for s in ("23", "32")]
            assert capture["path"] == cells
            assert capture["captures"] == [[*geometry.rc(geometry.parse_square("28"))]]
            origin, target = capture["path"]
            await session.send(cmd.Lift(*origin))
            await session.send(cmd.Place(*target))
            await session.send(cmd.Lift(*capture["captures"][0]))
            await next_event(events, ev.MoveCommitted, WAIT)
            await session.idle()
            state = session.view()
            [ply] = state["moves"]
            assert ply["text"] == "23x32" and ply["by"] == "black" and ply["fen"] == state["fen"] != fen
            assert state["draw_offer"] is None
            await session.send(cmd.OfferDraw("white"))
            await session.idle()
            assert session.view()["draw_offer"] == "white"
            await session.send(cmd.DeclineDraw("black"))
            await session.idle()
            assert session.view()["draw_offer"] is None
            [game] = read_games(session.pdn(), validate=True, variant="international")
            assert game.tags["FEN"] == fen and [node.text for node in game.moves] == ["23x32"]

    asyncio.run(main())


def test_send_reports_each_command_outcome(tmp_path: Path) -> None:
    """Issue 21 item 8: a command's outcome once handled - done, refused with the reason, failed with the
    reason - instead of an acknowledgement when queued. The failure is real: no descriptor is left, as when
    idle connections exhausted them, so writing the finished game's PDN fails."""
    import os
    import resource

    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="both", opponent="person", settle_ms=0)
        async with Session(config, board, board, tmp_path, clock=ManualClock(0.0)) as session:
            await _started(session, board)
            assert await (await session.send(cmd.SetTeaching(True))) == cmd.CommandOutcome("done")
            refused = await (await session.send(cmd.AcceptDraw("white")))
            assert refused.status == "refused" and "no draw offer" in refused.reason
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            lowest_free = os.dup(0)
            os.close(lowest_free)
            resource.setrlimit(resource.RLIMIT_NOFILE, (lowest_free, hard))
            try:
                failed = await (await session.send(cmd.Resign("white")))
            finally:
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            assert failed == cmd.CommandOutcome("failed", "Too many open files")

    asyncio.run(main())


def test_new_game_over_an_unfinished_game_saves_it_first(tmp_path: Path) -> None:
    """Issue 21 item 12: a stray New game click loses nothing: the game with moves goes to the library with
    result `*` (Termination Unterminated), and a message says where; a game without moves is not saved."""
    async def main() -> None:
        board = SimulatedDevice(8, 8)
        config = Config(variant="english", human_color="both", opponent="person", settle_ms=0)
        async with Session(config, board, board, tmp_path, clock=ManualClock(0.0)) as session:
            events = await _one_move(session, board)
            done = await (await session.send(cmd.NewGame("english", "both", "person")))
            assert done.status == "done"
            [path] = (tmp_path / "games").glob("*.pdn")
            game = read_games(path.read_text())[0]
            assert game.tags["Result"] == "*" and game.tags["Termination"] == "Unterminated"
            assert [m.text for m in game.mainline.moves] == ["9-13"]
            said = [e.text for e in _drain(events) if isinstance(e, ev.Message)]
            assert f"The unfinished game (1 ply) is saved in the library as {path.name}." in said
            await (await session.send(cmd.NewGame("english", "both", "person")))
            assert len(list((tmp_path / "games").glob("*.pdn"))) == 1

    asyncio.run(main())
