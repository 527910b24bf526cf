"""Silver titles: the headline of a gold page whose gold set gives its text but no title.

Dragnet, CleanPortalEval and CleanEval give each page's main text and no title, and their
pages (news and blogs of 2007-2013, portals' article pages) are the kind whose titles are
hardest: no structured metadata, the site's name and section around the headline in the
``<title>``, a section's name in the ``<h1>``. Their gold text most often opens with the
headline as the reader saw it, so the headline is known where one of the text's first lines
is also one of the page's title strings (a ``<title>`` part, an ``og:title``, a heading).
That line is the page's title for training the title stages; the datasets' own test splits
still report no title (their gold has none).
"""

from __future__ import annotations

from collections.abc import Iterable

from feedsift.metadata.record import TitleCandidate
from feedsift.metadata.textdates import find_text_date
from feedsift.text.tokens import lenient_title, normalize_space

__all__ = ["SILVER_LINES", "silver_title"]

#: Gold lines looked at from the top: a headline comes first, after a date or kicker line.
SILVER_LINES = 4
#: A headline's length in words: shorter is a section's or site's name ("Technology"),
#: longer is a paragraph.
MIN_WORDS, MAX_WORDS = 3, 30


def _headline_like(line: str) -> bool:
    words = len(line.split())
    return MIN_WORDS <= words <= MAX_WORDS and find_text_date(line) is None


def silver_title(gold_text: str, candidates: Iterable[TitleCandidate]) -> str | None:
    """The first of the gold text's opening lines that is one of the page's title strings
    (compared as titles are: case, quotes and dashes folded), in the page's own spelling."""
    strings = {lenient_title(c.text): c.text for c in reversed(list(candidates)) if c.text}
    lines = [normalize_space(x) for x in gold_text.splitlines() if x.strip()]
    for line in lines[:SILVER_LINES]:
        found = strings.get(lenient_title(line))
        if found is not None and _headline_like(line):
            return found
    return None
