"""The pages' HTML extractor: every text a page shows is a message, code and translate="no" are not."""

from __future__ import annotations

from i18n.extract_html import visible_texts


def test_texts_and_labels_are_found_and_code_is_not() -> None:
    html = ('<h2>Saved games <a href="x" title="download them all">download (PDN)</a></h2>'
            '<label>FEN <input placeholder="W:W31:B1" translate="no"></label><button>Set up</button>'
            '<code>dboard play</code><p translate="no">Esperanto</p><span>12</span><p>Side   to\n move</p>')
    assert [text for _, text in visible_texts(html)] == [
        "Saved games", "download them all", "download (PDN)", "FEN", "Set up", "Side to move"]
