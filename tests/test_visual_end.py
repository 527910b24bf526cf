"""The post's visual end on synthetic segments and scores: which kept blocks leave."""

from __future__ import annotations

import numpy as np

from feedsift.extractors.page import DROP_AFTER_VISUAL_END
from feedsift.extractors.visual_end import MIN_SEGMENT_SCORE, after_visual_end

SURE, UNSURE = 0.95, MIN_SEGMENT_SCORE - 0.1


def _run(segment: list[int], scores: list[float], title: int = 0,
         markers: tuple[int, ...] = ()) -> list[int] | None:  # fmt: skip
    n = len(segment)
    kept = np.array([s >= MIN_SEGMENT_SCORE - 0.2 for s in scores]) & (np.arange(n) != title)
    marker = np.zeros(n)
    marker[list(markers)] = 1.0
    found = after_visual_end(kept, np.array(segment), title, marker, np.array(scores))
    return None if found is None else np.flatnonzero(found).tolist()


def test_kept_blocks_after_the_last_sure_segment_leave() -> None:
    #          title  post........  related box (kept, unsure)
    segment = [0, 0, 0, 1, 1]
    scores = [SURE, SURE, SURE, UNSURE, UNSURE]
    assert _run(segment, scores) == [3, 4]
    assert not DROP_AFTER_VISUAL_END  # an option, off by default (docs/rendering.md, part 4)


def test_an_unsure_segment_inside_the_post_stays() -> None:
    segment = [0, 0, 1, 2, 3]  # a code box (1) between two parts of the post
    scores = [SURE, SURE, UNSURE, SURE, UNSURE]
    assert _run(segment, scores) == [4]


def test_a_post_end_phrase_after_the_title_leaves_the_end_to_the_classifier() -> None:
    segment, scores = [0, 0, 0, 1, 1], [SURE, SURE, SURE, UNSURE, UNSURE]
    assert _run(segment, scores, markers=(3,)) is None
    assert _run(segment, scores, markers=(0,)) == [3, 4]  # before the title: no end


def test_without_a_title_block_the_run_starts_at_the_first_kept_block() -> None:
    segment = [0, 1, 1, 2]
    scores = [0.0, SURE, SURE, UNSURE]
    assert _run(segment, scores, title=-1) == [3]


def test_nothing_sure_after_the_title_changes_nothing() -> None:
    assert _run([0, 1, 1], [SURE, UNSURE, UNSURE]) is None
    assert _run([0, 0, 0], [SURE, SURE, SURE]) == []
