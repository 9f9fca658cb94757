"""The exercise collections: every exercise confirmed by the engine at its depth; unsound files refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.exercises import KINDS, ExerciseError, collection_path, load, load_file, variants_with_exercises
from rules import Board

VARIANTS = ["international", "english", "russian", "spanish", "italian", "brazilian", "turkish"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_exercise_is_confirmed_by_the_engine_within_its_depth(variant: str) -> None:
    collection = load(variant)   # refuses the file unless every solution is the engine's unique answer
    assert len(collection) >= 20
    assert {e.kind for e in collection.exercises} <= set(KINDS)
    positions = [Board(variant, e.fen).fen() for e in collection.exercises]
    assert len(set(positions)) == len(positions)
    for exercise in collection.exercises:
        board = exercise.board()
        assert exercise.solution in {board.move_text(m) for m in board.legal_moves}
        assert exercise.line[0] == exercise.solution
        assert exercise.source.startswith("tests/data/")


def test_the_collections_are_the_seven_variants_and_share_no_position() -> None:
    assert set(VARIANTS) <= set(variants_with_exercises())
    every = [(v, e.fen) for v in VARIANTS for e in load(v, verify_engine=False).exercises]
    assert len(set(every)) == len(every)


def test_the_sources_name_games_that_are_in_the_repository() -> None:
    data = Path(__file__).resolve().parents[1] / "data"
    for variant in VARIANTS:
        for exercise in load(variant, verify_engine=False).exercises:
            name = exercise.source.removeprefix("tests/data/").split(", game ")[0]
            assert (data / name).is_file(), exercise.source


def _copy(tmp_path: Path, change) -> Path:
    data = json.loads(collection_path("english").read_text(encoding="utf-8"))
    change(data["exercises"])
    path = tmp_path / "english.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_file_with_a_wrong_solution_is_rejected_when_loaded(tmp_path: Path) -> None:
    exercise = json.loads(collection_path("english").read_text(encoding="utf-8"))["exercises"][2]
    board = Board("english", exercise["fen"])
    other = next(t for t in map(board.move_text, board.legal_moves) if t != exercise["solution"])

    def wrong(entries: list) -> None:
        entries[2]["solution"] = other

    with pytest.raises(ExerciseError, match=rf"english.json: exercise 3 \({exercise['id']}\): wrong solution "
                                            rf"{other}: at depth {exercise['depth']} the engine plays "
                                            rf"{exercise['solution']} "):
        load_file(_copy(tmp_path, wrong))


def test_an_illegal_solution_a_repeated_position_and_a_bad_field_are_named(tmp_path: Path) -> None:
    def illegal(entries: list) -> None:
        entries[0]["solution"] = "1-2"

    with pytest.raises(ExerciseError, match=r"exercise 1 \(english-01\): solution 1-2 is not legal here"):
        load_file(_copy(tmp_path, illegal))
    with pytest.raises(ExerciseError, match=r"exercise 1 \(english-01\): solution 1-2 is not legal here"):
        load_file(_copy(tmp_path, illegal), verify_engine=False)

    def repeated(entries: list) -> None:
        entries[5] = dict(entries[1], id="english-xx")

    with pytest.raises(ExerciseError, match=r"exercise 6 \(english-xx\): the same position as english-02"):
        load_file(_copy(tmp_path, repeated))

    def kindless(entries: list) -> None:
        entries[3]["kind"] = "puzzle"

    with pytest.raises(ExerciseError, match=r"exercise 4: kind 'puzzle' is not one of shot, only, ending"):
        load_file(_copy(tmp_path, kindless))
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(ExerciseError, match=r"broken.json: not JSON \(Expecting property name"):
        load_file(tmp_path / "broken.json")


def test_a_solution_that_does_not_fit_its_kind_is_rejected(tmp_path: Path) -> None:
    data = json.loads(collection_path("english").read_text(encoding="utf-8"))
    index, entry = next((i, e) for i, e in enumerate(data["exercises"]) if e["kind"] == "only")

    def relabel(entries: list) -> None:
        entries[index]["kind"] = "ending" if len(Board("english", entry["fen"]).occupied()) > 8 else "shot"

    with pytest.raises(ExerciseError, match=rf"exercise {index + 1} .*does not make this a '(ending|shot)'"):
        load_file(_copy(tmp_path, relabel))


HOSTILE_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["id", "kind", "fen", "solution", "depth", "line", "source", "note", None]),
       value=HOSTILE_VALUE, nesting=st.integers(0, 3000), top=HOSTILE_VALUE)
def test_a_hostile_collection_file_is_one_error_line(tmp_path: Path, field: str | None, value: object,
                                                     nesting: int, top: object) -> None:
    """Wrong types in any field, deep nesting, a file that is no collection: ExerciseError naming the file,
    or a sound collection, never another exception (issue 30 item 7)."""
    data = json.loads(collection_path("english").read_text())
    first = dict(data["exercises"][0])
    if field is not None:
        first[field] = value
    data["exercises"] = [first]
    text = json.dumps(data) if nesting < 10 else json.dumps(data)[:-1] + ', "x": ' + "[" * nesting + \
        "]" * nesting + "}"
    for content in (text, json.dumps(top)):
        path = tmp_path / "hostile.json"
        path.write_text(content)
        try:
            collection = load_file(path, verify_engine=False)
        except ExerciseError as exc:
            assert str(exc).startswith("hostile.json") and "\n" not in str(exc)
        else:
            assert all(isinstance(e.depth, int) and e.kind in KINDS for e in collection.exercises)
