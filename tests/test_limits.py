"""Size limits of the parsing stage: huge pages are cut before parsing, and say so."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import feedsift
from feedsift.parsing.dom import MAX_HTML_CHARS
from feedsift.parsing.limits import (
    MAX_ELEMENTS,
    MAX_WORDS,
    PageLimits,
    _may_exceed,
    _word_bound,
    cut_text,
)
from feedsift.parsing.page import parse_page
from feedsift.text.tokens import tokenize

ARTICLE = (
    "<html><head><title>Radio notes</title></head><body><article><h1>Radio notes</h1>"
    + "".join(
        f"<p>Paragraph {i} of the notes, about the kitchen radio and its valves.</p>"
        for i in range(40)
    )
    + "</article></body></html>"
)


def test_a_page_within_the_limits_is_not_cut() -> None:
    text, why = cut_text(ARTICLE, PageLimits())
    assert text is ARTICLE
    assert why is None
    assert parse_page(ARTICLE).truncated is None


def test_too_many_elements_cut_before_the_first_tag_past_the_limit() -> None:
    text, why = cut_text(ARTICLE, PageLimits(max_elements=10))
    assert ARTICLE.startswith(text)
    assert ARTICLE[len(text) :].startswith("<p>")
    assert text.count("<p>") == 10 - 6  # html, head, title, body, article, h1 before them
    assert why == f"page cut at {len(text):,} characters: more than 10 elements"


def test_too_many_characters() -> None:
    text, why = cut_text(ARTICLE, PageLimits(max_chars=300))
    assert text == ARTICLE[:300]
    assert why is not None
    assert f"longer than 300 characters ({len(ARTICLE):,})" in why


def test_both_limits_are_reported() -> None:
    _, why = cut_text(ARTICLE, PageLimits(max_chars=1000, max_elements=8))
    assert why is not None
    assert "characters (" in why
    assert "more than 8 elements" in why


def test_defaults_leave_room_above_the_benchmarks() -> None:
    """The largest benchmark page has 3.4 million characters, 516,610 words (markup
    included) and 14,396 start tags."""
    assert PageLimits() == PageLimits(MAX_HTML_CHARS, MAX_ELEMENTS, MAX_WORDS)
    assert MAX_ELEMENTS >= 3 * 14_396
    assert MAX_HTML_CHARS >= 2 * 3_400_000
    assert MAX_WORDS >= 2 * 516_610
    many = "<p>x" * (MAX_ELEMENTS + 1)
    text, why = cut_text(many, PageLimits())
    assert len(text) == 4 * MAX_ELEMENTS
    assert why is not None


def test_too_many_words_cut_before_the_tag_ahead_of_the_next_word() -> None:
    # 18 words of markup and heading, 10 in paragraph 0 (with its two p), then "Paragraph 1"
    text, why = cut_text(ARTICLE, PageLimits(max_words=30))
    assert text.endswith("Paragraph 0 of the notes, about the kitchen radio and its valves.</p>")
    assert why == f"page cut at {len(text):,} characters: more than 30 words"


def test_cjk_characters_are_words_each() -> None:
    page = "<p>" + "灯塔看守人" * 10 + "</p>"
    text, why = cut_text(page, PageLimits(max_words=12))
    assert text == "<p>" + "灯塔看守人" * 2 + "灯"  # <p> is one word, no tag inside the text
    assert why is not None


@pytest.mark.parametrize("limits", [(0, 10, 10), (10, 0, 10), (10, 10, 0), (-1, -1, -1)])
def test_limits_must_be_positive(limits: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError, match="positive"):
        PageLimits(*limits)


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="<>/pa xé\n", max_size=200),
    st.integers(1, 40),
    st.integers(1, 30),
)
def test_the_cut_is_a_prefix_that_ends_before_a_start_tag(
    text: str, max_chars: int, max_elements: int
) -> None:
    cut, why = cut_text(text, PageLimits(max_chars, max_elements))
    assert text.startswith(cut)
    assert len(cut) <= max_chars
    assert (why is None) == (cut == text)
    rest = text[len(cut) :]
    assert not rest or len(cut) == max_chars or (rest[0] == "<" and rest[1].isalpha())


def test_parse_page_keeps_only_the_cut_text() -> None:
    page = parse_page(ARTICLE.encode(), limits=PageLimits(max_elements=10))
    assert page.truncated is not None
    assert len(page.decoded.text) < len(ARTICLE)
    paragraphs = [b.text for b in page.view.blocks if b.tag == "p"]
    assert paragraphs == [f"Paragraph {i} of the notes, about the kitchen radio and its valves."
                          for i in range(4)]  # fmt: skip


def test_extract_says_the_page_was_cut() -> None:
    article = feedsift.extract(ARTICLE, limits=PageLimits(max_elements=20))
    assert article.truncated is not None
    assert "more than 20 elements" in article.truncated
    assert "Paragraph 13 " in article.text
    assert "Paragraph 14 " not in article.text
    assert feedsift.extract(ARTICLE).truncated is None


#: Latin letters, digits, separators, a Latin-1 letter, Han, kana, CJK punctuation, Hangul.
_MIXED = "ab9 .,<>\u00e9\u4e2d\u6587\u3042\u3002\uac00-"


@given(st.text(alphabet=st.sampled_from(_MIXED), max_size=80))
@settings(max_examples=300, deadline=None)
def test_the_word_bound_never_counts_fewer_words_than_there_are(text: str) -> None:
    words = len(tokenize(text))
    for limit in range(max(0, words - 2), words + 2):
        if words > limit:
            assert _may_exceed(text, limit), (text, limit)


def test_a_long_page_of_few_words_is_not_counted() -> None:
    assert not _may_exceed("<p>word</p> " * 180_000, MAX_WORDS)  # 2.2 M characters
    assert _may_exceed("\u4e2d" * (MAX_WORDS + 1), MAX_WORDS)


#: Besides :data:`_MIXED`: an underscore, Cyrillic, an Arabic digit, supplementary Han, a
#: combining mark and a space of another script (each a word character or a separator).
_WIDER = _MIXED + "_\u0436\u0661\U00020001\u0301\u3000"


@given(st.text(alphabet=st.sampled_from(_WIDER), max_size=80))
@settings(max_examples=300, deadline=None)
def test_the_byte_level_word_bound_is_never_below_the_token_count(text: str) -> None:
    assert _word_bound(text) >= len(tokenize(text))
