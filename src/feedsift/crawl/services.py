"""What the stages of one crawl share: explicit objects handed down, nothing global."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from feedsift.acquisition.fetcher import Fetcher
from feedsift.crawl.extraction import ArrivalExtraction
from feedsift.crawl.report import CrawlCounts, Listener
from feedsift.dedup.rules import QueryRule
from feedsift.storage import Store

__all__ = ["CrawlServices"]


@dataclass(frozen=True, slots=True)
class CrawlServices:
    """The store, fetcher, workers, URL-key rules, counts and clock of one crawl."""

    store: Store
    fetcher: Fetcher
    extraction: ArrivalExtraction
    rules: tuple[QueryRule, ...]
    counts: CrawlCounts
    stopping: Callable[[], bool]  #: whether the crawl was asked to stop (start nothing new)
    clock: Callable[[], datetime]
    listener: Listener | None = None

    def tell(self, event: str, detail: str) -> None:
        if self.listener is not None:
            self.listener(event, detail)
