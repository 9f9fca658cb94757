"""What the web front end uses of the board it serves: one Protocol, so mypy checks that the controller's
Session (and any fake a test serves) gives the page exactly this, and web never probes attribute names."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Protocol

from controller.commands import Command, CommandOutcome
from controller.events import Event
from firmware_bridge.simulated import SimulatedDevice
from i18n import Phrase


class BoardSession(Protocol):
    """The session of one board as the page sees it (``controller.session.Session`` is the real one)."""

    @property
    def ratings_path(self) -> Path | None:
        """The ratings database the Statistics tab reads (None: the web's data directory has it)."""

    @property
    def simulated(self) -> SimulatedDevice | None:
        """The virtual board when the session runs on one (its squares may be clicked), else None."""

    def view(self) -> dict[str, Any]:
        """The whole JSON-ready state the page renders."""

    async def send(self, command: Command) -> asyncio.Future[CommandOutcome]:
        """Queue ``command``; the future gives its CommandOutcome once handled."""

    def subscribe(self) -> asyncio.Queue[Event]:
        """A queue that receives every event from now on."""

    def unsubscribe(self, queue: asyncio.Queue[Event]) -> None:
        """Stop sending events to ``queue``."""

    def position(self, square: str | None = None) -> Phrase:
        """The position in words, or with a ``square`` what is on it and where it may go (a phrase,
        rendered in each reader's language)."""
        ...

    def pdn(self) -> str:
        """The game so far as PDN text."""
