"""The crawl on real blogs: their real feeds and pages, served on loopback by the test web.

Skipped when ``../shared/sites/ssg`` is missing (it is not part of the repository).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crawl_helpers import crawl_once, post_of, stored_documents, subscribe, word_f1
from feedsift.crawl.templating import TemplateOptions
from feedsift.testweb import TestWeb

SSG = Path(__file__).resolve().parents[2] / "shared" / "sites" / "ssg"
#: A Jekyll, a Pelican, two Hugo and a Jekyll/Korean blog: different generators and feeds.
BLOGS = (
    "0x27__0x27.github.io",
    "3Naito3__3naito3.github.io",
    "4rkal__blog",
    "GiliardGodoi__GiliardGodoi.github.io",
    "3-24__3-24.github.io",
)


@pytest.mark.skipif(not SSG.is_dir(), reason=f"{SSG} is missing (shared data, not in the repo)")
def test_real_blogs_every_feed_post_stored_once_and_extracted(tmp_path: Path) -> None:
    with TestWeb(ssg_root=SSG, rounds=1) as web:
        truth = web.truth()
        sites = [site for site in truth.sites if site.name in BLOGS]
        assert len(sites) == len(BLOGS)
        db = tmp_path / "f.db"
        subscribe(db, [feed.url for site in sites for feed in site.feeds])
        counts = crawl_once(db, templates=TemplateOptions(harvest=False))  # feed posts only
    assert counts.feed_errors == counts.page_errors == 0
    docs = stored_documents(db)
    posts = [post_of(truth, doc.response_url) for doc in docs]
    assert None not in posts
    ids = sorted(post.post_id for post in posts if post is not None)
    assert ids == sorted(post.post_id for site in sites for post in site.posts)
    pairs = [(doc, post) for doc, post in zip(docs, posts, strict=True) if post is not None]
    titles = sum(doc.title == post.title for doc, post in pairs) / len(pairs)
    f1 = sum(word_f1(doc.text, post.text) for doc, post in pairs) / len(pairs)
    assert titles >= 0.9 and f1 >= 0.9, (titles, f1)
