"""Content fingerprints: exact hashes, SimHash and the near-duplicate index."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedsift.dedup import (
    NEAR_DUPLICATE_DISTANCE,
    NearDuplicateIndex,
    content_hash,
    hamming,
    simhash,
)
from feedsift.dedup.fingerprint import WordHashes, simhash_of_tokens
from feedsift.text.tokens import tokenize_lower


def _prose(seed: int, words: int = 1200) -> str:
    """A reproducible article-length text (SimHash's distance 3 is meant for such lengths)."""
    rnd = random.Random(seed)
    vocabulary = [f"{rnd.choice('bcdfglmnprst')}{rnd.choice('aeiou')}{n}" for n in range(400)]
    sentences = []
    for _ in range(words // 12):
        sentences.append(" ".join(rnd.choices(vocabulary, k=12)).capitalize() + ".")
    return " ".join(sentences)


def _edit(text: str) -> str:
    """The text with one word corrected, the kind of edit a republished article gets."""
    words = text.split()
    words[len(words) // 3] = "corrected"
    return " ".join(words)


ARTICLE = _prose(1)
EDITED = _edit(ARTICLE)
OTHER = _prose(2)


def test_content_hash_ignores_whitespace_case_and_punctuation() -> None:
    base = content_hash("Hello, World! This is a test.")
    assert base == content_hash("hello world\n\tthis   IS a -- test")
    assert base == hashlib.sha1(b"hello world this is a test").hexdigest()
    assert base != content_hash("Hello, World! This is a best.")
    assert base != content_hash("World, Hello! This is a test.")  # word order counts
    assert content_hash("") == content_hash(" ... ") == hashlib.sha1(b"").hexdigest()


def test_simhash_of_near_identical_texts_is_close() -> None:
    assert simhash(ARTICLE) == simhash(ARTICLE.upper().replace(" ", " \n "))
    assert hamming(simhash(ARTICLE), simhash(EDITED)) <= NEAR_DUPLICATE_DISTANCE
    # SimHash is a vote of the shingles: most, not all, one-word edits stay within 3 bits
    within = [
        hamming(simhash(text), simhash(_edit(text))) <= NEAR_DUPLICATE_DISTANCE
        for text in map(_prose, range(10, 40))
    ]
    assert sum(within) >= 0.9 * len(within)


def test_simhash_of_unrelated_texts_is_far() -> None:
    assert hamming(simhash(ARTICLE), simhash(OTHER)) > 10
    for seed in range(10, 20):
        assert hamming(simhash(ARTICLE), simhash(_prose(seed))) > NEAR_DUPLICATE_DISTANCE


def test_simhash_edge_cases() -> None:
    assert simhash("") == simhash(" ,.; ") == 0
    assert 0 <= simhash("one") < 1 << 64 and simhash("one") != 0
    assert simhash("one two", shingle=3) == simhash("one two", shingle=2)  # one short shingle
    assert simhash(ARTICLE, shingle=1) != simhash(ARTICLE, shingle=3)
    with pytest.raises(ValueError, match="shingle"):
        simhash(ARTICLE, shingle=0)


def test_simhash_is_stable_across_processes() -> None:
    # Python's salted hash() would change from process to process: run two with other seeds
    code = "from feedsift.dedup import simhash; print(simhash('Hello, brave new world!'))"
    values = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2")
    }  # fmt: skip
    assert values == {str(simhash("Hello, brave new world!"))}


def test_word_hashes_give_the_fingerprints_without_them() -> None:
    words = WordHashes()
    texts = [ARTICLE, EDITED, OTHER, "Straße 東京 one", "", "one", *map(_prose, range(3, 8))]
    for text in texts:
        tokens = tokenize_lower(text)
        for shingle in (1, 2, 3):
            assert simhash_of_tokens(tokens, shingle=shingle, words=words) == simhash(
                text, shingle=shingle)  # fmt: skip
    assert len(words) == len({w for text in texts for w in tokenize_lower(text)})


def test_word_hashes_start_afresh_when_full() -> None:
    words = WordHashes(capacity=50)
    for seed in range(5):
        tokens = tokenize_lower(_prose(seed, 300))
        assert simhash_of_tokens(tokens, words=words) == simhash_of_tokens(tokens)
        assert len(words) <= max(50, len(set(tokens)))
    words.hashes(["a", "b"])
    assert len(words) <= 50


def test_index_finds_the_near_duplicate_and_not_the_unrelated() -> None:
    index = NearDuplicateIndex()
    index.add(1, simhash(ARTICLE))
    index.add(2, simhash(OTHER))
    assert len(index) == 2
    assert index.find(simhash(EDITED)) == 1
    assert index.find(simhash(OTHER)) == 2
    assert index.find(simhash("A short text about railway timetables.")) is None
    assert NearDuplicateIndex().find(simhash(ARTICLE)) is None


def test_index_picks_the_closest_then_the_smallest_id() -> None:
    index = NearDuplicateIndex(max_distance=3)
    base = 0xF0F0_F0F0_F0F0_F0F0
    index.add(7, base ^ 0b111)  # distance 3
    index.add(9, base ^ 0b1)  # distance 1
    index.add(4, base ^ (1 << 63))  # distance 1, smaller id
    index.add(5, base ^ 0b1111)  # distance 4: out of reach
    assert index.find(base) == 4
    assert index.find(base ^ 0b1111) == 5
    assert index.find(base ^ (0b1111 << 30)) is None


def test_index_rejects_bad_input() -> None:
    index = NearDuplicateIndex()
    index.add(1, 0)
    with pytest.raises(ValueError, match="already"):
        index.add(1, 5)
    with pytest.raises(ValueError, match="64-bit"):
        index.add(2, 1 << 64)
    with pytest.raises(ValueError, match="64-bit"):
        index.find(-1)
    with pytest.raises(ValueError, match="max_distance"):
        NearDuplicateIndex(max_distance=64)


_FINGERPRINTS = st.integers(min_value=0, max_value=(1 << 64) - 1)


@given(_FINGERPRINTS, _FINGERPRINTS)
def test_hamming_is_symmetric_and_zero_on_self(a: int, b: int) -> None:
    assert hamming(a, b) == hamming(b, a)
    assert hamming(a, a) == 0
    assert (hamming(a, b) == 0) == (a == b)
    assert 0 <= hamming(a, b) <= 64


@given(_FINGERPRINTS, _FINGERPRINTS, _FINGERPRINTS)
def test_hamming_triangle_inequality(a: int, b: int, c: int) -> None:
    assert hamming(a, c) <= hamming(a, b) + hamming(b, c)


@given(
    st.integers(min_value=0, max_value=6),
    _FINGERPRINTS,
    st.sets(st.integers(min_value=0, max_value=63), max_size=8),
)
def test_index_finds_everything_within_distance(distance: int, base: int, flips: set[int]) -> None:
    """Banding is exact: a fingerprint within ``max_distance`` bits is always found."""
    index = NearDuplicateIndex(max_distance=distance)
    index.add(1, base)
    query = base
    for bit in flips:
        query ^= 1 << bit
    assert (index.find(query) == 1) == (len(flips) <= distance)
