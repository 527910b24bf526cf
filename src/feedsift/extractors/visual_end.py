"""The post's visual end: where a rendered page's post stops when no keyword says so.

The title-finding paper ends a post either at a VIPS block or at a short block with a
post-end phrase ("Comments", "Posted by", "Next page"). The phrases are features of the
block classifier here (:data:`~feedsift.extractors.vocabulary.POST_END_PHRASES`,
:func:`~feedsift.extractors.signals.is_marker`), never a hard cut (docs/model.md). On a
page that has *no* such phrase after the title, the rendered page's visual segments
(:mod:`feedsift.rendering.segments`) give another end.

**The post's run** of segments starts at the title block's segment (at the first kept
block's when there is no title block) and ends at the last segment after it where the
block classifier is sure of what it kept: the mean content probability of the segment's
kept blocks is at least :data:`MIN_SEGMENT_SCORE`. Segments inside the post that the
classifier kept with little confidence (a table's cells, a code box) are followed by
more of the post and stay in the run; the kept blocks in the segments after the last sure
one (a list of other posts, an archive, a document-info box, each a visual block of its
own) leave the body. The size of a segment is no evidence: a rule "the run ends at the
last segment with a fifth of the largest one's words" cut the tails of posts after a
long middle section and lost on every setting tried (docs/rendering.md, part 4).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MIN_SEGMENT_SCORE", "after_visual_end"]

#: A segment after the title whose kept blocks have at least this mean content probability
#: is part of the post (chosen on half the ssg blogs and scored on the other half, then
#: swapped: docs/rendering.md, part 4; 0.6 won on both halves among 0.6-0.9).
MIN_SEGMENT_SCORE = 0.6


def after_visual_end(
    kept: np.ndarray, segment: np.ndarray, title: int, marker: np.ndarray, scores: np.ndarray
) -> np.ndarray | None:
    """The kept blocks (``kept``, a bool mask) that lie in segments after the post's run,
    given each block's segment number, the title block (-1: none), the post-end phrase
    flags (:attr:`PageSignals.marker <feedsift.extractors.signals.PageSignals.marker>`)
    and the block classifier's content probabilities; ``None`` when the rule does not
    apply: a post-end phrase follows the title, nothing is kept after it, or no segment
    after it is sure."""
    index = np.arange(len(kept))
    if bool((marker[index > title] > 0).any()):
        return None
    after = kept & (index >= max(title, 0))
    if not after.any():
        return None
    first = int(segment[title]) if title >= 0 else int(segment[np.flatnonzero(after)[0]])
    sure = _sure_segments(segment[after], scores[after], int(segment.max()) + 1)
    sure[:first] = False
    if not sure.any():
        return None
    end = int(np.flatnonzero(sure)[-1])
    found: np.ndarray = kept & (segment > end)
    return found


def _sure_segments(segment: np.ndarray, scores: np.ndarray, count: int) -> np.ndarray:
    """Per segment, whether its (kept) blocks' mean score reaches :data:`MIN_SEGMENT_SCORE`."""
    blocks = np.bincount(segment, minlength=count)
    total = np.bincount(segment, weights=scores, minlength=count)
    mean = np.divide(total, blocks, out=np.zeros(count), where=blocks > 0)
    found: np.ndarray = (blocks > 0) & (mean >= MIN_SEGMENT_SCORE)
    return found
