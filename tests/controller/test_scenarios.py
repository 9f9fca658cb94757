"""Scenario tests: physical actions (lift, place, wait) in many variants, checked against the game."""

from __future__ import annotations

import pytest
from rig import OPENINGS, Rig

from controller import events as ev
from controller import reading
from controller.view import game_view
from firmware_bridge.types import BLUE, CYAN, GREEN, ORANGE, PURPLE, RED, WHITE, YELLOW, Light, Pattern


@pytest.mark.parametrize("variant", sorted(OPENINGS))
def test_simple_moves_commit_at_once(variant: str) -> None:
    r = Rig(variant)
    assert r.state == "person.idle"
    first, reply = OPENINGS[variant]
    r.move(first, settle=False)
    assert r.texts == [first], "a simple move no longer move could extend commits without waiting"
    r.move(reply, settle=False)
    assert r.texts == [first, reply]
    assert [e.text for e in r.of(ev.MoveCommitted)] == [first, reply]
    assert r.ctl.game.board.fen() == r.of(ev.MoveCommitted)[-1].fen


@pytest.mark.parametrize("variant", sorted(OPENINGS))
def test_lift_shows_destinations_and_replacing_changes_nothing(variant: str) -> None:
    r = Rig(variant)
    first, _ = OPENINGS[variant]
    origin, target = first.split("-")
    r.lift(origin)
    assert r.state == "person.lifted"
    assert r.lit()[target].rgb == GREEN
    r.place(origin)
    assert r.state == "person.idle" and r.texts == []


@pytest.mark.parametrize("order", ["captured_first", "captured_during", "captured_after"])
def test_capture_any_removal_order_international(order: str) -> None:
    r = Rig("international", fen="W:W28:B23,1")  # 28x19 only
    script = {"captured_first": "lift 23, lift 28, place 19",
              "captured_during": "lift 28, lift 23, place 19",
              "captured_after": "lift 28, place 19, lift 23"}[order]
    r.do(script)
    assert r.texts == ["28x19"]
    assert r.state == "person.idle"


def test_capture_in_progress_shows_next_landing_and_pieces_to_take_off() -> None:
    r = Rig("international", fen="W:W38:B32,22,1")  # a two-piece capture by a man
    shape = r.ctl.exp.shapes[0]
    mid = r.ctl.map.name(shape.path[1])
    r.do(f"lift 38, place {mid}")
    assert r.state == "person.capturing"
    lit = r.lit()
    assert lit[r.ctl.map.name(shape.path[2])].rgb == GREEN
    assert lit["32"].rgb == RED and lit["22"].rgb == RED
    r.wait(10)  # a stop during a multi-capture never goes out of sync nor commits
    assert r.state == "person.capturing" and r.texts == []
    r.do(f"lift {mid}, lift 32, lift 22, place {shape.text.split('x')[-1]}")
    assert r.texts == [shape.text]


def test_english_multi_capture_intermediate_square_touched_or_skipped() -> None:
    for touch in (True, False):
        r = Rig("english", fen="B:W15,23:B10")
        if touch:
            r.do("lift 10, place 19, lift 15, lift 19, lift 23, place 26")
        else:
            r.do("lift 10, lift 15, lift 23, place 26")
        assert r.texts == ["10x26"]


def test_capture_ending_on_its_own_start_square() -> None:
    r = Rig("international", fen="W:WK38:B32,22,23,33,1")
    assert "38x38" in [s.text for s in r.ctl.exp.shapes]
    r.do("lift 32, lift 22, lift 23, lift 33")
    r.wait(0.35)
    assert r.texts == ["38x38"]
    assert r.of(ev.MoveCommitted)[-1].text == "38x38"


def test_flying_king_resting_on_its_line_waits_the_configured_king_settle() -> None:
    r = Rig("international", fen="W:WK46:B5", king_settle_ms=600)
    r.do("lift 46, place 41")
    assert r.state == "person.settling" and r.texts == []
    r.do("lift 41, place 37")
    r.wait(0.5)
    assert r.texts == [], "committed before the king's settle time"
    r.wait(0.15)
    assert r.texts == ["46-37"] and r.state == "person.idle"


def test_flying_king_slide_to_the_end_commits_at_once() -> None:
    r = Rig("russian", fen="W:WKa1:Bh8")
    r.do("lift a1, place b2, lift b2, place c3, lift c3, place g7")
    assert r.texts == ["a1-g7"]


def test_reply_before_settle_commits_the_pending_move() -> None:
    r = Rig("international", fen="W:WK46:B5")
    r.do("lift 46, place 37")
    assert r.state == "person.settling"
    r.do("lift 5, place 5")  # a brush: black's piece read empty for a moment commits nothing
    assert r.texts == [] and r.state == "person.settling"
    r.do("lift 5")  # black lifts his piece before the settle time ran out and holds it
    assert r.texts == []
    r.wait(r.config.settle_ms / 1000)
    assert r.texts == ["46-37"] and r.state == "person.lifted"
    r.do("place 10")
    assert r.texts == ["46-37", "5-10"]


def test_a_whole_reply_before_settle_commits_both_moves() -> None:
    r = Rig("international", fen="W:WK46:B5")
    r.do("lift 46, place 37, lift 5, place 10")
    assert r.texts == ["46-37", "5-10"]


def test_wrong_color_of_squares_english_set_up_for_spanish() -> None:
    r = Rig("spanish", setup=False)
    english = Rig("english", setup=False)
    r.set(english.ctl.exp.base)
    assert r.state == "setup"
    assert "wrong color of squares" in r.messages()
    lit = r.lit()
    assert sum(1 for light in lit.values() if light.rgb == RED) == 24
    r.set(r.ctl.exp.base)
    assert r.state == "person.idle"


def test_orientation_from_the_setting() -> None:
    r = Rig("international", flipped=True)
    assert r.state == "person.idle"
    assert r.sq("46") == (9, 9)  # white's square 46 is at the far corner when White sits at the far side
    r.move("32-28")
    assert r.texts == ["32-28"]


@pytest.mark.parametrize("variant,fen,moves,crowned", [
    ("russian", "W:Wb6:Bh8", ["b6-a7", "h8-g7", "a7-b8"], "b8"),
    ("english", "B:W30:B23", ["23-27", "30-26", "27-31"], "31"),
    ("turkish", "W:Wa7,a2:Bh3,g3", ["a7-a8"], "a8"),
])
def test_promotion_asks_to_crown(variant: str, fen: str, moves: list[str], crowned: str) -> None:
    r = Rig(variant, fen=fen)
    for m in moves:
        r.move(m)
    assert r.texts == moves
    assert r.lit()[crowned] == r.lit()[crowned].__class__(PURPLE, Pattern.FAST_BLINK)
    assert "Crown the piece on " + crowned in r.messages()
    assert r.ctl.game.board.piece_at(r.ctl.variant.geometry.parse_square(crowned)).king


def test_out_of_sync_after_grace_and_resume() -> None:
    r = Rig("international")
    r.lift("1")  # black piece lifted on white's turn
    r.wait(2.9)
    assert r.state == "person.idle", "out of sync before the grace time"
    r.wait(0.2)
    assert r.state == "out_of_sync"
    sync = r.of(ev.OutOfSync)[-1]
    assert sync.to_empty == () and sync.to_fill == ((r.sq("1"), "black", False),)
    assert r.lit()["1"].rgb == BLUE
    assert "put a black man on 1" in r.messages()
    r.place("1")
    assert r.state == "person.idle"
    r.move("32-28", settle=False)
    assert r.texts == ["32-28"]


def test_flicker_shorter_than_settle_changes_nothing() -> None:
    r = Rig("international")
    frame = r.ctl.frame
    r.place("25", dt=0.01)
    r.lift("25", dt=0.1)
    r.wait(5)
    assert r.state == "person.idle" and r.texts == [] and r.ctl.frame == frame
    assert not r.of(ev.OutOfSync)


def test_out_of_sync_knocked_piece_shows_squares_to_empty_and_fill() -> None:
    r = Rig("english")
    r.do("lift 1, place 14, wait 3.5")  # a black piece knocked from 1 onto 14 on Black's turn
    assert r.state == "out_of_sync"
    sync = r.of(ev.OutOfSync)[-1]
    assert sync.to_empty == (r.sq("14"),) and sync.to_fill == ((r.sq("1"), "black", False),)
    assert r.lit()["14"].rgb == RED and r.lit()["1"].rgb == BLUE
    assert "take the piece off 14; put a black man on 1" in r.messages()
    r.do("lift 14")
    assert r.state == "out_of_sync" and r.lit()["1"].rgb == BLUE and "14" not in r.lit()
    r.do("place 1")
    assert r.state == "person.idle"


def test_refusal_names_the_rule_in_teaching_mode() -> None:
    r = Rig("international", fen="W:W28,40:B23", teaching=True)
    r.do("lift 40, place 34")
    (refusal,) = r.of(ev.Refusal)   # one line: the lesson is in it, no second message (issue 13 item 8)
    assert refusal.rule == "compulsory capture" and "The rule of compulsory capture" in refusal.message
    assert refusal.section == "docs/rules/international.md#capturing"   # the page section that explains it
    assert "compulsory" not in r.messages()
    assert r.lit()["28"].rgb == ORANGE
    r.do("lift 34, place 40")
    assert r.state == "person.idle"


def test_refusal_is_told_once_outside_teaching_mode() -> None:
    """The Refusal event is the line the console and the web page show: no Message repeats it."""
    r = Rig("international", fen="W:W28,40:B23")
    r.do("lift 40, place 34")
    (refusal,) = r.of(ev.Refusal)
    assert refusal.message.startswith("40-34 is not a legal move") and refusal.rule == "compulsory capture"
    assert "40-34" not in r.messages()


def test_lift_of_a_piece_that_may_not_move_shows_no() -> None:
    r = Rig("international", fen="W:W28,40:B23")
    r.lift("40")
    lit = r.lit()
    assert lit["40"] == lit["40"].__class__(RED, Pattern.FAST_BLINK)
    assert lit["28"].rgb == ORANGE


def test_computer_move_shown_and_accepted_only_when_executed_exactly() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    r.move("32-28")
    assert r.state == "computer.thinking" and r.jobs
    r.answer_engine("19-23")
    lit = r.lit()
    assert lit["19"].rgb == YELLOW and lit["23"].rgb == YELLOW
    r.do("lift 20, place 24")  # a different legal move for the computer
    assert r.texts == ["32-28"]
    assert "not the computer's move 19-23" in r.messages()
    r.do("lift 24, place 20, lift 19, place 23")
    assert r.texts == ["32-28", "19-23"] and r.state == "person.idle"


def test_computer_alternative_accepted_when_configured() -> None:
    r = Rig("international", human_color="white", opponent="engine", accept_alternative=True)
    r.move("32-28")
    r.answer_engine("19-23")
    r.do("lift 20, place 24")
    assert r.texts == ["32-28", "20-24"]


def test_computer_capture_then_reply_before_settle() -> None:
    r = Rig("international", fen="B:WK46:B5", human_color="white", opponent="engine")
    r.answer_engine("5-10")
    r.do("lift 5, place 10")
    assert r.texts == ["5-10"]
    assert r.state == "person.idle"


def test_stale_engine_answer_after_takeback_is_ignored() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    r.move("32-28")
    token = r.jobs[-1].token
    r.do("lift 28, place 32, wait 0.4")
    assert r.texts == [] and r.state == "person.idle"
    r.ctl.computer_moved(token, r.jobs[-1].board.parse_move("19-23"))
    assert r.ctl.computer_shape is None


@pytest.mark.parametrize("variant", sorted(OPENINGS))
def test_physical_takeback(variant: str) -> None:
    r = Rig(variant)
    first, reply = OPENINGS[variant]
    r.move(first)
    r.move(reply)
    a, b = reply.split("-")
    r.do(f"lift {b}, place {a}")
    r.wait(0.35)
    assert r.texts == [first], "restoring the position before the last move takes it back"
    a, b = first.split("-")
    r.do(f"lift {b}, place {a}, wait 0.35")
    assert r.texts == []


def test_takeback_disabled_goes_out_of_sync() -> None:
    r = Rig("international", takeback=False)
    r.move("32-28")
    r.move("19-23")
    r.do("lift 23, place 19, wait 3.5")
    assert r.texts == ["32-28", "19-23"] and r.state == "out_of_sync"


def test_takeback_command_guides_pieces_back() -> None:
    r = Rig("spanish")
    r.move("12-16")
    r.move("21-17")
    r.ctl.takeback(2)
    assert r.texts == [] and r.state == "out_of_sync"
    r.wait(5)
    assert r.texts == [], "the board still showing the moves must not commit them again"
    lit = r.lit()
    assert lit["12"].rgb == WHITE and lit["16"].rgb == RED and lit["21"].rgb == BLUE
    r.do("lift 16, place 12, lift 17, place 21")
    assert r.state == "person.idle"


def test_setting_up_the_start_position_asks_new_game_or_takeback() -> None:
    for choice in ("new_game", "takeback"):
        r = Rig("english")
        for m in ["9-13", "22-18"]:
            r.move(m)
        started = r.ctl.record.started
        r.set(r.ctl.start_occupancy)
        r.wait(5)
        assert r.texts == ["9-13", "22-18"] and r.state == "out_of_sync"
        assert game_view(r.ctl)["question"] == {"kind": "start_position", "plies": 2}
        assert "new game, or take back all 2" in r.ctl.alert["text"]
        assert {light.rgb for light in r.lit().values()} == {CYAN}
        r.ctl.start_position_choice(choice)
        assert r.texts == [] and r.state == "person.idle" and game_view(r.ctl)["question"] is None
        assert (r.ctl.record.started is started) == (choice == "takeback")


def test_a_move_from_the_start_position_answers_the_question_as_a_takeback() -> None:
    r = Rig("english")
    for m in ["9-13", "22-18", "10-14"]:
        r.move(m)
    r.set(r.ctl.start_occupancy)
    assert r.state == "out_of_sync"
    r.do("lift 11, place 15")
    assert r.texts == ["11-15"] and "Took back 3 plies" in r.messages()


def test_setting_up_the_start_position_late_in_a_game_starts_a_new_game() -> None:
    r = Rig("english")
    while len(r.texts) < 21:
        r.move(r.ctl.exp.shapes[0].text)
    started = r.ctl.record.started
    r.set(r.ctl.start_occupancy)
    r.wait(0.4)
    assert r.texts == [] and r.state == "person.idle" and r.ctl.record.started is not started


def test_game_over_and_pdn(tmp_path) -> None:
    r = Rig("international", tmp_path, fen="W:W28:B23")
    r.move("28x19")
    assert r.state == "game_over"
    assert r.of(ev.GameOver)[-1].result == "1-0"
    assert all(light.rgb == GREEN for light in r.ctl.frame.as_dict().values())
    [written] = list(tmp_path.glob("*-international.pdn"))
    pdn = written.read_text()
    assert "28x19" in pdn and '[Result "1-0"]' in pdn


# --- missed captures --------------------------------------------------------------------------------

def test_missed_capture_rejected_international() -> None:
    r = Rig("international", fen="W:W28,40:B23,1")
    r.do("lift 40, place 34, wait 1")
    assert r.texts == [] and r.of(ev.Refusal)[-1].rule == "compulsory capture"
    r.wait(3)
    assert r.state == "out_of_sync"


def test_missed_capture_polish_opponent_accepts() -> None:
    r = Rig("polish", fen="W:W28,40:B23,1")
    r.do("lift 40, place 34, wait 0.4")
    assert r.state == "person.missed_capture"
    assert "Black chooses: retract or accept" in r.messages()
    assert r.lit()["28"].rgb == ORANGE
    with pytest.raises(ValueError, match="huff"):
        r.ctl.missed_choice("huff")
    r.ctl.missed_choice("accept")
    assert r.texts == ["40-34"] and r.state == "person.idle"
    assert r.ctl.game.board.turn.name == "BLACK"
    reply = r.ctl.exp.shapes[0].text
    r.move(reply)
    assert r.texts == ["40-34", reply]


def test_missed_capture_polish_opponent_retracts() -> None:
    r = Rig("polish", fen="W:W28,40:B23,1")
    r.do("lift 40, place 34, wait 0.4")
    r.ctl.missed_choice("retract")
    assert r.state == "out_of_sync" and r.texts == []
    r.do("lift 34, place 40")
    assert r.state == "person.idle"
    r.move("28x19")
    assert r.texts == ["28x19"]


def test_missed_capture_spanish_traditional_huff() -> None:
    r = Rig("spanish-traditional", fen="W:W12,4:B15,29")
    assert [s.text for s in r.ctl.exp.shapes] == ["12x19"]
    r.do("lift 4, place 8, wait 0.4")
    assert r.state == "person.missed_capture"
    assert "retract or huff" in r.messages()
    r.ctl.missed_choice("huff")
    assert r.state == "out_of_sync"
    assert r.lit()["12"].rgb == RED  # take the huffed piece off
    r.lift("12")
    assert r.state == "person.idle" and r.ctl.game.board.turn.name == "BLACK"
    assert r.texts == ["4-8 (huff 12)"]


def test_missed_capture_czech_accepted_on_next_move_or_retracted() -> None:
    r = Rig("czech", fen="W:Wc3,a1:Bd4,h8")
    r.do("lift a1, place b2, wait 0.4")
    assert r.texts == ["a1-b2"] and r.state == "person.idle"
    assert "retract it before moving" in r.messages()
    r.ctl.missed_choice("retract")
    assert r.texts == [] and r.state == "out_of_sync"
    r.do("lift b2, place a1")
    assert r.state == "person.idle"
    r.do("lift a1, place b2, wait 0.4")
    r.move("h8-g7")
    assert r.texts == ["a1-b2", "h8-g7"]
    with pytest.raises(ValueError):
        r.ctl.missed_choice("retract")


def test_resume_from_journal(tmp_path) -> None:
    r = Rig("international", tmp_path)
    r.move("32-28")
    r.move("19-23")
    state = r.journal.read()
    assert [rec.text for rec in state.records] == ["32-28", "19-23"]
    r2 = Rig("international", None, setup=False)
    r2.ctl.resume(state)
    r2.set(Rig("international").ctl.exp.base)  # the board was reset meanwhile: LEDs guide restoring
    assert r2.state == "setup"
    assert r2.lit()["32"].rgb == RED and r2.lit()["28"].rgb == WHITE
    r2.set(r.ctl.exp.base)
    assert r2.state == "person.idle" and r2.texts == ["32-28", "19-23"]


# --- captures in every variant, any order --------------------------------------------------------

def _until_capture(variant: str, seed: int) -> Rig:
    import random

    rng = random.Random(seed)
    r = Rig(variant)
    for _ in range(60):
        if any(s.captures for s in r.ctl.exp.shapes):
            return r
        r.move(rng.choice(r.ctl.exp.shapes).text)
    raise AssertionError(f"no capture arose in {variant}")


@pytest.mark.parametrize("variant", sorted(OPENINGS))
@pytest.mark.parametrize("order", ["captured_first", "captured_during", "captured_after", "touch_path"])
def test_capture_any_order_every_variant(variant: str, order: str) -> None:
    r = _until_capture(variant, seed=len(variant))
    before = len(r.texts)
    shape = next(s for s in r.ctl.exp.shapes if s.captures)
    if len(r.ctl.exp.by_result[shape.result]) > 1:
        pytest.fail("test position is ambiguous")
    caps = list(shape.captures)
    if order == "captured_first":
        steps = [("lift", sq) for sq in caps] + [("lift", shape.origin), ("place", shape.target)]
    elif order == "captured_during":
        steps = [("lift", shape.origin), ("lift", caps[0]), ("place", shape.target)] + [
            ("lift", sq) for sq in caps[1:]]
    elif order == "captured_after":
        steps = [("lift", shape.origin), ("place", shape.target)] + [("lift", sq) for sq in caps]
    else:
        steps = [("lift", shape.origin)]
        for landing, cap in zip(shape.path[1:-1], caps, strict=False):
            steps += [("lift", cap), ("place", landing), ("lift", landing)]
        steps += [("lift", sq) for sq in caps[len(shape.path) - 2:]] + [("place", shape.target)]
    occ = set(r.occ)
    for verb, sq in steps:
        if verb == "lift" and sq in occ:
            occ.discard(sq)
            r.lift(sq)
        elif verb == "place" and sq not in occ:
            occ.add(sq)
            r.place(sq)
    r.wait(0.35)
    assert r.texts[before:] == [shape.text]
    assert r.state in ("person.idle", "game_over")


def test_two_moves_with_the_same_result_are_told_apart_by_touch_or_asked() -> None:
    from controller.inference import disambiguate

    r = Rig("international", fen="W:W31,35:B1")
    a, b = r.ctl.exp.shapes_from(r.sq("31"))[0], r.ctl.exp.shapes_from(r.sq("35"))[0]
    assert disambiguate((a, b), frozenset({a.origin, a.target})) == (a,)
    assert disambiguate((a, b), frozenset({b.origin, b.target})) == (b,)
    assert disambiguate((a, b), frozenset()) == (a, b)
    # A board that two moves explain equally (as two circular captures would): the LEDs ask.
    r.ctl.lift()
    r.ctl.settle()  # the hands as they are when a settled board shows two moves
    reading.ask_between(r.ctl, (a, b))
    assert r.state == "person.ambiguous"
    assert set(r.lit()) >= {"31", "35"}
    assert "or" in r.messages().splitlines()[-1]
    r.ctl.choose(b.text)
    assert [e.text for e in r.of(ev.MoveCommitted)] == [b.text]
    # this board never showed the move chosen: it shows the position before it, so the move is undone
    assert r.texts == [] and r.messages().splitlines()[-1] == "Took back 1 ply."


def test_teaching_mode_shows_the_whole_compulsory_capture_path() -> None:
    plain = Rig("international", fen="W:W38:B32,22,1")
    taught = Rig("international", fen="W:W38:B32,22,1", teaching=True)
    shape = taught.ctl.exp.shapes[0]
    landings = {taught.ctl.map.name(sq) for sq in shape.path[1:]}
    assert landings <= set(taught.lit())
    assert not landings & set(plain.lit())
    assert plain.lit()["38"].rgb == ORANGE


def test_pdn_reads_back_through_the_rules_core(tmp_path) -> None:
    from rules.pdn import read_game

    r = Rig("english", tmp_path)
    for text in ["9-13", "22-18", "13-17"]:
        r.move(text)
    game = read_game(r.ctl.pdn().splitlines(), validate=True, variant="english")
    assert [m.text for m in game.moves] == ["9-13", "22-18", "13-17"] and not game.errors
    assert game.tags["GameType"].startswith("21")


def test_engine_answer_while_out_of_sync_is_kept_for_when_the_board_matches() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    r.move("32-28")
    r.do("place 25, wait 3.5")  # something knocked onto 25 while the computer thinks
    assert r.state == "out_of_sync"
    r.answer_engine("19-23")
    r.do("lift 25")
    assert r.state == "computer.showing" and r.lit()["19"].rgb == YELLOW
    r.do("lift 19, place 23")
    assert r.texts == ["32-28", "19-23"]


def test_second_takeback_to_the_board_already_standing_resumes_play() -> None:
    """Found by the stateful test: a takeback by command whose position is already on the board resumes
    play at once, even while an earlier takeback was still waiting for the pieces to be put back."""
    r = Rig("international")
    r.move("32-28", settle=False)
    r.move("19-23", settle=False)
    r.ctl.takeback(1)
    assert r.state == "out_of_sync"                      # the board still shows 19-23
    r.set(r.ctl.history[0])                              # the person puts back both moves by hand
    r.wait(0.1)
    r.ctl.takeback(1)                                    # ...and asks for the second takeback afterwards
    assert r.ctl.records == [] and r.state == "person.idle"
    r.move("32-28", settle=False)
    assert r.texts == ["32-28"]


CYCLE = ("30-26", "4-8", "26-30", "8-4")   # English kings step out and back: the start position again


def test_english_repetition_is_announced_and_ends_only_when_claimed() -> None:
    """WCDF: a threefold repetition lets a player claim a draw; until then the game goes on."""
    r = Rig("english", fen="W:WK30:BK4")
    for text in CYCLE * 2:
        r.move(text)
    assert r.state == "person.idle" and not r.of(ev.GameOver)
    assert "Threefold repetition: a draw may be claimed" in r.messages()
    assert game_view(r.ctl)["claimable_draw"] == "threefold repetition"
    r.ctl.claim_draw("white")
    (over,) = r.of(ev.GameOver)
    assert (over.result, over.reason) == ("1/2-1/2", "threefold repetition, claimed")
    assert "White claims the draw (threefold repetition)" in r.messages()
    assert game_view(r.ctl)["claimable_draw"] is None


def test_a_claim_the_rules_do_not_allow_is_refused() -> None:
    r = Rig("english", fen="W:WK30:BK4")
    r.move("30-26")
    with pytest.raises(ValueError, match="no draw can be claimed now"):
        r.ctl.claim_draw("black")
    assert r.state == "person.idle" and game_view(r.ctl)["claimable_draw"] is None


def test_international_repetition_still_ends_the_game_by_itself() -> None:
    r = Rig("international", fen="W:WK46:BK1")
    for text in ("46-41", "1-6", "41-46", "6-1") * 2:
        r.move(text)
    (over,) = r.of(ev.GameOver)
    assert (over.result, over.reason) == ("1/2-1/2", "threefold repetition")


@pytest.mark.parametrize(("black", "claims"), [("BK4", True), ("BK4,K3", False)])
def test_the_computer_claims_unless_it_is_ahead(black: str, claims: bool) -> None:
    """The computer (black) claims a claimable draw on its turn when it is not ahead on material."""
    r = Rig("english", fen=f"W:WK30:{black}", human_color="white", opponent="engine")
    for text in CYCLE[:3]:
        if r.state == "computer.thinking":
            r.answer_engine(text)
        r.move(text)
    r.answer_engine(CYCLE[3])
    r.move(CYCLE[3])
    for text in CYCLE[:3]:
        if r.state == "computer.thinking":
            r.answer_engine(text)
        r.move(text)
    assert r.state == "computer.thinking" and not r.of(ev.GameOver)
    r.answer_engine(CYCLE[3])
    r.move(CYCLE[3])   # the start position a third time, White to move: the person may claim
    assert game_view(r.ctl)["claimable_draw"] == "threefold repetition" and not r.of(ev.GameOver)
    r.move(CYCLE[0])   # White plays on; Black, to move, faces a position seen for the third time
    if claims:
        (over,) = r.of(ev.GameOver)
        assert over.reason == "threefold repetition, claimed" and "Black claims the draw" in r.messages()
    else:
        assert r.state == "computer.thinking" and not r.of(ev.GameOver)


# --- amending the last move, touch-move, takeback by restoring (issue 23) ----------------------------------

def test_a_move_is_amended_until_the_opponent_touches_the_board() -> None:
    r = Rig("english")
    r.do("lift 9, place 13, wait 2, lift 13, place 14")
    assert r.texts == ["9-14"] and "Amended: 9-14, not 9-13." in r.messages()
    r.do("lift 22, wait 0.4, place 22")   # white lifted a piece (and thought better of it): touched
    r.do("lift 14, place 15")
    assert r.texts == ["9-14"], "no amending once the opponent touched the board"
    r.wait(3.1)
    assert r.state == "out_of_sync"


def test_a_brushed_opponent_piece_does_not_end_the_right_to_amend() -> None:
    r = Rig("english")
    r.do("lift 9, place 13, lift 22, place 22, lift 13, place 14")
    assert r.texts == ["9-14"]


def test_strict_touch_move_says_the_move_stands() -> None:
    r = Rig("english", touch_move=True)
    r.do("lift 9, place 13, lift 13, place 14")
    assert r.texts == ["9-13"] and r.ctl.alert["text"] == "Touch-move: 9-13 stands: put the piece back on 13."
    assert r.lit()["14"].rgb == RED and r.lit()["13"].rgb == BLUE
    r.do("lift 14, place 9")   # nor is putting it back a takeback
    assert r.texts == ["9-13"] and r.lit()["9"].rgb == RED
    r.do("lift 9, place 13")
    assert r.texts == ["9-13"] and r.ctl.alert is None and r.state == "person.idle"


def test_the_mover_putting_his_piece_back_takes_the_move_back_at_once() -> None:
    r = Rig("international")
    r.move("32-28")
    r.do("lift 28, place 32")
    assert r.texts == [] and r.messages().splitlines()[-1] == "Took back 1 ply."


def test_restoring_the_position_then_playing_at_once_is_a_takeback() -> None:
    r = Rig("international")
    r.move("32-28")
    r.do("lift 19, wait 0.4, place 19")   # black touched: no amending, but a takeback by restoring
    r.do("lift 28, place 32")
    assert r.texts == ["32-28"], "the position before it, for a moment only so far"
    r.do("lift 33, place 29")   # no pause after putting it back: what follows is legal from there
    assert r.texts == ["33-29"] and "Took back 1 ply" in r.messages()


def test_passing_an_earlier_position_by_chance_takes_nothing_back() -> None:
    r = Rig("english")
    r.move("9-13")
    r.move("22-18")
    r.do("lift 1, wait 0.4, place 1")   # black touched the board: 22-18 can no longer be amended
    r.do("lift 18, place 22")   # white's move undone for a moment...
    r.do("lift 1")              # ...then black's hand: no move from there explains it, so no takeback
    assert r.texts == ["9-13", "22-18"] and "Took back" not in r.messages()
    r.do("place 1, lift 22, place 18")
    assert r.texts == ["9-13", "22-18"] and r.state == "person.idle"


def test_amending_while_the_computer_thinks_asks_it_again() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    r.do("lift 32, place 27")
    assert r.texts == ["32-27"] and r.state == "computer.thinking"
    stale = r.jobs[-1]
    r.do("lift 27, place 28")
    assert r.texts == ["32-28"] and r.state == "computer.thinking" and r.jobs[-1].token != stale.token
    r.ctl.computer_moved(stale.token, stale.board.parse_move("19-23"))
    assert r.ctl.computer_shape is None, "the answer to the amended position is dropped"
    r.answer_engine("19-23")
    assert r.ctl.computer_shape is not None and r.state == "computer.showing"


def test_the_computers_move_is_never_amended() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    r.move("32-28")
    r.answer_engine("19-23")
    r.move("19-23")
    assert r.texts == ["32-28", "19-23"]
    r.do("lift 23, place 24")   # the computer's piece moved on by a hand: the board is wrong, not the move
    assert r.texts == ["32-28", "19-23"]
    r.wait(3.1)
    assert r.state == "out_of_sync"


def test_lifting_a_piece_on_the_computers_turn_is_not_your_turn() -> None:
    r = Rig("international", human_color="white", opponent="engine")
    r.move("32-28")
    r.do("lift 31")
    assert r.ctl.alert["text"] == ("Not your turn: the computer (black) is to move. "
                                   "Put the white piece back on 31.")
    assert r.lit()["31"] == Light(RED, Pattern.FAST_BLINK)
    r.do("place 31")
    assert r.ctl.alert is None


def test_the_last_move_of_a_game_can_be_amended_too() -> None:
    r = Rig("russian", fen="W:WKa1:Bc3")   # a1 takes c3 and lands anywhere from d4 to h8: the game is won
    r.do("lift a1, lift c3, place d4, wait 1.5")
    assert r.texts == ["a1:d4"] and r.state == "game_over"
    r.do("lift d4, place f6, wait 1.1")   # f6 is on the king's line too: it settles as long
    assert r.texts == ["a1:f6"] and r.state == "game_over"
    assert "Amended: a1:f6, not a1:d4." in r.messages() and len(r.of(ev.GameOver)) == 2


KONANE = ("B:Wa1,c1,g1,b2,f2,h2,a3,e3,g3,b4,d4,f4,h4,a5,c5,e5,b6,d6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
          ":Bb1,d1,f1,h1,a2,c2,e2,g2,b3,f3,h3,a4,c4,g4,b5,h5,a6,c6,e6,b7,d7,f7,h7,a8,c8,e8,g8")


def test_a_konane_capture_that_may_stop_or_jump_on_says_so_then_stops_or_is_amended_on() -> None:
    """Issue 28 item 5: b5 takes c5 and may stop on d5 or take e5 too: said once, and the piece resting on
    d5 stops there; jumping on before the opponent touches the board amends the move to the longer one."""
    r = Rig("hawaii", fen=KONANE)
    r.do("lift b5, lift c5, place d5")
    assert r.state == "person.settling"
    said = r.messages().splitlines()[-1]
    assert said == "You may stop here or jump again: b5xd5 stops on d5; b5xf5 jumps on."
    r.wait(0.4)
    assert r.texts == ["b5xd5"]
    r.do("lift d5, lift e5, place f5, wait 0.4")
    assert r.texts == ["b5xf5"] and "Amended: b5xf5, not b5xd5." in r.messages()
    assert r.messages().count("You may stop here") == 1
