"""What a crawl did, counted as it goes: for progress displays, logs and the benchmark."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from feedsift.crawl.rendering import RenderReport

__all__ = ["CrawlCounts", "Listener", "StageTimes"]

#: Called with an event name (``feed``, ``item``, ``page``, ``article``, ``error``) and a
#: one-line detail; progress displays subscribe with it.
Listener = Callable[[str, str], None]


@dataclass(slots=True)
class StageTimes:
    """Seconds spent in each stage of the pipeline (summed over concurrent work; time
    queued for a worker is not counted)."""

    feeds: float = 0.0  #: fetching feeds (network) and parsing them (in the workers)
    fetch: float = 0.0  #: fetching pages (network time, politeness waits excluded)
    wait: float = 0.0  #: politeness and backoff waits
    store: float = 0.0  #: URL keys and database writes
    extract: float = 0.0  #: parsing and extraction, in the workers


@dataclass(slots=True)
class CrawlCounts:
    """Running totals of one crawl (a round, or a whole ``watch``)."""

    feeds_polled: int = 0
    feeds_unchanged: int = 0
    feed_errors: int = 0
    new_items: int = 0
    pages_stored: int = 0
    url_duplicates: int = 0
    page_errors: int = 0
    articles: int = 0
    exact_duplicates: int = 0
    near_duplicates: int = 0
    extract_errors: int = 0
    comparison_pages: int = 0  #: older pages fetched again for the site-level learners
    pages_learned: int = 0  #: comparison and replayed pages learned without extraction
    site_states_saved: int = 0  #: saves of a site's learner state to the store
    templates_learned: int = 0  #: feed templates learned (first versions and relearned)
    template_drifts: int = 0  #: feeds whose new posts stopped matching their template
    harvest_pages: int = 0  #: pages fetched while following sites' links
    harvest_posts: int = 0  #: posts found through links (not in a feed) and stored
    harvest_vetoed: int = 0  #: pages with the post layout not stored: listings, site pages
    left_to_others: int = 0  #: pending pages another process had claimed (shared database)
    taken_over: int = 0  #: pending pages taken over from a process that was killed
    bytes_fetched: int = 0
    pages_rendered: int = 0  #: with --render: pages laid out by a browser
    render_fallbacks: int = 0  #: with --render: pages that got the markup estimate instead
    #: the first fallbacks' one-line reasons
    render_fallback_reasons: tuple[str, ...] = ()
    stylesheets_fetched: int = 0  #: with --render: stylesheets fetched for the browser
    times: StageTimes = field(default_factory=StageTimes)

    def add_rendering(self, report: RenderReport | None) -> None:
        """Count what the rendering did (``None``: the crawl did not render)."""
        if report is None:
            return
        self.pages_rendered += report.tally.rendered
        self.render_fallbacks += report.tally.fallbacks
        self.render_fallback_reasons += tuple(r.reason for r in report.tally.reasons)
        self.stylesheets_fetched += report.stylesheets.fetched

    def summary(self) -> str:
        """One line: what came in and what went wrong."""
        return (
            f"{self.feeds_polled} feed polls ({self.feeds_unchanged} unchanged, "
            f"{self.feed_errors} failed), {self.new_items} new items, {self.pages_stored} pages "
            f"stored, {self.url_duplicates} URL duplicates, {self.page_errors} page errors, "
            f"{self.articles} articles ({self.exact_duplicates} exact and "
            f"{self.near_duplicates} near duplicates)"
            + (f"; {self.templates_learned} templates learned ({self.template_drifts} after "
               f"drift), {self.harvest_posts} posts found through links in "
               f"{self.harvest_pages} pages ({self.harvest_vetoed} with the post layout "
               "but listings or site pages)" if self.templates_learned else "")
            + (f"; {self.left_to_others} pages left to other processes, {self.taken_over} "
               "taken over from stopped ones" if self.left_to_others or self.taken_over else "")
            + (f"; {self.pages_rendered} pages rendered, {self.render_fallbacks} got the "
               f"markup estimate, {self.stylesheets_fetched} stylesheets fetched"
               if self.pages_rendered or self.render_fallbacks else "")
        )
