"""Title candidates and the simple rule that picks the page's title among them.

Every title-like string is kept as a :class:`TitleCandidate` (a learned ranker may choose
later). The ``<title>``, the structured titles and the headings are also cut into parts:
at site separators (``"Story | Site"``; for three or more parts also what precedes the last
separator and what follows the first one) and after a kicker's colon
(``"Kicker: Story"``), because the title a reader sees is often one of those parts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from feedsift.metadata.record import Clue, TitleCandidate
from feedsift.metadata.values import clean_text
from feedsift.text.tokens import CJK_RANGES, normalize_space

__all__ = [
    "STRUCTURED_TITLES",
    "TITLE_PRIORITY",
    "TITLE_SEPARATORS",
    "best_title",
    "distinct",
    "strip_site_name",
    "title_candidates",
]

#: Separators between a story's title and the site's name or section.
TITLE_SEPARATORS = re.compile(
    r"\s+(?:\||--|-|–|—|::|»|·|/|>|\\)\s+"
    # CJK titles write separators without spaces; one CJK side is enough ("Journey-小径").
    # The separator is matched first, then looked behind: most characters fail at once.
    f"|[|\\-_–—｜](?:(?<=[{CJK_RANGES}].)(?=\\S)|(?<=\\S.)(?=[{CJK_RANGES}]))"
)
#: A kicker (topic line) before the headline: ``"Neue Leipziger Schule: Judy Lybke ..."``.
KICKER_SEPARATOR = re.compile(r"(?<=\w)[:：]\s+")
#: Parts shorter than this are a site's or a section's name, never a kicker-less title.
MIN_KICKER_TAIL_WORDS = 3

#: Candidate order of whole strings, best first: source or ``source/detail``. Publishers
#: write the headline into JSON-LD and OpenGraph; headings and the ``<title>`` often carry
#: the site's name. Parts of strings follow all whole strings, in their string's order.
TITLE_PRIORITY = (
    "json-ld/headline",
    "opengraph/og:title",
    "meta/twitter:title",
    "dom/itemprop:headline",
    "meta",
    "json-ld/name",
    "dom/h1",
    "title-tag/title",
    "title-tag",
    "json-ld",
)
#: Titles written for machines (feed readers, search engines, social networks), best first:
#: the simple rule trusts the first of these the page has.
STRUCTURED_TITLES = (
    ("json-ld", "headline"),
    ("opengraph", "og:title"),
    ("meta", "twitter:title"),
    ("dom", "itemprop:headline"),
)
#: Clue details whose strings are also cut into parts.
SPLIT_DETAILS = frozenset({"title", "headline", "og:title", "twitter:title", "h1"})


def title_candidates(clues: Iterable[Clue]) -> list[TitleCandidate]:
    """Every title-like string and its parts (repeats kept), best first."""
    found: list[tuple[int, TitleCandidate]] = []
    for clue in clues:
        text = clean_text(clue.value)
        if text is None:
            continue
        whole = TitleCandidate(text, clue.source, clue.detail)
        rank = _priority(whole)
        found.append((rank, whole))
        if clue.detail in SPLIT_DETAILS:
            found.extend((len(TITLE_PRIORITY) + rank, part) for part in _parts(whole))
    found.sort(key=lambda pair: pair[0])
    return [candidate for _, candidate in found]


def distinct(candidates: Iterable[TitleCandidate]) -> tuple[TitleCandidate, ...]:
    """The first candidate of each text, order kept."""
    unique: dict[str, TitleCandidate] = {}
    for candidate in candidates:
        unique.setdefault(candidate.text, candidate)
    return tuple(unique.values())


def _priority(candidate: TitleCandidate) -> int:
    keys = (f"{candidate.source}/{candidate.detail}", candidate.source)
    return next((i for i, k in enumerate(TITLE_PRIORITY) if k in keys), len(TITLE_PRIORITY))


def _parts(whole: TitleCandidate) -> Iterator[TitleCandidate]:
    """``whole`` cut at separators (details ``title-part:0`` ...) and after a kicker."""
    prefix = "title" if whole.source == "title-tag" else whole.detail
    text = whole.text
    separators = list(TITLE_SEPARATORS.finditer(text))
    if separators:
        starts = [0, *(m.end() for m in separators)]
        ends = [*(m.start() for m in separators), len(text)]
        for number, (start, end) in enumerate(zip(starts, ends, strict=True)):
            yield TitleCandidate(text[start:end], whole.source, f"{prefix}-part:{number}")
    if len(separators) > 1:
        yield TitleCandidate(text[: separators[-1].start()], whole.source, f"{prefix}-head")
        yield TitleCandidate(text[separators[0].end() :], whole.source, f"{prefix}-tail")
    kicker = KICKER_SEPARATOR.split(text, maxsplit=1)
    if len(kicker) == 2 and len(kicker[1].split()) >= MIN_KICKER_TAIL_WORDS:
        yield TitleCandidate(kicker[1], whole.source, f"{prefix}-after-kicker")


def best_title(
    candidates: list[TitleCandidate], site_names: Iterable[str]
) -> TitleCandidate | None:
    """The title by a fixed rule: the first structured title without the site's name, else
    a heading the ``<title>`` confirms, else the ``<title>``."""
    by_key = {(c.source, c.detail): c for c in reversed(candidates)}
    tag = by_key.get(("title-tag", "title"))
    structured = next((by_key[k] for k in STRUCTURED_TITLES if k in by_key), None)
    if structured is not None:
        text = strip_site_name(structured.text, _site_names(site_names, tag, structured))
        same = (c for c in candidates if c.text == text and c.source == structured.source)
        return structured if text == structured.text else next(same, structured)
    pieces = {c.text for c in candidates if c.source == "title-tag"}
    heading = next((c for c in candidates if c.detail == "h1" and c.text in pieces), None)
    return heading or tag or (candidates[0] if candidates else None)


def _site_names(
    declared: Iterable[str], tag: TitleCandidate | None, structured: TitleCandidate
) -> set[str]:
    """The site's declared names, and the ``<title>``'s last part when the ``<title>`` is
    not the structured title itself (then that part is the site's or section's name)."""
    names = {normalize_space(name).casefold() for name in declared}
    if tag is not None and tag.text != structured.text:
        parts = TITLE_SEPARATORS.split(tag.text)
        if len(parts) > 1:
            names.add(parts[-1].casefold())
    return names


def strip_site_name(text: str, names: set[str]) -> str:
    """``text`` without leading or trailing parts that are one of the site's ``names``."""
    while True:
        separators = list(TITLE_SEPARATORS.finditer(text))
        if not separators:
            return text
        first, last = separators[0], separators[-1]
        if text[last.end() :].casefold() in names:
            text = text[: last.start()]
        elif text[: first.start()].casefold() in names:
            text = text[first.end() :]
        else:
            return text
