"""Post or not: the feed template's verdict, with the two vetoes a harvest adds to it.

A template tells posts by their layout: its key-path finds a body, and its title and date
paths find as many nodes as on the feed's own posts. Two kinds of pages share the post
layout on many blogs and are not posts (on ``../shared/sites/ssg`` they are 7 of the 8
non-post pages the templates accept, ``docs/templates.md``):

* **listings whose teasers reuse the post markup**, such as a tag page that lists one
  post: the page-level extractor's listing detection tells them (it reads the address too:
  a tag page's single teaser is enough there), when a teaser it found is inside the body
  the template's key-path finds: a short post followed by a "You may also enjoy" list
  looks like a listing to the page level, but its teasers are outside the post's body;
* **the site's own pages written with the post layout** (about, contact, legal notice):
  their address says what they are.

A page the feed lists is a post by the site's own word, so neither veto applies to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.metadata.scan import text_of
from feedsift.parsing.page import ParsedPage
from feedsift.records import Teaser
from feedsift.templates.apply import key_nodes
from feedsift.templates.learner import FeedTemplate
from feedsift.text.tokens import normalize_space

__all__ = ["SITE_PAGE_PATH", "PostJudge", "Verdict", "is_site_page"]

#: Last path segment of a site's own pages (about, contact, legal notices, CV, "now" and
#: "uses" pages): themes render them with the post layout, dated, but no feed lists them.
SITE_PAGE_PATH = re.compile(
    r"/(?:about(?:[-_]?(?:me|us))?|contact(?:[-_]?me)?|impressum|imprint|legal|"
    r"privacy(?:[-_]policy)?|disclaimer|terms|uses|now|colophon|resume|cv)"
    r"(?:/|/index\.html?|\.html?)?$",
    re.IGNORECASE,
)
#: Characters of a teaser's excerpt looked for in the post's body (its opening: excerpts
#: are cut or end with an ellipsis).
TEASER_PREFIX = 60
#: The page-level run of the listing veto needs neither metadata nor comments.
_LISTING_CHECK = ExtractOptions(with_metadata=False, include_comments=False)

#: ``post``: a post; ``layout``: the template does not accept the page; ``listing``: the
#: page lists posts; ``site page``: an about, contact or legal page.
Verdict = Literal["post", "layout", "listing", "site page"]


def is_site_page(url: str | None) -> bool:
    """Whether ``url``'s path names one of a site's own pages (``/about/``, ``/impressum``);
    False for no URL or one that does not parse."""
    try:
        path = urlsplit(url or "").path
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return False
    return SITE_PAGE_PATH.search(path) is not None


@dataclass(frozen=True, slots=True)
class PostJudge:
    """A fitted :class:`FeedTemplate` and the page-level extractor that vetoes listings."""

    template: FeedTemplate
    extractor: PageExtractor

    def verdict(self, page: ParsedPage, *, listed: bool = False) -> Verdict:
        """What ``page`` is; ``listed``: the feed links it (no veto then)."""
        if not self.template.is_post(page):
            return "layout"
        if listed:
            return "post"
        if is_site_page(page.url):
            return "site page"
        listing = self.extractor.extract(page, _LISTING_CHECK)
        if listing.kind.lists_items and self._in_body(page, listing.posts):
            return "listing"
        return "post"

    def _in_body(self, page: ParsedPage, teasers: tuple[Teaser, ...]) -> bool:
        """Whether a teaser's title or text is inside the body the key-path finds (a
        template's nodes hold every teaser on a listing that reuses the post markup)."""
        key = self.template.key_path
        if key is None:
            return True
        body = " ".join(map(text_of, key_nodes(page, key)))
        lines = (_teaser_line(teaser) for teaser in teasers)
        return any(line and line in body for line in lines)

    def is_post(self, page: ParsedPage, *, listed: bool = False) -> bool:
        return self.verdict(page, listed=listed) == "post"


def _teaser_line(teaser: Teaser) -> str:
    """The opening of a teaser's longest line (its excerpt, not its date or reading time),
    or of its title when it has no text."""
    lines = teaser.text.splitlines() or [teaser.title]
    return normalize_space(max(lines, key=len))[:TEASER_PREFIX]
