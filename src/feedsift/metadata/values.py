"""Raw clue strings to field values: URLs resolved, language tags normalised, tags split.

Each function returns ``None`` (or an empty list) for a value that cannot be the field's,
so the caller moves on to the next clue.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from urllib.parse import urljoin, urlsplit

from feedsift.text.tokens import normalize_space

__all__ = [
    "MAX_TAG_CHARS",
    "MAX_TEXT_CHARS",
    "base_url",
    "clean_text",
    "distinct_casefold",
    "mend_mojibake",
    "normalize_language",
    "resolve_url",
    "split_tags",
    "unescape_entities",
]

#: Titles, site names and descriptions longer than this are body text in the wrong place.
MAX_TEXT_CHARS = 1000
#: Longer "tags" are sentences (a description pasted into the keywords).
MAX_TAG_CHARS = 60
#: Separators inside one keywords string (``"politics, europe; elections"``).
TAG_SEPARATORS = re.compile(r"\s*[,;]\s*")
#: Schemes a page URL can have (not ``data:``, ``javascript:`` or ``mailto:``).
WEB_SCHEMES = frozenset({"http", "https"})
#: A BCP 47-like tag: a 2-3 letter language, then subtags (``pt-BR``, ``zh-Hant-TW``).
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-f]+|[a-z]+\d*);", re.IGNORECASE)
_LANGUAGE = re.compile(r"^([a-z]{2,3})(?:-[a-z0-9]{2,8})*$")
#: What UTF-8 text read as Latin-1 or Windows-1252 looks like: the lead byte of a two- to
#: four-byte sequence (Â-ô) followed by continuation bytes (U+0080-U+00BF, or the characters
#: Windows-1252 puts at 0x80-0xBF): "â\x80\x94" or "â€”" for "—", "Ã©" for "é".
_CONTINUATION = ("\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6"
                 "\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039"
                 "\u203a\u20ac\u2122")
_MOJIBAKE = re.compile(f"[\u00c2-\u00f4][{_CONTINUATION}]{{1,3}}")


def clean_text(value: str) -> str | None:
    """``value`` unescaped, mended and whitespace-normalised; ``None`` when empty or too
    long."""
    text = normalize_space(mend_mojibake(unescape_entities(value)))
    return text if 0 < len(text) <= MAX_TEXT_CHARS else None


def mend_mojibake(value: str) -> str:
    """UTF-8 text that was read as Latin-1 or Windows-1252 somewhere upstream ("itertools
    â\x80\x94 Functions" in a ``<title>``) read back as UTF-8, sequence by sequence (the
    rest of the string may be right); any other text unchanged."""
    if not _MOJIBAKE.search(value):
        return value
    return _MOJIBAKE.sub(_mended, value)


def _mended(match: re.Match[str]) -> str:
    text = match.group()
    for legacy in ("latin-1", "cp1252"):
        try:
            return text.encode(legacy).decode("utf-8")
        except UnicodeError:
            continue
    return text


def unescape_entities(value: str) -> str:
    """``value`` with HTML character references decoded (JSON-LD and CMSs escape twice)."""
    return html.unescape(value) if _ENTITY.search(value) else value


def base_url(page_url: str | None, base_href: str | None) -> str | None:
    """The URL relative links resolve against: ``<base href>`` over the page's URL."""
    if base_href:
        resolved = urljoin(page_url or "", base_href)
        if urlsplit(resolved).scheme in WEB_SCHEMES:
            return resolved
    return page_url


def resolve_url(value: str, base: str | None) -> str | None:
    """``value`` as an absolute web URL (against ``base``); ``None`` when it cannot be one."""
    text = value.strip()
    if not text or " " in text:
        return None
    if text.startswith("//"):
        text = "https:" + text
    try:
        resolved = urljoin(base, text) if base else text
        parts = urlsplit(resolved)
    except ValueError:  # an unbalanced "[" in the host ("https://[example.org/")
        return None
    return resolved if parts.scheme in WEB_SCHEMES and parts.netloc else None


def site_host(url: str | None) -> str:
    """The host of ``url``, lower-cased, without ``www.`` and port ("" when it has none)."""
    try:
        return (urlsplit(url or "").hostname or "").removeprefix("www.")
    except ValueError:
        return ""


def normalize_language(value: str) -> str | None:
    """``en_US`` / ``EN-us`` / ``pt-BR`` to ``en-us`` / ``pt-br``; ``None`` when no tag."""
    text = value.strip().split(",")[0].strip().replace("_", "-").lower()
    return text if _LANGUAGE.match(text) else None


def distinct_casefold(texts: Iterable[str]) -> tuple[str, ...]:
    """``texts`` without repeats that differ only in case; the first spelling is kept."""
    unique: dict[str, str] = {}
    for text in texts:
        unique.setdefault(text.casefold(), text)
    return tuple(unique.values())


def split_tags(value: str) -> list[str]:
    """The tags of one keywords string, whitespace-normalised, too-long ones dropped."""
    tags = (normalize_space(t) for t in TAG_SEPARATORS.split(value))
    return [t for t in tags if 0 < len(t) <= MAX_TAG_CHARS]
