"""Scoring measures: LCS (checked against the textbook DP), shingles and snippets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedsift.evaluation.metrics import (
    PRF,
    SnippetCounts,
    lcs_length,
    lcs_prf,
    mean_prf,
    shingle_counts,
    shingle_prf,
    snippet_counts,
    snippet_prf,
)


def _lcs_dp(a: list[str], b: list[str]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        previous = 0
        for j, y in enumerate(b, 1):
            current = row[j]
            row[j] = previous + 1 if x == y else max(row[j], row[j - 1])
            previous = current
    return row[-1]


tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=40)


@given(tokens, tokens)
def test_bit_parallel_lcs_equals_dynamic_programming(a: list[str], b: list[str]) -> None:
    assert lcs_length(a, b) == _lcs_dp(a, b)


@given(tokens, tokens)
def test_lcs_is_symmetric_and_bounded(a: list[str], b: list[str]) -> None:
    assert lcs_length(a, b) == lcs_length(b, a) <= min(len(a), len(b))


def test_lcs_prf_values() -> None:
    score = lcs_prf("The cat sat on the mat", "the cat sat")
    assert score.precision == pytest.approx(3 / 6)
    assert score.recall == pytest.approx(1.0)
    assert score.f1 == pytest.approx(2 * 0.5 / 1.5)
    assert lcs_prf("", "gold text") == PRF(0.0, 0.0, 0.0)


def test_mean_prf_is_macro_average() -> None:
    mean = mean_prf([PRF(1.0, 0.5, 0.6), PRF(0.0, 0.5, 0.2)])
    assert mean == PRF(0.5, 0.5, pytest.approx(0.4))  # type: ignore[arg-type]


def test_shingles_follow_the_scrapinghub_benchmark() -> None:
    perfect = shingle_counts("a b c d e", "a b c d e")
    assert (perfect.tp, perfect.fp, perfect.fn) == (1.0, 0.0, 0.0)
    half = shingle_counts("a b c d x", "a b c d e")  # pred: abcd, bcdx; true: abcd, bcde
    assert (half.tp, half.fp, half.fn) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    empty = shingle_counts("", "a b c d e")
    assert empty.tp == 0 and empty.fn == 1.0
    prf = shingle_prf([perfect, half, empty])
    assert prf.precision == pytest.approx((1.0 + 0.5) / 2)  # the empty prediction is skipped
    assert prf.recall == pytest.approx((1.0 + 0.5 + 0.0) / 3)


def test_snippets_count_like_trafilatura() -> None:
    counts = snippet_counts("Alpha beta gamma.", ["beta", "delta"], ["gamma", "omega"])
    assert counts == SnippetCounts(tp=1, fn=1, fp=1, tn=1)
    assert snippet_counts("", ["x"], ["y"]) == SnippetCounts(tp=0, fn=1, fp=0, tn=1)
    total = counts + SnippetCounts(tp=3, fn=0, fp=0, tn=2)
    prf = snippet_prf(total)
    assert prf.precision == pytest.approx(4 / 5)
    assert prf.recall == pytest.approx(4 / 5)


def test_mean_of_skips_pages_without_gold() -> None:
    from feedsift.evaluation.metrics import mean_of

    assert mean_of([1.0, None, 0.0, True]).value == 2 / 3
    empty = mean_of([None, None])
    assert empty.count == 0 and empty.value != empty.value  # NaN over no page
