"""Per-block signals: the word counts the models read."""

from __future__ import annotations

import pytest

from feedsift.api import bundled_extractor
from feedsift.extractors.signals import CJK_WORD_WEIGHT
from feedsift.parsing.page import parse_page

#: 37 CJK characters: a typical Japanese headline in a list of related links.
HEADLINE = "石破内閣が長続きするこれだけの理由と日本の政治の行方を読む記事の見出しです"


def _words(html: str) -> list[float]:
    page = parse_page(html)
    return bundled_extractor().decide(page).analysis.signals.words.tolist()


def test_a_latin_block_counts_its_tokens() -> None:
    assert _words("<body><p>Seven words in this plain English line.</p></body>") == [7.0]


def test_cjk_characters_count_part_of_a_word() -> None:
    n = len(HEADLINE)
    assert _words(f"<body><p>{HEADLINE}</p></body>") == [pytest.approx(n * CJK_WORD_WEIGHT)]
    # mixed: the Latin tokens count whole, the characters at the weight
    assert _words(f"<body><p>MLB {HEADLINE}</p></body>") == [
        pytest.approx(1 + n * CJK_WORD_WEIGHT)
    ]
