"""Visual segments (VIPS-like) on synthetic measured blocks: the cues that cut and those
that do not."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from feedsift.rendering.measure import BlockMeasure
from feedsift.rendering.segments import (
    BACKGROUND_TOLERANCE,
    GAP_FONT_SIZES,
    SegmentOptions,
    segment_index,
    visual_segments,
)

WHITE = (255.0, 255.0, 255.0)


#: A shown block 600 px wide at x 100, 24 px high, 16 px text on white.
_BASE = BlockMeasure(100.0, 0.0, 600.0, 24.0, 16.0, False, True, 21.0, True, "owner")


def _block(y: float, **changes: Any) -> BlockMeasure:
    return dataclasses.replace(_BASE, y=y, **changes)


def _cuts(
    blocks: list[BlockMeasure], options: SegmentOptions | None = None
) -> list[tuple[int, str]]:
    return [(s.start, s.cut) for s in visual_segments(blocks, options)]


def test_a_column_of_paragraphs_is_one_segment() -> None:
    blocks = [_block(100.0 + 40 * i) for i in range(5)]
    (only,) = visual_segments(blocks)
    assert (only.start, only.stop, only.cut, only.shown) == (0, 5, "first", 5)
    assert (only.top, only.bottom) == (100.0, 284.0)


def test_a_separator_cuts() -> None:
    blocks = [_block(100), _block(140), _block(180, separator_above=True), _block(220)]
    assert _cuts(blocks) == [(0, "first"), (2, "separator")]


def test_a_separator_above_a_hidden_block_cuts_before_the_next_shown_one() -> None:
    blocks = [_block(100), _block(0, separator_above=True, visible=False), _block(140)]
    segments = visual_segments(blocks)
    assert [(s.start, s.stop, s.cut) for s in segments] == [(0, 2, "first"), (2, 3, "separator")]
    assert segments[0].shown == 1  # the hidden block joined the segment before it


def test_a_background_change_cuts_but_a_near_white_shade_does_not() -> None:
    grey, near_white = (240.0, 240.0, 240.0), (252.0, 252.0, 252.0)
    assert np.linalg.norm(np.subtract(WHITE, near_white)) < BACKGROUND_TOLERANCE
    blocks = [_block(100), _block(140, background=near_white), _block(180, background=grey),
              _block(220, background=grey), _block(260)]  # fmt: skip
    assert _cuts(blocks) == [(0, "first"), (2, "background"), (4, "background")]
    assert visual_segments(blocks)[1].background == grey


def test_a_gap_cuts_relative_to_the_font_size() -> None:
    gap = GAP_FONT_SIZES * 16 + 10  # wider than the limit at 16 px, narrower at 24 px
    small = [_block(100), _block(124 + gap)]
    large = [_block(100, font_size=24), _block(124 + gap, font_size=24)]
    assert _cuts(small) == [(0, "first"), (1, "gap")]
    assert _cuts(large) == [(0, "first")]
    assert _cuts(small, SegmentOptions(gap_font_sizes=10)) == [(0, "first")]


def test_a_block_beside_or_above_the_last_starts_a_column() -> None:
    beside = [_block(100, width=600.0), _block(100, x=800.0, width=200.0)]
    above = [_block(900), _block(100, x=120.0)]
    assert _cuts(beside) == [(0, "first"), (1, "column")]
    assert _cuts(above) == [(0, "first"), (1, "column")]


def test_segment_index_numbers_every_block() -> None:
    blocks = [_block(100), _block(140, separator_above=True), _block(0, visible=False), _block(180)]
    segments = visual_segments(blocks)
    assert segment_index(segments, len(blocks)).tolist() == [0, 1, 1, 1]
    assert visual_segments([]) == ()
