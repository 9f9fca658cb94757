"""The board's health as the person hears of it: the link's state and what it means, in plain words.

``BoardHealth`` listens to the device's reports (``firmware_bridge``: cells, wires, link states; it knows no
rules) and says what they mean for the game in progress, naming squares in the variant's notation.
The Session owns one and calls it from its loop (its hooks are marked ``health``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_bridge.types import LinkStatus

from .machine import Controller

Say = Callable[[str, str], None]


class BoardHealth:
    """What the person must know about the board itself (not the game): is its link up, and why not."""

    def __init__(self, controller: Controller, *, say: Say) -> None:
        self.controller = controller
        self._say = say
        self.link: LinkStatus | None = None      # None: a board wired to the host, no link to watch

    # --- the link (serial boards) ----------------------------------------------------------------------
    def link_status(self, status: LinkStatus) -> None:
        """The device's link changed state: tell the person what it means for the game."""
        before, self.link = self.link, status
        if before is not None and before.port != status.port:
            self._say(f"The board is now on {status.port} (it was {before.port}).", "info")
        if before is not None and (before.state, before.reason) == (status.state, status.reason):
            return
        if status.state == "not responding" and (before is None or before.state != "connected"):
            self._say(_not_responding(status), "warning")   # a connected board's drop is told by drop_message
        elif status.ok and before is not None and before.state == "not responding" \
                and not self.controller.board_lost:
            self._say(f"The board answers again on {status.port}.", "info")

    def drop_message(self, connected: bool) -> str | None:
        """The sentence for a link that dropped because the board stopped answering (None: the usual one)."""
        if connected or self.link is None or self.link.state != "not responding":
            return None
        return _not_responding(self.link)

    @property
    def link_ok(self) -> bool:
        """Whether the board answers (always, for a board wired to the host)."""
        return self.link is None or self.link.ok

    def state(self) -> dict[str, Any]:
        """What the page shows of the board's health (merged into the Session's state)."""
        link = None if self.link is None else {"state": self.link.state, "port": self.link.port,
                                                "reason": self.link.reason}
        return {"board_link": link}

    def __repr__(self) -> str:
        return f"BoardHealth(link={self.link.state if self.link else 'wired'})"


def _not_responding(status: LinkStatus) -> str:
    """The sentence for a board that does not answer: what was seen, and what to check."""
    text = f"The board is not responding on {status.port}: {status.reason}."
    if "wrong speed or firmware" in status.reason:
        return (text + " Check that the profile's serial.baud matches the firmware (115200) and that the "
                       "board runs the draughts-board firmware; it is tried again meanwhile.")
    return text + " Reconnecting; moves made meanwhile are read when it answers."
