"""The optional features and the pip extra that brings each: a feature whose extra is not installed stops its
command with one line naming the extra, instead of a traceback from deep inside an import."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass


@dataclass(frozen=True)
class Extra:
    """A pip extra of draughts-board (pyproject.toml) and the modules a feature needs from it."""

    name: str
    modules: tuple[str, ...]

    def missing(self) -> list[str]:
        """The modules of this extra that cannot be imported here."""
        return [module for module in self.modules if not _importable(module)]


WEB = Extra("web", ("starlette", "uvicorn", "websockets"))
MQTT = Extra("mqtt", ("paho.mqtt",))
HALL = Extra("hall", ("paho.mqtt", "starlette", "uvicorn"))


class MissingExtra(RuntimeError):
    """A feature was asked for whose extra is not installed; the message is one line for the person."""


def require(extra: Extra, feature: str, instead: str = "") -> None:
    """Raise `MissingExtra` when `feature` cannot run because `extra` is not installed; `instead` says how to
    do without it (a flag or a setting), when there is a way."""
    missing = extra.missing()
    if not missing:
        return
    otherwise = f", or {instead}" if instead else ""
    raise MissingExtra(f"{feature} needs the '{extra.name}' extra ({', '.join(missing)} not installed): "
                       f"pip install 'draughts-board[{extra.name}]' (from a clone: "
                       f".venv/bin/pip install -e '.[{extra.name}]'){otherwise}")


def _importable(module: str) -> bool:
    """Whether `module` (dotted: its parents too) can be found, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:   # a parent package is missing
        return False
