"""Reading the board, state by state: one reader per drawn state (``controller.states`` names it as the
state's ``on_board``), the gestures they recognise, and the timers they arm falling due.

Each reader takes the Controller and the time, ``(ctl, now)``, looks at what the board shows (``ctl.played``
against ``ctl.watch.exp`` and the turn's other facts, see ``controller.turn``) and answers only through the
Controller's internal API for readers:

- the machine's triggers: ``set_up``, ``lift``, ``capture_step``, ``settle``, ``put_back``, ``ask``,
  ``reconsider``, ``missed``, ``resync``, ``lose_sync`` (and whether the current state has one, asked of
  ``ctl.machine``);
- its verbs: ``commit_move`` (record a move, then the next turn), ``take_back_plies``, ``force_ply`` (a ply
  the rules refuse), ``missed_choice``, ``new_game``, ``arm`` (the turn's one timer), ``display`` (an LED
  frame), ``emit`` (an event), ``read_board`` (read again in the state now current), ``reread`` (the same,
  in a turn), ``computer_to_move``;
- its voice: ``ctl.say``, ``ctl.voice.warn``, ``ctl.voice.refuse``, ``ctl.voice.clear``.

The readers write only the watch's facts, ``missed_info`` and ``color_warned``; the rest they read: the game
(``record``, ``records``, ``game``, ``variant``, ``history``, ``start_occupancy``), the board
(``occupancy``, ``played``, ``playing``, ``map``), the settings (``config``, ``teaching``,
``moves_itself``), ``hints``, ``state`` and ``turn_state``.

State names come from ``controller.state_names``: ``controller.states`` imports this module.
"""

from __future__ import annotations

import typing

from firmware_bridge.types import Cell, LedFrame
from i18n import Phrase, joined, phrase, plural, translated_as
from rules import Illegal, IllegalMoveError, InvalidSquareError

from . import events as ev
from .inference import Expectation, MoveShape, Reading, disambiguate
from .lights import Fill
from .record import color_name
from .state_names import OUT_OF_SYNC, PERSON_MISSED_CAPTURE, TURNS
from .teaching import why_immobile
from .watch import Deadline, MissedCapture
from .words import side_name, side_word, variant_name

if typing.TYPE_CHECKING:
    from .host import ReaderHost

__all__ = ["after_game", "after_missed_capture", "ask_between", "asking", "computer_turn", "go_out_of_sync",
           "on_deadline", "out_of_sync", "person_turn", "settling", "setup", "show_sync", "sync_diff"]


# --- the readers, one per drawn state -----------------------------------------------------------------------
def setup(ctl: ReaderHost, now: float) -> None:
    """Waiting for the start position: play starts when it stands; wrong squares or a turned board are said
    once."""
    occ = ctl.occupancy
    target = ctl.exp.base
    if occ == target:
        ctl.set_up()
        ctl.say(phrase("The board is set up: play."))
        ctl.reread()
        return
    wrong = occ - ctl.playing
    if wrong and len(wrong) * 2 >= len(occ):
        if not ctl.color_warned:
            ctl.color_warned = True
            ctl.say(phrase("The pieces stand on the wrong color of squares for {variant}: its pieces go on "
                           "the squares lit white; take the pieces off the squares lit red.",
                           variant=variant_name(ctl.variant)), "warning")
        ctl.display(ctl.lights.wrong_color(wrong, target - occ))
        return
    rotated = frozenset((ctl.variant.height - 1 - r, ctl.variant.width - 1 - c) for r, c in occ)
    if rotated == target and not ctl.color_warned:
        ctl.color_warned = True
        ctl.say(phrase("The pieces are set up as if White sat at the other side of the board: turn the "
                       "board, or choose the other orientation for a new game."), "warning")
    show_sync(ctl, emit=False)


def person_turn(ctl: ReaderHost, now: float) -> None:
    """The person's move: the hands lift, capture and settle until the board shows one legal move; the last
    move may still be amended, or taken back by restoring the position before it."""
    if _restored_then_played(ctl, now):
        return
    _watch_mover(ctl, now)
    watch = ctl.watch
    reading = watch.exp.read(ctl.played)
    if reading.kind != "none":
        ctl.voice.clear()
    if reading.kind == "rest":
        watch.grace_at = None
        watch.pending = ()
        watch.touched.clear()
        ctl.put_back()
        ctl.display(ctl.lights.turn(watch.exp, watch.crown))
        return
    if reading.kind == "none":
        if not _amending(ctl, now):
            _not_your_turn(ctl, reading)
            _unmatched(ctl, reading, now)
        return
    watch.grace_at = None
    if reading.kind == "complete":
        candidates = disambiguate(reading.complete, frozenset(watch.touched))
        if reading.extendable:
            _hands_on(ctl, reading)
            ctl.settle()
            watch.pending = reading.complete
            ctl.arm("settle", now, ms=_settle_ms(ctl, reading))
            ctl.display(_progress_frame(ctl, reading))
            _explain_jumping_on(ctl, reading.complete)
        elif len(candidates) == 1:
            ctl.commit_move(candidates[0])
        else:
            _hands_on(ctl, reading)
            ctl.settle()
            ask_between(ctl, candidates)
        return
    watch.pending = ()
    _hands_on(ctl, reading)
    ctl.display(_progress_frame(ctl, reading))


def settling(ctl: ReaderHost, now: float) -> None:
    """A move waits for its settle time: the next player's move, once begun, commits it."""
    if not _reply_begun(ctl, now):
        person_turn(ctl, now)


def asking(ctl: ReaderHost, now: float) -> None:
    """The person was asked to choose: any legal change of the board starts the reading again."""
    if ctl.exp.read(ctl.played).kind != "none":
        ctl.reconsider()
    person_turn(ctl, now)


def after_missed_capture(ctl: ReaderHost, now: float) -> None:
    """The offender put the piece back himself: as if retracted."""
    if ctl.played == ctl.exp.base:
        ctl.missed_choice("retract")


def computer_turn(ctl: ReaderHost, now: float) -> None:
    """The computer's move: shown on the LEDs once chosen, carried out by the person, then committed. Until
    the person touches the computer's pieces, the person's own move may still be amended."""
    if _restored_then_played(ctl, now):
        return
    _watch_mover(ctl, now)
    watch = ctl.watch
    shape = watch.computer_shape
    reading = watch.exp.read(ctl.played)
    if reading.kind == "none" and watch.pending and _reply_begun(ctl, now):
        return
    if reading.kind == "rest" or (shape is not None and shape in reading.partial):
        ctl.voice.clear()
    if reading.kind == "rest":
        watch.grace_at = None
        watch.pending = ()
        ctl.display(ctl.lights.computer(shape, ctl.played) if shape else ctl.lights.thinking())
        return
    if shape is not None and shape in reading.complete:
        watch.grace_at = None
        if reading.extendable:
            watch.pending = (shape,)
            ctl.arm("settle", now, ms=_settle_ms(ctl, reading))
        else:
            ctl.commit_move(shape)
        return
    if shape is not None and shape in reading.partial:
        watch.grace_at = None
        watch.pending = ()
        ctl.display(ctl.lights.computer(shape, ctl.played))
        return
    if reading.kind == "none" and _amending(ctl, now):
        return
    if shape is not None and reading.kind != "none":
        other = reading.complete[0] if reading.complete else None
        if other is not None and ctl.config.accept_alternative:
            ctl.say(phrase("Accepted {move} instead of the computer's {computer}.", move=other.text,
                           computer=shape.text))
            ctl.commit_move(other)
            return
        if other is not None and watch.alt_warned != ctl.played:
            watch.alt_warned = ctl.played
            ctl.voice.warn(phrase("That is {move}, not the computer's move {computer}: put the piece back as "
                                  "the LEDs show and play {computer}.", move=other.text, computer=shape.text))
        to_empty, to_fill = sync_diff(ctl)
        ctl.display(ctl.lights.computer_fix(shape, to_empty, to_fill))
        return
    _not_your_turn(ctl, reading)
    _unmatched(ctl, reading, now)


def out_of_sync(ctl: ReaderHost, now: float) -> None:
    """The board disagrees with the game: back in play when it shows the position (or, unless it must be
    restored exactly, a step of a legal move). The start position set up early in a game asks first."""
    watch = ctl.watch
    if watch.start_question is not None and _asking_start(ctl, now):
        return
    if watch.restore:
        if ctl.played != watch.exp.base:
            show_sync(ctl)
            return
        watch.restore = False
    if _restored_then_played(ctl, now):
        return
    reading = watch.exp.read(ctl.played)
    if reading.kind != "none":
        ctl.voice.clear()
        ctl.resync()
        ctl.read_board(now)
        return
    _unmatched(ctl, reading, now)


def after_game(ctl: ReaderHost, now: float) -> None:
    """After the end: the last move may still be amended (a king sliding on to the square meant); an earlier
    position set up again takes moves back; the start position restarts."""
    if not _restored_then_played(ctl, now) and not _amending(ctl, now):
        _physical_command(ctl, now, allow_restart=True)


# --- the readers' timers ------------------------------------------------------------------------------------
def on_deadline(ctl: ReaderHost, d: Deadline, now: float) -> None:
    """The turn's timer fell due, the board unchanged since it was armed: what the board showed that long
    means (see ``Deadline`` for the kinds)."""
    watch = ctl.watch
    if d.kind == "settle":
        candidates = disambiguate(watch.pending, frozenset(watch.touched))
        if len(candidates) == 1:
            ctl.commit_move(candidates[0])
        else:
            ask_between(ctl, candidates)
    elif d.kind == "reply" and len(watch.pending) == 1:
        ctl.commit_move(watch.pending[0])
    elif d.kind == "takeback":
        assert isinstance(d.data, int)
        ctl.take_back_plies(d.data, physical=True)
    elif d.kind == "restart":
        ctl.new_game()
    elif d.kind == "retry":
        ctl.read_board(now)
    elif d.kind == "missed" and _can(ctl, "lift"):
        assert isinstance(d.data, tuple) and len(d.data) == 3
        _missed_capture(ctl, *d.data)


def _can(ctl: ReaderHost, trigger: str) -> bool:
    """Whether the machine has ``trigger`` in the current state."""
    return trigger in ctl.machine.get_triggers(ctl.state)


# --- what the board is asked to show ------------------------------------------------------------------------
def ask_between(ctl: ReaderHost, candidates: tuple[MoveShape, ...]) -> None:
    """The board shows several moves that the squares touched do not tell apart: ask the person."""
    ctl.watch.pending = candidates
    ctl.ask()
    texts = joined([s.text for s in candidates], phrase(" or "))
    ctl.say(phrase("The board shows {moves}: lift and replace the piece that moved, or choose the move.",
                   moves=texts))
    ctl.display(ctl.lights.candidates(candidates))


def _put(fill: Fill, square: str) -> Phrase:
    """What to put on a square the game has a piece on: "put a white king on 28"."""
    if fill.king:
        return phrase("put a white king on {square}", square=square) if fill.color == "white" \
            else phrase("put a black king on {square}", square=square)
    return phrase("put a white man on {square}", square=square) if fill.color == "white" \
        else phrase("put a black man on {square}", square=square)


def sync_diff(ctl: ReaderHost) -> tuple[tuple[Cell, ...], tuple[Fill, ...]]:
    """What the board must change to show the game: the squares to empty, the pieces to put."""
    pieces = ctl.exp.pieces
    to_empty = tuple(sorted(ctl.occupancy - ctl.exp.base))
    to_fill = tuple(Fill(sq, color_name(pieces[sq][0]), pieces[sq][1])
                    for sq in sorted(ctl.exp.base - ctl.occupancy))
    return to_empty, to_fill


def show_sync(ctl: ReaderHost, emit: bool = True) -> None:
    """Light what to empty and fill (and, with ``emit``, send it as an OutOfSync event)."""
    to_empty, to_fill = sync_diff(ctl)
    if emit:
        ctl.emit(ev.OutOfSync(to_empty, tuple((f.square, f.color, f.king) for f in to_fill)))
    ctl.display(ctl.lights.sync(to_empty, to_fill))


def go_out_of_sync(ctl: ReaderHost, force: bool = False) -> None:
    """The grace time ran out (or the board must be restored): say what to fix and show it."""
    if ctl.turn_state not in TURNS or ctl.state == PERSON_MISSED_CAPTURE:
        return
    if not force and ctl.exp.read(ctl.played).kind != "none":
        return
    if not (force and ctl.moves_itself):   # forced: the game moved the pieces, the board follows
        to_empty, to_fill = sync_diff(ctl)
        parts = [phrase("take the piece off {square}", square=ctl.map.name(sq)) for sq in to_empty]
        parts += [_put(f, ctl.map.name(f.square)) for f in to_fill]
        ctl.voice.warn(phrase("The board does not match the game: {fixes}.", fixes=joined(parts, "; ")))
    ctl.lose_sync()


# --- gestures: what the hands are doing ---------------------------------------------------------------------
def _hands_on(ctl: ReaderHost, reading: Reading) -> None:
    """The person's hand state for a step of a move: capturing once a captured piece is involved."""
    removed = reading.removed
    shapes = reading.partial or reading.complete
    if any(sq in s.captures for s in shapes for sq in removed) or (
            reading.added and any(s.captures for s in shapes)):
        ctl.capture_step()
    else:
        ctl.lift()


def _progress_frame(ctl: ReaderHost, reading: Reading, exp: Expectation | None = None) -> LedFrame:
    """The LEDs for a move on its way: where the lifted piece may go, or the capture so far."""
    exp = exp or ctl.exp
    shapes = reading.partial or reading.complete
    if not reading.added and len(reading.removed) == 1:
        (origin,) = reading.removed
        if exp.own(origin):
            return ctl.lights.lifted(exp, origin)
    landed = next(iter(reading.added)) if reading.added else None
    return ctl.lights.capturing(exp, ctl.played, shapes, landed)


def _settle_ms(ctl: ReaderHost, reading: Reading) -> int:
    """How long a board that a longer move could still extend must stay still: a flying king resting on its
    line may be sliding on, so it waits longer (``king_settle_ms``)."""
    pieces = ctl.exp.pieces
    landed = next(iter(reading.added), None)
    kings = all(pieces[s.origin][1] for s in reading.complete)
    if (ctl.variant.king_flying and landed is not None and kings
            and any(landed in s.passes and landed != s.target for s in reading.partial)):
        return ctl.config.king_settle_ms
    return ctl.config.settle_ms


def _reply_begun(ctl: ReaderHost, now: float) -> bool:
    """While one move waits for its settle time, the next player's move has begun: a whole move made (commit
    now), or a piece that can legally move lifted (commit once it stays lifted for the settle time; a brushed
    piece put back at once commits nothing)."""
    watch = ctl.watch
    if len(watch.pending) != 1:
        return False
    pending = watch.pending[0]
    after = watch.after.get(pending.move)
    if after is None:
        board = ctl.game.board.copy()
        board.push(pending.move)
        after = watch.after[pending.move] = Expectation(board, ctl.map)
    reading = after.read(ctl.played)
    if reading.kind == "complete":
        ctl.commit_move(pending)
        return True
    lifted = next(iter(reading.removed)) if len(reading.removed) == 1 and not reading.added else None
    if reading.kind == "partial" and lifted is not None and after.shapes_from(lifted):
        ctl.arm("reply", now, lifted)
        return True
    return False


def _watch_mover(ctl: ReaderHost, now: float) -> None:
    """The side to move touching its own pieces (one off its square for the settle time) ends the right to
    amend the move before."""
    watch = ctl.watch
    if watch.previous is None:
        return
    lifted = any(sq not in ctl.played for sq in watch.exp.base if watch.exp.own(sq))
    if lifted and watch.lifted_since is None:
        watch.lifted_since = now
    sustained = watch.lifted_since is not None and now - watch.lifted_since >= ctl.config.settle_ms / 1000
    if sustained:
        watch.previous = None
    if not lifted:
        watch.lifted_since = None


def _amending(ctl: ReaderHost, now: float) -> bool:
    """The board shows the last move changed (the mover's hand is back on it) while the side to move has not
    touched the board: another legal move from the position before it replaces it ("amended: 9-14, not
    9-13"), the piece in the hand shows where it may go. Strict touch-move refuses instead."""
    watch = ctl.watch
    previous = watch.previous
    if previous is None:
        return False
    reading = previous.exp.read(ctl.played)
    if reading.kind == "none" or (reading.kind == "rest" and not ctl.config.touch_move):
        return False   # a restored position is a takeback (_physical_command)
    watch.grace_at = None
    if ctl.config.touch_move:
        text = phrase("Touch-move: {move} stands: put the piece back on {square}.", move=previous.shape.text,
                      square=ctl.map.name(previous.shape.target))
        if reading.kind != "partial" and (ctl.voice.alert is None or ctl.voice.alert["text"] != text):
            ctl.voice.warn(text)
        to_empty, to_fill = sync_diff(ctl)
        ctl.display(ctl.lights.sync(to_empty, to_fill))
        return True
    if reading.kind == "partial":
        ctl.voice.clear()
        ctl.display(_progress_frame(ctl, reading, previous.exp))
        return True
    ctl.take_back_plies(1, physical=True, amended=previous)
    return True


def _restored_then_played(ctl: ReaderHost, now: float) -> bool:
    """The board showed an earlier position: if what follows is legal from there, it was a takeback (taken
    now, and the board read again); otherwise the earlier position was passed by chance."""
    watch = ctl.watch
    plies = watch.restored
    if plies is None:
        return False
    watch.restored = None
    if ctl.played == ctl.history[-1 - plies]:
        watch.restored = plies
        ctl.arm("takeback", now, plies)
        return True
    board = list(ctl.record.boards())[len(ctl.records) - plies]
    if Expectation(board, ctl.map).read(ctl.played).kind == "none":
        return False
    ctl.take_back_plies(plies, physical=True)
    return True


def _physical_command(ctl: ReaderHost, now: float, allow_restart: bool) -> bool:
    """Takeback by restoring an earlier position, or a new game by setting up the start position (asked first
    early in a game, when it could also be a takeback to the start)."""
    occ = ctl.played
    plies = len(ctl.records)
    if ctl.config.new_game_on_start and plies and occ == ctl.start_occupancy and (
            allow_restart or plies > 20 or not ctl.config.takeback):
        ctl.arm("restart", now)
        return True
    if ctl.config.new_game_on_start and plies >= 2 and occ == ctl.start_occupancy:
        _ask_start(ctl, plies)
        return True
    if ctl.config.takeback and plies:
        for k in range(1, min(plies, 20) + 1):
            if ctl.history[-1 - k] != occ:
                continue
            if k == 1 and ctl.watch.previous is not None:
                ctl.take_back_plies(1, physical=True)   # the mover undid his move before anyone touched
            else:
                ctl.watch.restored = k
                ctl.arm("takeback", now, k)
            return True
    return False


def _ask_start(ctl: ReaderHost, plies: int) -> None:
    """The start position stands after ``plies`` plies: ask whether it is a new game or a takeback."""
    ctl.watch.start_question = plies
    ctl.voice.warn(plural("The start position is set up after {n} ply: a new game, or take it back? "
                          "Choose on the page (console: new, or takeback {n}); a move from the start "
                          "position takes it back.",
                          "The start position is set up after {n} plies: a new game, or take back all {n}? "
                          "Choose on the page (console: new, or takeback {n}); a move from the start "
                          "position takes them back.", plies))
    if _can(ctl, "lose_sync"):
        ctl.lose_sync()
    ctl.display(ctl.lights.question(ctl.start_occupancy ^ ctl.exp.base))


def _asking_start(ctl: ReaderHost, now: float) -> bool:
    """While the start-position question stands: the board still shows it, or a move from it begins (a
    takeback); the game's own position again, or any other board, drops the question."""
    plies = ctl.watch.start_question
    assert plies is not None
    if ctl.played == ctl.start_occupancy:
        ctl.display(ctl.lights.question(ctl.start_occupancy ^ ctl.exp.base))
        return True
    if ctl.played != ctl.exp.base and Expectation(ctl.record.start_board(), ctl.map).read(
            ctl.played).kind != "none":
        ctl.take_back_plies(plies, physical=True)
        return True
    ctl.watch.start_question = None
    ctl.voice.clear()
    return False


def _unmatched(ctl: ReaderHost, reading: Reading, now: float) -> None:
    """The board matches nothing legal: takeback, restart, refusal or (after the grace time) out of sync."""
    if _physical_command(ctl, now, allow_restart=False):
        return
    if not ctl.computer_to_move() and not ctl.missed_info:
        _check_refusal(ctl, reading, now)
        lifted = next(iter(reading.removed)) if len(reading.removed) == 1 and not reading.added else None
        if lifted is not None and ctl.exp.own(lifted):
            ctl.display(ctl.lights.lifted(ctl.exp, lifted))
            _explain_immobile(ctl, lifted)
    if ctl.turn_state == OUT_OF_SYNC:
        show_sync(ctl)
    elif ctl.watch.grace_at is None:
        ctl.watch.grace_at = now + ctl.config.grace_ms / 1000


# --- what is said about the board ---------------------------------------------------------------------------
def _not_your_turn(ctl: ReaderHost, reading: Reading) -> None:
    """A piece of the side not to move lifted, nothing else changed: said at once, its square lit red."""
    lifted = next(iter(reading.removed)) if len(reading.removed) == 1 and not reading.added else None
    piece = ctl.exp.pieces.get(lifted) if lifted is not None else None
    if lifted is None or piece is None or piece[0] == ctl.exp.turn:
        return
    if lifted not in ctl.watch.told:
        ctl.watch.told.add(lifted)
        mover = ctl.record.mover
        who = phrase("the computer ({side})", side=side_word(mover)) if ctl.computer_to_move() \
            else side_name(mover)
        put_back = phrase("Put the white piece back on {square}.", square=ctl.map.name(lifted)) \
            if color_name(piece[0]) == "white" else phrase("Put the black piece back on {square}.",
                                                            square=ctl.map.name(lifted))
        ctl.voice.warn(phrase("Not your turn: {who} is to move. {put_back}", who=who, put_back=put_back))
    ctl.display(ctl.lights.not_your_turn(ctl.exp, lifted, ctl.watch.crown))


def _explain_jumping_on(ctl: ReaderHost, shapes: tuple[MoveShape, ...]) -> None:
    """A capture the rules let stop where it stands, or jump on (Konane): said once a turn, so that the person
    knows both are moves."""
    if ctl.watch.jump_on_said:
        return
    for shape in shapes:
        path = shape.move.path
        longer = [s.text for s in ctl.exp.shapes
                  if s.captures and len(s.move.path) > len(path) and s.move.path[:len(path)] == path]
        if shape.captures and longer:
            ctl.watch.jump_on_said = True
            ctl.say(phrase("You may stop here or jump again: {move} stops on {square}; {longer} jumps on.",
                           move=shape.text, square=ctl.map.name(shape.target),
                           longer=joined(longer, phrase(" or "))))
            return


def _explain_immobile(ctl: ReaderHost, lifted: Cell) -> None:
    """Teaching mode: an own piece lifted that has no legal move is refused in words, naming the rule (once a
    turn for each square); the LEDs already light it red."""
    square = ctl.map.square(lifted)
    if not ctl.teaching or square is None or ctl.exp.shapes_from(lifted) or lifted in ctl.watch.told:
        return
    ctl.watch.told.add(lifted)
    why = why_immobile(ctl.game.board, square)
    said = translated_as(why.text[0].upper() + why.text[1:], "{square}: {rule}", square=ctl.map.name(lifted),
                         rule=Phrase(why.reason.rule))
    ctl.voice.refuse(phrase("{why}. {rule}. Put it back", why=said,
                            rule=_rule_of(ctl, why.reason)), why.reason, ctl.variant)


def _rule_of(ctl: ReaderHost, reason: Illegal) -> str:
    """Teaching mode's words for the rule behind a refusal, and where its rules page explains it."""
    return phrase("The rule of {rule}: see the {variant} rules, section '{section}'",
                  rule=Phrase(reason.rule), variant=variant_name(ctl.variant),
                  section=reason.section.replace("-", " "))


def _check_refusal(ctl: ReaderHost, reading: Reading, now: float) -> None:
    """One own piece moved to one square that no legal move explains: refuse it, naming the rule."""
    own = [sq for sq in reading.removed if ctl.exp.own(sq)]
    if len(own) != 1 or len(reading.added) != 1:
        return
    origin, (target,) = own[0], tuple(reading.added)
    enemies = reading.removed - {origin}
    sep = ctl.variant.capture_separator if enemies else "-"
    text = f"{ctl.map.name(origin)}{sep}{ctl.map.name(target)}"
    try:
        ctl.game.board.parse_move(text)
        message: str = phrase("{move} must take off exactly the pieces it jumps", move=text)
        reason = Illegal.WRONG_CAPTURE_PATH
    except IllegalMoveError as exc:
        message = translated_as(str(exc), "{move}: {rule}", move=text, rule=Phrase(exc.reason.rule))
        reason = exc.reason
    except (InvalidSquareError, ValueError) as exc:
        message = translated_as(str(exc), "{move}: {rule}", move=text,
                                rule=Phrase(Illegal.PIECE_MOVEMENT.rule))
        reason = Illegal.PIECE_MOVEMENT
    policy = ctl.variant.missed_capture_policy
    if reason is Illegal.MUST_CAPTURE and not enemies and policy != "reject" and _can(ctl, "lift"):
        ctl.arm("missed", now, (origin, target, text))
        return
    if ctl.watch.refused_at == ctl.played:
        return
    ctl.watch.refused_at = ctl.played
    if origin in ctl.watch.told:   # said when it was lifted: why this piece cannot move (teaching mode)
        ctl.display(ctl.lights.refused(ctl.exp, origin, target))
        return
    if ctl.teaching:   # the lesson: the rule by name, and where the rules page explains it
        message = phrase("{message}. {rule}. Put the piece back", message=message, rule=_rule_of(ctl, reason))
    ctl.voice.refuse(message, reason, ctl.variant)
    ctl.display(ctl.lights.refused(ctl.exp, origin, target))


def _missed_capture(ctl: ReaderHost, origin: Cell, target: Cell, text: str) -> None:
    """A move that ignored a compulsory capture stood for the settle time: as the variant's policy says,
    it stands unless objected to before the next move, or it waits for the opponent's choice."""
    policy = ctl.variant.missed_capture_policy
    by = ctl.record.mover
    opponent = "black" if by == "white" else "white"
    should = ctl.exp.must_capture
    capture_texts = ", ".join(s.text for s in ctl.exp.shapes)
    ctl.missed_info = MissedCapture(origin, target, should, text, policy, by)
    if policy == "accept_on_next_move":
        ctl.say(phrase("{side} played {move} without the compulsory capture ({captures}); it stands unless "
                       "{other} asks to retract it before moving.", side=side_name(by), move=text,
                       captures=capture_texts, other=side_name(opponent)), "warning")
        ctl.missed_info.objection_ply = len(ctl.records)
        ctl.force_ply(origin, target, None, text, by)
        return
    choices = phrase("retract or accept") if policy.endswith("accept") else phrase("retract or huff")
    ctl.voice.refuse(phrase("{move}: a capture was compulsory ({captures})", move=text,
                            captures=capture_texts), Illegal.MUST_CAPTURE, ctl.variant)
    ctl.voice.warn(phrase("{side} played {move} without the compulsory capture ({captures}). {other} "
                          "chooses: {choices}.", side=side_name(by), move=text, captures=capture_texts,
                          other=side_name(opponent), choices=choices))
    ctl.lift()
    ctl.missed()
    ctl.display(ctl.lights.missed(origin, target, should))
