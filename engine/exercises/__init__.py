"""Exercise positions per variant (find the shot, the only move, win the ending), each checked by the engine.

The collections are data files in this package (`<variant>.json`, made by `tests/data/make_exercises.py` from
real games). `load(variant)` reads one and rejects it, naming the file and the exercise, when any stated
solution is illegal or is not the engine's unique answer at the exercise's depth (`verify`).
"""

from engine.exercises.model import KINDS, Exercise, ExerciseError
from engine.exercises.store import Collection, collection_path, load, load_file, variants_with_exercises
from engine.exercises.verify import MARGIN, Verdict, judge, verify

__all__ = [
    "KINDS",
    "MARGIN",
    "Collection",
    "Exercise",
    "ExerciseError",
    "Verdict",
    "collection_path",
    "judge",
    "load",
    "load_file",
    "variants_with_exercises",
    "verify",
]
