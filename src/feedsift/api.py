"""The public entry point: ``feedsift.extract(html, url=None, **options) -> Article``."""

from __future__ import annotations

from dataclasses import fields
from functools import cache

from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import parse_page
from feedsift.records import Article

__all__ = ["bundled_extractor", "extract"]

_OPTION_NAMES = frozenset(f.name for f in fields(ExtractOptions))


@cache
def bundled_extractor() -> LearnedPageExtractor:
    """The page-level extractor with the model shipped in the package.

    Loaded on first use and shared afterwards: the model is read-only. Pass your own
    ``extractor=`` to :func:`extract` for another model or a fitted site-level learner.
    """
    return LearnedPageExtractor.from_file()


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    content_type: str | None = None,
    extractor: PageExtractor | None = None,
    **options: bool,
) -> Article:
    """Extract the article (or the listing) of one page.

    ``html`` may be text or raw bytes (decoded with BOM, ``content_type``'s charset,
    ``<meta>`` or detection). ``options`` are the fields of
    :class:`~feedsift.extractors.base.ExtractOptions`: ``include_comments``,
    ``with_metadata``, ``detect_listings``, ``htmldate``. ``extractor`` defaults to the bundled
    page-level model. Raises :class:`~feedsift.errors.InputError` for empty, binary or
    unparsable input and :class:`TypeError` for an unknown option.
    """
    unknown = set(options) - _OPTION_NAMES
    if unknown:
        raise TypeError(f"unknown extract option(s): {', '.join(sorted(unknown))}")
    page = parse_page(html, url, content_type)
    return (extractor or bundled_extractor()).extract(page, ExtractOptions(**options))
