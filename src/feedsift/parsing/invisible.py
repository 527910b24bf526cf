"""Characters a reader never sees, taken out of the markup before it is parsed.

A soft hyphen (U+00AD, ``&shy;``) only says where a browser may break a long word; German
and Dutch sites put one in every long word ("Mit&shy;tel&shy;al&shy;ter"). Kept, it
splits the word for every tokenizer and search index downstream and breaks phrase search
("Mittelalter" is not in "Mit\\u00adtel\\u00adal\\u00adter").
"""

from __future__ import annotations

import re

__all__ = ["SOFT_HYPHENS", "without_soft_hyphens"]

#: How markup writes a soft hyphen: the character and its entity and character references.
SOFT_HYPHENS = ("\u00ad", "&shy;", "&#173;", "&#xad;", "&#xAD;", "&#x00ad;", "&#x00AD;")
#: Any of the references among them: one search for their common ``&`` runs at the speed of
#: one substring scan, where a scan for each costs six (2% of a page, measured).
_REFERENCES = re.compile("|".join(re.escape(s) for s in SOFT_HYPHENS if s.startswith("&")))


def without_soft_hyphens(markup: str) -> str:
    """``markup`` without its soft hyphens (each spelling a scan in C, once one of them is
    found at all: most pages have none)."""
    if "\u00ad" not in markup and _REFERENCES.search(markup) is None:
        return markup
    for spelling in SOFT_HYPHENS:
        if spelling in markup:
            markup = markup.replace(spelling, "")
    return markup
