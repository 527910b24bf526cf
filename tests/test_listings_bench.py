"""feedsift bench --listings: a smoke run on a tiny invented blog, and the bookkeeping."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from feedsift.cli import bench_cmd
from feedsift.errors import DatasetError
from feedsift.evaluation.listings import (
    ListingsOptions,
    ListingsRun,
    PageOutcome,
    group_of,
    iter_site_pages,
    outcome_of,
    render_listings,
    run_listings,
    summarize_listings,
)
from feedsift.records import Article, PageKind, Provenance, Teaser

SITES = Path(__file__).parent / "fixtures" / "bench" / "sites"
BLOG = SITES / "tiny-blog"


def _cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="feedsift")
    bench_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", *argv])
    status: int = args.func(args)
    return status


def _article(kind: PageKind, posts: int = 0) -> Article:
    teasers = tuple(Teaser(f"post {i}", f"https://x.example/{i}/", "") for i in range(posts))
    return Article((), None, Provenance("test", "0", 1.0), kind=kind, posts=teasers)


def test_site_pages_get_kinds_and_urls_under_the_site_path() -> None:
    pages = iter_site_pages(BLOG)
    assert [(p.page_id, p.kind) for p in pages] == [
        ("index", "home"),
        ("tags_telescopes", "tag"),
        ("about", "about"),
        ("404", "404"),
        ("posts_first-light", "post"),
        ("posts_dew-heaters", "post"),
    ]
    assert pages[0].path.name == "index.html.gz"
    assert pages[1].url == "https://nightnotes.example/blog/tags/telescopes/"
    assert pages[4].url == "https://nightnotes.example/blog/posts/first-light/"
    limited = iter_site_pages(BLOG, ListingsOptions(limit=1, posts=False))
    assert [p.page_id for p in limited] == ["index"]


def test_outcome_of_an_extraction() -> None:
    assert outcome_of(_article(PageKind.LISTING, posts=2)) == "listing"
    assert outcome_of(_article(PageKind.LISTING)) == "listing-no-posts"
    assert outcome_of(_article(PageKind.ARTICLE)) == "article"
    assert outcome_of(_article(PageKind.EMPTY)) == "empty"


def test_groups_of_kinds() -> None:
    assert [group_of(k) for k in ("home", "pagination", "about", "taxonomy", "post", "odd")] == [
        "listing", "listing", "non-listing", "non-listing", "post", "other",
    ]  # fmt: skip


def test_summaries_and_verdicts_on_known_outcomes() -> None:
    outcomes = (
        PageOutcome("s", "1", "home", "listing", 3),
        PageOutcome("s", "2", "tag", "article", 0),
        PageOutcome("s", "3", "about", "listing-no-posts", 0),
        PageOutcome("s", "4", "404", "empty", 0),
        PageOutcome("s", "5", "post", "article", 0),
        PageOutcome("s", "6", "post", "error", 0, "bad page"),
    )
    run = ListingsRun(Path("/sites"), ("s",), outcomes, 1.0)
    rows = {r.kind: r for r in summarize_listings(run)}
    assert rows["all listing"].share("listing") == 0.5
    assert rows["all non-listing"].share("listing", "listing-no-posts") == 0.5
    assert rows["all post"].counts == {"article": 1, "error": 1}
    text = render_listings(run)
    assert "listing kinds reported as listing with posts: 0.500 of 2" in text
    assert "non-listing kinds misreported as listing: 0.500 of 2" in text
    assert "posts misreported as listing: 0.000 of 2" in text
    assert "first error: s/6: bad page" in text


def test_smoke_run_on_the_fixture_site() -> None:
    run = run_listings(SITES, ListingsOptions(progress=False))
    assert run.sites == ("tiny-blog",)
    assert len(run.outcomes) == 6
    assert all(o.error is None for o in run.outcomes)
    assert all(o.outcome in ("listing", "listing-no-posts", "article", "empty")
               for o in run.outcomes)  # fmt: skip
    assert {o.kind for o in run.outcomes} == {"home", "tag", "about", "404", "post"}


def test_cli_listings_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "listings.json"
    assert _cli("--listings", str(SITES), "--json", str(out), "--quiet") == 0
    assert "posts misreported as listing:" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["pages"]) == 6
    assert {r["kind"] for r in data["summary"]} >= {"home", "post", "all listing", "all post"}


def test_missing_sites_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(DatasetError, match="sites folder not found"):
        run_listings(tmp_path / "nowhere")
    with pytest.raises(DatasetError, match="no site"):
        run_listings(tmp_path)
    assert _cli("--listings", str(tmp_path / "nowhere"), "--quiet") == 1
    assert "sites folder not found" in capsys.readouterr().err
    assert _cli("--listings", str(SITES), "--peers", "trafilatura", "--quiet") == 2
    assert "--listings takes only" in capsys.readouterr().err
