"""Every controller a test creates walks only transitions drawn in the state diagram (issue 14)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller import diagram
from controller.machine import Controller

DRAWN = set(diagram.edges())


@pytest.fixture(autouse=True)
def walks_only_drawn_transitions(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Record the controllers a test creates; after it, each one's transitions must all be drawn."""
    created: list[Controller] = []
    init = Controller.__init__

    def recording_init(self: Controller, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        created.append(self)

    monkeypatch.setattr(Controller, "__init__", recording_init)
    yield
    for ctl in created:
        undrawn = ctl.walked - DRAWN
        assert not undrawn, f"{ctl!r} took transitions the diagram does not draw: {sorted(undrawn)}"
