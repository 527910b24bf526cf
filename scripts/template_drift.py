"""A site that changes its template mid-stream: drift detected, template relearned.

Builds one feed from two real blogs of ``../shared/sites/ssg`` (``--before`` and
``--after``): its first items link to the first blog's posts, the later ones to the second's,
as if the site had moved to another theme. A template is learned from the first items;
the later posts are checked with it the way the crawl does (``check_pages``: drift when
``DRIFT_PAGES`` new pages in a row are not posts by it), then a new template is learned from
the feed's current items. Prints post detection and body word-LCS F1 on the second blog's
posts with the old template and with the relearned one.

    .venv/bin/python scripts/template_drift.py
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from urllib.parse import urljoin

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.crawl.template_jobs import FetchedPage, check_pages
from feedsift.crawl.templating import DRIFT_PAGES
from feedsift.evaluation.metrics import lcs_prf
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.templates.learner import FeedTemplate


def _site(folder: Path) -> tuple[ParsedFeed, dict[str, tuple[bytes, ParsedPage, str]]]:
    meta = json.loads((folder / "site.json").read_text(encoding="utf-8"))
    base = meta.get("site_url") or f"http://{folder.name.split('__')[-1]}/"
    feed = parse_feed((folder / "feed.xml").read_bytes(), urljoin(base, "feed.xml"))
    pages = {}
    for line in (folder / "gold.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        file = folder / "pages" / f"{row['id']}.html.gz"
        if row.get("in_feed") and file.exists():
            url = urljoin(base, row["url"])
            body = gzip.decompress(file.read_bytes())
            pages[url] = (body, parse_page(body, url), row["text"])
    return feed, pages


def _score(template: FeedTemplate, pages: dict[str, tuple[bytes, ParsedPage, str]]) -> str:
    posts = sum(template.is_post(p) for _, p, _ in pages.values())
    f1 = [lcs_prf(template.extract(p).text, gold).f1 for _, p, gold in pages.values()]
    return f"posts detected {posts}/{len(pages)}, body F1 {sum(f1) / len(f1):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, default=Path("../shared/sites/ssg"))
    parser.add_argument("--before", default="0xRick__0xRick.github.io")
    parser.add_argument("--after", default="CloudLinzl__Astro-blog")
    args = parser.parse_args()
    feed_a, pages_a = _site(args.sites / args.before)
    feed_b, pages_b = _site(args.sites / args.after)
    old = FeedTemplate().fit(feed_a, {u: p for u, (_, p, _) in pages_a.items()})
    print(f"template v1 from {old.items_learned_} items of {args.before}: {old.key_path}")
    print(f"  on {args.before}'s posts: {_score(old, pages_a)}")
    print(f"  on {args.after}'s posts:  {_score(old, pages_b)}")
    fresh = tuple(FetchedPage(u, u, body, None) for u, (body, _, _) in list(pages_b.items())[:5])
    verdicts = check_pages(old.to_bytes(), fresh)
    run, drift_at = 0, None
    for count, is_post in enumerate(verdicts, 1):
        run = 0 if is_post else run + 1
        drift_at = drift_at or (count if run >= DRIFT_PAGES else None)
    print(f"new pages judged posts by v1: {list(verdicts)} -> drift after {drift_at} pages")
    new = FeedTemplate().fit(feed_b, {u: p for u, (_, p, _) in pages_b.items()})
    print(f"template v2 from {new.items_learned_} items: {new.key_path}")
    print(f"  on {args.after}'s posts:  {_score(new, pages_b)}")


if __name__ == "__main__":
    main()
