"""Share bars: short lines of links inside an element named for sharing.

A share bar ("Share: Mastodon Bluesky Email") sits between the headline and the first
paragraph in a ``div.share-bar``; a model that has not seen the site may keep the line.
After the classifier, a short block that is mostly links leaves the body when it or one of
its nearest ancestors has a class word (split at ``-`` and ``_``) that names sharing
(:data:`SHARE_WORDS`). The words are few and whole: the role vocabulary's wider ``SOCIAL``
words ("social", "follow", "email") match inside longer names and topics and would drop a
gallery's credit lines; ids are left out, since many are slugs of headings
("sharing-with-a-single-developer"), and so are a CMS's taxonomy classes.
"""

from __future__ import annotations

import re
from itertools import chain, islice

import numpy as np
from lxml import etree

from feedsift.extractors.signals import PageSignals
from feedsift.parsing.blocks import BlockView

__all__ = ["CONTROL_MAX_WORDS", "CONTROL_MIN_LINK", "SHARE_WORDS", "social_controls"]

#: Words of a class (split at ``-`` and ``_``) that name a box of share buttons.
SHARE_WORDS = frozenset({
    "share", "shares", "sharing", "sharebar", "sharethis", "sharedaddy", "addthis",
})  # fmt: skip
#: Class prefixes of a CMS's taxonomy ("tag-sharing-economy", "category-share-prices" on
#: WordPress' post element): a topic, not a box of buttons.
TAXONOMY_PREFIXES = ("tag-", "category-", "tag_", "category_")
#: Longest line, in words, read as a bar of buttons ("Share: Mastodon Bluesky Email": 4).
CONTROL_MAX_WORDS = 8
#: Least share of a line's words in links for it to be buttons, not a sentence about them.
CONTROL_MIN_LINK = 0.5
#: The block's element and this many ancestors are read for the box's name.
ANCESTORS_READ = 3
_WORD_SPLIT = re.compile(r"[_-]+")


def social_controls(view: BlockView, signals: PageSignals, kept: np.ndarray) -> np.ndarray:
    """Per block, whether a ``kept`` block is a short line of links in a share box."""
    found = np.zeros(signals.n, dtype=bool)
    short = kept & (signals.words <= CONTROL_MAX_WORDS) & (signals.link >= CONTROL_MIN_LINK)
    for i in np.flatnonzero(short):
        found[i] = _in_share_box(view.blocks[int(i)].element)
    return found


def _in_share_box(element: etree._Element) -> bool:
    for node in islice(chain((element,), element.iterancestors()), ANCESTORS_READ + 1):
        if any(_names_sharing(word) for word in (node.get("class") or "").lower().split()):
            return True
    return False


def _names_sharing(class_word: str) -> bool:
    return not class_word.startswith(TAXONOMY_PREFIXES) and not SHARE_WORDS.isdisjoint(
        _WORD_SPLIT.split(class_word)
    )
