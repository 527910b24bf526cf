"""Characters a reader never sees, taken out of the markup before it is parsed.

A soft hyphen (U+00AD, ``&shy;``) only says where a browser may break a long word; German
and Dutch sites put one in every long word ("Mit&shy;tel&shy;al&shy;ter"). A zero-width
space (U+200B) marks a break opportunity in long links and headings, a word joiner (U+2060)
forbids one, and a U+FEFF inside a page is a byte-order mark pasted from a file. Kept, each
splits the word it sits in for every tokenizer and search index downstream and breaks
phrase search ("Mittelalter" is not in "Mit\\u00adtel\\u00adal\\u00adter"). The zero-width
joiner and non-joiner (U+200D, U+200C) stay: they change how emoji and Persian or Indic
words are drawn.
"""

from __future__ import annotations

import re

from feedsift.text.tokens import INVISIBLE_CHARACTERS

__all__ = ["INVISIBLE_CHARACTERS", "without_invisible"]

#: How markup writes the :data:`INVISIBLE_CHARACTERS` besides the characters: named
#: (``&shy;``, ``&ZeroWidthSpace;``, ``&NoBreak;``), decimal (``&#173;``, ``&#8203;``,
#: ``&#8288;``, ``&#65279;``) and hexadecimal references in either case, with any leading
#: zeros (``&#xAD;``, ``&#x200b;``, ``&#x2060;``, ``&#XFEFF;``). One search for their
#: common ``&`` runs at the speed of one substring scan (a scan per spelling cost 2% of a
#: page, measured).
_REFERENCES = re.compile(
    r"&(?:shy|ZeroWidthSpace|NoBreak|#(?:173|8203|8288|65279)|#[xX]0*(?i:ad|200b|2060|feff));"
)


#: Control characters (C0 but tab, line feed and carriage return) and the two noncharacters
#: U+FFFE/U+FFFF: no reader sees them, and lxml refuses any string holding one, so a page
#: with a stray vertical tab crashed wherever the cleaning joins two texts. They become a
#: space: a form feed or vertical tab between two words still parts them.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def without_invisible(markup: str) -> str:
    """``markup`` without its invisible characters and their references, and with a space
    for each control character (a scan in C for each kind, and a replacement only once one
    is found: most pages have none)."""
    if _REFERENCES.search(markup) is not None:
        markup = _REFERENCES.sub("", markup)
    for character in INVISIBLE_CHARACTERS:
        if character in markup:
            markup = markup.replace(character, "")
    if _CONTROLS.search(markup) is not None:
        markup = _CONTROLS.sub(" ", markup)
    return markup
