"""The demo's sites learned through the loopback test web: the tags and date paths are the
posts' own, not a site-wide menu (the same on every page) or a related-post card."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from feedsift.acquisition.feeds import parse_feed
from feedsift.parsing.page import parse_page
from feedsift.templates.learner import FeedTemplate
from feedsift.testweb import TestWeb


@pytest.fixture(scope="module")
def web() -> Iterator[TestWeb]:
    with TestWeb(seed=7, rounds=1) as started:
        yield started


def _learn(web: TestWeb, name: str, feed_path: str) -> FeedTemplate:
    url = web.site_urls()[name] + feed_path
    feed = parse_feed(_get(url), url)
    pages = {e.url: parse_page(_get(e.url), e.url) for e in feed.entries[:20] if e.url}
    return FeedTemplate().fit(feed.sample(), pages)


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read()
    return body


@pytest.mark.parametrize("feed_path", ["/feed.json", "/rss/world.xml"])
def test_the_news_sites_tags_are_its_topic_list_not_the_sections_menu(
    web: TestWeb, feed_path: str
) -> None:
    tags = str(_learn(web, "gazette", feed_path).paths.tags)
    assert "masthead" not in tags and tags.endswith("|ul[@class=topic-tags]|li|a")


def test_the_ghost_sites_tags_and_date_are_the_posts_own(web: TestWeb) -> None:
    template = _learn(web, "fieldnotes", "/atom.xml")
    tags, date = str(template.paths.tags), str(template.paths.date)
    assert "gh-head" not in tags and "|article[" in tags
    assert "read-more" not in date and date.endswith("|time[@class=byline-meta-date]")
    assert all("read-more" not in str(c.path) for c in template.clusters_["date"])
