"""The crawl end to end on the loopback test web, checked against the test web's truth, on
SQLite and on PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from crawl_helpers import FAST, crawl_once, post_of, query, stored_documents, subscribe, word_f1
from feedsift.storage import Store
from feedsift.storage.location import DatabaseTarget
from feedsift.testweb import TestWeb

GENERATED = ("marginalia", "fieldnotes", "gazette")
#: Faults the crawl gets past: it waits out Retry-After, reads broken XML, fixes a charset.
RECOVERED = frozenset(
    {"rate-limited-feed", "rate-limited-page", "malformed-feed", "wrong-charset-page"}
)


@pytest.fixture
def web() -> TestWeb:  # type: ignore[misc]
    with TestWeb(seed=11, rounds=2, slow_seconds=2.0) as started:
        yield started


def _generated_posts(web: TestWeb) -> dict[str, str]:
    return {p.post_id: p.title for s in web.truth().sites if s.name in GENERATED for p in s.posts}


def test_every_post_once_duplicates_merged_new_posts_between_polls(
    web: TestWeb, database: DatabaseTarget
) -> None:
    db = database
    subscribe(db, web.feed_urls("good"))
    first = crawl_once(db)
    assert first.feed_errors == 0 and first.page_errors == 0
    web.advance()
    second = crawl_once(db)
    assert second.new_items > 0 and second.feeds_unchanged >= 1  # 304 for feeds with no news
    truth = web.truth()
    docs = stored_documents(db)
    posts = [post_of(truth, doc.response_url) for doc in docs]
    assert None not in posts
    ids = [post.post_id for post in posts if post is not None]
    assert sorted(ids) == sorted(_generated_posts(web))  # each post once, none merged
    variants = sum(len(p.variants) for s in truth.sites if s.name in GENERATED for p in s.posts)
    assert variants > 2 * len(ids)  # the duplicates planted were there to merge


def test_extracted_articles_match_the_truth(web: TestWeb, database: DatabaseTarget) -> None:
    db = database
    subscribe(db, web.feed_urls("good"))
    crawl_once(db)
    truth = web.truth()
    docs = stored_documents(db)
    titles_right = f1s = 0.0
    for doc in docs:
        post = post_of(truth, doc.response_url)
        assert post is not None
        titles_right += doc.title == post.title
        f1s += word_f1(doc.text, post.text)
    assert titles_right / len(docs) >= 0.9
    assert f1s / len(docs) >= 0.9


def test_faults_are_recorded_and_the_rest_goes_on(web: TestWeb, database: DatabaseTarget) -> None:
    db = database
    subscribe(db, web.feed_urls("all"))
    crawl_once(db)
    truth = web.truth()
    faults = next(site for site in truth.sites if site.name == "faults")
    with Store(db) as store:
        errors = {error.url: error.reason for error in store.errors.recent(1000)}
    stored = {doc.response_url for doc in stored_documents(db)}
    for fault in faults.faults:
        if fault.name in RECOVERED:
            assert fault.target == "feed" or fault.url in stored, fault.name
            continue
        assert fault.url in errors, f"{fault.name}: no error recorded"
        assert "\n" not in errors[fault.url] and len(errors[fault.url]) < 300
    assert any("/good/" in url for url in stored)  # the good post of the faulty feed
    reached = {post.post_id for url in stored if (post := post_of(truth, url)) is not None}
    assert set(_generated_posts(web)) <= reached


def test_feed_errors_back_off_on_their_own(web: TestWeb, database: DatabaseTarget) -> None:
    db = database
    subscribe(db, web.feed_urls("all"))
    crawl_once(db, replace(FAST, timeout=10.0))  # load must not turn the 500 into a timeout
    rows = query(db, "SELECT url, error_count, last_error FROM feeds")
    failing = {url: reason for url, count, reason in rows if count}
    assert any("500" in reason for reason in failing.values()), failing
    assert any("entit" in reason.lower() for reason in failing.values()), failing
    good = set(web.feed_urls("good"))
    assert not good & set(failing)
