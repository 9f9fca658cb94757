"""The game as recorded: start position plus committed plies, replayed through the rules core.

The controller's position is by definition the replay of its records, so a takeback, a restart after a power
cut and the journal all agree. ``forced`` plies (a missed capture accepted or huffed) carry the FEN after
them.
The PDN writer is imported with this module, not on the first export: that import costs ~15-25 ms, which
would otherwise fall on the event loop at the end of the first game, before the GameOver update goes out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules import Board, Color, Game, Variant
from rules.pdn import Clock, Line, MoveNode, PdnGame
from rules.pdn.writer import write_game

from .journal import Record


def replay(variant: Variant, start_fen: str | None, records: Iterable[Record]) -> Game:
    """The game reached by playing ``records`` from the start position (raises ValueError on a bad record)."""
    return deque(replay_positions(variant, start_fen, records), maxlen=1)[0]


def replay_positions(variant: Variant, start_fen: str | None, records: Iterable[Record]) -> Iterator[Game]:
    """The game at its start and after each of ``records``, in one pass (raises ValueError on a bad record).
    The Game yielded is advanced in place by the next step: read what you need before taking the next."""
    game = Game(variant, fen=start_fen)
    yield game
    for number, record in enumerate(records, 1):
        if record.kind == "move":
            try:
                game.push(game.board.parse_move(record.text))
            except ValueError as exc:
                raise ValueError(f"record {number} ({record.text}): {exc}") from None
        elif record.kind == "forced":
            game = Game(variant, fen=record.fen)
        else:
            raise ValueError(f"record {number}: unknown kind {record.kind!r}")
        yield game


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


def write_pdn(variant: Variant, start_fen: str | None, records: Iterable[Record], tags: PdnTags) -> str:
    """A PDN text of the game through the rules core's canonical writer (forced plies carry a comment, moves
    made under a time control carry ``[%clock]`` / ``[%wall]`` comments)."""
    header = {"Event": tags.event, "Site": tags.site, "Date": tags.date, "White": tags.white,
              "Black": tags.black, "Result": tags.result}
    if variant.pdn_gametype:
        header["GameType"] = variant.pdn_gametype
    if tags.time_control:
        header["TimeControl"] = tags.time_control
    board = Board(variant, start_fen)
    if start_fen is not None:
        header["FEN"] = start_fen
    nodes = []
    for r in records:
        clock = None
        if r.clocks is not None:
            clock = Clock(round(r.clocks[0]), round(r.clocks[1]), r.wall)
        if r.kind == "move":
            nodes.append(MoveNode(r.text, clock=clock))
        else:
            nodes.append(MoveNode(r.text.split(" (")[0], clock=clock,
                                  comments=[f"forced: {r.text}; position after it {r.fen}"]))
    start_ply = 0 if board.turn == variant.first else 1
    game = PdnGame(tags=header, mainline=Line(nodes), result=tags.result, start_ply=start_ply)
    return write_game(game)
