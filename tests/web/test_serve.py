"""web/serve.py: what the board's panel and the hall serve alike."""

from __future__ import annotations

from urllib.parse import unquote

from web.serve import attachment


def test_a_download_name_of_any_characters_makes_a_header_latin_1_carries() -> None:
    """A PDN download named after an event or a library file with non-Latin letters or a quote: an ASCII
    fallback and the exact name as filename* (the hall's archive answered 500 for an event named 'Āx')."""
    value = attachment('Āx "final" \ud800.pdn')
    value.encode("latin-1")
    assert value.startswith('attachment; filename="_x _final_ _.pdn"; filename*=UTF-8\'\'')
    assert unquote(value.split("''", 1)[1], errors="surrogatepass") == 'Āx "final" \ud800.pdn'
