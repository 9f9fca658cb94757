"""Settings as a frozen dataclass read from one TOML file and overridden on the command line: every field is
a key of the file and a ``--key`` option of its type, with the help its docstring gives (field_docs). The
board's Config and the hall's HallConfig are both read this way, through readers.toml: a file that is no
file, not UTF-8 or hostile TOML, an unknown key or a wrong type is one error naming the file, the line and
what was expected."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from readers import ReadError
from readers.files import MIB
from readers.toml import TomlFile, read_toml

from .field_docs import setting_help

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

S = TypeVar("S", bound="DataclassInstance")

Where = Callable[[str], str]
"""Where a key is written, for its error: ``PATH: line L`` (or only ``PATH``)."""

KINDS: dict[str, type] = {"str": str, "int": int, "float": float, "bool": bool}
"""The types a setting may have (the fields' annotations, as text)."""


def no_words(name: str) -> str:
    """No words on the values a setting accepts (its type and default say it)."""
    return ""


def quoted(value: object, width: int = 60) -> str:
    """``repr(value)`` as an error quotes it: cut at `width` characters (a value may be a megabyte)."""
    text = repr(value)
    return text if len(text) <= width else text[:width] + "..."


@dataclass(frozen=True)
class SettingsFile(Generic[S]):
    """How the settings dataclass `cls` is read from its file (`what` names the file in errors) and set
    on the command line (`file_help` is --config's help, `group` the title of the options' group,
    `allowed` the values a setting accepts, in words). `error` is the settings' own ValueError."""

    cls: type[S]
    error: type[ValueError]
    what: str
    file_help: str
    group: str
    allowed: Callable[[str], str] = no_words
    limit: int = MIB

    @cached_property
    def types(self) -> dict[str, type]:
        """Each setting's type by name, in the fields' order."""
        return {f.name: KINDS[str(f.type)] for f in fields(self.cls)}

    def read(self, path: Path) -> TomlFile:
        """The TOML file `path`; the settings' error naming the file, line and column if it cannot be."""
        try:
            return read_toml(path, what=self.what, limit=self.limit)
        except ReadError as exc:
            raise self.error(str(exc)) from None

    def from_table(self, data: Mapping[str, Any], where: Where) -> S:
        """The settings of a TOML table: an unknown key, a value of the wrong type or one the settings refuse
        is the error naming where it is written."""
        values = {key: self.value(key, value, where) for key, value in data.items()}
        try:
            return self.cls(**values)
        except self.error as exc:   # the settings' checks name the key first: "port: must be ..."
            key = str(exc).partition(":")[0]
            raise self.error(f"{where(key) if key in values else where('')}: {exc}") from None

    def value(self, key: str, value: object, where: Where) -> object:
        """The value of setting `key` checked against its type (an int where a float goes is the float)."""
        expected = self.types.get(key)
        if expected is None:
            known = ", ".join(sorted(self.types))
            raise self.error(f"{where(key)}: unknown key {key!r} (known keys: {known})")
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, bool) and expected is not bool:
            raise self.error(f"{where(key)}: key {key!r} expects {expected.__name__}, got a boolean")
        if not isinstance(value, expected):
            raise self.error(f"{where(key)}: key {key!r} expects {expected.__name__}, "
                             f"got {type(value).__name__} {quoted(value)}")
        return value

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add ``--config`` and one ``--<key>`` option per setting (overriding the file), each with its help:
        the field's docstring, the values it accepts and its default."""
        parser.add_argument("--config", type=Path, help=self.file_help)
        group = parser.add_argument_group(self.group)
        for name, kind in self.types.items():
            flag = "--" + name.replace("_", "-")
            text = setting_help(self.cls, name, self.allowed(name))
            if kind is bool:
                group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None,
                                   help=text)
            else:
                group.add_argument(flag, dest=name, type=kind, default=None, metavar=name.upper(), help=text)

    def overrides(self, args: argparse.Namespace) -> dict[str, Any]:
        """The settings given on the command line (an option not given is None in `args`)."""
        return {name: getattr(args, name) for name in self.types if getattr(args, name, None) is not None}

    def replaced(self, settings: S, overrides: Mapping[str, Any]) -> S:
        """`settings` with the command line's `overrides` (a refused one: the error says "command line")."""
        try:
            return dataclasses.replace(settings, **overrides)
        except self.error as exc:
            raise self.error(f"command line: {exc}") from None
