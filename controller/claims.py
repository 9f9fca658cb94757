"""Draws that a claim rule allows (``variant.draw_claims``: threefold repetition and the like), at the start
of a turn: the person is told once that the draw may be claimed; the computer claims it unless it is ahead
on material. The claim itself is ``Controller.claim_draw``.
"""

from __future__ import annotations

import typing

from rules import Board, Color

if typing.TYPE_CHECKING:
    from .host import ReaderHost

__all__ = ["ahead", "announce", "computer_claims"]


def announce(ctl: ReaderHost) -> None:
    """A claimable draw on a person's turn is said once (``ctl.claimable`` holds its reason meanwhile)."""
    draw = ctl.game.claimable_draw()
    if draw is None:
        ctl.claimable = None
        return
    if ctl.claimable != draw.reason:
        ctl.say(f"{draw.reason.capitalize()}: a draw may be claimed (claim at the console, "
                f"Claim draw on the web page), or play on.")
    ctl.claimable = draw.reason


def computer_claims(ctl: ReaderHost) -> bool:
    """The computer claims a claimable draw on its turn unless it is ahead on material; True when it did."""
    if ctl.game.claimable_draw() is None:
        ctl.claimable = None
        return False
    if ahead(ctl.game.board, ctl.game.board.turn):
        announce(ctl)
        return False
    ctl.claim_draw(ctl.record.mover)
    return True


def ahead(board: Board, color: Color) -> bool:
    """``color`` has more material (a man 1, a king 2): the computer then plays on instead of claiming."""
    def material(c: Color) -> int:
        return len(board.men(c)) + 2 * len(board.kings(c))
    return material(color) > material(color.opponent)
