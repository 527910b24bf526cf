"""The public entry point: ``feedsift.extract(html, url=None, **options) -> Article``."""

from __future__ import annotations

from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.page import default_extractor
from feedsift.parsing.page import parse_page
from feedsift.records import Article

__all__ = ["extract"]


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    content_type: str | None = None,
    extractor: PageExtractor | None = None,
    include_comments: bool = False,
    with_metadata: bool = True,
    detect_listings: bool = True,
) -> Article:
    """Extract the article (or the listing) of one page.

    ``html`` may be text or raw bytes (decoded with BOM, ``content_type``'s charset,
    ``<meta>`` or detection). ``extractor`` defaults to the bundled page-level model; pass a
    fitted site-level learner to use what it learned. Raises
    :class:`~feedsift.errors.InputError` for empty, binary or unparsable input.
    """
    page = parse_page(html, url, content_type)
    options = ExtractOptions(
        include_comments=include_comments,
        with_metadata=with_metadata,
        detect_listings=detect_listings,
    )
    return (extractor or default_extractor()).extract(page, options)
