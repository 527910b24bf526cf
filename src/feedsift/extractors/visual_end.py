"""The post's visual end: where a rendered page's post stops when no keyword says so.

The title-finding paper ends a post either at a VIPS block or at a short block with a
post-end phrase ("Comments", "Posted by", "Next page"). The phrases are features of the
block classifier here (:data:`~feedsift.extractors.vocabulary.POST_END_PHRASES`,
:func:`~feedsift.extractors.signals.is_marker`), never a hard cut (docs/model.md). On a
page that has *no* such phrase after the title, the rendered page's visual segments
(:mod:`feedsift.rendering.segments`) give another end: the kept text of a post lies in a
run of segments from the title's on, and what the block classifier kept in segments after
that run (a related-posts list, an author box, a license notice in boxes of their own)
leaves the body.

**The post's run** starts at the title block's segment (at the first kept block's when
there is no title block) and ends at the last segment after it whose kept characters are
at least :data:`MIN_SEGMENT_SHARE` of the largest segment's (in words): segments inside the post
(a code box, a quotation, a paragraph after an ``<hr>``) are followed by more of the post
and stay in the run whatever their size; only the small segments after the last large
one are cut.
"""

from __future__ import annotations

import numpy as np

from feedsift.extractors.signals import PageSignals

__all__ = ["MIN_SEGMENT_SHARE", "after_visual_end"]

#: A segment after the title with at least this share of the kept words of the
#: largest segment is part of the post (chosen on half the ssg blogs and scored on the
#: other half, then swapped: docs/rendering.md, part 4).
MIN_SEGMENT_SHARE = 0.2


def after_visual_end(
    kept: np.ndarray, segment: np.ndarray, title: int, signals: PageSignals,
    share: float = MIN_SEGMENT_SHARE,
) -> np.ndarray | None:  # fmt: skip
    """The kept blocks that lie in segments after the post's run (a bool mask), or
    ``None`` when the rule does not apply: a post-end phrase follows the title, or
    nothing is kept after it. Segments are weighed by their kept blocks' words (a CJK
    character is a word)."""
    index = np.arange(len(kept))
    if bool((signals.marker[index > title] > 0).any()):
        return None
    after = kept & (index >= max(title, 0))
    if not after.any():
        return None
    first = int(segment[title]) if title >= 0 else int(segment[np.flatnonzero(after)[0]])
    per_segment = np.bincount(segment[after], weights=signals.words[after], minlength=first + 1)
    per_segment[:first] = 0.0
    large = np.flatnonzero(per_segment >= share * per_segment.max())
    end = int(large[-1])
    found: np.ndarray = kept & (segment > end)
    return found
