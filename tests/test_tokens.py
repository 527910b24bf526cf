"""Tokeniser: Unicode words, one token per CJK character (Hypothesis properties)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from feedsift.text.tokens import CJK_RANGES, normalize_space, tokenize, tokenize_lower

_CJK = re.compile(f"[{CJK_RANGES}]")


def test_examples() -> None:
    assert tokenize("Hello, world! It's 2024.") == ["Hello", "world", "It", "s", "2024"]
    assert tokenize("你好世界") == ["你", "好", "世", "界"]
    assert tokenize("東京タワー is tall") == ["東", "京", "タ", "ワ", "ー", "is", "tall"]
    assert tokenize("café naïve Ünïcode") == ["café", "naïve", "Ünïcode"]
    assert tokenize_lower("ABC Déf") == ["abc", "déf"]
    assert tokenize(" \n\t ") == []


@given(st.text())
def test_tokens_are_words_and_cjk_singletons(text: str) -> None:
    for token in tokenize(text):
        assert token
        assert re.fullmatch(r"\w+", token)
        if _CJK.search(token):
            assert len(token) == 1


@given(st.text())
def test_tokens_appear_in_order(text: str) -> None:
    position = 0
    for token in tokenize(text):
        found = text.find(token, position)
        assert found >= position
        position = found + len(token)


@given(st.text(), st.text())
def test_tokenising_a_join_with_space_concatenates(a: str, b: str) -> None:
    assert tokenize(f"{a} {b}") == tokenize(a) + tokenize(b)


@given(st.text())
def test_whitespace_does_not_change_tokens(text: str) -> None:
    assert tokenize(normalize_space(text)) == tokenize(text)
    assert tokenize(text.replace(" ", "\n  ")) == tokenize(text)


#: The defining pattern: one token per CJK character, ``\w+`` runs of anything else.
DEFINITION = re.compile(f"(?=\\w)[{CJK_RANGES}]|[^\\W{CJK_RANGES}]+")


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.text(max_size=60))
def test_the_fast_paths_give_the_defining_tokens(text: str) -> None:
    assert tokenize(text) == DEFINITION.findall(text)
    assert tokenize(text + " 你好") == DEFINITION.findall(text + " 你好")  # the CJK path
