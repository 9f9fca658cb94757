"""A sentence the product says, kept translatable until it reaches a reader: a ``Phrase`` is the English
text (it *is* a ``str``, so logs, tests and untranslated paths read it as before) that also remembers its
message id and values, so each page, terminal or voice renders it in its own language."""

from __future__ import annotations

from typing import Any

__all__ = ["Phrase", "joined", "phrase", "plural", "translated_as"]


class Phrase(str):
    """English text with the gettext message id it came from and the values put into it.

    ``Phrase("{move} refused", move="32-27")`` reads ``"32-27 refused"``; a ``Translator`` renders the same
    phrase in its language. A value may itself be a Phrase: it is rendered in the same language.
    """

    msgid: str
    plural_id: str | None
    n: int
    params: dict[str, object]

    def __new__(cls, msgid: str, plural_id: str | None = None, n: int = 1, english: str | None = None, /,
                **params: object) -> Phrase:
        chosen = msgid if plural_id is None or n == 1 else plural_id
        if english is None:
            english = chosen.format(**params) if params or "{" in chosen else chosen
        self = super().__new__(cls, english)
        self.msgid, self.plural_id, self.n, self.params = msgid, plural_id, n, params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.msgid, self.plural_id, self.n, self.params, str(self)))

    def __repr__(self) -> str:
        return f"Phrase({str(self)!r})"


def _restore(msgid: str, plural_id: str | None, n: int, params: dict[str, object], english: str) -> Phrase:
    return Phrase(msgid, plural_id, n, english, **params)


def phrase(msgid: str, /, **params: object) -> Phrase:
    """A translatable sentence: ``phrase("{move}: a capture was compulsory", move=text)``. The extraction
    (Babel, keyword ``phrase``) collects every literal ``msgid`` into the catalogues."""
    return Phrase(msgid, None, 1, **params)


def plural(singular: str, plural_id: str, n: int, /, **params: object) -> Phrase:
    """A sentence whose words follow a count (``{n}`` is given): ``plural("{n} piece", "{n} pieces", n)``;
    each language picks its own form (Russian, Ukrainian, Polish and Czech have three or more)."""
    return Phrase(singular, plural_id, n, n=n, **params)


def joined(parts: list[Phrase] | list[str], separator: str = ", ") -> Phrase:
    """Phrases one after another (``take the piece off 18; put a white man on 23``), each rendered in the
    reader's language, as is the separator when it is a phrase (``phrase(" or ")``): the joining pattern
    holds only placeholders, so it needs no translation."""
    pattern = "{sep}".join(f"{{p{i}}}" for i in range(len(parts)))
    return Phrase(pattern, None, 1, sep=separator, **{f"p{i}": part for i, part in enumerate(parts)})


def translated_as(english: str, msgid: str, /, **params: object) -> Phrase:
    """A sentence whose English is `english` (a detailed text made elsewhere, such as the rules core's
    reason for refusing a move) and which other languages say as `msgid` (extraction keyword
    ``translated_as:2``): ``translated_as(str(error), "{move}: {rule}", move=..., rule=...)``."""
    return Phrase(msgid, None, 1, english, **params)
