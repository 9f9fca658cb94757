"""`dboard speak`: what the board would say for a move (the computer's move, in the configured language and
voice), said on the audio output or written to a WAV file: for tests and for trying voices."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from firmware_bridge.speaker import CannotSpeak, EspeakNg
from i18n import Phrase, translator
from rules import Board, RulesError, Variant

from . import config as config_module
from .announcer import move_words
from .speech import voice_settings

__all__ = ["register", "run", "words_for"]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard speak`` subcommand."""
    p = sub.add_parser("speak", help="say what the board would say for a move (or write it to a WAV file)",
                       description="Say the board's announcement of MOVE as the computer's move, in "
                                   "--language with the --speech-voice, --speech-rate and --speech-volume "
                                   "settings, on the audio output or (--wav) into a WAV file; the text said "
                                   "is printed.")
    config_module.add_arguments(p)
    p.add_argument("--move", required=True, metavar="MOVE",
                   help="the move in the variant's notation (32-28, 32x23, c3:e5)")
    p.add_argument("--fen", help="the position it is played in (default: the start position; a move that is "
                                 "not legal there is read from its notation alone)")
    p.add_argument("--wav", type=Path, metavar="FILE", help="write the speech to FILE instead of saying it")
    p.set_defaults(func=run)


def words_for(variant: Variant, text: str, fen: str | None = None) -> Phrase:
    """What the board says of the move ``text``: the legal move it is in the position (its captures and
    crowning counted), or without ``fen`` and not legal from the start, the squares its notation names."""
    board = Board(variant, fen) if fen else Board(variant)
    name = variant.geometry.name
    try:
        move = board.parse_move(text)
    except RulesError:
        if fen:
            raise
    else:
        return move_words(name(move.from_square), name(move.to_square), len(move.captures),
                          bool(move.promotion))
    parts = [p for p in re.split(r"[-x:]", text.strip()) if p]
    if len(parts) < 2:
        raise ValueError(f"{text!r}: expected a move such as 32-28 or 32x23")
    squares = [name(variant.geometry.parse_square(p)) for p in parts]
    captures = 0 if "-" in text else len(squares) - 1
    return move_words(squares[0], squares[-1], captures)


def run(args: argparse.Namespace) -> int:
    """Print the announcement of --move, then say it (or write it to --wav)."""
    config = config_module.from_args(args)
    text = translator(config.language).render(words_for(config.game_variant(), args.move, args.fen))
    print(text)
    try:
        if args.wav is not None:
            EspeakNg().render(text, voice_settings(config), args.wav)
        else:
            EspeakNg().speak(text, voice_settings(config))
    except CannotSpeak as exc:
        print(f"dboard speak: error: {exc}", file=sys.stderr)
        return 1
    return 0
