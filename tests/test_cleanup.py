"""The tidy stage: bylines and stray labels leave the kept blocks."""

from __future__ import annotations

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.extractors.cleanup import tidy_body
from feedsift.parsing.page import parse_page

PROSE = ("<p>The council voted on Monday night to float four thousand solar panels on the "
         "disused reservoir above the town, a pilot that could power a fifth of its homes.</p>")


def _left(body: str) -> list[str]:
    """The texts tidy_body keeps when every block of ``body`` was kept."""
    page = parse_page(f"<html><body><article>{body}</article></body></html>")
    signals = bundled_extractor().decide(page).analysis.signals
    texts = [b.text for b in page.view.blocks]
    kept = tidy_body(texts, signals, np.ones(len(texts), dtype=bool))
    return [t for t, k in zip(texts, kept, strict=True) if k]


def test_a_byline_before_the_prose_leaves() -> None:
    assert _left(f"<p>By Ann Lee</p>{PROSE}") == [PROSE[3:-4]]


def test_a_dated_byline_after_the_standfirst_leaves() -> None:
    byline = "<p>By Priya Ramaswamy, Local Government Reporter 14 May 2024, 7.30am</p>"
    assert _left(PROSE + byline + PROSE) == [PROSE[3:-4]] * 2


def test_a_sentence_that_opens_with_by_and_a_date_stays() -> None:
    sentence = "<p>By 14 May 2024 the council will have decided.</p>"
    undated = "<p>By then the panels will be floating</p>"
    assert _left(PROSE + sentence + undated) == [PROSE[3:-4], sentence[3:-4], undated[3:-4]]


def test_stray_labels_leave() -> None:
    assert _left(f"{PROSE}<p>Advertisement</p><p>Read more</p>") == [PROSE[3:-4]]
