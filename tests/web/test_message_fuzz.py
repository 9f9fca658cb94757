"""Hostile websocket frames (issue 30): hypothesis sends `Dispatcher.handle_raw` whole frames (nesting 50,000
deep, numbers of 400 and 5,000 digits, 1e309 and NaN, lone surrogates, NUL, Unicode digits, JSON cut short,
values of the wrong type in every field of every command kind) and each one gets a reply the page can read
(JSON that encodes to UTF-8, no NaN): an error naming the field, or the command's reply; no exception
escapes, and no command reaches the Session unless every field has its declared type and is valid text."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import re
import types
import typing
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

import rules
from controller.commands import _BY_KIND, Command, CommandOutcome, NewGame
from controller.events import Event
from firmware_bridge.simulated import SimulatedDevice
from web.access import WebOptions
from web.messages import MAX_MESSAGE, Dispatcher

HINTS = {cls: typing.get_type_hints(cls) for cls in _BY_KIND.values()}


def is_text(value: object) -> bool:
    """A str that is text: no lone surrogate (it cannot be written to a file or a socket), no NUL."""
    if type(value) is not str or "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_json(value: object, depth: int = 0) -> bool:
    if depth > 32:
        return False
    if value is None or type(value) in (bool, int):
        return True
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is str:
        return is_text(value)
    if type(value) is list:
        return all(is_json(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(is_text(k) and is_json(v, depth + 1) for k, v in value.items())
    return False


def has_type(value: object, hint: Any) -> bool:
    """Whether `value` is exactly of the declared type `hint` (bool is no int, text is valid text)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(has_type(value, arm) for arm in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is str:
        return is_text(value)
    if hint in (int, bool):
        return type(value) is hint
    if origin is dict:
        return type(value) is dict and is_json(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return type(value) is tuple and all(has_type(v, args[0]) for v in value)
        return type(value) is tuple and len(value) == len(args) and all(map(has_type, value, args))
    if hint is Any:
        return is_json(value)
    raise AssertionError(f"no check for {hint}")


class Session:
    """The Session's side of the dispatcher: a virtual board that takes every command it is sent."""

    ratings_path = None

    def __init__(self) -> None:
        self.simulated: SimulatedDevice | None = SimulatedDevice(10, 10)
        self.commands: list[Command] = []

    def pdn(self) -> str:
        return ""

    def subscribe(self) -> asyncio.Queue[Event]:
        return asyncio.Queue()

    def unsubscribe(self, queue: asyncio.Queue[Event]) -> None:
        pass

    def view(self) -> dict[str, Any]:
        return {"variant": "international", "size": {"rows": 10, "cols": 10}}

    async def send(self, command: Command) -> asyncio.Future[CommandOutcome]:
        for field in dataclasses.fields(command):
            value = getattr(command, field.name)
            assert has_type(value, HINTS[type(command)][field.name]), (command, field.name, value)
        if isinstance(command, NewGame):   # the variant and its options are the rules core's
            variant = rules.get_variant(command.variant, **(command.variant_options or {}))
            variant.no_progress_reason.format(n=variant.no_progress_moves)   # as the game's draw names it
            assert (command.time_control or "").isascii(), command   # its numbers in ASCII digits
        json.dumps(command.to_json(), allow_nan=False).encode("utf-8")   # the journal can write it
        self.commands.append(command)
        future = asyncio.get_running_loop().create_future()
        future.set_result(CommandOutcome("done"))
        return future


HOSTILE_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([0, -1, 1, 10**17, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
    st.sampled_from(["", " ", "\x00", "\ud800", "a\udfffb", "²", "३", "५+३", "\uff15+\uff13", "white", "both",
                     "international", "english", "W:W31:B1", "1" * 5000, "\n", "x" * 70_000, "22-18",
                     "forward", "start", "retract", "new_game", "5+3", "open", "1", "\u202e", "\x1b[2J"]),
    st.lists(st.integers(-2, 20), max_size=3),
    st.lists(st.lists(st.integers(-2, 20), max_size=3), max_size=3),
    st.dictionaries(st.sampled_from(["first", "variant_id", "x", "\ud800", "no_progress_reason",
                                     "no_progress_moves"]),
                    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5)
                    | st.sampled_from(["{x}", "{0}", "{n}", "५", "\x00", "a\nb"]), max_size=3),
)


SOUND: dict[str, list[Any]] = {
    "variant": ["international", "english"], "human_color": ["white", "both"], "opponent": ["person"],
    "level": [1, 10], "time_control": ["5+3", "10"], "fen": [None, "W:W31:B1"], "player": [None, "Ann"],
    "variant_options": [None, {}], "plies": [1, 2], "color": ["white", "black"], "on": [True],
    "choice": ["retract", "new_game"], "text": ["22-18"], "event": ["open"], "round": ["1"], "board": ["1"],
    "white": ["Ann"], "black": ["Bob"], "cells": [[[1, 2]]], "masked": [True], "action": ["start"],
    "row": [6], "col": [1], "exercise": [""], "pdn": ["1. 32-28 *"], "game": [1], "step": ["forward"]}
"""A sound value of each field (the others of a command are then the only ones to blame)."""
OTHER_DIGITS = str.maketrans("0123456789", "".join(map(chr, range(0x966, 0x970))))   # Devanagari


@st.composite
def commands(draw: st.DrawFn) -> tuple[dict[str, Any], set[str]]:
    """A command payload of a real kind with some fields given hostile values; the fields spoiled."""
    cls = draw(st.sampled_from(sorted(_BY_KIND.values(), key=lambda c: c.kind)))
    names = [f.name for f in dataclasses.fields(cls)]
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))) if names else []
    payload: dict[str, Any] = {"kind": cls.kind}
    spoiled = set()
    for name in chosen:
        how = draw(st.sampled_from(["sound", "foreign", "hostile"])) if name in SOUND else "hostile"
        if how == "sound":
            payload[name] = draw(st.sampled_from(SOUND[name]))
        elif how == "foreign":   # its digits in another script's: text, but no number
            value = draw(st.sampled_from(SOUND[name]))
            payload[name] = value.translate(OTHER_DIGITS) if isinstance(value, str) else value
            if payload[name] != value:
                spoiled.add(name)
        else:
            payload[name] = draw(HOSTILE_VALUES)
            spoiled.add(name)
    if draw(st.integers(0, 9)) == 0:
        payload[draw(st.sampled_from(["extra", "\ud800", "a" * 200, "kind2"]))] = 1
    return payload, spoiled


RAW_FRAMES = st.one_of(
    st.integers(1, 50_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3_000).map(lambda n: '{"type":"command","command":' * n + "{}" + "}" * n),
    st.sampled_from(["", "{", "null", "[]", '"ping"', "1e309", "NaN", '{"type":"ping","id":NaN}',
                     '{"type":"ping","id":1e309}', '{"type":"ping","id":' + "9" * 5000 + "}",
                     '{"type":"ping","id":"\\ud800"}', '{"type":"ping","id":"a\\u0000b"}',
                     '{"type":"ping","id":' + "9" * 400 + "}", '{"type":"\\ud800"}',
                     '{"type":"command","command":{"kind":"takeback","plies":1e309}}',
                     '{"type":"command","command":{"kind":"takeback","plies":' + "9" * 400 + "}}",
                     '{"type":"command","command":{"kind":"takeback","plies":NaN}}',
                     '{"type":"command","command":{"kind":"new_game","level":3.0}}',
                     '{"type":"command","command":{"kind":"\\ud800"}}', '{"type":"setup","pieces":"x"}',
                     '{"type":"setup","turn":"white","pieces":[{"row":6,"col":1,"color":"white"}]}',
                     '{"type":"setup","turn":"white","pieces":[{"row":1e309,"col":1,"color":"white"}]}',
                     '{"type":"command","command":{"kind":"lift","row":' + "9" * 400 + ',"col":0}}']),
    st.text(max_size=50),
)


def frames() -> st.SearchStrategy[tuple[str, set[str] | None]]:
    def command_frame(made: tuple[dict[str, Any], set[str]], request_id: Any) -> tuple[str, set[str] | None]:
        payload, spoiled = made
        return json.dumps({"type": "command", "id": request_id, "command": payload}), spoiled

    ids = st.none() | st.integers(-(2**70), 2**70) | st.text(max_size=10) | st.sampled_from(["\ud800", [1]])
    return st.one_of(
        st.builds(command_frame, commands(), ids),
        st.builds(lambda t: (t, None), RAW_FRAMES),
        st.builds(lambda made, cut: (json.dumps({"type": "command", "command": made[0]})[:cut], None),
                  commands(), st.integers(0, 200)),
        st.builds(lambda pieces, turn: (json.dumps({"type": "setup", "pieces": pieces, "turn": turn}), None),
                  HOSTILE_VALUES | st.lists(st.fixed_dictionaries(
                      {"row": HOSTILE_VALUES, "col": HOSTILE_VALUES, "color": HOSTILE_VALUES}), max_size=3),
                  HOSTILE_VALUES),
    )


def words(cls: type[Command], name: str) -> list[str]:
    """How an error may name field `name` of `cls`: its key, or its label in a player's words."""
    label = cls.labels.get(name, name)
    return [name, label, *label.split(" ("), name.replace("_", " "), *OTHER_WORDS.get(name, [])]


OTHER_WORDS = {"variant_options": ["option"], "row": ["square"], "col": ["square"]}


def stands_alone(cls: type[Command], name: str) -> bool:
    """Whether a command of `cls` with only field `name` given is refused for that field alone: its other
    fields' defaults are accepted (a broadcast place given only a round still lacks its event)."""
    try:
        cls()
    except TypeError:   # fields without defaults: the payload's own fields are checked first
        return True
    except ValueError:  # its defaults alone are refused
        return False
    return True
"""Fields an error may name by what they stand for: one option of the options, the square of a row."""


@settings(deadline=None, max_examples=400)
@given(st.lists(frames(), min_size=1, max_size=4))
@example([('{"type": "ping", "id": "\\ud800"}', None)])   # a reply no UTF-8 frame can carry
@example([(json.dumps({"type": "command", "command": {"kind": "new_game", "time_control": "५+३"}}),
           {"time_control"})])
@example([(json.dumps({"type": "command", "command": {"kind": "takeback", "plies": 10**400}}), None)])
@example([(json.dumps({"type": "command", "command": {"kind": "new_game", "variant_options": options}}),
           {"variant_options"}) for options in ({"variant_id": 1}, {"no_progress_reason": "{x}"},
                                                {"no_progress_reason": '1"]\n[Event "forged'})])
def test_every_hostile_frame_gets_a_readable_reply_and_only_typed_commands_reach_the_session(
        sent: list[tuple[str, set[str] | None]]) -> None:
    session = Session()
    dispatcher = Dispatcher(session, WebOptions(), command_timeout=1.0)

    async def scenario() -> None:
        for frame, spoiled in sent:
            before = len(session.commands)
            reply = await dispatcher.handle_raw(frame)
            # what the page receives: UTF-8 JSON without NaN (web/fanout.encode writes ensure_ascii=False)
            json.dumps(reply, ensure_ascii=False, allow_nan=False).encode("utf-8")
            assert reply["type"] in ("reply", "error", "pong"), reply
            if reply["type"] != "error":
                continue
            assert len(session.commands) == before
            assert reply["error"] == "invalid" and isinstance(reply["message"], str), reply
            message = reply["message"]
            assert message.isprintable() and len(message) <= 600, message
            try:
                decoded = json.loads(frame, parse_int=str, parse_constant=str)   # numbers of any length
            except (ValueError, RecursionError):
                decoded = None
            if isinstance(decoded, dict):   # an object is not told it is not one
                assert "must be a JSON object" not in message, (frame[:200], message)
            # one field given a hostile value: the error names it
            sound = len(frame) <= MAX_MESSAGE and not re.search(r"[0-9]{19}", frame)   # else refused whole
            if spoiled is not None and len(spoiled) == 1 and sound:
                payload = json.loads(frame)["command"]
                cls = _BY_KIND[payload["kind"]]
                (name,) = spoiled
                if set(payload) <= {"kind", name} and stands_alone(cls, name):
                    assert any(w in message for w in words(cls, name)), (name, message)
    asyncio.run(scenario())
