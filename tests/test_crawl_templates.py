"""Feed templates end to end: real blogs on loopback, their feeds list a few posts, the crawl
learns each template, follows the site's links and stores the posts the feed does not list.

Skipped when ``../shared/sites/ssg`` is missing (it is not part of the repository).
"""

from __future__ import annotations

import json
import math
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from crawl_helpers import crawl_once, feedsift_command, subscribe, wait_for_rows
from feedsift.crawl import CrawlCounts
from feedsift.crawl.templating import TemplateOptions
from feedsift.evaluation.templates_bench import path_key as _key
from feedsift.evaluation.templates_bench import title_matches
from feedsift.sitelevel.combiner import FIELDS, saved_choices
from feedsift.storage import Store
from feedsift.testweb import TestWeb

SSG = Path(__file__).resolve().parents[2] / "shared" / "sites" / "ssg"
#: A Jekyll blog whose feed lists 10 of its 50 posts, an Astro blog listing 8 of 46, and a
#: Jekyll blog listing 10 of 45 whose about page has the post layout, a date included.
BLOGS = ("0xRick__0xRick.github.io", "CloudLinzl__Astro-blog", "3-24__3-24.github.io")
pytestmark = pytest.mark.skipif(not SSG.is_dir(), reason=f"{SSG} is missing (shared data)")


def _gold(name: str) -> dict[str, dict[str, object]]:
    rows = [json.loads(line) for line in (SSG / name / "gold.jsonl").open(encoding="utf-8")]
    return {_key(str(row["url"])): row for row in rows}


def _crawl_blogs(
    tmp_path: Path, templates: TemplateOptions | None = None
) -> tuple[Path, CrawlCounts, dict[str, str]]:
    """One crawl round over :data:`BLOGS` served on loopback: the database, the round's
    counts and each blog's origin."""
    root = tmp_path / "ssg"
    root.mkdir()
    for name in BLOGS:
        (root / name).symlink_to(SSG / name)
    db = tmp_path / "f.db"
    with TestWeb(ssg_root=root, rounds=1) as web:
        sites = [site for site in web.truth().sites if site.name in BLOGS]
        subscribe(db, [feed.url for site in sites for feed in site.feeds])
        counts = crawl_once(db, templates=templates)
        origins = {site.name: site.base_url for site in sites}
    return db, counts, origins


def test_posts_beyond_the_feed_are_found_through_links(tmp_path: Path) -> None:
    db, counts, origins = _crawl_blogs(tmp_path)
    assert counts.templates_learned == len(BLOGS)
    assert counts.harvest_vetoed >= 1  # 3-24's about page, laid out and dated as a post
    assert "with the post layout but listings or site pages" in counts.summary()
    rows = _stored(db)
    for name in BLOGS:
        _check_blog(_gold(name), [row for row in rows if row[0].startswith(origins[name])])


def test_harvested_posts_take_the_fields_the_feed_checks_chose(tmp_path: Path) -> None:
    """With ``combine`` the posts found through links are the combiner's: each field from
    the method the feed's items confirmed (issue 17), titles as right as the gold says."""
    db, counts, origins = _crawl_blogs(tmp_path, TemplateOptions(combine=True))
    assert counts.templates_learned == len(BLOGS)
    with Store(db, create=False) as store:  # the checks are kept with each template
        versions = store.templates.feed_versions()
    assert len(versions) == len(BLOGS)
    for version in versions:
        assert version.checks is not None
        page_level, choices = saved_choices(version.checks)
        assert page_level == "page" and set(choices) == set(FIELDS)
    rows, titles = _stored(db), _titles(db)
    for name in BLOGS:
        gold = _gold(name)
        mine = [row for row in rows if row[0].startswith(origins[name])]
        _check_blog(gold, mine, method="combiner")
        harvested = [url for url, _, in_feed in mine if not in_feed]
        right = [title_matches(titles[url], str(gold[_key(url)]["title"])) for url in harvested]
        assert sum(right) >= 0.95 * len(right), (name, sum(right), len(right))


def test_feedsift_watch_harvests_a_blog_beyond_its_feed(tmp_path: Path) -> None:
    """The same through the command line: `feedsift watch` on one blog, stopped by SIGTERM
    once 90% of the blog's posts are in."""
    name = BLOGS[0]
    (tmp_path / "ssg").mkdir()
    (tmp_path / "ssg" / name).symlink_to(SSG / name)
    db, gold = tmp_path / "f.db", _gold(name)
    with TestWeb(ssg_root=tmp_path / "ssg", rounds=1) as web:
        site = next(site for site in web.truth().sites if site.name == name)
        subscribe(db, [feed.url for feed in site.feeds])
        command = feedsift_command(db, "watch", "--delay", "0")
        watch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_for_rows(db, "articles", math.ceil(0.9 * len(gold)), watch, seconds=120)
        finally:
            err = _stop(watch)
    assert watch.returncode == 0, err
    _check_blog(gold, _stored(db))


def _stored(db: Path) -> list[tuple[str, str, bool]]:
    """Every stored article: its page's address, its method, whether a feed item led to it."""
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT d.response_url, a.method, i.id IS NOT NULL FROM articles a"
        " JOIN documents d ON d.id = a.document_id LEFT JOIN items i ON i.document_id = d.id"
    ).fetchall()
    connection.close()
    return [(str(url), str(method), bool(in_feed)) for url, method, in_feed in rows]


def _titles(db: Path) -> dict[str, str | None]:
    """Every stored article's title, by its page's address."""
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT d.response_url, a.title FROM articles a JOIN documents d ON d.id = a.document_id"
    ).fetchall()
    connection.close()
    return {str(url): title for url, title in rows}


def _check_blog(
    gold: dict[str, dict[str, object]], rows: list[tuple[str, str, bool]], method: str = "template"
) -> None:
    """Nothing but posts, each once, at least 90% of them, most through links (the template,
    or the combiner over it)."""
    keys = [_key(url) for url, _, _ in rows]
    assert all(key in gold for key in keys), [k for k in keys if k not in gold]
    assert len(set(keys)) == len(keys), sorted(keys)
    assert len(keys) >= 0.9 * len(gold), (len(keys), len(gold))
    through_links = [method for _, method, in_feed in rows if not in_feed]
    assert len(through_links) > len(rows) / 2
    assert set(through_links) == {method}


def _stop(process: subprocess.Popen[bytes]) -> str:
    """SIGTERM (what Ctrl-C does), then SIGKILL if it is not gone within a minute."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err.decode(errors="replace")
