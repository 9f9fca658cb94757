"""The board's voice in a real Session: what is said is the Announcer's phrase in the configured language;
a board without an audio device (this machine has no sound card) says once that it cannot speak and plays
on; and a blind player plays whole games on a physical board knowing only what the board says."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from rig import until
from test_session_virtual import FirstMove, physical

from controller.announcer import move_words, result_words
from controller.config import Config
from controller.session import Session
from controller.squares import BoardMap
from firmware_bridge.clock import ManualClock
from firmware_bridge.simulated import SimulatedDevice
from firmware_bridge.speaker import RecordingBackend, Speaker
from i18n import translator
from rules import Board, Color, Game, Move, get_variant


def cannot_speak(session: Session) -> list[str]:
    return [m["text"] for m in session.controller.messages if "cannot speak" in m["text"]]


def test_without_an_audio_device_the_board_says_once_it_cannot_speak_and_plays_on(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock(10.0)
        board = SimulatedDevice(8, 8, clock=clock)
        config = Config(variant="english", human_color="white", opponent="engine", speech=True)
        async with Session(config, board, board, tmp_path, opponent=FirstMove(), clock=clock) as session:
            ctl = session.controller
            await until("the computer's first move", lambda: ctl.state == "person.idle" and ctl.records)
            await until("the board to find it cannot speak", lambda: bool(cannot_speak(session)))
            shape = ctl.exp.shapes[0]
            for verb, cell in shape.by_hand():
                getattr(board, verb)(cell)
            await until("the computer's answer", lambda: ctl.state == "person.idle" and len(ctl.records) == 3)
            await session.idle()
            [said] = cannot_speak(session)
            assert "no audio device" in said and ctl.outcome is None
            assert session.speech is not None and session.speech.speaker.unavailable is not None

    asyncio.run(main())


@pytest.mark.parametrize("language", ["en", "nl", "ru"])
def test_the_computers_move_is_said_in_the_language_of_the_board(tmp_path: Path, language: str) -> None:
    async def main() -> None:
        clock = ManualClock(10.0)
        board = SimulatedDevice(8, 8, clock=clock)
        backend = RecordingBackend()
        config = Config(variant="english", human_color="white", opponent="engine", speech=True,
                        language=language)
        async with Session(config, board, board, tmp_path, opponent=FirstMove(), clock=clock,
                           speaker=Speaker(backend)) as session:
            ctl = session.controller
            await until("the computer's first move", lambda: ctl.state == "person.idle" and ctl.records)
            await session.idle()
            assert session.speech is not None and session.speech.speaker.wait()
            assert ctl.records[0].text == "10-14" and not cannot_speak(session)
            assert backend.spoken == [translator(language).render(move_words("10", "14"))]
            assert "10" in backend.spoken[0] and "14" in backend.spoken[0]

    asyncio.run(main())


# --- a blind player ---------------------------------------------------------------------------------------
_MOVE = re.compile(r"^(?P<origin>.+?) (?:to (?P<to>.+?)|takes (?:(?P<n>\d+) pieces, to (?P<far>.+?)"
                   r"|(?P<near>.+?)))(?P<crowns> and crowns)?(?P<played>, played)?$")
"""A move as the board says it in English: "32 to 28", "32 takes 2 pieces, to 12 and crowns, played"."""


class BlindPlayer:
    """Plays white knowing only the rules, the start position and what the board says: it keeps the game in
    its head, carries out the computer's moves it hears, and makes its own by lifting and placing."""

    def __init__(self, variant: str, hand: SimulatedDevice, backend: RecordingBackend,
                 session: Session) -> None:
        self.game = Game(variant)
        self.map = BoardMap(get_variant(variant))
        self.hand, self.backend, self.session = hand, backend, session
        self.heard = 0

    async def listen(self, what: str, count: int = 1) -> list[str]:
        """The next ``count`` announcements (waiting for them)."""
        await self.session.idle()
        speaker = self.session.speech.speaker if self.session.speech else None
        await until(what, lambda: len(self.backend.spoken) >= self.heard + count and speaker is not None
                    and speaker.wait(0))
        said = self.backend.spoken[self.heard:self.heard + count]
        self.heard += count
        return said

    def square(self, spoken: str) -> str:
        return spoken.replace(" ", "")

    async def touch(self, verb: str, name: str) -> None:
        getattr(self.hand, verb)(self.map.rc(self.game.board.variant.geometry.parse_square(name)))
        assert await self.listen(f"{name} {verb}") == [f"{' '.join(re.findall(r'[a-z]+|[0-9]+', name))} "
                                                       f"{'up' if verb == 'lift' else 'down'}"]

    async def make(self, move: Move) -> None:
        """Make ``move`` with the pieces, hearing each lift and place, then the move played."""
        board, name = self.game.board, self.game.board.variant.geometry.name
        await self.touch("lift", name(move.from_square))
        for captured in move.captures:
            await self.touch("lift", name(captured))
        await self.touch("place", name(move.to_square))
        [played] = await self.listen("the move played")
        match = _MOVE.match(played)
        assert match is not None and match["played"], played
        assert self.means(match, board) == move, played
        self.game.push(move)

    def means(self, match: re.Match[str], board: Board) -> Move:
        """The one legal move that what was heard describes."""
        origin = self.square(match["origin"])
        target = self.square(match["to"] or match["far"] or match["near"])
        captures = int(match["n"]) if match["n"] else 0 if match["to"] else 1
        name = board.variant.geometry.name
        [move] = [m for m in board.legal_moves
                  if name(m.from_square) == origin and name(m.to_square) == target
                  and len(m.captures) == captures and bool(m.promotion) == bool(match["crowns"])]
        return move

    async def play(self) -> str:
        """Set up, then play to the end; returns the last thing heard (the result)."""
        for square in sorted(self.game.board.variant.geometry.squares):
            if self.game.board.piece_at(square) is not None:
                self.hand.place(self.map.rc(square))
        await self.listen("the set-up", sum(self.game.board.piece_at(s) is not None
                                            for s in self.game.board.variant.geometry.squares))
        while self.game.outcome() is None:
            board = self.game.board
            if board.turn == Color.WHITE:
                await self.make(max(board.legal_moves, key=board.move_text))
            else:
                [heard] = await self.listen("the computer's move")
                match = _MOVE.match(heard)
                assert match is not None and not match["played"], heard
                await self.make(self.means(match, board))
        [result] = await self.listen("the result")
        return result


@pytest.mark.parametrize("variant", ["english", "international", "russian"])
def test_a_blind_player_plays_a_whole_game_from_what_the_board_says(tmp_path: Path, variant: str) -> None:
    async def main() -> None:
        clock = ManualClock(10.0)
        rules = get_variant(variant)
        hand = SimulatedDevice(rules.height, rules.width, clock=clock)
        board = physical(hand)
        backend = RecordingBackend()
        config = Config(variant=variant, human_color="white", opponent="engine", speech=True, blind_mode=True,
                        settle_ms=0, king_settle_ms=0)
        async with Session(config, board, board, tmp_path, opponent=FirstMove(), clock=clock,
                           speaker=Speaker(backend)) as session:
            player = BlindPlayer(variant, hand, backend, session)
            result = await player.play()
            outcome = player.game.outcome()
            assert outcome is not None and result == result_words(outcome.result)
            assert session.controller.outcome is not None and session.controller.outcome[0] == outcome.result
            assert [r.fen for r in session.controller.records][-1] == player.game.board.fen()
            assert len(session.controller.records) == len(player.game.board.move_stack) > 20

    asyncio.run(main())
