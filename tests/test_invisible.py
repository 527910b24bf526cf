"""Invisible characters (soft hyphens, zero-width spaces, word joiners, stray byte-order
marks) leave the markup before parsing and are ignored by the measure's tokens."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import feedsift
from feedsift.parsing.invisible import without_invisible
from feedsift.parsing.page import parse_page
from feedsift.text.tokens import INVISIBLE_CHARACTERS, tokenize_lower

#: Every way markup writes one of them besides the character itself.
SPELLINGS = (
    "&shy;", "&#173;", "&#xad;", "&#xAD;", "&#x00ad;", "&#x00AD;",
    "&ZeroWidthSpace;", "&#8203;", "&#x200b;", "&#x200B;", "&#X200B;",
    "&NoBreak;", "&#8288;", "&#x2060;",
    "&#65279;", "&#xfeff;", "&#xFEFF;", "&#x0000FEFF;",
)  # fmt: skip
PARAGRAPH = (
    "<p>Schon im Mit{s}tel{s}al{s}ter war der St. Mag{s}da{s}le{s}ner das Aus{s}hän{s}ge{s}"
    "schild der Süd{s}ti{s}ro{s}ler Wein{s}wirt{s}schaft, und das blieb er lange Zeit.</p>"
)


def test_every_spelling_of_an_invisible_character_leaves_the_page_text() -> None:
    for spelling in (*INVISIBLE_CHARACTERS, *SPELLINGS):
        html = f"<html><body><main>{PARAGRAPH.format(s=spelling) * 4}</main></body></html>"
        texts = [block.text for block in parse_page(html).view.blocks]
        assert texts[0].startswith("Schon im Mittelalter war der St. Magdalener"), spelling
        text = feedsift.extract(html).text
        assert not any(character in text for character in INVISIBLE_CHARACTERS), spelling


def test_joiners_that_shape_words_and_other_references_stay() -> None:
    kept = "\u200d\u200c &amp; &#8204; &zwj; &#x200C;"
    assert without_invisible(f"a{kept}b") == f"a{kept}b"
    assert without_invisible("a&#X200B;b&#x0000FEFF;c") == "abc"


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöü ", min_size=1),
    st.data(),
    st.sampled_from(INVISIBLE_CHARACTERS),
)
def test_invisible_characters_anywhere_do_not_change_the_tokens(
    text: str, data: st.DataObject, character: str
) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=5)))
    broken = "".join(text[a:b] + character for a, b in zip([0, *cuts], cuts, strict=False))
    broken += text[cuts[-1] if cuts else 0 :]
    assert tokenize_lower(broken) == tokenize_lower(text)
    assert without_invisible(broken) == text


def test_control_characters_become_spaces_and_do_not_crash_the_cleaning() -> None:
    """A stray vertical tab after a hidden element crashed the cleaning (lxml refuses text
    with control characters); each one is a space, so the words beside it stay apart."""
    html = ("<html><body><article><p>The keepers wrote the time the lamp was lit, every "
            "night.</p><div hidden>Subscribe</div>\x0b<noscript>Enable it.</noscript>"
            "<p>Fog\x0cmeant the bell and\x01the bell meant\x00no sleep.</p>"
            "</article></body></html>")  # fmt: skip
    assert without_invisible("a\x0bb\x0cc\x1fd\ufffee\tf\ng") == "a b c d e\tf\ng"
    text = feedsift.extract(html).text
    assert "Fog meant the bell and the bell meant no sleep." in text
    assert "Subscribe" not in text
