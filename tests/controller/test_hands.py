"""The storm (controller/hands.py): gestures people make around a legal move never record a move they did not
mean; where the gesture really was ambiguous the board asks. Also the simulated hands themselves."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config import Config
from controller.hands import Hands, RandomChooser, Step, judge, offline_table, random_position, trial
from controller.settings import GameSettings
from firmware_bridge.clock import ManualClock
from rules import VARIANT_IDS

T = TypeVar("T")
VARIANTS = list(VARIANT_IDS)   # every variant, the orthogonal ones included


class DrawChooser:
    """The storm's choices drawn by hypothesis (so a failure shrinks to a short gesture)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def chance(self, p: float) -> bool:
        return self.data.draw(st.integers(0, 99)) < p * 100

    def pick(self, items: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(list(items)))

    def between(self, low: float, high: float) -> float:
        return round(self.data.draw(st.floats(low, high)), 3)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(variant=st.sampled_from(VARIANTS), kings=st.booleans(), seed=st.integers(0, 10_000),
       debounce=st.sampled_from([0.0, 0.004, 0.03]), computer=st.booleans(), data=st.data())
def test_the_storm_never_records_a_move_not_meant(variant: str, kings: bool, seed: int, debounce: float,
                                                   computer: bool, data: st.DataObject) -> None:
    """Two people at one board, or a person against the computer (their hands on the board while it thinks,
    its move carried out): the move meant is recorded, or the board asks."""
    fen = random_position(variant, random.Random(seed), kings)
    result = trial(variant, fen, DrawChooser(data), debounce=debounce, computer=computer)
    assert result.outcome in ("intended", "asked"), result


def test_the_oracle() -> None:
    assert judge(["9-13"], ["9-13"], "person.idle", []) == "intended"
    assert judge(["9-13", "22-18"], ["9-13", "22-18"], "person.idle", []) == "intended"
    assert judge(["9-13"], ["9-14"], "person.idle", []) == "wrong"
    assert judge(["9-13", "22-18"], ["9-13", "22-17"], "person.idle", []) == "wrong"
    assert judge(["9-13"], ["9-13", "22-18"], "person.lifted", []) == "wrong"
    assert judge(["9-13"], [], "person.ambiguous", ["9-13", "9-14"]) == "asked"
    assert judge(["9-13"], [], "person.ambiguous", ["10-14", "9-14"]) == "stuck"
    assert judge(["9-13"], ["9-13"], "out_of_sync", []) == "stuck"
    assert judge(["9-13", "22-18"], ["9-13"], "person.lifted", []) == "stuck"


def test_the_hands_are_debounced_like_the_board() -> None:
    clock = ManualClock(0.0)
    table = offline_table(Config(variant="english", human_color="both", opponent="person"), clock,
                          GameSettings("english", "both", "person"))
    ctl = table.controller
    seen: list[frozenset] = []
    hands = Hands(table, clock, debounce=0.03, on_snapshot=lambda t, squares: seen.append(squares))
    ctl.new_game()
    hands.set_up(ctl.exp.base)
    nine, thirteen = (ctl.map.rc(ctl.variant.geometry.parse_square(name)) for name in ("9", "13"))
    hands.do(Step("knock", nine, seconds=0.01))      # shorter than the debounce: never seen
    hands.do(Step("flicker", thirteen, edges=5))     # contact chatter: never seen
    hands.wait(0.1)
    assert len(seen) == 1 and ctl.records == []
    hands.do(Step("lift", nine))
    hands.wait(0.05)
    hands.do(Step("place", thirteen))
    hands.wait(0.05)
    assert [r.text for r in ctl.records] == ["9-13"] and len(seen) == 3
    assert Step("knock", nine, seconds=0.01).text(ctl.map.name) == "knock 9 0.01"


def test_a_removal_is_carried_out_by_taking_the_piece_off() -> None:
    """Konane's opening removal is a lift with no place: the storm's hands never put the piece back after the
    engine's answer (which the board rightly reads as a takeback, and the computer thinks again)."""
    for seed in range(20):
        rng = random.Random(seed)
        fen = random_position("hawaii", rng, kings=False)
        result = trial("hawaii", fen, RandomChooser(rng), computer=True)
        assert result.outcome == "intended", result
        removed = result.meant[0].split("x")[0]
        after = result.steps[next(i for i, s in enumerate(result.steps) if s.startswith("the engine")):]
        assert f"place {removed}" not in after, result
