"""A feed whose first template cannot be learned is not learned again from the same input."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.crawl.template_jobs import LearnOutcome
from feedsift.crawl.templating import TemplateOptions, Templating
from feedsift.storage.documents import DocumentRecord, NewDocument

BASE = "https://blog.example"
NOW = datetime(2026, 1, 1, tzinfo=UTC)


class _Extraction:
    """Counts the learning jobs; no template can be learned from anything."""

    def __init__(self) -> None:
        self.jobs = 0

    async def run_extracting(self, site: str, function: Any, *args: object) -> LearnOutcome:
        self.jobs += 1
        return LearnOutcome(None, None, 0, "no key-path found")


class _Documents:
    """Each item's stored page, by document id (the item's number plus one)."""

    def __init__(self) -> None:
        self.bodies: dict[int, bytes] = {n: b"<html><body><p>Post %d</p></body></html>" % n
                                         for n in range(1, 4)}  # fmt: skip

    def get(self, document_id: int) -> DocumentRecord:
        url = f"{BASE}/p/{document_id - 1}/"
        return DocumentRecord(document_id, NewDocument(
            url, "blog.example", url, url, 200, (("content-type", "text/html"),),
            self.bodies[document_id], NOW, 0.1))  # fmt: skip


def _feed(titles: list[str]) -> ParsedFeed:
    items = "".join(f"<item><title>{title}</title><link>{BASE}/p/{n}/</link>"
                    f"<description>About {title}.</description></item>"
                    for n, title in enumerate(titles))  # fmt: skip
    channel = f"<channel><title>Blog</title><link>{BASE}/</link>{items}</channel>"
    rss = f'<rss version="2.0">{channel}</rss>'
    return parse_feed(rss.encode(), f"{BASE}/feed.xml")


def test_a_failed_first_learning_is_tried_again_only_on_other_items_or_pages() -> None:
    extraction, documents = _Extraction(), _Documents()
    store = SimpleNamespace(
        templates=SimpleNamespace(current=lambda feed_id: None), documents=documents,
        items=SimpleNamespace(document_of=lambda feed_id, url: int(url[-2]) + 1))  # fmt: skip
    services = SimpleNamespace(store=store, extraction=extraction, clock=lambda: NOW,
                               tell=lambda event, detail: None)  # fmt: skip
    templating = Templating(services, lambda *args: None, TemplateOptions(harvest=False))  # type: ignore[arg-type]
    feed = SimpleNamespace(id=1, url=f"{BASE}/feed.xml", site_url=None)

    def poll(parsed: ParsedFeed) -> int:
        asyncio.run(templating.after_poll(feed, parsed, []))  # type: ignore[arg-type]
        return extraction.jobs

    titles = ["One", "Two", "Three"]
    assert poll(_feed(titles)) == 1
    assert poll(_feed(titles)) == 1  # the same items and pages: not learned again
    documents.bodies[3] = b"<html><body><p>Post 3, edited</p></body></html>"
    assert poll(_feed(titles)) == 2  # a page changed
    assert poll(_feed(titles)) == 2
    assert poll(_feed(["One", "Two", "Three, retitled"])) == 3  # an item changed
    assert poll(_feed(["One", "Two", "Three, retitled"])) == 3
