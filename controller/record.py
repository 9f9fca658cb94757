"""The game as recorded: start position plus committed plies, replayed through the rules core.

``GameRecord`` owns one game's record: settings, plies, the rules ``Game`` they replay to, the clocks, the
journal each ply is written to before it counts, and the PDN file written at the end. The controller's
position is by definition the replay of its records, so a takeback, a restart after a power cut and the
journal all agree. A write that fails raises ``SaveError`` ("can't save the move: the card is full") and
changes nothing; a finished game stays in the journal until its PDN is in the library (a new game writes it
first). ``forced`` plies (a missed capture accepted or huffed) carry the FEN after them.
The PDN writer is imported with this module, not on the first export: that import costs ~15-25 ms, which
would otherwise fall on the event loop at the end of the first game, before the GameOver update goes out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from firmware_bridge.clock import Clock
from rules import Board, Color, Game, Move, RulesError, Variant
from rules.pdn import ClockComment, Line, MoveNode, PdnGame
from rules.pdn.record import variant_tags
from rules.pdn.writer import write_game

from .clocks import GameClocks, TimeControl
from .durable import SaveError, durable_replace, make_dir, plain_reason
from .errors import Refused
from .journal import Journal, JournaledGame, PlyRecord, game_of, games_along
from .settings import GameSettings

__all__ = ["GameRecord", "PdnTags", "SaveError", "forced_fen", "game_of", "games_along", "write_pdn"]


def fen_of(variant: Variant, pieces: dict[int, tuple[Color, bool]], turn: Color) -> str:
    """A PDN FEN for arbitrary pieces (used for forced plies the rules core would refuse to push)."""
    g = variant.geometry
    ordered = g.squares if g.numeric else sorted(g.squares)
    blocks = []
    for letter, color in (("W", Color.WHITE), ("B", Color.BLACK)):
        items = [("K" if pieces[s][1] else "") + g.name(s)
                 for s in ordered if s in pieces and pieces[s][0] == color]
        blocks.append(letter + ",".join(items))
    return f"{'W' if turn == Color.WHITE else 'B'}:{blocks[0]}:{blocks[1]}"


def forced_fen(board: Board, origin: int, target: int, remove: int | None = None) -> str:
    """The FEN after moving the piece on ``origin`` to ``target`` regardless of the rules (and removing the
    huffed piece on ``remove``); a man reaching its last row is crowned."""
    variant = board.variant
    pieces = {sq: (p.color, p.king) for sq, p in board.pieces().items()}
    color, king = pieces.pop(origin)
    row = variant.geometry.rc(target)[0]
    last = variant.height - 1 if color == Color.WHITE else 0
    pieces[target] = (color, king or row == last)
    if remove is not None:
        pieces.pop(remove, None)
    return fen_of(variant, pieces, Color.BLACK if board.turn == Color.WHITE else Color.WHITE)


class PlyLike(Protocol):
    """What a PDN needs of one journalled ply (a ``PlyRecord``, or the hall's copy of one)."""

    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def fen(self) -> str: ...
    @property
    def clocks(self) -> tuple[float, float] | None: ...
    @property
    def wall(self) -> str | None: ...


def ply_nodes(board: Board, plies: Iterable[PlyLike]) -> list[MoveNode]:
    """The plies played from ``board`` (which follows them) as PDN move nodes: moves as files write them,
    with their clocks; forced plies with their comment."""
    nodes = []
    for ply in plies:
        clock = None if ply.clocks is None else ClockComment(round(ply.clocks[0]), round(ply.clocks[1]),
                                                             ply.wall)
        text = file_text(board, ply.text) if ply.kind == "move" else ply.text
        nodes.append(ply_node(ply.kind, text, ply.fen, clock))
        board.set_fen(ply.fen)
    return nodes


def ply_node(kind: str, text: str, fen: str, clock: ClockComment | None) -> MoveNode:
    """One journalled ply as PDN: a forced ply is written as its move, with a comment saying what was forced
    and the position after it (the rules would not play it)."""
    if kind == "move":
        return MoveNode(text, clock=clock)
    return MoveNode(forced_move_text(text), clock=clock,
                    comments=[f"forced: {text}; position after it {fen}"])


def forced_move_text(label: str) -> str:
    """The move of a forced ply's label (``29-33 (a missed capture accepted)``)."""
    return label.split(" (")[0]


@dataclass(frozen=True)
class PdnTags:
    """The tags of a PDN export (Date is ``YYYY.MM.DD``, ``????.??.??`` when unknown)."""

    event: str = "draughts-board game"
    white: str = "White"
    black: str = "Black"
    result: str = "*"
    site: str = "draughts-board"
    date: str = "????.??.??"
    time_control: str | None = None
    reason: str | None = None
    """How the game ended (e.g. "resignation"), written as its last comment; None while unfinished."""

    @property
    def termination(self) -> str:
        """The Termination tag, in PGN's words: Unterminated, Time forfeit or Normal."""
        if self.result == "*":
            return "Unterminated"
        return "Time forfeit" if self.reason and "on time" in self.reason else "Normal"


def write_pdn(variant: Variant, start_fen: str | None, records: Iterable[PlyRecord], tags: PdnTags) -> str:
    """A PDN text of the game through the rules core's canonical writer (forced plies carry a comment, moves
    made under a time control carry ``[%clock]`` / ``[%wall]`` comments; a Termination tag says whether and
    how the game ended, and the reason it ended is the last comment)."""
    header = {"Event": tags.event, "Site": tags.site, "Date": tags.date, "White": tags.white,
              "Black": tags.black, "Result": tags.result, "Termination": tags.termination}
    if variant.pdn_gametype:
        header.update(variant_tags(variant))
    if tags.time_control:
        header["TimeControl"] = tags.time_control
    board = Board(variant, start_fen)
    if start_fen is not None:
        header["FEN"] = start_fen
    start_ply = 0 if board.turn == variant.first else 1
    nodes = ply_nodes(board, records)
    mainline = Line(nodes)
    if tags.reason and tags.result != "*":
        (nodes[-1].comments if nodes else mainline.comments).append(tags.reason)
    game = PdnGame(tags=header, mainline=mainline, result=tags.result, start_ply=start_ply)
    return write_game(game)


def file_text(board: Board, text: str) -> str:
    """A played move as PDN files write it (captures joined by `x`: Thai shows `-`, Russian `:`)."""
    try:
        return board.pdn_move_text(board.parse_move(text))
    except RulesError:   # a record from an older rules core: the writer still joins captures by x
        return text


def color_name(color: Color) -> str:
    """``white`` or ``black``: how sides are named in events, settings and the journal."""
    return "white" if color == Color.WHITE else "black"


class GameRecord:
    """One game's record: settings, committed plies, the rules ``Game`` they replay to, clocks, journal, PDN.

    Every ply is on disk (journal, fsynced) before it is part of the game: ``play`` and ``force`` write first
    and change the game only when the write succeeded, so a failed write leaves the game as it was.
    A game begun while nothing could be saved (``unsaved``) starts its journal before its first ply.
    """

    def __init__(self, settings: GameSettings, *, clock: Clock, wall: Callable[[], datetime],
                 journal: Journal | None = None, pdn_dir: Path | None = None, plies: Iterable[PlyRecord] = (),
                 started: datetime | None = None, game: Game | None = None) -> None:
        settings.check()
        self.settings = settings
        self.variant: Variant = settings.variant
        self.journal = journal
        self.pdn_dir = pdn_dir
        self._clock = clock
        self._wall = wall
        self.plies: list[PlyRecord] = list(plies)
        self.game: Game = game if game is not None else game_of(self.variant, settings.fen, self.plies)
        self.started: datetime = started or wall()
        self.outcome: tuple[str, str] | None = None
        self.pdn_path: Path | None = None
        self.turn_since: float | None = None
        self.thought: float | None = None
        """The mover's thinking time once its clock was paused (the computer chose; the person plays it)."""
        self.unsaved: SaveError | None = None
        """Why the journal of this new game could not be started yet (it is retried before the first ply)."""
        self._previous: GameRecord | None = None
        self.clocks = GameClocks(TimeControl.parse(settings.time_control)) if settings.time_control else None
        last_clocks = next((r.clocks for r in reversed(self.plies) if r.clocks is not None), None)
        if self.clocks is not None and last_clocks is not None:
            self.clocks.remaining = {"white": last_clocks[0], "black": last_clocks[1]}

    @classmethod
    def begin(cls, settings: GameSettings, *, previous: GameRecord | None = None, defer: bool = False,
              **kwargs: Any) -> GameRecord:
        """A new game, its journal started (replacing the journal of ``previous``, whose PDN is written first
        when it ended) before it counts. A SaveError refuses the new game, or with ``defer`` is kept in
        ``unsaved`` and the journal is started before the first ply."""
        record = cls(settings, **kwargs)
        record._previous = previous
        try:
            record._begin()
        except SaveError as exc:
            if not defer:
                raise
            record.unsaved = exc
        return record

    def _begin(self) -> None:
        if self.journal is None:
            return
        if self._previous is not None:
            self._previous.settle()   # a finished game is in the library before its journal is replaced
        name = self._free_pdn_name() if self.pdn_dir is not None else None
        header = {"settings": self.settings.to_json(), "fen": self.game.board.fen(),
                  "started": self.started.isoformat(timespec="seconds")}
        if name is not None:
            header["pdn"] = name.name
        try:
            self.journal.start(header)
        except OSError as exc:
            raise SaveError.of("start a new game", exc) from exc
        self.pdn_path = name
        self._previous = self.unsaved = None

    @classmethod
    def resume(cls, state: JournaledGame, **kwargs: Any) -> GameRecord:
        """The journaled game (its library file as the journal names it, or as an earlier release named it);
        an ended one has its outcome."""
        started = state.header.get("started")
        record = cls(GameSettings.from_json(state.header["settings"]), plies=state.records,
                     started=datetime.fromisoformat(started) if started else None, game=state.take_game(),
                     **kwargs)
        if record.pdn_dir is not None and state.header.get("pdn"):
            record.pdn_path = record.pdn_dir / state.header["pdn"]
        elif started and record.pdn_dir is not None and record.pdn_name().exists():
            record.pdn_path = record.pdn_name()
        if state.ended is not None:
            record.outcome = (state.ended["result"], state.ended["reason"])
        return record

    # --- the game -----------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The current position."""
        return self.game.board

    @property
    def mover(self) -> str:
        """The side to move, ``white`` or ``black``."""
        return color_name(self.game.board.turn)

    def start_board(self) -> Board:
        """The position the game started from."""
        return Board(self.variant, self.settings.fen)

    def boards(self) -> Iterator[Board]:
        """The position at the start and after every ply, in order (each a fresh copy)."""
        for game in games_along(self.variant, self.settings.fen, self.plies):
            yield game.board.copy()

    # --- recording ----------------------------------------------------------------------------------
    def play(self, move: Move, text: str) -> PlyRecord:
        """Record a legal move: journaled first, then played (a failed write raises and changes nothing)."""
        after = self.game.board.copy()
        after.push(move)
        record = self._save("move", text, after.fen(), self.mover)
        self.game.push(move)
        return record

    def force(self, fen: str, text: str, by: str) -> PlyRecord:
        """Record a ply the rules refuse (a missed capture accepted or huffed): the position after it is
        ``fen``."""
        record = self._save("forced", text, fen, by)
        self.game = Game(self.variant, fen=fen)
        return record

    def _save(self, kind: str, text: str, fen: str, by: str) -> PlyRecord:
        """Time the ply (the mover's seconds, both clocks after it, the wall time) and journal it; the clocks
        are pressed only when the journal took it."""
        now = self._clock.now()
        thought = self.thought if self.thought is not None else (
            now - self.turn_since if self.turn_since is not None else None)
        seconds = round(thought, 3) if thought is not None else None
        clocks = copy.deepcopy(self.clocks)
        remaining = None
        if clocks is not None:
            clocks.press(now, by)
            remaining = (round(clocks.left("white", now), 3), round(clocks.left("black", now), 3))
        record = PlyRecord(kind, text, fen, by, seconds, remaining,
                           self._wall().isoformat(timespec="seconds"))
        if self.unsaved is not None:
            try:
                self._begin()
            except SaveError as exc:
                raise SaveError("save the move", exc.reason) from exc
        if self.journal is not None:
            try:
                self.journal.record(record)  # on disk before any LED confirms the ply
            except OSError as exc:
                raise SaveError.of("save the move", exc) from exc
        self.plies.append(record)
        self.clocks = clocks
        self.turn_since = self.thought = None
        return record

    def take_back(self, plies: int) -> int:
        """Take back up to ``plies`` plies (journaled); returns how many were taken back."""
        plies = min(plies, len(self.plies))
        if plies == 0:
            raise Refused("there is no move to take back")
        if self.journal is not None:
            try:
                self.journal.takeback(plies)
            except OSError as exc:
                raise SaveError.of("take the move back", exc) from exc
        del self.plies[-plies:]
        self.game = game_of(self.variant, self.settings.fen, self.plies)
        self.outcome = None
        self.thought = None
        return plies

    def start_turn(self, now: float) -> None:
        """The side to move starts thinking: its time is counted from ``now`` and its clock runs."""
        if self.turn_since is None:
            self.turn_since = now
        if self.clocks is not None and self.clocks.running != self.mover and self.thought is None:
            self.clocks.start(self.mover, now)

    def pause_clock(self, now: float) -> None:
        """The mover has chosen (the computer): its clock stops and its time is counted until ``now``; the
        time the person takes to carry the move out on the board counts for nobody."""
        if self.turn_since is not None and self.thought is None:
            self.thought = now - self.turn_since
        if self.clocks is not None:
            self.clocks.stop(now)

    def finish(self, result: str, reason: str) -> None:
        """The game ended: clocks stopped, the end journaled, then the PDN written into the library. A
        SaveError says what could not be saved; the game stays in the journal until its PDN is written (a
        new game, or the next start, writes it first)."""
        self.outcome = (result, reason)
        if self.clocks is not None:
            self.clocks.stop(self._clock.now())
        if self.journal is not None:
            try:
                self.journal.end(result, reason)
            except OSError as exc:
                raise SaveError.of("save the end of the game", exc) from exc
        self.write_pdn()

    def settle(self) -> None:
        """Before this game's journal is replaced: if it ended, its PDN in the library must be the finished
        game (written now when it is missing or older); raises SaveError when it cannot be."""
        if self.outcome is None or self.pdn_dir is None:
            return
        text = self.pdn()
        if self.pdn_path is not None:
            try:
                if self.pdn_path.read_text(encoding="utf-8") == text:
                    return
            except (OSError, UnicodeDecodeError):
                pass
        self.write_pdn(text)

    # --- PDN ----------------------------------------------------------------------------------------
    def player(self, color: str) -> str:
        """The PDN name of who plays ``color``: against the computer the person is the player profile that
        the game rates (the name the ratings and statistics share); people playing each other are "Person"."""
        s = self.settings
        if s.plays(color) == "person":
            other = "black" if color == "white" else "white"
            return s.player if s.plays(other) == "computer" else "Person"
        names = {"external": "External engine", "dxp": "DXP engine"}
        return names.get(s.opponent, f"Computer (level {s.level})")

    def pdn(self) -> str:
        """The game so far as PDN text (Result ``*`` while it is in progress)."""
        result, reason = self.outcome if self.outcome else ("*", None)
        tags = PdnTags(white=self.player("white"), black=self.player("black"), result=result,
                       date=f"{self.started:%Y.%m.%d}", time_control=self.settings.time_control,
                       reason=reason)
        return write_pdn(self.variant, self.settings.fen, self.plies, tags)

    def pdn_name(self) -> Path:
        """The game's file in the library: its start time and variant."""
        assert self.pdn_dir is not None
        return self.pdn_dir / f"{self.started:%Y%m%d-%H%M%S}-{self.variant.id}.pdn"

    def _free_pdn_name(self) -> Path:
        """The game's library file: its name from the start time and variant, numbered when taken."""
        path = self.pdn_name()
        number = 2
        while path.exists():
            path = path.with_name(f"{self.pdn_name().stem}-{number}.pdn")
            number += 1
        return path

    def write_pdn(self, text: str | None = None) -> Path | None:
        """Write the game's PDN into its own file in ``pdn_dir``, at the game's end and on demand; later
        writes of the same game replace its file atomically. None without a ``pdn_dir``; SaveError when it
        cannot be written."""
        if self.pdn_dir is None:
            return None
        try:
            make_dir(self.pdn_dir)
            if self.pdn_path is None:
                self.pdn_path = self._free_pdn_name()
            durable_replace(self.pdn_path, self.pdn() if text is None else text)
        except OSError as exc:
            what = "save the finished game" if self.outcome else "save the game"
            raise SaveError(what, f"{plain_reason(exc)}; it stays in the journal until it can be saved") \
                from exc
        return self.pdn_path

    def __repr__(self) -> str:
        state = f"{self.outcome[0]}" if self.outcome else f"{self.mover} to move"
        return f"GameRecord({self.variant.id}, plies={len(self.plies)}, {state})"
