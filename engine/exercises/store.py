"""Reading a collection file (`<variant>.json` in this package): checked whole, or refused with the reason."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core import Engine
from engine.exercises.model import Exercise, ExerciseError
from engine.exercises.verify import verify
from readers import ReadError, loads, read_text
from rules import Board, UnknownVariantError, get_variant

HERE = Path(__file__).resolve().parent
MAX_COLLECTION_BYTES = 4 * 1024 * 1024
"""A collection of a thousand exercises is well under 1 MB."""


@dataclass(frozen=True)
class Collection:
    """The exercises of one variant, in file order, with where they came from."""

    variant: str
    exercises: tuple[Exercise, ...]
    source: str
    path: Path

    def __repr__(self) -> str:
        return f"Collection({self.variant!r}, {len(self.exercises)} exercises)"

    def __len__(self) -> int:
        return len(self.exercises)

    def get(self, exercise_id: str) -> Exercise:
        """The exercise with this id (ValueError naming the ids there are)."""
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        raise ExerciseError(f"no exercise {exercise_id!r} in {self.variant}; there are "
                            f"{self.exercises[0].id} to {self.exercises[-1].id}")


def collection_path(variant: str) -> Path:
    return HERE / f"{variant}.json"


def variants_with_exercises() -> list[str]:
    """The variants that have a collection in the package."""
    return sorted(p.stem for p in HERE.glob("*.json"))


def load(variant: str, verify_engine: bool = True) -> Collection:
    """The package's collection for `variant` (ExerciseError when there is none or it is unsound)."""
    try:
        variant_id = get_variant(variant).id
    except UnknownVariantError as exc:
        raise ExerciseError(str(exc)) from None
    path = collection_path(variant_id)
    if not path.exists():
        raise ExerciseError(f"there are no exercises for {variant_id}; there are for "
                            f"{', '.join(variants_with_exercises())}")
    return load_file(path, verify_engine)


def load_file(path: Path, verify_engine: bool = True) -> Collection:
    """Read and check a collection: every entry well formed, its solution legal and (unless
    `verify_engine` is false) confirmed by the engine at its depth, no position twice."""
    name = path.name
    try:
        data = loads(read_text(path, what="exercise collection", limit=MAX_COLLECTION_BYTES), name,
                     max_depth=4)
    except ReadError as exc:
        raise ExerciseError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("exercises"), list):
        raise ExerciseError(f"{name}: expected an object with 'variant' and a list 'exercises'")
    try:
        variant = get_variant(str(data.get("variant"))).id
    except UnknownVariantError as exc:
        raise ExerciseError(f"{name}: {exc}") from None
    engine = Engine(variant) if verify_engine else None
    exercises: list[Exercise] = []
    positions: dict[str, str] = {}
    for index, entry in enumerate(data["exercises"], 1):
        exercise = Exercise.from_json(entry, variant, f"{name}: exercise {index}")
        where = f"{name}: exercise {index} ({exercise.id})"
        if any(e.id == exercise.id for e in exercises):
            raise ExerciseError(f"{where}: the id {exercise.id} is used twice")
        if engine is not None:
            verify(exercise, where, engine)
        else:
            _check_legal(exercise, where)
        fen = exercise.board().fen()
        if fen in positions:
            raise ExerciseError(f"{where}: the same position as {positions[fen]}")
        positions[fen] = exercise.id
        exercises.append(exercise)
    if not exercises:
        raise ExerciseError(f"{name}: no exercises")
    return Collection(variant, tuple(exercises), str(data.get("source", "")), path)


def _check_legal(exercise: Exercise, where: str) -> None:
    try:
        Board(exercise.variant, exercise.fen).parse_move(exercise.solution)
    except ValueError as exc:
        raise ExerciseError(f"{where}: solution {exercise.solution} is not legal here: {exc}") from None
