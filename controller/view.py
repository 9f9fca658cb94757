"""What the page sees of the game: the game part of the ``ViewChanged`` payload, in one place.

With ``events.py`` and ``commands.py`` it makes up the page's contract: its keys and their values are what
the web page (and a sensor log's replay) read.
"""

from __future__ import annotations

import typing
from typing import Any

from rules.options import to_json

from . import events as ev
from .record import color_name
from .states import COMPUTER_THINKING
from .words import variant_name

if typing.TYPE_CHECKING:
    from .machine import Controller

__all__ = ["game_view"]


def game_view(ctl: Controller) -> dict[str, Any]:
    """The full JSON-ready state of ``ctl``'s game for a newly connected client (ViewChanged payload)."""
    board = ctl.game.board
    pieces = [{"row": r, "col": c, "color": color_name(color), "king": king}
              for (r, c), (color, king) in sorted(ctl.exp.pieces.items())]
    moves = [{"ply": i + 1, "text": rec.text, "by": rec.by, "fen": rec.fen}
             for i, rec in enumerate(ctl.records)]
    cells = ctl.map.rc
    last = None
    if board.move_stack and ctl.records and ctl.records[-1].kind == "move":
        m = board.peek()
        last = {"from": list(ctl.map.rc(m.from_square)), "to": list(ctl.map.rc(m.to_square)),
                "captures": [list(ctl.map.rc(sq)) for sq in m.captures]}
    shape = ctl.watch.computer_shape
    variant, settings, outcome = ctl.variant, ctl.settings, ctl.outcome
    return {
        "variant": variant.id, "variant_name": variant_name(variant),
        "variant_options": to_json(variant.option_values()), "first": color_name(variant.first),
        "rows": variant.height, "cols": variant.width,
        "orientation": "white-far" if settings.flipped else "white-near",
        "pieces": pieces, "turn": color_name(board.turn), "state": ctl.state,
        "legal_moves": [s.text for s in ctl.exp.shapes], "moves": moves, "last_move": last,
        "legal_paths": [{"text": s.text, "path": [list(cells(sq)) for sq in s.move.path],
                         "captures": [list(c) for c in s.captures]} for s in ctl.exp.shapes],
        "start_fen": ctl.start_fen, "draw_offer": ctl.draw_offer,
        "leds": ev.frame_to_json(ctl.frame) if ctl.frame else [],
        "clocks": ctl.clocks.to_json(ctl.clock.now()) if ctl.clocks is not None else None,
        "engine": {"opponent": settings.opponent, "level": settings.level,
                   "progress": ctl.engine_progress,
                   "thinking": ctl.state == COMPUTER_THINKING,
                   "move": shape.text if shape else None},
        "human_color": settings.human_color, "teaching": ctl.teaching,
        "messages": list(ctl.voice.messages), "alert": ctl.voice.alert,
        "question": ({"kind": "start_position", "plies": ctl.watch.start_question}
                     if ctl.watch.start_question is not None else None),
        "result": {"result": outcome[0], "reason": outcome[1]} if outcome else None,
        "claimable_draw": ctl.claimable if outcome is None else None,
        "board_connected": not ctl.board_lost,
        "occupancy": [list(sq) for sq in sorted(ctl.occupancy)],
        "fen": board.fen(),
    }
