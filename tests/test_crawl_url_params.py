"""The crawl learns per site which query parameters name a page (issue 16, item 1), on loopback.

A site whose feed links carry a session id (``sid=``) that changes with every poll stores each
story once; ``?id=12`` and ``?id=13`` with different titles stay two documents.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conftest import LoopbackServer
from crawl_helpers import crawl_once, subscribe
from feedsift.cli.main import main
from feedsift.dedup.params import QueryParamLearner
from feedsift.dedup.site import site_of
from feedsift.storage import Store

STORIES = {12: "Flood closes the bridge", 13: "Council approves budget", 14: "Storm warning"}
PAGE = """<!doctype html><html><head><title>{title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>{title}</h1><p>{title}: the full report, as our reporters saw it today.
The story goes on over several sentences, so that the page has a body worth extracting
and every story of this site reads differently from the others.</p>
<p>More on {title} follows in the second paragraph, with quotes and figures.</p></article>
</body></html>"""


def serve_session(web: LoopbackServer, sid: str) -> str:
    """The feed and its pages as the site serves them in session ``sid``."""
    items = ""
    for story, title in STORIES.items():
        path = f"/story?id={story}&sid={sid}"
        web.route(path, PAGE.format(title=title).encode())
        items += (
            f"<item><title>{title}</title><link>{web.base_url}{path.replace('&', '&amp;')}</link>"
            f"<description>{title} (session {sid})</description></item>"
        )  # a new description each session: a new history key, so the item is new again
    feed = (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>'
        f"<link>{web.base_url}/</link>{items}</channel></rss>"
    )
    return web.route("/feed.xml", feed.encode(), content_type="application/rss+xml")


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def test_a_session_id_in_feed_links_stores_each_story_once(
    web: LoopbackServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "f.db"
    subscribe(db, [serve_session(web, "a")])
    for sid in "abc":
        serve_session(web, sid)
        crawl_once(db)
    documents = rows(db, "SELECT response_url FROM documents")  # fetched concurrently: any order
    assert sorted(url for (url,) in documents) == [web.url(f"/story?id={n}&sid=a") for n in STORIES]
    states = rows(db, "SELECT state, COUNT(*) FROM items GROUP BY state ORDER BY state")
    assert states == [("duplicate", 6), ("stored", 3)]  # 3 stories x 3 sessions, each once
    with Store(db) as store:
        saved = store.url_params.get(site_of(web.base_url))
    assert saved is not None
    learner = QueryParamLearner.from_bytes(saved)
    assert learner.dropped_names() == ["sid"] and learner.status("id") == "identifying"

    # `feedsift show` explains the learned drop and finds the story stored before it
    url = web.url("/story?id=12&sid=zz")
    assert main(["show", url, "--title", STORIES[12], "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "learned drop:        sid=zz" in out
    assert f"fetched {web.url('/story?id=12&sid=a')}" in out


def test_ids_with_different_titles_are_different_stories_before_and_after_learning(
    web: LoopbackServer, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    subscribe(db, [serve_session(web, "a")])
    for sid in "ab":
        serve_session(web, sid)
        crawl_once(db)
    web.route("/story?id=15&sid=b", PAGE.format(title="Bridge reopens").encode())
    web.route("/feed.xml", (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>'
        f"<link>{web.base_url}/</link><item><title>Bridge reopens</title>"
        f"<link>{web.base_url}/story?id=15&amp;sid=b</link></item></channel></rss>"
    ).encode(), content_type="application/rss+xml")  # fmt: skip
    crawl_once(db)
    stored = {url for (url,) in rows(db, "SELECT response_url FROM documents")}
    assert stored == {web.url(f"/story?id={n}&sid=a") for n in STORIES} | {
        web.url("/story?id=15&sid=b")
    }
