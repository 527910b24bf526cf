"""Characters a reader never sees, taken out of the markup before it is parsed.

A soft hyphen (U+00AD, ``&shy;``) only says where a browser may break a long word; German
and Dutch sites put one in every long word ("Mit&shy;tel&shy;al&shy;ter"). Kept, it
splits the word for every tokenizer and search index downstream and breaks phrase search
("Mittelalter" is not in "Mit\\u00adtel\\u00adal\\u00adter").
"""

from __future__ import annotations

__all__ = ["SOFT_HYPHENS", "without_soft_hyphens"]

#: How markup writes a soft hyphen: the character and its entity and character references.
SOFT_HYPHENS = ("\u00ad", "&shy;", "&#173;", "&#xad;", "&#xAD;", "&#x00ad;", "&#x00AD;")


def without_soft_hyphens(markup: str) -> str:
    """``markup`` without its soft hyphens (each spelling a scan in C; most pages have none)."""
    for spelling in SOFT_HYPHENS:
        if spelling in markup:
            markup = markup.replace(spelling, "")
    return markup
