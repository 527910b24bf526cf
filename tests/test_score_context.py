"""The second look's features: what the first look thought around each block."""

from __future__ import annotations

import numpy as np
import pytest

from feedsift.extractors.pipeline import PageAnalysis, analyse_page
from feedsift.extractors.score_context import (
    CONTEXT_FEATURES,
    SURE_SCORE,
    score_context_features,
)
from feedsift.parsing.page import parse_page

PAGE = """<html><body>
<div id="main"><h1>The title of the post</h1>
<p>The first paragraph of the post, long enough to be prose for anybody.</p>
<p>The second paragraph of the post, also long enough to be prose here.</p>
<p>The third paragraph of the post closes the article with a sentence.</p></div>
<div id="side"><p>Poll: what is hardest?</p><ul><li>Finding an idea.</li>
<li>Deciding pricing.</li></ul></div>
</body></html>"""


@pytest.fixture(scope="module")
def analysis() -> PageAnalysis:
    return analyse_page(parse_page(PAGE, "https://example.org/post"))


def _column(features: np.ndarray, name: str) -> np.ndarray:
    column: np.ndarray = features[:, CONTEXT_FEATURES.index(name)]
    return column


def _scores(analysis: PageAnalysis) -> np.ndarray:
    texts = [b.text for b in analysis.page.view.blocks]
    assert texts[1].startswith("The first") and texts[4].startswith("Poll")
    return np.array([0.3, 0.9, 0.95, 0.85, 0.5, 0.2, 0.1])


def test_one_row_per_block_and_one_column_per_name(analysis: PageAnalysis) -> None:
    features = score_context_features(analysis.signals, analysis.table, _scores(analysis))
    assert features.shape == (7, len(CONTEXT_FEATURES))
    assert features.dtype == np.float32


def test_neighbours_and_windows_read_the_first_look(analysis: PageAnalysis) -> None:
    scores = _scores(analysis)
    features = score_context_features(analysis.signals, analysis.table, scores)
    np.testing.assert_allclose(_column(features, "score"), scores, rtol=1e-6)
    np.testing.assert_allclose(_column(features, "score at -1")[1:], scores[:-1], rtol=1e-6)
    assert _column(features, "score at -1")[0] == 0.0  # nothing before the first block
    assert _column(features, "score at +2")[-1] == 0.0
    assert _column(features, "mean score within 15")[0] == pytest.approx(scores.mean())


def test_containers_and_the_core_tell_the_sidebar_from_the_post(
    analysis: PageAnalysis,
) -> None:
    features = score_context_features(analysis.signals, analysis.table, _scores(analysis))
    core = _column(features, "inside the content core")
    assert core[1:4].tolist() == [1.0, 1.0, 1.0]  # the post's paragraphs
    assert core[4:].tolist() == [0.0, 0.0, 0.0]  # the poll beside it
    assert (_column(features, "depth below the content core")[4:] == -1.0).all()
    kept = _column(features, "container 1 kept share")
    assert kept[2] > 0.8  # the post, its title aside, is kept
    assert kept[5] < 0.2  # the poll is not


def test_distances_to_sure_blocks(analysis: PageAnalysis) -> None:
    scores = _scores(analysis)
    features = score_context_features(analysis.signals, analysis.table, scores)
    assert (scores >= SURE_SCORE).tolist() == [False, True, True, True, False, False, False]
    assert _column(features, "blocks to a sure block before")[6] == pytest.approx(np.log1p(3))
    assert _column(features, "blocks to a sure block after")[0] == pytest.approx(np.log1p(1))
    between = _column(features, "between the first and last sure blocks")
    assert between.tolist() == [0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]


def test_a_page_without_a_sure_block_is_far_from_everything(analysis: PageAnalysis) -> None:
    scores = np.full(7, 0.2)
    features = score_context_features(analysis.signals, analysis.table, scores)
    np.testing.assert_allclose(_column(features, "blocks to a sure block before"), np.log1p(7))
    assert (_column(features, "between the first and last sure blocks") == 0.0).all()
    assert (_column(features, "inside the content core") == 0.0).all()  # nothing kept


def test_an_empty_page_has_no_rows() -> None:
    empty = analyse_page(parse_page("<html><body></body></html>", None))
    features = score_context_features(empty.signals, empty.table, np.zeros(0))
    assert features.shape == (0, len(CONTEXT_FEATURES))
