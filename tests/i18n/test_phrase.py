"""Phrases: their English text, their rendering in each language (values and nested phrases too, counted
forms by each language's rule), their survival of pickling, and choosing a language."""

from __future__ import annotations

import copy
import gettext
import pickle

import pytest

from i18n import (
    LANGUAGES,
    Phrase,
    Translator,
    UnknownLanguageError,
    check_language,
    joined,
    negotiate,
    phrase,
    plural,
    requested,
    translated_as,
    translator,
)


def test_a_phrase_is_its_english_text_and_keeps_its_id_and_values() -> None:
    said = phrase("{side} offers a draw.", side=phrase("White"))
    assert said == "White offers a draw." and isinstance(said, str)
    assert said.msgid == "{side} offers a draw." and said.params["side"] == "White"
    assert pickle.loads(pickle.dumps(said)).params == said.params
    assert copy.deepcopy(said).msgid == said.msgid


def test_a_phrase_renders_in_each_language_with_its_values_rendered_too() -> None:
    said = phrase("{side} offers a draw.", side=phrase("White"))
    assert translator("en").render(said) == "White offers a draw."
    assert translator("nl").render(said) == translator("nl").gettext("{side} offers a draw.").format(
        side=translator("nl").gettext("White"))
    for code in LANGUAGES:
        if code != "en":
            assert translator(code).render(said) != str(said), code


@pytest.mark.parametrize(("code", "forms"), [("ru", (1, 2, 5, 11, 21, 22, 25)), ("pl", (1, 2, 5, 22, 25)),
                                             ("cs", (1, 2, 5)), ("nl", (1, 2))])
def test_a_counted_phrase_takes_the_languages_own_forms(code: str, forms: tuple[int, ...]) -> None:
    words = translator(code)
    texts = {n: words.render(plural("Took back {n} ply.", "Took back {n} plies.", n)) for n in forms}
    assert all(str(n) in text for n, text in texts.items())
    expected_forms = {"ru": 3, "pl": 3, "cs": 3, "nl": 2}[code]
    assert len({text.replace(str(n), "#") for n, text in texts.items()}) == expected_forms, texts


def test_joined_and_translated_as() -> None:
    fixes = joined([phrase("take the piece off {square}", square="18"), phrase("White")], "; ")
    assert fixes == "take the piece off 18; White"
    assert "18" in translator("de").render(fixes) and "White" not in translator("de").render(fixes)
    moves = joined(["32-28", "31-27"], phrase(" or "))
    assert moves == "32-28 or 31-27" and " or " not in translator("fr").render(moves)
    refused = translated_as("33-28: a capture is compulsory (27x18)", "{move}: {rule}", move="33-28",
                            rule=Phrase("compulsory capture"))
    assert refused == "33-28: a capture is compulsory (27x18)"
    assert translator("en").render(refused) == str(refused)
    assert translator("it").render(refused).startswith("33-28: ") and "compulsory" not in translator(
        "it").render(refused)


def test_a_translation_that_lost_a_placeholder_reads_as_english() -> None:
    class Broken(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "{missing} kapot"

    assert Translator("nl", Broken()).render(phrase("{side} offers a draw.", side="White")) == \
        "White offers a draw."


def test_choosing_a_language() -> None:
    assert negotiate("nl-BE,nl;q=0.9,en;q=0.5") == "nl"
    assert negotiate("xx, de;q=0.2, fr;q=0.3") == "fr"
    assert negotiate("pt-BR") == "pt" and negotiate("no") == "nb"
    assert negotiate("garbage;q=abc,,;;") == "en" and negotiate(None, "uk") == "uk"
    assert negotiate("de;q=0") == "en" and negotiate("x" * 5000) == "en"
    assert check_language("PT_br") == "pt"
    with pytest.raises(UnknownLanguageError, match="languages: en, eo"):
        check_language("xx")


def test_the_language_a_page_asks_for() -> None:
    assert requested("uk", "de") == "uk" and requested("xx", "de;q=0.5, fr") == "fr"
    assert requested(None, None, "nb") == "nb" and requested("", "zz") == "en"
