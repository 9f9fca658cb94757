"""Checking a read game against the rules of its variant: every move of every line must be legal.

The variant comes from the private `[Variant "id"]` tag (for variants without a GameType number), else
the `GameType` tag, else the caller's default, else international (PDN's default). A `FEN` tag gives the
start position. Moves may be written in numeric or algebraic notation whatever the variant.
"""

from __future__ import annotations

import functools
import re

import rules
from rules.errors import shorten
from rules.options import parse_text
from rules.pdn.errors import PdnError, PdnGameError, PdnMoveError
from rules.pdn.model import Line, MoveNode, PdnGame

_SPLIT = re.compile(r"[-x:]")
_COMPACT = re.compile(r"^([a-l]\d{1,2})([a-l]\d{1,2})$")
INTERNATIONAL_SCORING = frozenset({"international", "canadian", "polish", "czech-international"})
DEFAULT_VARIANT = "international"


def _where(game: PdnGame, tag: str) -> tuple[int, int]:
    return game.tag_positions.get(tag, (game.line, 1))


def variant_of(game: PdnGame, default: str | None = None) -> rules.Variant:
    """The game's variant (Variant tag, GameType tag, `default`, international) with its options (the
    GameType's first player, the VariantOptions tag); PdnGameError if unknown or an option is bad."""
    variant = _base_variant(game, default)
    options: dict[str, object] = {}
    parts = game.tags.get("GameType", "").split(",")
    if len(parts) > 1 and parts[1].strip().upper() in ("W", "B") and "first" in variant.options:
        first = rules.Color.WHITE if parts[1].strip().upper() == "W" else rules.Color.BLACK
        if first != variant.first:
            options["first"] = first
    try:
        if "VariantOptions" in game.tags:
            options.update(parse_text(game.tags["VariantOptions"]))
        return rules.get_variant(variant, **options) if options else variant
    except rules.RulesError as exc:
        tag = "VariantOptions" if "VariantOptions" in game.tags else "GameType"
        raise PdnGameError(f"{tag} tag: {exc}", *_where(game, tag), game=game.number,
                           label=game.label()) from None


def _base_variant(game: PdnGame, default: str | None) -> rules.Variant:
    """The variant the tags name, without options."""
    label = game.label()
    if "Variant" in game.tags:
        try:
            return rules.get_variant(game.tags["Variant"].strip().lower())
        except rules.RulesError as exc:
            raise PdnGameError(f"unknown Variant tag {shorten(game.tags['Variant'])!r}: {exc}",
                               *_where(game, "Variant"),
                               game=game.number, label=label) from None
    if "GameType" in game.tags:
        try:
            return rules.variant_for_gametype(game.tags["GameType"])
        except (rules.RulesError, ValueError):
            known = sorted({v.gametype_number for v in map(rules.get_variant, rules.VARIANT_IDS)
                            if v.gametype_number is not None})
            raise PdnGameError(f"unknown GameType {shorten(game.tags['GameType'])!r}: known types are "
                               f"{', '.join(map(str, known))} (or use a [Variant \"id\"] tag)",
                               *_where(game, "GameType"), game=game.number, label=label) from None
    try:
        return rules.get_variant(default or DEFAULT_VARIANT)
    except rules.RulesError as exc:
        raise PdnGameError(str(exc), game.line, 1, game=game.number, label=label) from None


def start_board(game: PdnGame, variant: rules.Variant) -> rules.Board:
    """The game's start position: its FEN tag, or the variant's initial position.

    A numeric FEN on an algebraic board (e.g. a Russian game) is ambiguous in old files: some count
    square 1 from Black's side. When the first move is illegal with the standard numbering but legal
    with the numbers counted from the other side, that reading is used and a warning recorded.
    """
    fen = game.tags.get("FEN", "").strip()
    if not fen:
        return _initial_position(variant).copy()
    if fen.startswith("?"):  # PDN 3.0: unknown side to move; take the variant's first player
        fen = ("W" if variant.first == rules.Color.WHITE else "B") + fen[1:]
    fen = fen.rstrip(".")
    try:
        board = rules.Board.from_fen(variant, fen)
    except rules.RulesError as exc:
        raise PdnGameError(f"bad FEN {shorten(game.tags['FEN'], 60)!r}: {exc}", *_where(game, "FEN"),
                           game=game.number, label=game.label()) from None
    if not variant.geometry.numeric and re.search(r"[:,K]\d", fen) and game.moves:
        count = len(variant.geometry.squares)
        flipped_fen = re.sub(r"(?<=[:,WBK])(\d+)", lambda m: str(count + 1 - int(m.group(1))), fen)
        try:
            flipped = rules.Board.from_fen(variant, flipped_fen)
        except rules.RulesError:
            return board
        if _fits(board, game.moves, 1) == 0 and _fits(flipped, game.moves, 1) == 1:
            line, column = _where(game, "FEN")
            game.warnings.append(PdnGameError(
                f"FEN {shorten(game.tags['FEN'], 60)!r} counts squares from Black's side (square 1 = "
                f"{variant.geometry.algebraic(flipped_square(variant, 1))}); read as {flipped.fen()}",
                line, column, game=game.number, label=game.label()))
            return flipped
    return board


@functools.lru_cache(maxsize=32)
def _initial_position(variant: rules.Variant) -> rules.Board:
    """The variant's start position, set up once: a copy costs a hundredth of setting up a Board, which
    otherwise dominates reading a file of many short games."""
    return rules.Board(variant)


def final_board(game: PdnGame, default: str | None = None) -> rules.Board:
    """The position after the main line, as far as its moves were resolved to legal moves."""
    board = start_board(game, variant_of(game, default))
    for node in game.moves:
        if node.move is None:
            break
        board.push(node.move)  # type: ignore[arg-type]
    return board


def flipped_square(variant: rules.Variant, number: int) -> int:
    """The square a number means when counted from the other side of the board."""
    return variant.geometry.from_number(len(variant.geometry.squares) + 1 - number)


def variant_text(text: str, geometry: rules.Geometry) -> str:
    """Move text with its squares written in the variant's own notation (numbers or "c3" names)."""
    compact = _COMPACT.match(text)
    if compact:
        text = f"{compact.group(1)}-{compact.group(2)}"
    parts = _SPLIT.split(text)
    numeric_text = parts[0].isdigit()
    if numeric_text == geometry.numeric:
        return text
    seps = _SPLIT.findall(text)
    names = [geometry.name(geometry.parse_any(p)) for p in parts]
    out = names[0]
    for sep, name in zip(seps, names[1:], strict=True):
        out += sep + name
    return out


def move_label(ply: int) -> str:
    """`12.` for a first player's move, `12...` for a second player's."""
    return f"{ply // 2 + 1}{'...' if ply % 2 else '.'}"


def _parse(board: rules.Board, node: MoveNode) -> rules.Move:
    return board.parse_move(variant_text(node.text, board.variant.geometry))


def _fits(board: rules.Board, moves: list[MoveNode], depth: int) -> int:
    """How many of `moves` (up to `depth`) can be played from `board` (to resolve ambiguous captures)."""
    played = 0
    try:
        for node in moves[:depth]:
            try:
                move = _parse(board, node)
            except rules.AmbiguousMoveError:
                return played + 1
            except rules.RulesError:
                return played
            board.push(move)
            played += 1
        return played
    finally:
        for _ in range(played):
            board.pop()


def _resolve(board: rules.Board, line: Line, index: int) -> rules.Move | None:
    """An ambiguous capture written from-to only: the candidate after which the line goes on legally."""
    node = line.moves[index]
    text = variant_text(node.text, board.variant.geometry)
    squares = [board.variant.geometry.parse_square(p) for p in _SPLIT.split(text)]
    candidates = [m for m in board.legal_moves if m.from_square == squares[0] and m.to_square == squares[-1]]
    best: list[tuple[int, rules.Move]] = []
    for move in candidates:
        board.push(move)
        try:
            best.append((_fits(board, line.moves[index + 1:], len(line.moves)), move))
        finally:
            board.pop()
    best.sort(key=lambda item: -item[0])
    if best and (len(best) == 1 or best[0][0] > best[1][0]):
        return best[0][1]
    remaining = len(line.moves) - index - 1
    if best and best[0][0] == remaining:  # every reading fits the rest of the record: take the first
        return best[0][1]
    return None


def _from_to(board: rules.Board, line: Line, index: int) -> rules.Move | None:
    """A capture whose written intermediate squares match no legal path, read from its ends only.

    Old records sometimes name a landing square other than the one PDN 3.0 prescribes (e.g. a king's
    `a1xf6xh8` for the square behind the first piece, e5); the ends still identify the move when unique.
    """
    text = variant_text(line.moves[index].text, board.variant.geometry)
    parts = _SPLIT.split(text)
    if len(parts) < 3:
        return None
    squares = [board.variant.geometry.parse_square(p) for p in (parts[0], parts[-1])]
    found = [m for m in board.legal_moves if (m.from_square, m.to_square) == tuple(squares)]
    if len(found) == 1:
        return found[0]
    return _resolve(board, line, index) if found else None


def _walk(game: PdnGame, board: rules.Board, line: Line, ply: int, errors: list[PdnError]) -> None:
    pushed = 0
    try:
        for index, node in enumerate(line.moves):
            move: rules.Move | None
            try:
                move = _parse(board, node)
            except rules.AmbiguousMoveError as exc:
                resolved = _resolve(board, line, index)
                if resolved is None:
                    errors.append(_move_error(game, board, node, ply, exc))
                    return
                move = resolved
                game.warnings.append(PdnMoveError(
                    f"move {move_label(ply)} {node.text} is ambiguous ({exc}); "
                    f"read as {board.move_text(move)}",
                    node.line, node.column, game=game.number, label=game.label(), text=node.text))
            except rules.IllegalMoveError as exc:
                move = _from_to(board, line, index)
                if move is None:
                    errors.append(_move_error(game, board, node, ply, exc))
                    return
                game.warnings.append(PdnMoveError(
                    f"move {move_label(ply)} {node.text}: {exc}; read from-to as {board.move_text(move)}",
                    node.line, node.column, game=game.number, label=game.label(), text=node.text))
            except rules.RulesError as exc:
                errors.append(_move_error(game, board, node, ply, exc))
                return
            node.move = move
            for variation in node.variations:
                _walk(game, board, variation, ply, errors)
            board.push(move)
            pushed += 1
            ply += 1
    finally:
        for _ in range(pushed):
            board.pop()


def _move_error(game: PdnGame, board: rules.Board, node: MoveNode, ply: int, exc: Exception) -> PdnMoveError:
    try:
        shown = variant_text(node.text, board.variant.geometry)
    except rules.RulesError:
        shown = node.text
    also = f" (written {shown} on a {board.variant.id} board)" if shown != node.text else ""
    return PdnMoveError(f"move {move_label(ply)} {node.text}{also}: {exc}", node.line, node.column,
                        game=game.number, label=game.label(), text=node.text)


def validate_game(game: PdnGame, default: str | None = None) -> list[PdnError]:
    """Check every move (main line and variations) against the rules; errors are also added to game.errors.

    After an illegal move the rest of that line is not checked (its positions are unknown).
    """
    errors: list[PdnError] = []
    try:
        variant = variant_of(game, default)
        game.variant_id = variant.id
        board = start_board(game, variant)
    except PdnError as exc:
        errors.append(exc)
    else:
        if game.result in ("2-0", "1-1", "0-2") and variant.id not in INTERNATIONAL_SCORING:
            errors.append(PdnGameError(
                f"result {game.result} is international scoring (2-0, 1-1, 0-2); {variant.id} games end "
                "1-0, 0-1, 1/2-1/2 or *", *game.result_position, game=game.number, label=game.label()))
        _walk(game, board, game.mainline, game.start_ply, errors)
    game.errors.extend(errors)
    return errors
