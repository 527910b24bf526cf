"""Visual blocks: a VIPS-like segmentation of a rendered page's text blocks.

VIPS (Cai et al., "Extracting Content Structure for Web Pages Based on Visual
Representation") cuts a page into visual blocks at its *visual separators*: ruled lines,
changes of background, wide gaps, the edges of columns. Here the cuts are read off the
measured text blocks (:class:`~feedsift.rendering.measure.BlockMeasure`) in document order,
which is enough for what the segments are used for (where a post ends): one flat level of
segments, no block tree.

Between two consecutive *shown* blocks a new segment starts when

- a separator lies between them (an ``<hr>``, or the border of an element that ends or
  starts between them: ``separator_above`` of any block after the first, hidden ones
  included, since their borders were only counted when drawn);
- the background colour behind their text differs (:data:`BACKGROUND_TOLERANCE`);
- the vertical gap between the first's bottom and the second's top exceeds
  :data:`GAP_FONT_SIZES` times the larger of their font sizes;
- the second does not continue the first's column: it starts above the first's top or
  does not overlap it horizontally (a sidebar after the article in the source).

A block the page does not show joins the segment of the shown block before it (or the
first segment), so the segments cover every block in contiguous runs of document order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from feedsift.rendering.measure import BlockMeasure

__all__ = [
    "BACKGROUND_TOLERANCE",
    "COLUMN_SLACK_PX",
    "GAP_FONT_SIZES",
    "SegmentCut",
    "SegmentOptions",
    "VisualSegment",
    "segment_index",
    "visual_segments",
]

#: Why a segment starts: the page's first, or the cue between it and the segment before.
SegmentCut = Literal["first", "separator", "background", "gap", "column"]

#: Largest distance between two background colours (Euclidean, RGB 0-255) that still
#: counts as the same background: anti-aliased or near-white shades a reader does not see
#: as a new box (#fff against #fcfcfc is 5.2; #fff against #f5f5f5, a code box, 17.3).
BACKGROUND_TOLERANCE = 12.0
#: A gap wider than this many font sizes (the larger of the two blocks') between two
#: blocks cuts them apart: paragraph and heading margins stay within 2-3 em.
GAP_FONT_SIZES = 4.0
#: A block starting this many px above the previous block's top starts a new column
#: (less is rounding and inline boxes overlapping).
COLUMN_SLACK_PX = 4.0


@dataclass(frozen=True, slots=True)
class SegmentOptions:
    """The thresholds of :func:`visual_segments` (the module's constants by default)."""

    background_tolerance: float = BACKGROUND_TOLERANCE
    gap_font_sizes: float = GAP_FONT_SIZES
    column_slack_px: float = COLUMN_SLACK_PX


@dataclass(frozen=True, slots=True)
class VisualSegment:
    """A run of blocks ``start`` to ``stop - 1`` (document order) that look like one box."""

    start: int  #: its first block
    stop: int  #: one past its last block
    top: float  #: CSS px: the top of its highest shown block
    bottom: float  #: CSS px: the bottom of its lowest shown block
    background: tuple[float, float, float]  #: behind its first shown block
    cut: SegmentCut  #: why it starts
    shown: int  #: blocks in it the page shows

    def __contains__(self, block: object) -> bool:
        return isinstance(block, int) and self.start <= block < self.stop


def _cut(
    before: BlockMeasure, after: BlockMeasure, separator: bool, options: SegmentOptions
) -> SegmentCut | None:
    """Why ``after`` starts a new segment after ``before`` (both shown), or ``None``."""
    if separator:
        return "separator"
    distance = float(np.linalg.norm(np.subtract(before.background, after.background)))
    if distance > options.background_tolerance:
        return "background"
    if after.y < before.y - options.column_slack_px:
        return "column"
    if after.x >= before.x + before.width or after.x + after.width <= before.x:
        return "column"
    gap = after.y - (before.y + before.height)
    if gap > options.gap_font_sizes * max(before.font_size, after.font_size):
        return "gap"
    return None


def _starts(
    blocks: Sequence[BlockMeasure], options: SegmentOptions
) -> list[tuple[int, SegmentCut]]:
    """The first block of every segment and why it starts there."""
    starts: list[tuple[int, SegmentCut]] = [(0, "first")]
    previous: int | None = None
    separator = False
    for i, block in enumerate(blocks):
        separator = separator or (i > 0 and block.separator_above)
        if not block.visible:
            continue
        if previous is not None:
            cut = _cut(blocks[previous], block, separator, options)
            if cut is not None:
                starts.append((i, cut))
        previous, separator = i, False
    return starts


def visual_segments(
    blocks: Sequence[BlockMeasure], options: SegmentOptions | None = None
) -> tuple[VisualSegment, ...]:
    """The page's visual segments, covering every block in document order."""
    if not blocks:
        return ()
    starts = _starts(blocks, options or SegmentOptions())
    stops = [s for s, _ in starts[1:]] + [len(blocks)]
    return tuple(_segment(blocks, start, stop, cut)
                 for (start, cut), stop in zip(starts, stops, strict=True))  # fmt: skip


def _segment(
    blocks: Sequence[BlockMeasure], start: int, stop: int, cut: SegmentCut
) -> VisualSegment:
    shown = [b for b in blocks[start:stop] if b.visible]
    if not shown:
        return VisualSegment(start, stop, 0.0, 0.0, (255.0, 255.0, 255.0), cut, 0)
    top = min(b.y for b in shown)
    bottom = max(b.y + b.height for b in shown)
    return VisualSegment(start, stop, top, bottom, shown[0].background, cut, len(shown))


def segment_index(segments: Sequence[VisualSegment], blocks: int) -> np.ndarray:
    """Per block, the index of the segment holding it (an int array of length ``blocks``)."""
    found = np.zeros(blocks, dtype=np.intp)
    for number, segment in enumerate(segments):
        found[segment.start : segment.stop] = number
    return found
