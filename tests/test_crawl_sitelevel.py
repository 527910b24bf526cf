"""Site-level learners in the crawl: method per article, state in the store, comparisons."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from crawl_helpers import FAST, crawl_once, subscribe
from feedsift.acquisition.schedule import Schedule
from feedsift.api import bundled_extractor
from feedsift.crawl.crawler import CrawlOptions
from feedsift.crawl.extraction import ExtractionJob, extract_job
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.extractors.base import ExtractOptions
from feedsift.sitelevel import SiteModels
from feedsift.testweb import TestWeb
from test_site_models import NOW, _item, _page, _template  # the harbour blog fixtures


@pytest.fixture(scope="module")
def web() -> Iterator[TestWeb]:
    with TestWeb(seed=5, rounds=1) as started:
        yield started


def _query(db: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(db)
    try:
        with connection:
            return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def _methods(db: Path) -> dict[str, list[str]]:
    methods: dict[str, list[str]] = {}
    for site, method in _query(db, "SELECT site, method FROM articles ORDER BY id"):
        methods.setdefault(str(site), []).append(str(method))
    return methods


def _body_sources(db: Path) -> dict[str, list[str]]:
    """Per site, each article's word on where its body came from and why (in id order)."""
    found: dict[str, list[str]] = {}
    for site, record in _query(db, "SELECT site, record FROM articles ORDER BY id"):
        sources = json.loads(str(record))["sources"]
        body = next(s["detail"] for s in sources if s["field"] == "body")
        found.setdefault(str(site), []).append(body)
    return found


def test_articles_record_the_method_and_learner_state_is_saved_per_site(
    web: TestWeb, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    subscribe(db, web.feed_urls("good"))
    counts = crawl_once(db)
    methods = _methods(db)
    assert methods and all(m[0] == "page" for m in methods.values())  # nothing learned yet
    # the URL Tree judges from a site's third page and is checked on each feed item from
    # then on: from the fifth article the body's reason sets a hybrid and the page level
    # against each other on the same items (a tie keeps the page level; a hybrid wins where
    # it drops a menu line the page level kept: URL Tree's or DiffPost's, as the model has it)
    sources = _body_sources(db)
    assert any(len(bodies) >= 5 for bodies in sources.values())  # the check below runs
    for bodies in sources.values():
        assert "no other method has 3 checks" in bodies[0]
        if len(bodies) >= 5:
            assert re.search(r"(page|hybrid-[a-z-]+): [\d.]+ against "
                             r"(the page level|hybrid-[a-z-]+)'s [\d.]+ on the same "
                             r"\d+ items", bodies[-1]) and "hybrid-" in bodies[-1]
    saved = dict(((s, (n, last)) for s, n, last in _query(
        db, "SELECT site, documents, last_document FROM site_models")))  # fmt: skip
    stored = _query(db, "SELECT site, COUNT(*), MAX(id) FROM documents GROUP BY site")
    assert saved == {site: (n, last) for site, n, last in stored}
    assert counts.site_states_saved == len(saved)


def test_worker_processes_learn_each_site_in_one_worker(web: TestWeb, tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    for db in (one, two):
        subscribe(db, web.feed_urls("good"))
    crawl_once(one)
    settings = SessionSettings(db=two, policy=FAST, crawl=CrawlOptions(schedule=Schedule(fixed=0)),
                               jobs=2)  # fmt: skip
    asyncio.run(run_session(settings, "once", all_feeds=True))
    learned = "SELECT site, documents FROM site_models ORDER BY site"
    assert _query(two, learned) == _query(one, learned)
    # every article went through its site's learners; which method won each field depends
    # on the order the pages arrived in (concurrent fetches finish in any order, in both
    # runs), so only the articles per site and the methods' names are compared
    one_methods, two_methods = _methods(one), _methods(two)
    assert {s: len(m) for s, m in two_methods.items()} == {
        s: len(m) for s, m in one_methods.items()
    }
    known = {"page", "hybrid-urltree-strict", "hybrid-diffpost", "template"}
    assert {m for methods in two_methods.values() for m in methods} <= known


def test_a_restart_relearns_what_the_saved_state_lacks(web: TestWeb, tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    subscribe(db, web.feed_urls("good"))
    crawl_once(db)
    before = _query(db, "SELECT site, documents, last_document FROM site_models ORDER BY site")
    _query(db, "DELETE FROM site_models")  # as if killed before the round's state was saved
    _query(db, "UPDATE feeds SET etag = NULL, last_modified = NULL")
    again = crawl_once(db)
    assert again.pages_stored == 0 and again.articles == 0  # nothing stored twice
    assert again.pages_learned == sum(int(str(n)) for _, n, _ in before)
    after = _query(db, "SELECT site, documents, last_document FROM site_models ORDER BY site")
    assert after == before
    third = crawl_once(db)
    assert third.pages_learned == 0  # the saved state covers every stored page


def test_older_items_are_fetched_again_as_comparison_pages_not_stored(
    web: TestWeb, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    subscribe(db, web.feed_urls("good"))
    crawl_once(db)
    site, n_docs = _query(db, "SELECT site, COUNT(*) FROM documents GROUP BY site"
                              " ORDER BY COUNT(*) DESC LIMIT 1")[0]  # fmt: skip
    keep = _query(db, "SELECT MIN(id) FROM documents WHERE site = ?", site)[0][0]
    _forget_all_but(db, str(site), int(str(keep)))
    counts = crawl_once(db)
    assert counts.comparison_pages >= 1 and counts.pages_learned >= counts.comparison_pages
    assert _query(db, "SELECT COUNT(*) FROM documents WHERE site = ?", site)[0][0] == n_docs
    # the comparison page, learned before the new items, lets DiffPost judge them: its
    # hybrid is checked on their feed items (whether it then wins a field is the data's call)
    saved = _query(db, "SELECT state FROM site_models WHERE site = ?", site)[0][0]
    state = json.loads(gzip.decompress(bytes(saved)))  # type: ignore[call-overload]
    assert any(state["checks"]["checks"].get("hybrid-diffpost", {}).values())


def _forget_all_but(db: Path, site: str, keep: int) -> None:
    """Leave one stored page of ``site``, fetched days ago; its other items pending again."""
    old = (datetime.now(UTC) - timedelta(days=3)).isoformat()
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("DELETE FROM site_models")
        connection.execute(
            "UPDATE items SET state = 'new', document_id = NULL, attempts = 0"
            " WHERE document_id IN (SELECT id FROM documents WHERE site = ? AND id != ?)",
            (site, keep),
        )
        connection.execute("DELETE FROM articles WHERE site = ? AND document_id != ?", (site, keep))
        connection.execute("DELETE FROM documents WHERE site = ? AND id != ?", (site, keep))
        connection.execute("UPDATE documents SET fetched_at = ? WHERE id = ?", (old, keep))
    connection.close()


def test_an_arrival_job_checks_its_feed_item_with_the_feeds_template() -> None:
    """The job carries its feed item and its feed's template: the site's combiner checks
    the template on the item beside the page level and the mask methods."""
    extractor = bundled_extractor()
    models = SiteModels(extractor)
    template = _template(range(0, 4))
    for n in range(4, 8):
        page = _page(n)
        html = page.decoded.text.encode()
        job = ExtractionJob(n, "harbour.example", page.url or "", html, "text/html", "article",
                            NOW, item=_item(n), template=template)  # fmt: skip
        outcome = extract_job(job, extractor, ExtractOptions(), models)
        assert outcome.article is not None and outcome.error is None
    checks = models.sites_["harbour.example"].combiner.checks_
    assert len(checks["template"]["title"]) == 4 and len(checks["page"]["title"]) == 4
