"""Soft hyphens leave the markup before parsing and are ignored by the measure's tokens."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import feedsift
from feedsift.parsing.invisible import SOFT_HYPHENS, without_soft_hyphens
from feedsift.parsing.page import parse_page
from feedsift.text.tokens import tokenize_lower

PARAGRAPH = (
    "<p>Schon im Mit{s}tel{s}al{s}ter war der St. Mag{s}da{s}le{s}ner das Aus{s}hän{s}ge{s}"
    "schild der Süd{s}ti{s}ro{s}ler Wein{s}wirt{s}schaft, und das blieb er lange Zeit.</p>"
)


def test_every_spelling_of_a_soft_hyphen_leaves_the_page_text() -> None:
    for spelling in SOFT_HYPHENS:
        html = f"<html><body><main>{PARAGRAPH.format(s=spelling) * 4}</main></body></html>"
        texts = [block.text for block in parse_page(html).view.blocks]
        assert texts[0].startswith("Schon im Mittelalter war der St. Magdalener")
        assert "\u00ad" not in feedsift.extract(html).text


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöü ", min_size=1), st.data())
def test_soft_hyphens_anywhere_do_not_change_the_tokens(text: str, data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=5)))
    hyphenated = "".join(text[a:b] + "\u00ad" for a, b in zip([0, *cuts], cuts, strict=False))
    hyphenated += text[cuts[-1] if cuts else 0 :]
    assert tokenize_lower(hyphenated) == tokenize_lower(text)
    assert without_soft_hyphens(hyphenated) == text
