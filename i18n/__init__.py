"""Every word the product says, in its players' languages: translatable phrases, the gettext catalogues
(``locale/<lang>/LC_MESSAGES/draughts_board.po``, compiled to ``.mo`` when the package is built) and
choosing a language. Imports nothing of ours: the controller, the web page and the hall use it; the rules
core stays English (its texts are for programs; the controller says them in words)."""

from .catalogue import DOMAIN, Translator, locale_dir, page_catalogue, translator
from .languages import (
    DEFAULT,
    LANGUAGES,
    Language,
    UnknownLanguageError,
    check_language,
    negotiate,
    requested,
)
from .phrase import Phrase, joined, phrase, plural, translated_as

__all__ = [
    "DEFAULT", "DOMAIN", "LANGUAGES", "Language", "Phrase", "Translator", "UnknownLanguageError",
    "check_language", "joined", "locale_dir", "negotiate", "page_catalogue", "phrase", "plural",
    "requested", "translated_as", "translator",
]
