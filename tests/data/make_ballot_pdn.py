"""Regenerate the ballot PDN files of tests/data from the opening ballots shipped in pydraughts 0.6.7.

The ballots (draughts/ballot_files/*.json in the pydraughts wheel) are published opening sequences
(English 3-move ballots from Ed Gilbert's KingsRow, Russian/Brazilian opening tables) mapped to the
position they reach. Each ballot becomes one PDN game: its moves, replayed with `rules`, must reach the
ballot's position exactly (kept in a [BallotFEN] tag, checked again by the tests). Ballots whose text
cannot be replayed are left out and counted. Run: .venv/bin/python tests/data/make_ballot_pdn.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import draughts

import rules
from rules.pdn.model import MoveNode, PdnGame
from rules.pdn.writer import write_game

HERE = Path(__file__).parent
BALLOTS = Path(draughts.__file__).parent / "ballot_files"
SOURCE = "pydraughts 0.6.7 wheel, draughts/ballot_files/{}"


def same_position(board: rules.Board, fen: str) -> bool:
    """Whether `board` has the pieces and side to move of `fen` (square order is free)."""
    other = rules.Board.from_fen(board.variant, fen)
    return board.pieces() == other.pieces() and board.turn == other.turn


def short_move(board: rules.Board, token: str) -> rules.Move:
    """A Russian short move "cd4": the piece on file c going to d4 (must be unique)."""
    g = board.variant.geometry
    frm_file, to = token[0], g.parse_square(token[1:])
    found = [m for m in board.legal_moves if m.to_square == to and g.algebraic(m.from_square)[0] == frm_file]
    if len(found) != 1:
        raise ValueError(f"{token}: {len(found)} candidate moves")
    return found[0]


def build(variant_id: str, gametype: str, name: str, moves: list[str], fen: str, source: str,
          short: bool) -> PdnGame | None:
    board = rules.Board(variant_id)
    game = PdnGame(tags={"Event": f"Ballot {name}", "Site": source, "Result": "*", "GameType": gametype,
                      "BallotFEN": fen})
    for token in moves:
        try:
            move = short_move(board, token) if short else board.parse_move(re.sub(r"\b0(\d)", r"\1", token))
        except ValueError:
            return None
        game.mainline.moves.append(MoveNode(board.move_text(move)))
        board.push(move)
    return game if same_position(board, fen) else None


def generate(filename: str, variant_id: str, gametype: str, out: str, *, short: bool = False,
             limit: int | None = None) -> tuple[int, int]:
    data = json.loads((BALLOTS / filename).read_text())
    games, skipped = [], 0
    for key, fen in data["all"].items():
        if "---" in key or "Remove" in key:
            skipped += 1
            continue
        label, _, rest = key.partition(" ")
        tokens = rest.split() if short else re.findall(r"\d+[-x]\d+", rest)
        game = build(variant_id, gametype, label.rstrip(":"), tokens, fen, SOURCE.format(filename), short)
        if game is None:
            skipped += 1
            continue
        games.append(game)
        if limit and len(games) >= limit:
            break
    text = "\n".join(write_game(g) for g in games)
    (HERE / out).write_text(text, encoding="utf-8")
    return len(games), skipped


def italian(out: str, limit: int) -> int:
    """Italian 11-piece ballots are positions only: set-up records ([SetUp "1"] + FEN), no moves."""
    data = json.loads((BALLOTS / "11_italian.json").read_text())
    games = []
    for key, fen in list(data["all"].items())[:limit]:
        rules.Board.from_fen("italian", fen)  # must be a legal Italian FEN
        games.append(PdnGame(tags={"Event": f"Italian 11-piece ballot {key}",
                                "Site": SOURCE.format("11_italian.json"), "Result": "*", "GameType": "22",
                                "SetUp": "1", "FEN": fen}))
    (HERE / out).write_text("\n".join(write_game(g) for g in games), encoding="utf-8")
    return len(games)


def main() -> int:
    report = {
        "english-3move-ballots.pdn": generate("3move_english.json", "english", "21",
                                              "english-3move-ballots.pdn"),
        "russian-150-openings.pdn": generate("150russian_and_brazilian.json", "russian", "25",
                                             "russian-150-openings.pdn", short=True),
        "brazilian-openings.pdn": generate("brazilian.json", "brazilian", "26", "brazilian-openings.pdn",
                                           short=True, limit=120),
        "italian-11-ballots.pdn": (italian("italian-11-ballots.pdn", 60), 0),
    }
    for name, (count, skipped) in report.items():
        print(f"{name}: {count} games ({skipped} ballots skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
