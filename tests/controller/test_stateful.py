"""Hypothesis stateful test: random physical actions never break the controller's invariants."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from rig import Rig

from controller.record import game_of

VARIANTS = ["international", "english", "russian", "spanish", "czech", "polish", "turkish", "thai", "italian"]


class BoardActions(RuleBasedStateMachine):
    """Knocks, slides, wrong moves, legal moves in any order, takebacks and waits (person vs person)."""

    @initialize(variant=st.sampled_from(VARIANTS), engine=st.booleans())
    def start(self, variant: str, engine: bool) -> None:
        self.engine = engine
        if engine:
            self.rig = Rig(variant, human_color="white", opponent="engine", settle_ms=300, grace_ms=3000)
        else:
            self.rig = Rig(variant, settle_ms=300, grace_ms=3000)
        self.squares = sorted(self.rig.ctl.map.playing())

    @property
    def ctl(self):
        return self.rig.ctl

    @rule(data=st.data())
    def lift_any(self, data: st.DataObject) -> None:
        if self.rig.occ:
            self.rig.lift(data.draw(st.sampled_from(sorted(self.rig.occ))))

    @rule(data=st.data())
    def place_any(self, data: st.DataObject) -> None:
        empty = [sq for sq in self.squares if sq not in self.rig.occ]
        if empty:
            self.rig.place(data.draw(st.sampled_from(empty)))

    @rule(data=st.data())
    def knock(self, data: st.DataObject) -> None:
        sq = data.draw(st.sampled_from(self.squares))
        if sq in self.rig.occ:
            self.rig.lift(sq, dt=0.01)
            self.rig.place(sq, dt=0.05)
        else:
            self.rig.place(sq, dt=0.01)
            self.rig.lift(sq, dt=0.05)

    @rule(data=st.data())
    def slide(self, data: st.DataObject) -> None:
        if not self.rig.occ:
            return
        sq = data.draw(st.sampled_from(sorted(self.rig.occ)))
        empty = [s for s in self.squares if s not in self.rig.occ]
        if not empty:
            return
        self.rig.lift(sq)
        for step in data.draw(st.lists(st.sampled_from(empty), min_size=1, max_size=3, unique=True)):
            self.rig.place(step)
            self.rig.lift(step)
        self.rig.place(data.draw(st.sampled_from(empty)))

    @precondition(lambda self: self.ctl.state in ("person.idle", "person.settling"))
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        self.restore_board()
        shapes = self.ctl.exp.shapes
        if not shapes:
            return
        shape = data.draw(st.sampled_from(shapes))
        steps = [("lift", shape.origin)] + [("lift", sq) for sq in shape.captures]
        steps = data.draw(st.permutations(steps))
        landing = data.draw(st.integers(0, len(steps)))
        steps.insert(landing, ("place", shape.target))
        occ = set(self.rig.occ)
        for verb, sq in steps:
            if verb == "lift" and sq in occ:
                occ.discard(sq)
                self.rig.lift(sq)
            elif verb == "place" and sq not in occ:
                occ.add(sq)
                self.rig.place(sq)
        if shape.origin == shape.target and shape.target not in occ:
            self.rig.place(shape.target)

    @rule(seconds=st.sampled_from([0.1, 0.29, 0.31, 1.0, 3.1]))
    def wait(self, seconds: float) -> None:
        self.rig.wait(seconds)

    @precondition(lambda self: len(self.ctl.history) > 1)
    @rule(data=st.data())
    def restore_earlier(self, data: st.DataObject) -> None:
        k = data.draw(st.integers(1, len(self.ctl.history) - 1))
        self.rig.set(self.ctl.history[-1 - k])
        self.rig.wait(data.draw(st.sampled_from([0.1, 0.4])))

    @precondition(lambda self: len(self.ctl.records) > 0)
    @rule(plies=st.integers(1, 3))
    def takeback_command(self, plies: int) -> None:
        before = len(self.ctl.records)
        self.ctl.takeback(plies)
        assert len(self.ctl.records) == max(0, before - plies)

    @rule()
    def choose_missed(self) -> None:
        if self.ctl.missed_info is not None and self.ctl.state == "person.missed_capture":
            choice = "retract" if len(self.ctl.records) % 2 else (
                "huff" if self.ctl.missed_info.policy.endswith("huff") else "accept")
            self.ctl.missed_choice(choice)

    @precondition(lambda self: self.engine and self.ctl.state == "computer.thinking")
    @rule(data=st.data())
    def engine_answers(self, data: st.DataObject) -> None:
        job = self.rig.jobs[-1]
        moves = list(job.board.legal_moves)
        if moves:
            self.ctl.computer_moved(job.token, data.draw(st.sampled_from(moves)))

    @precondition(lambda self: self.engine and self.ctl.computer_shape is not None)
    @rule()
    def execute_computer_move(self) -> None:
        shape = self.ctl.computer_shape
        self.rig.set(shape.result)
        self.rig.wait(0.4)
        assert self.ctl.computer_shape is None or self.ctl.state == "out_of_sync"

    @rule()
    def restore_board(self) -> None:
        """Restoring the last committed position always brings the controller back to waiting for a move."""
        if self.ctl.state == "person.missed_capture":
            self.ctl.missed_choice("retract")
        self.rig.set(self.ctl.exp.base)
        self.rig.wait(0.01)
        assert self.ctl.state in ("person.idle", "computer.thinking", "computer.showing", "game_over"), \
            self.ctl.state

    @invariant()
    def position_is_the_replay_of_the_records(self) -> None:
        if not hasattr(self, "rig"):
            return
        game = game_of(self.ctl.variant, self.ctl.settings.fen, self.ctl.records)
        assert game.board.fen() == self.ctl.game.board.fen()
        assert self.ctl.exp.base == frozenset(self.ctl.map.rc(sq) for sq in self.ctl.game.board.pieces())


BoardActions.TestCase.settings = settings(max_examples=80, stateful_step_count=40, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
TestBoardActions = BoardActions.TestCase
