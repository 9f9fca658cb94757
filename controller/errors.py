"""The controller's error root, and the one type that means "the person's mistake".

Whatever a driver hands the Table (a command from the page, a line at the console, a move text) either works,
or raises ``Refused`` (the person asked for something the game or the board cannot do: say why, nothing
changed), or raises anything else (our failure: logged, and said as failed). The decision is made by type,
never by a builtin base such as ``ValueError``, which a stray ``int("x")`` raises too.
"""

from __future__ import annotations


class ControllerError(Exception):
    """The root of the errors the controller lets cross its boundary (configs, logs, saves, refusals)."""


class Refused(ControllerError, ValueError):
    """A command or input the person must change: the reason is said as it is, and nothing changed.
    (A ``ValueError`` too, so code that parses the person's words may keep catching those.)"""
