"""The one interface every extractor implements, and the options it takes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from feedsift.parsing.page import ParsedPage
from feedsift.records import Article

__all__ = ["ExtractOptions", "PageExtractor"]


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    """What the caller wants besides the body."""

    include_comments: bool = False  #: return reader comments in ``Article.comments``
    with_metadata: bool = True  #: read title, authors, dates, tags ... (costs a little time)
    detect_listings: bool = True  #: report home/archive/tag pages as listings of posts
    #: when a page declares no date and shows none near its title, also run htmldate's
    #: markup search (it parses the page a second time: a few milliseconds a page)
    htmldate: bool = False


@runtime_checkable
class PageExtractor(Protocol):
    """Turns one parsed page into an article. Fitted site-level learners are ones too."""

    @property
    def name(self) -> str:
        """Short method name recorded in :attr:`Article.provenance`."""
        ...

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """Extract ``page`` (default options when ``None``); raise only
        :class:`~feedsift.errors.FeedsiftError` subclasses."""
        ...
