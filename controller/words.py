"""The words the controller puts into its sentences, translatable: the sides' names and a variant's name
(the rules core names them in English; rules/words.py lists those names for the catalogues)."""

from __future__ import annotations

from i18n import Phrase, phrase
from rules import Variant

__all__ = ["side_name", "side_word", "variant_name"]

_SIDES = {"white": phrase("White"), "black": phrase("Black")}
_COLOURS = {"white": phrase("white"), "black": phrase("black")}


def side_name(color: str) -> Phrase:
    """"White" or "Black" as a sentence names the side ``color`` ("white" or "black")."""
    return _SIDES.get(color) or Phrase(color)


def side_word(color: str) -> Phrase:
    """The side as a word inside a sentence ("the computer (black)")."""
    return _COLOURS.get(color) or Phrase(color)


def variant_name(variant: Variant) -> Phrase:
    """The variant's name (``English draughts``), in the reader's language."""
    return Phrase(variant.name)
