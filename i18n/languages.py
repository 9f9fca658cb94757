"""The languages the product speaks, and choosing one from what a browser or a person asks for."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT", "LANGUAGES", "Language", "UnknownLanguageError", "check_language", "negotiate",
           "requested"]


@dataclass(frozen=True)
class Language:
    """One language: its code (``nb``), its name in itself (``norsk bokmål``) and its espeak-ng voice."""

    code: str
    name: str
    voice: str


_ALL = (
    Language("en", "English", "en-gb"),
    Language("eo", "Esperanto", "eo"),
    Language("nb", "norsk bokmål", "nb"),
    Language("uk", "українська", "uk"),
    Language("nl", "Nederlands", "nl"),
    Language("fr", "français", "fr-fr"),
    Language("ru", "русский", "ru"),
    Language("pt", "português", "pt"),
    Language("es", "español", "es"),
    Language("it", "italiano", "it"),
    Language("tr", "Türkçe", "tr"),
    Language("pl", "polski", "pl"),
    Language("de", "Deutsch", "de"),
    Language("cs", "čeština", "cs"),
)
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in _ALL}
DEFAULT = "en"
_ALIASES = {"no": "nb", "nn": "nb"}   # Norwegian asked for without the written standard: Bokmål


class UnknownLanguageError(ValueError):
    """A language code the product has no catalogue for; the message lists the codes it has."""


def check_language(code: str) -> str:
    """`code` if it is one of :data:`LANGUAGES` (case and region ignored: ``pt-BR`` is ``pt``), else a
    clear error listing the languages."""
    base = _base(code)
    if base not in LANGUAGES:
        raise UnknownLanguageError(f"no language {code!r}; languages: {', '.join(LANGUAGES)}")
    return base


def _base(code: str) -> str:
    base = code.strip().replace("_", "-").split("-")[0].lower()
    return _ALIASES.get(base, base)


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The best of our languages for an HTTP ``Accept-Language`` header (``"nl-BE,nl;q=0.9,en;q=0.5"``):
    the highest weighted one we have, else `default`. A malformed header is read as far as it makes sense."""
    best, best_q = default, -1.0
    for position, item in enumerate((accept_language or "")[:1000].split(",")[:50]):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        q = q if 0.0 <= q <= 1.0 else 0.0
        code = _base(tag)
        if code in LANGUAGES and q > 0 and q - position * 1e-6 > best_q:
            best, best_q = code, q - position * 1e-6
    return best


def requested(asked: str | None, accept_language: str | None, default: str = DEFAULT) -> str:
    """The language a page's request asks for: `asked` (its ``?lang=``) when it is one of ours, else the
    best of its Accept-Language, else `default`."""
    try:
        return check_language(asked or "")
    except UnknownLanguageError:
        return negotiate(accept_language, default)
