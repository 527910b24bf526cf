"""Template drift in the crawl: a site moves to another theme between two polls.

The site is built from two real blogs of ``../shared/sites/ssg`` (skipped without it): its
feed first lists posts of one blog, then also posts of the other, all served on loopback.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urljoin
from xml.sax.saxutils import escape

import pytest

from crawl_helpers import crawl_once, subscribe
from feedsift.acquisition.feeds import FeedEntry, parse_feed
from feedsift.cli.main import main
from feedsift.crawl.templating import TemplateOptions
from feedsift.saved_state import unpack_state
from feedsift.storage import Store
from feedsift.templates.learner import FeedTemplate

SSG = Path(__file__).resolve().parents[2] / "shared" / "sites" / "ssg"
BEFORE, AFTER = "0xRick__0xRick.github.io", "CloudLinzl__Astro-blog"
pytestmark = pytest.mark.skipif(not SSG.is_dir(), reason=f"{SSG} is missing (shared data)")


class _Site:
    """A loopback site whose paths and feed the test sets."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, str]] = {}
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body, kind = site.files.get(self.path, (b"not found", "text/plain"))
                self.send_response(200 if self.path in site.files else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def feed(self, items: list[tuple[str, FeedEntry]]) -> None:
        rows = "".join(
            f"<item><title>{escape(e.title)}</title><link>{self.base}{path}</link>"
            f"<description>{escape(e.content or e.description)}</description>"
            f"<pubDate>{format_datetime(e.published) if e.published else ''}</pubDate></item>"
            for path, e in items
        )
        rss = f'<?xml version="1.0"?><rss version="2.0"><channel><title>Moving</title>' \
              f"<link>{self.base}/</link>{rows}</channel></rss>"
        self.files["/feed.xml"] = (rss.encode("utf-8"), "application/rss+xml")


def _posts(name: str, prefix: str, count: int) -> list[tuple[str, FeedEntry, bytes]]:
    folder = SSG / name
    meta = json.loads((folder / "site.json").read_text(encoding="utf-8"))
    feed = parse_feed((folder / "feed.xml").read_bytes(), urljoin(meta["site_url"], "feed.xml"))
    rows = [json.loads(line) for line in (folder / "gold.jsonl").open(encoding="utf-8")]
    pages = {urljoin(meta["site_url"], row["url"]).rstrip("/"): row["id"] for row in rows}
    found = []
    for entry in feed.entries:
        page_id = pages.get((entry.url or "").rstrip("/"))
        if page_id is not None and len(found) < count:
            body = gzip.decompress((folder / "pages" / f"{page_id}.html.gz").read_bytes())
            found.append((f"/{prefix}/{len(found)}/", entry, body))
    return found


@pytest.fixture
def site() -> Iterator[_Site]:
    made = _Site()
    thread = threading.Thread(target=made.server.serve_forever, daemon=True)
    thread.start()
    yield made
    made.server.shutdown()
    made.server.server_close()


def test_a_theme_change_is_drift_and_a_new_version_is_learned(
    site: _Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _posts(BEFORE, "a", 4), _posts(AFTER, "b", 4)
    for path, _, body in old + new:
        site.files[path] = (body, "text/html; charset=utf-8")
    site.feed([(path, entry) for path, entry, _ in old])
    db = tmp_path / "f.db"
    subscribe(db, [site.base + "/feed.xml"])
    first = crawl_once(db)
    assert first.templates_learned == 1 and first.template_drifts == 0
    site.feed([(path, entry) for path, entry, _ in new + old])
    second = crawl_once(db)
    assert second.templates_learned == 1 and second.template_drifts == 1
    with Store(db) as store:
        (feed,) = store.feeds.all()
        versions = store.templates.of_site(store.templates.current(feed.id).site)  # type: ignore[union-attr]
    assert [v.version for v in versions] == [1, 2]
    assert versions[0].key_path != versions[1].key_path
    assert versions[1].valid_from > versions[0].valid_from
    relearned = FeedTemplate.from_bytes(versions[1].state)
    assert relearned.items_learned_ == len(new)
    assert "heti" in versions[1].key_path  # the second theme's article container
    assert main(["stats", "--db", str(db)]) == 0
    assert "relearned after 1 drift" in capsys.readouterr().out


def test_a_later_poll_checks_the_template_fields_again(site: _Site, tmp_path: Path) -> None:
    """With the per-field checks (issue 17), each poll's new items are checked too and the
    stored checks grow; no drift, so the version stays."""
    posts = _posts(BEFORE, "a", 7)
    for path, _, body in posts:
        site.files[path] = (body, "text/html; charset=utf-8")
    site.feed([(path, entry) for path, entry, _ in posts[3:]])
    db = tmp_path / "f.db"
    subscribe(db, [site.base + "/feed.xml"])
    options = TemplateOptions(harvest=False, combine=True)
    assert crawl_once(db, templates=options).templates_learned == 1
    first = _checked_items(db)
    site.feed([(path, entry) for path, entry, _ in posts])
    assert crawl_once(db, templates=options).template_drifts == 0
    assert _checked_items(db) == first + 3


def _checked_items(db: Path) -> int:
    """The feed items the stored template's per-field checks have seen."""
    with Store(db) as store:
        (version,) = store.templates.feed_versions()
    assert version.version == 1 and version.checks is not None
    return int(unpack_state("combiner", 1, version.checks)["items"])
