"""What travels over the websocket: controller events turned into JSON messages, and client messages
validated, token-checked and turned into controller Commands. A forged message yields an error reply; a
command's reply says what became of it (done, refused or failed, with the reason), matched to its ``id``.
Nothing a client receives names a path of the server."""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any

import rules
from controller.commands import Command, CommandOutcome, Lift, NewGame, Place, SetupPosition
from controller.events import Event, ViewChanged
from controller.words import side_name
from i18n import Phrase, phrase
from readers import ReadError, loads, shown
from rules.options import SPECS, OptionSpec

from .access import AccessDenied, WebOptions
from .errors import WebError
from .seam import BoardSession

log = logging.getLogger(__name__)

MAX_MESSAGE = 64 * 1024
COLORS = ("white", "black")
COMMAND_TIMEOUT = 10.0

_DIRECTORIES = re.compile(r"(?<![\w.:/~-])~?/(?:[^\s\"'/\\]+/)+")
"""The directories of an absolute path (``/home/ann/.local/share/draughts-board/games/``), not its file."""


def redact(text: str) -> str:
    """``text`` with the directories of every absolute path taken out: clients see file names only."""
    return _DIRECTORIES.sub("", text)


class ClientError(WebError, ValueError):
    """A client message that is not valid (says which field and what was expected)."""


def event_message(event: Event) -> dict[str, Any]:
    """The JSON message for one controller event: ``{"type": "event", "kind": ..., "data": ...}``; a
    state change is sent as ``{"type": "state", "state": ...}`` so the page simply re-renders."""
    data = event.to_json()
    if event.kind == ViewChanged.kind:
        return {"type": "state", "state": data.get("state", data)}
    return {"type": "event", "kind": event.kind, "data": data}


CHOICE_LABELS = {
    "white": side_name("white"), "black": side_name("black"),
    "max_pieces": phrase("the most pieces"), "max_kings": phrase("the most kings"),
    "capture_with_king": phrase("with a king"),
    "earliest_king": phrase("the earliest king"),
    "stop": phrase("stops there, crowned"),
    "continue_as_king": phrase("is crowned and captures on as a king"),
    "pass_through": phrase("captures on as a man, uncrowned"),
    "reject": phrase("is refused"),
    "opponent_choice_retract_or_accept": phrase("the opponent has it retracted or accepts it"),
    "opponent_choice_retract_or_huff": phrase("the opponent has it retracted or huffs the piece"),
    "accept_on_next_move": phrase("stands once the opponent moves"),
    "repetition": phrase("by repetition"), "no_progress": phrase("by moves without progress"),
}
"""The new-game form's words for the values an option may take (rules/options.py lists the values)."""

STATE_LABELS = {
    "setup": phrase("setup"), "person": phrase("person"), "computer": phrase("computer"),
    "out_of_sync": phrase("out of sync"), "game_over": phrase("game over"),
    "person.idle": phrase("person: idle"), "person.lifted": phrase("person: lifted"),
    "person.capturing": phrase("person: capturing"), "person.settling": phrase("person: settling"),
    "person.ambiguous": phrase("person: ambiguous"),
    "person.missed_capture": phrase("person: missed capture"),
    "computer.thinking": phrase("computer: thinking"), "computer.showing": phrase("computer: showing"),
}
"""The page's words for the controller's states (controller/states.py NAMES), shown in the header."""

FORM_KINDS = ("color", "choice", "bool", "int", "count_or_none", "list")
"""The option kinds the form offers; a "text" option (how a draw is named) keeps its variant's words."""


def option_info(spec: OptionSpec, default: object) -> dict[str, Any]:
    """One option for the form: name, kind, label, its allowed values with their words, least value and
    default."""
    values = ["white", "black"] if spec.kind == "color" else list(spec.choices)
    return {"name": spec.name, "kind": spec.kind, "label": Phrase(spec.label), "choices": list(spec.choices),
            "labels": {v: CHOICE_LABELS.get(v, v.replace("_", " ")) for v in values},
            "minimum": spec.minimum, "maximum": spec.maximum, "default": spec.json(default)}


def variants_info() -> list[dict[str, Any]]:
    """The variants the page offers for a new game: id, name, board size and lines, and the options each has
    that the form offers (see :func:`option_info`; the form shows each preset to its default)."""
    try:
        out = []
        for vid in rules.VARIANT_IDS:
            variant = rules.get_variant(vid)
            geometry = variant.geometry
            squares = [[*geometry.rc(sq), geometry.name(sq)] for sq in geometry.squares]
            options = [option_info(SPECS[name], getattr(variant, name)) for name in variant.options
                       if SPECS[name].kind in FORM_KINDS]
            out.append({"id": variant.id, "name": Phrase(variant.name), "rows": variant.height,
                        "cols": variant.width, "squares": squares, "lines": _lines(variant),
                        "missed_capture_policy": variant.missed_capture_policy,
                        "first": "white" if int(variant.first) == 0 else "black", "options": options})
        return out
    except (AttributeError, ValueError) as exc:
        log.warning("variant list unavailable: %s", exc)
        return []


def _lines(variant: rules.Variant) -> list[list[int]]:
    """A board of points joined by lines (alquerque): each line segment as [row, col, row, col]; [] for a
    board of squares."""
    if variant.move_kind != "alquerque":
        return []
    geometry = variant.geometry
    out = []
    for sq in geometry.squares:
        for d in range(len(geometry.steps)):
            to = geometry.steps[d][sq]
            if to > sq:
                out.append([*geometry.rc(sq), *geometry.rc(to)])
    return out


def is_virtual(session: BoardSession) -> bool:
    """Whether the session runs on the virtual board (so squares on the page may be clicked)."""
    return session.simulated is not None


def hand_fen(variant_id: str, pieces: object, turn: object) -> str:
    """The PDN FEN of a position set up by hand on the page (validated by the rules core)."""
    if turn not in COLORS:
        raise ClientError(f"turn must be 'white' or 'black', got {turn!r}")
    if not isinstance(pieces, list) or len(pieces) > 200:
        raise ClientError("pieces must be a list of {row, col, color, king}")
    variant = rules.get_variant(variant_id)
    geometry = variant.geometry
    sides: dict[str, list[tuple[int, str]]] = {"white": [], "black": []}
    seen: set[int] = set()
    for item in pieces:
        if not isinstance(item, dict):
            raise ClientError(f"a piece must be an object, got {item!r:.40}")
        row, col, color, king = item.get("row"), item.get("col"), item.get("color"), item.get("king", False)
        if not (type(row) is int and type(col) is int and color in COLORS and isinstance(king, bool)):
            raise ClientError(f"a piece needs integer row/col, color white|black, boolean king: {item!r:.80}")
        inside = 0 <= row < variant.height and 0 <= col < variant.width
        square = geometry.square_at(row, col) if inside else None
        if square is None:
            raise ClientError(f"({row}, {col}) is not a playing square of {variant.id}")
        if square in seen:
            raise ClientError(f"two pieces on ({row}, {col})")
        seen.add(square)
        sides[color].append((geometry.squares.index(square), ("K" if king else "") + geometry.name(square)))
    parts = [("W" if turn == "white" else "B")]
    for color, letter in (("white", "W"), ("black", "B")):
        parts.append(letter + ",".join(name for _, name in sorted(sides[color])))
    fen = ":".join(parts)
    rules.Board(variant, fen)   # raises FenError (a ValueError) when the rules core refuses it
    return fen


@dataclass
class Dispatcher:
    """Turns client messages into Session commands, after validation and the token check."""

    session: BoardSession
    options: WebOptions
    command_timeout: float = COMMAND_TIMEOUT
    _variants: list[dict[str, Any]] | None = None

    def hello(self) -> dict[str, Any]:
        """What a newly connected page needs besides the state: access rules and the variant list."""
        if self._variants is None:
            self._variants = variants_info()
        return {"type": "hello", "token_required": self.options.token_required,
                "view_needs_token": self.options.view_needs_token, "virtual": is_virtual(self.session),
                "variants": self._variants, "state_labels": STATE_LABELS}

    async def handle_raw(self, raw: str) -> dict[str, Any]:
        """Handle one websocket text frame; never raises but AccessDenied for a wrong token (the caller counts
        those): other errors become ``{"type": "error"}`` replies."""
        request_id = None
        try:
            if len(raw) > MAX_MESSAGE:
                raise ClientError(f"message larger than {MAX_MESSAGE} bytes")
            try:   # bounded nesting and digits: the reason names what is wrong (5,000 digits, NaN, depth)
                message = loads(raw, "message")
            except ReadError as exc:
                raise ClientError(str(exc)) from None
            if isinstance(message, dict):
                request_id = _request_id(message.get("id"))
            reply = await self.handle(message)
        except AccessDenied as exc:
            if exc.wrong:
                exc.request_id = request_id
                raise
            return error_reply(request_id, "forbidden", str(exc))
        except ClientError as exc:
            return error_reply(request_id, "invalid", str(exc))
        return reply | {"id": request_id}

    async def handle(self, message: object) -> dict[str, Any]:
        """Handle one decoded message; raises ClientError / AccessDenied for bad or unauthorised ones."""
        if not isinstance(message, dict):
            raise ClientError("a message must be a JSON object")
        kind = message.get("type")
        if kind == "ping":
            return {"type": "pong"}
        if kind not in ("command", "setup"):
            raise ClientError(f"unknown message type {kind!r}; expected 'command', 'setup' or 'ping'")
        self.options.check_control(message.get("token"))
        if kind == "setup":
            state = self.session.view()
            try:
                fen = hand_fen(str(state.get("variant")), message.get("pieces"), message.get("turn"))
            except ClientError:
                raise
            except ValueError as exc:
                raise ClientError(f"position refused: {exc}") from None
            payload: dict[str, Any] = {"kind": "setup_position", "fen": fen}
        else:
            sent = message.get("command")
            if not isinstance(sent, dict):
                raise ClientError("'command' must be a JSON object")
            payload = sent
        command = self._command(payload)
        return command_reply(type(command).__name__, await self.run(command))

    async def run(self, command: Command) -> CommandOutcome:
        """Send ``command`` to the Session and wait for its CommandOutcome (failed when it takes too long)."""
        outcome = await self.session.send(command)
        try:
            async with asyncio.timeout(self.command_timeout):
                return await asyncio.shield(outcome)
        except TimeoutError:
            took = f"the controller did not handle it within {self.command_timeout:g} s"
            return CommandOutcome("failed", took)

    def _command(self, payload: dict[str, Any]) -> Command:
        """The Command ``payload`` asks for, checked against the rules and the board (ClientError if not)."""
        try:
            command = Command.from_json(payload)
        except ValueError as exc:
            raise ClientError(str(exc)) from None
        except Exception as exc:   # from_json must not crash the server whatever it is given
            raise ClientError(f"invalid command: {exc}") from None
        if isinstance(command, NewGame | SetupPosition):
            self._check_position(command)
        if isinstance(command, Lift | Place):
            if not is_virtual(self.session):
                name = type(command).__name__
                raise ClientError(f"{name} needs the virtual board; this board has real sensors")
            state = self.session.view()
            rows, cols = _board_size(state)
            row, col = command.row, command.col
            if not (type(row) is int and type(col) is int and 0 <= row < rows and 0 <= col < cols):
                raise ClientError(f"square ({row}, {col}) is outside the {rows}x{cols} board")
        return command

    def _check_position(self, command: NewGame | SetupPosition) -> None:
        """Refuse a new game or set-up whose variant or FEN the rules core does not accept."""
        new_game = command if isinstance(command, NewGame) else None
        variant_id = (new_game and new_game.variant) or self.session.view().get("variant")
        try:
            variant = rules.get_variant(str(variant_id), **((new_game and new_game.variant_options) or {}))
            fen = command.fen
            if fen:
                rules.Board(variant, fen)
        except ValueError as exc:
            raise ClientError(f"{command.title}: {exc}") from None


MAX_ERROR = 500
"""The longest error message sent (a client's own text in it is quoted by its start)."""
MAX_ID = 64
"""The longest request id (a text) echoed in a reply."""


def _request_id(value: object) -> int | str | None:
    """The ``id`` a reply carries back: a whole number the page's JavaScript holds exactly, or a short
    printable text; anything else (a lone surrogate, which no UTF-8 reply can carry, a list) is None."""
    if type(value) is int and abs(value) <= 2**53:
        return value
    if isinstance(value, str) and len(value) <= MAX_ID and value.isprintable():
        return value
    return None


def command_reply(command: str, outcome: CommandOutcome) -> dict[str, Any]:
    """``{"type": "reply", "command": "Resign", "outcome": "done"}``; ``reason`` when refused or failed."""
    reply = {"type": "reply", "command": command, "outcome": outcome.status}
    if outcome.status != "done":
        reply["reason"] = redact(outcome.reason)
    return reply


def error_reply(request_id: object, error: str, message: str) -> dict[str, Any]:
    """A request that was not valid (``invalid``) or not allowed (``forbidden``)."""
    return {"type": "error", "id": request_id, "error": error, "message": shown(redact(message), MAX_ERROR)}


def _board_size(state: dict[str, Any]) -> tuple[int, int]:
    """Rows and columns of the board described by a Session state dict."""
    size = state.get("size")
    if isinstance(size, dict):
        return int(size.get("rows", 0)), int(size.get("cols", 0))
    if isinstance(size, list | tuple) and len(size) == 2:
        return int(size[0]), int(size[1])
    return int(state.get("rows", 0)), int(state.get("cols", 0))
