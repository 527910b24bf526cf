"""Author names: split bylines into names, strip "By"-style prefixes, reject what is no name.

Metadata often holds more than a name: ``"By Jane Doe and John Roe"``, a profile URL, an
e-mail address, a Twitter handle, a date glued to the byline, a whole author bio. The
functions here keep what is plausibly one person's (or one agency's) name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from feedsift.metadata.values import distinct_casefold, unescape_entities
from feedsift.text.tokens import normalize_space

__all__ = [
    "MAX_AUTHOR_CHARS",
    "MAX_AUTHOR_WORDS",
    "NOT_NAME_WORDS",
    "author_names",
    "clean_author",
    "is_plausible_author",
    "looks_like_name",
    "split_authors",
]

#: Words that introduce a byline, in the languages of the news sites we read
#: (English, German, French, Spanish/Portuguese, Italian, Dutch, Nordic, Polish/Czech).
BYLINE_PREFIX = re.compile(
    r"^(?:(?:written|posted|published|reported|text|words|story)\s+by|"
    r"(?:erstellt|geschrieben|verfasst)\s+von|escrito\s+por|[ée]crit\s+par|by|von|par|por|door|"
    r"(?-i:di|av|af)|autor(?:in)?|author|auteur|texte?|from)\s*[:\-–—]?\s+",
    re.IGNORECASE,
)
#: Separators between several names in one byline (commas, "and" in several languages).
NAME_SEPARATORS = re.compile(
    r"\s*(?:[,;•·]|&|\s(?:and|und|et|y|e|en|og|och|i)\s)\s*", re.IGNORECASE
)
#: Longer strings are a sentence or a bio, not a name.
MAX_AUTHOR_CHARS = 70
#: More words than this are a phrase, not a name (long names have 5-6 parts).
MAX_AUTHOR_WORDS = 6
#: Names with this many digits or more are dates, counts or ids glued to a byline.
MAX_AUTHOR_DIGITS = 3
#: Placeholders CMSs write when there is no author.
PLACEHOLDER_AUTHORS = frozenset(
    {"null", "none", "undefined", "unknown", "n/a", "na", "anonymous", "author", "admin"}
    | {"by", "von", "par", "por", "di", "door", "av", "af", "from"}  # a prefix left alone
)
#: Form labels, prompts, share buttons and photo credits found in author-marked elements.
NOT_NAME_WORDS = re.compile(
    r"\b(?:please|your name|enter|required|follow|share|twitter|facebook|linkedin|e-?mail"
    r"|foto|photo|bild|image|фото|read more|lesezeit|updated|aktualisiert|\d+\s*min"
    r"|comments?|view|profile|about us)\b",
    re.IGNORECASE,
)
#: Calendar words that bylines show next to the name (a weekday is no author).
CALENDAR_WORDS = frozenset(
    {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
    | {"today", "yesterday"}
)
#: Connectors left at the end of a name cut from "Jane Doe on Monday", "Jane Doe am 3. Mai".
_TRAILING_CONNECTOR = re.compile(r"\s+(?:on|at|am|um|le|el|il)$")
#: Job titles written after a name in East Asian bylines ("reporter", "correspondent").
ROLE_SUFFIXES = re.compile(r"\s*(?:기자|특파원|記者|特派員|记者)$")
#: A parenthesised note after a name: initials ("(obe)"), co-authors ("(avec ...)").
_PARENTHESES = re.compile(r"\s*\([^)]*\)?\s*$")
#: A date and what follows it: bylines often end with the publication date.
_DATE_TAIL = re.compile(
    r"\b(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b).*$",
    re.IGNORECASE,
)
_URL = re.compile(r"(?:https?://|www\.)\S*", re.IGNORECASE)
_URL_OR_HANDLE = re.compile(r"https?:|www\.|\.(?:com|html?|php)\b|@\w|^\W+$", re.IGNORECASE)
_EMAIL = re.compile(r"\S+@\S+\.\w+")
#: What follows a bar or a spaced dash is a role, a date or the site's name
#: ("Jane Doe | Reporter", "Jane Doe — published ...").
_AFTER_BAR = re.compile(r"\s(?:\||—|–|-)\s.*$")
_EDGE_PUNCT = re.compile(r"^[\s\-–—:,|•·]+|[\s\-–—:,|•·]+$")


def author_names(values: Iterable[str]) -> tuple[str, ...]:
    """Every plausible name in ``values``, split and cleaned, de-duplicated (case-blind)."""
    return distinct_casefold(name for value in values for name in split_authors(value))


def split_authors(value: str) -> list[str]:
    """The plausible names of one byline string (``"By A, B and C"`` gives three)."""
    text = clean_author(value)
    if text is None:
        return []
    parts = (clean_author(part) for part in NAME_SEPARATORS.split(text))
    return [p for p in parts if p is not None and is_plausible_author(p)]


def clean_author(value: str) -> str | None:
    """``value`` without e-mail addresses, byline prefixes and edge punctuation."""
    text = _URL.sub(" ", _EMAIL.sub(" ", normalize_space(unescape_entities(value))))
    text = _PARENTHESES.sub("", _AFTER_BAR.sub("", _DATE_TAIL.sub("", text)))
    text = _EDGE_PUNCT.sub("", text)
    previous = None
    while previous != text:
        previous = text
        text = ROLE_SUFFIXES.sub("", BYLINE_PREFIX.sub("", text))
        text = _EDGE_PUNCT.sub("", _TRAILING_CONNECTOR.sub("", text))
    return text or None


def looks_like_name(name: str) -> bool:
    """Whether ``name`` is capitalised like a name (scripts without case always pass)."""
    return any(c.isupper() for c in name) or not any(c.islower() for c in name)


def is_plausible_author(name: str) -> bool:
    """Whether ``name`` can be a person's or an agency's name."""
    if not 2 <= len(name) <= MAX_AUTHOR_CHARS:
        return False
    if name.casefold() in PLACEHOLDER_AUTHORS or name.casefold() in CALENDAR_WORDS:
        return False
    if len(name.split()) > MAX_AUTHOR_WORDS or _URL_OR_HANDLE.search(name):
        return False
    digits = sum(c.isdigit() for c in name)
    return digits < MAX_AUTHOR_DIGITS and NOT_NAME_WORDS.search(name) is None
