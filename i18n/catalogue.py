"""The compiled catalogues (``i18n/locale/<lang>/LC_MESSAGES/draughts_board.mo``, made from the ``.po``
sources when the package is built) read with the standard library's ``gettext``, and rendering in one."""

from __future__ import annotations

import functools
import gettext
import logging
from importlib import resources

from .languages import DEFAULT, LANGUAGES, check_language
from .phrase import Phrase

__all__ = ["DOMAIN", "Translator", "locale_dir", "page_catalogue", "translator"]

DOMAIN = "draughts_board"
log = logging.getLogger(__name__)


def locale_dir() -> str:
    """Where the catalogues are: the package's ``locale`` folder (in the source tree or installed)."""
    return str(resources.files("i18n") / "locale")


class Translator:
    """Renders text in one language: a ``Phrase`` through the catalogue, any other ``str`` as it is."""

    def __init__(self, language: str, catalogue: gettext.NullTranslations) -> None:
        self.language = language
        self._catalogue = catalogue

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"

    def gettext(self, msgid: str) -> str:
        """The translation of one message id (the id itself where the catalogue has none)."""
        return self._catalogue.gettext(msgid)

    def ngettext(self, singular: str, plural_id: str, n: int) -> str:
        """The form of a counted message for `n`, by the language's plural rule."""
        return self._catalogue.ngettext(singular, plural_id, n)

    def render(self, text: str) -> str:
        """`text` in this language: a Phrase translated with its values filled in (values that are phrases
        too, in this language), plain text unchanged."""
        if not isinstance(text, Phrase):
            return text
        if self.language == "en":   # a Phrase is its English text
            return str(text)
        if text.plural_id is None:
            pattern = self.gettext(text.msgid)
        else:
            pattern = self.ngettext(text.msgid, text.plural_id, text.n)
        values = {k: self.render(v) if isinstance(v, Phrase) else v for k, v in text.params.items()}
        try:
            return pattern.format(**values) if values or "{" in pattern else pattern
        except (KeyError, IndexError, ValueError):   # a translation that lost a placeholder: the English
            log.warning("the %s translation of %r does not fit its values", self.language, text.msgid)
            return str(text)

    def render_tree(self, value: object) -> object:
        """A JSON-like value (dicts, lists) with every Phrase in it rendered: an event as a reader sees it."""
        if isinstance(value, str):
            return self.render(value)
        if isinstance(value, dict):
            return {k: self.render_tree(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.render_tree(v) for v in value]
        return value

    def catalogue(self) -> dict[str, object]:
        """Every translated entry as the page reads it: message id -> text, or for a counted message the
        list of its forms (the page picks one with :attr:`plural_rule`)."""
        out: dict[str, object] = {}
        catalog = getattr(self._catalogue, "_catalog", {})
        for key, text in catalog.items():
            if isinstance(key, tuple):
                forms = out.setdefault(key[0], [])
                assert isinstance(forms, list)
                forms.append(text)
            elif key:
                out[key] = text
        return out

    def plural_forms(self) -> list[int]:
        """Which form the language takes for n = 0..199 (the page's table: a count of 200 or more takes the
        form of ``n % 100 + 100``, which every plural rule of our languages agrees with)."""
        rule = getattr(self._catalogue, "plural", None)
        return [int(rule(n)) if rule else int(n != 1) for n in range(200)]


@functools.cache
def translator(language: str = DEFAULT) -> Translator:
    """The Translator of `language` (one of :data:`~i18n.languages.LANGUAGES`). A catalogue that is not
    compiled (a source tree never installed) is said once in the log and reads as English."""
    code = check_language(language)
    if code == "en":
        return Translator(code, gettext.NullTranslations())
    try:
        catalogue = gettext.translation(DOMAIN, locale_dir(), languages=[code])
    except OSError as exc:
        log.warning("no compiled catalogue for %s (%s): English instead; reinstall the package to build it",
                    LANGUAGES[code].name, exc)
        return Translator(code, gettext.NullTranslations())
    return Translator(code, catalogue)


def page_catalogue(language: str) -> dict[str, object]:
    """What a page loads to speak `language` (``/i18n.json``, the board's page and the hall's): the messages,
    the plural forms' table and the languages to choose from."""
    words = translator(language)
    return {"language": words.language, "plural": words.plural_forms(), "messages": words.catalogue(),
            "languages": [{"code": lang.code, "name": lang.name} for lang in LANGUAGES.values()]}
