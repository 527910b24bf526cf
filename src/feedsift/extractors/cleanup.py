"""Last touches on the kept blocks: bylines at the head of the body and stray labels.

The block classifier is trained on gold sets that disagree about bylines (Dragnet keeps
"by X on <date>", Fundus and Readability do not); feedsift's output keeps them out, as
its users expect: authors and dates are fields of their own. A byline is a short kept
block before the first paragraph of prose that reads like one: starting with "By"/"Von"/
"Par" ..., or marked as meta/byline/date by its own class and not a sentence, or a short
line carrying a date; after the first paragraph only a line that opens like a byline and
carries a date (a byline printed below the standfirst). Ad labels and
"Read more" links left inside the body go too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import Role
from feedsift.text.tokens import tokenize

__all__ = ["BODY_NOISE", "tidy_body"]

#: Longest block (in words) that can be a byline ...
BYLINE_MAX_WORDS = 20
#: ... and longest one that is a byline only because it carries a date.
DATED_LINE_MAX_WORDS = 12
#: A paragraph of prose: at least this many words ...
PROSE_MIN_WORDS = 15
#: Words that open a byline, in the languages of the data.
BYLINE_START = re.compile(
    r"^\s*(?:by|von|par|por|di|da|door|av|af|przez|autor|автор|written by|posted by|"
    r"publié par|publicado por|geschrieben von|veröffentlicht)\b",
    re.IGNORECASE,
)
#: Dates as bylines write them: "12. September 2023", "Sep 12, 2023", "2023-09-12".
DATE_TEXT = re.compile(
    r"\b\d{1,2}\.?\s+[A-Za-zÀ-ÿ]{3,}\.?\s+\d{4}\b|\b[A-Za-zÀ-ÿ]{3,}\.?\s+\d{1,2},?\s+\d{4}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"
)
#: Whole-block labels that are never body text: ad markers and "read more" links.
BODY_NOISE = frozenset(
    [
        "advertisement", "advertisements", "ad", "anzeige", "werbung", "sponsored",
        "publicité", "publicidad", "pubblicità", "reklama", "реклама", "广告",
        "continue reading", "read more", "weiterlesen", "lire la suite", "leer más",
        "leia mais", "continua a leggere",
    ]
)  # fmt: skip
#: Most word tokens in one of them.
NOISE_MAX_WORDS = max(len(tokenize(label)) for label in BODY_NOISE)
_LABEL_STRIP = re.compile(r"[\s\W_]+$|^[\s\W_]+")
_META = 1 << Role.META
_SENTENCE_END = (".", "!", "?", "…", "。", "！", "？")


def _is_noise(text: str, words: float) -> bool:
    if words > NOISE_MAX_WORDS and "_" not in text:
        return False  # longer than any label (only "_" runs around one add tokens)
    return " ".join(_LABEL_STRIP.sub("", text.casefold()).split()) in BODY_NOISE


def _is_byline(text: str, words: float, own_role: int) -> bool:
    if words > BYLINE_MAX_WORDS:
        return False
    if BYLINE_START.match(text):
        return True
    if own_role & _META and not text.rstrip().endswith(_SENTENCE_END):
        return True
    return words <= DATED_LINE_MAX_WORDS and bool(DATE_TEXT.search(text))


def _is_dated_byline(text: str, words: float) -> bool:
    """A byline anywhere in the body: opens like one, carries a date, is no sentence ("By
    Ann Lee, Reporter 14 May 2024, 7.30am" after a standfirst)."""
    if words > BYLINE_MAX_WORDS or text.rstrip().endswith(_SENTENCE_END):
        return False
    return bool(BYLINE_START.match(text)) and bool(DATE_TEXT.search(text))


def tidy_body(texts: Sequence[str], signals: PageSignals, kept: np.ndarray) -> np.ndarray:
    """``kept`` without head-of-body bylines and stray labels (a new mask); ``texts`` are
    the blocks' texts."""
    tidy = kept.copy()
    # Python numbers: a numpy scalar read per block costs several times more
    own = signals.roles.own[signals.owner].tolist()
    marker, words = signals.marker.tolist(), signals.words.tolist()
    in_head = True
    for i in np.flatnonzero(kept).tolist():
        text = texts[i]
        if marker[i] or _is_noise(text, words[i]):
            tidy[i] = False
            continue
        if (in_head and _is_byline(text, words[i], own[i])) or _is_dated_byline(text, words[i]):
            tidy[i] = False
        elif words[i] >= PROSE_MIN_WORDS:
            in_head = False
    return tidy
