"""Word classes of tokens: the packed codes, the cache, the per-block shares."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from feedsift.extractors.token_classes import (
    LENGTH_SHIFT,
    TokenClassCache,
    token_code,
    token_shares,
)
from feedsift.parsing.blocks import text_blocks
from feedsift.parsing.page import parse_page
from feedsift.text.tokens import tokenize


def test_a_code_packs_the_classes_and_the_length() -> None:
    assert token_code("the") & 1  # a stopword
    assert token_code("Paris") & 2 and not token_code("Paris") & 1
    assert token_code("2024") & 4 and token_code("2024") >> LENGTH_SHIFT == 4
    assert token_code("mot") & 7 == 0


def test_shares_per_block() -> None:
    page = parse_page("<html><body><p>The cat sat on 3 mats</p><p>Paris 2024</p></body></html>")
    shares = token_shares(page.view.blocks)
    stop, upper, digit, length = shares[0]
    assert stop == 2 / 6 and upper == 1 / 6 and digit == 1 / 6  # "The", "on"; "The"; "3"
    assert length == sum(map(len, "The cat sat on 3 mats".split())) / 6
    assert shares[1].tolist() == [0.0, 0.5, 0.5, 4.5]


@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=8))
def test_a_cache_gives_the_codes_computed_afresh(texts: list[str]) -> None:
    tokens = [t for text in texts for t in tokenize(text)]
    small = TokenClassCache(max_entries=3)  # replaced again and again
    for _ in range(2):
        assert small.codes(tokens).tolist() == [token_code(t) for t in tokens]


def test_a_warm_cache_changes_nothing() -> None:
    html = "<html><body>" + "".join(f"<p>Word {i} of the Page</p>" for i in range(30)) + "</body>"
    blocks = text_blocks(parse_page(html).body).blocks
    cache = TokenClassCache()
    cold = token_shares(blocks, cache)
    assert np.array_equal(token_shares(blocks, cache), cold)
    assert np.array_equal(token_shares(blocks), cold)
