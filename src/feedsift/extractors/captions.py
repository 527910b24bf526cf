"""Figure captions leave the text of a page that is one piece of content.

A ``<figcaption>`` says what a picture shows and who took it ("Protesters in Paris on
Tuesday. Photo: AFP"): it is not a sentence of the story. Most gold sets leave captions out
(on the train splits, the share of ``<figcaption>`` words that gold keeps: Fundus 0.01,
`wceb2026` 0.23; Readability's 0.66 is the exception), trafilatura leaves them out, and the
block classifier, meeting a set's captions for the first time, keeps a part of them. On a
page that is one piece of content (an article, a forum thread, a product page ...), blocks
inside a ``<figcaption>`` leave the text, unless they are most of it (a photo post whose
words are its captions). Captions named only by a class ("embed-caption") stay with the
classifier: gold keeps such boxes on some sets.
"""

from __future__ import annotations

import numpy as np

from feedsift.extractors.boxes import tagged_box_blocks
from feedsift.parsing.blocks import BlockView

__all__ = ["CAPTION_TAGS", "caption_blocks", "without_captions"]

#: Elements that caption a figure (HTML's own; ``<caption>`` titles a table and stays).
CAPTION_TAGS = frozenset({"figcaption"})


def caption_blocks(view: BlockView) -> np.ndarray:
    """Per block: whether it lies inside a figure's caption (no caption holds a body)."""
    return tagged_box_blocks(view, -1, CAPTION_TAGS)


def without_captions(view: BlockView, shown: np.ndarray, words: np.ndarray) -> np.ndarray:
    """``shown`` less its caption blocks, when the other shown blocks hold more words than
    the captions do (a body made mostly of captions keeps them: they are its text)."""
    captions = caption_blocks(view) & shown
    if not captions.any():
        return shown
    kept: np.ndarray = shown & ~captions
    if float(words[kept].sum()) <= float(words[captions].sum()):
        return shown
    return kept
