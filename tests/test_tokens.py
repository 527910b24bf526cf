"""Tokeniser: Unicode words, one token per CJK character (Hypothesis properties)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from feedsift.text.tokens import (
    CJK_RANGES,
    cjk_spacing_folded,
    normalize_space,
    tokenize,
    tokenize_lower,
)

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


@given(st.lists(st.sampled_from(["支持", "PHP", "Authing", "東京", "2024", "!"]), max_size=8),
       st.lists(st.sampled_from(["", " ", "  "]), min_size=8, max_size=8))  # fmt: skip
def test_spaces_beside_cjk_are_folded_and_others_kept(words: list[str], gaps: list[str]) -> None:
    spaced = "".join(w + g for w, g in zip(words, gaps, strict=False)).strip()
    plain = " ".join(words)
    folded = cjk_spacing_folded(spaced)
    assert cjk_spacing_folded(folded) == folded
    if all(g for g in gaps[: max(0, len(words) - 1)]):  # a space between every two words
        assert normalize_space(folded) == cjk_spacing_folded(plain)
    spaced_title, glued_title = "Authing 即日起支持 PHP", "Authing 即日起支持PHP"
    assert cjk_spacing_folded(spaced_title) == cjk_spacing_folded(glued_title)
    assert cjk_spacing_folded("Hello  world") == "Hello  world"  # no CJK: unchanged
