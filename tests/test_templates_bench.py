"""The template benchmark on a small generated blog: loading, feed mapping, scores, CLI."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.cli.main import main
from feedsift.errors import DatasetError, NotFittedError
from feedsift.evaluation.datasets import read_page_html
from feedsift.evaluation.templates_bench import (
    ChosenMethod,
    MethodRun,
    PageLevelMethod,
    PageScore,
    SiteRun,
    TemplatesOptions,
    author_matches,
    date_matches,
    find_sites,
    fit_pages,
    path_key,
    run_site,
    tag_jaccard,
    title_matches,
)
from feedsift.evaluation.templates_report import compare_chosen, render_templates, templates_json
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article

SITE_URL = "http://blog.example/"
NAV = "<nav><a href='/'>Home</a> <a href='/archive/'>Archive</a> <a href='/about/'>About</a></nav>"
FOOT = "<footer><p>Copyright 2024 Jane Doe. Built with a static site generator.</p></footer>"
WORDS = ("garden compost tomato seedling harvest trellis mulch soil basil pepper squash "
         "irrigation greenhouse orchard pruning").split()  # fmt: skip
POSTS = (  # id, path, title, date, tags, in the feed
    ("p1", "/2024/03/01/first-harvest/", "First harvest of the year", "2024-03-01", True),
    ("p2", "/2024/02/10/compost-notes/", "Notes on compost", "2024-02-10T23:30:00+01:00", True),
    ("p3", "/2023/12/24/winter-plans.html", "Winter plans", "2023-12-24", False),
)


def _paragraph(n: int, k: int) -> str:
    a, b = WORDS[(n + k) % len(WORDS)], WORDS[(3 * n + 2 * k + 1) % len(WORDS)]
    return (
        f"This season the {a} bed number {n} did well next to the {b}, and on day {k} "
        f"I wrote down what the {a} needed: water, patience and a little more shade."
    )


def _body(n: int) -> list[str]:
    return [_paragraph(n, k) for k in range(5)]


def _post_html(n: int, title: str, day: str) -> str:
    paragraphs = "".join(f"<p>{p}</p>" for p in _body(n))
    meta = (f"<p class='meta'>By <span class='author'>Jane Doe</span> on "
            f"<time datetime='{day}'>{day[:10]}</time></p>")  # fmt: skip
    tags = "<p class='tags'>Tags: <a href='/tags/garden/'>garden</a></p>"
    head = f"<head><title>{title} | Jane's garden</title></head>"
    article = f"<article><h1>{title}</h1>{meta}{paragraphs}{tags}</article>"
    return f"<html>{head}<body><header>{NAV}</header><main>{article}</main>{FOOT}</body></html>"


def _listing_html(title: str) -> str:
    teasers = "".join(
        f"<li><h2><a href='{path}'>{name}</a></h2><p>{_paragraph(n, 0)[:90]}</p></li>"
        for n, (_, path, name, _, _) in enumerate(POSTS)
    )
    body = f"<main><h1>{title}</h1><ul class='posts'>{teasers}</ul></main>"
    return f"<html><head><title>{title}</title></head><body>{NAV}{body}{FOOT}</body></html>"


def _feed() -> str:
    items = "".join(
        f"<item><title>{name}</title><link>{SITE_URL.rstrip('/')}{path}</link>"
        f"<pubDate>{day[:10]}</pubDate><description>{_paragraph(n, 0)}</description></item>"
        for n, (_, path, name, day, in_feed) in enumerate(POSTS) if in_feed
    )  # fmt: skip
    return (
        "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>"
        f"<title>Jane's garden</title><link>{SITE_URL}</link>{items}</channel></rss>"
    )


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8")))


def _site(root: Path, feed: str | None = None) -> Path:
    folder = root / "jane__garden"
    gold: list[dict[str, object]] = []
    for n, (page_id, path, title, day, in_feed) in enumerate(POSTS):
        _write(folder / "pages" / f"{page_id}.html.gz", _post_html(n, title, day))
        gold.append({"id": page_id, "url": SITE_URL.rstrip("/") + path, "path": path,
                     "title": title, "date": day, "author": "name:  Jane Doe",
                     "tags": ["Garden"], "text": "\n\n".join(_body(n)), "in_feed": in_feed})
    others: list[dict[str, object]] = [{"id": "index", "path": "/", "kind": "home"},
              {"id": "archive", "path": "/archive/", "kind": "archive"}]  # fmt: skip
    _write(folder / "other" / "index.html.gz", _listing_html("Jane's garden"))
    _write(folder / "other" / "archive.html.gz", _listing_html("Archive"))
    lines: dict[str, list[dict[str, object]]] = {"gold.jsonl": gold, "other.jsonl": others}
    for name, rows in lines.items():
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (folder / "site.json").write_text(json.dumps({"site_url": SITE_URL}), encoding="utf-8")
    (folder / "feed.xml").write_text(feed if feed is not None else _feed(), encoding="utf-8")
    return root


class _Recorder:
    """A learner stand-in that records what the harness gives it and fails unfitted."""

    name = "recorder"

    def __init__(self) -> None:
        self.fitted: dict[str, ParsedPage] | None = None

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> _Recorder:
        self.fitted = dict(pages)
        return self

    def is_post(self, page: ParsedPage) -> bool | None:
        return self.fitted is not None and page.url in self.fitted

    def extract(self, page: ParsedPage) -> Article:
        if self.fitted is None:
            raise NotFittedError("recorder: not fitted")
        return PageLevelMethod().extract(page)


def test_sites_are_found_with_their_pages(tmp_path: Path) -> None:
    (site,) = find_sites(_site(tmp_path))
    assert site.name == "jane__garden" and site.feed_url == "http://blog.example/feed.xml"
    assert [p.id for p in site.posts] == ["p1", "p2", "p3"]
    assert [p.kind for p in site.others] == ["home", "archive"]
    assert site.posts[0].gold is not None and site.posts[0].gold.authors == ("Jane Doe",)
    assert site.others[1].url == "http://blog.example/archive/"
    with pytest.raises(DatasetError):
        find_sites(tmp_path / "missing")


def test_path_keys_ignore_host_slash_index_and_escapes() -> None:
    assert path_key("https://a.example/x/y/") == path_key("http://b.example/x/y/index.html")
    assert path_key("http://a.example/caf%C3%A9/") == "/café"
    assert path_key("http://a.example/post.html") == path_key("http://a.example/post")


def test_feed_items_map_to_their_pages(tmp_path: Path) -> None:
    (site,) = find_sites(_site(tmp_path))
    feed = parse_feed(_feed().encode(), site.feed_url)
    posts = {path_key(p.url): parse_page(read_page_html(p.path), p.url) for p in site.posts}
    linked = fit_pages(feed, posts)
    assert list(linked) == [f"http://blog.example{path}" for _, path, *_, f in POSTS if f]
    assert list(fit_pages(feed, posts, max_items=1)) == list(linked)[:1]


def test_metadata_matching_rules() -> None:
    assert title_matches("  Notes on\ncompost ", "notes on compost")
    assert not title_matches(None, "Notes on compost")
    berlin = timezone(timedelta(hours=1))
    assert date_matches(datetime(2024, 2, 10, 22, 30, tzinfo=UTC), "2024-02-10T23:30:00+01:00")
    assert date_matches(datetime(2024, 2, 11, 0, 30, tzinfo=berlin), "2024-02-10")
    assert not date_matches(datetime(2024, 2, 12), "2024-02-10")
    assert author_matches(["By Jane Doe"], ["jane doe"]) and not author_matches([], ["Jane"])
    assert tag_jaccard(["Garden", "soil"], ["garden"]) == 0.5


def test_harness_fits_and_scores_every_method(tmp_path: Path) -> None:
    (site,) = find_sites(_site(tmp_path))
    recorders: list[_Recorder] = []

    def recorder() -> _Recorder:
        recorders.append(_Recorder())
        return recorders[-1]

    result = run_site(site, TemplatesOptions((PageLevelMethod, recorder)))
    assert result.note is None and result.feed_items == 2 and len(result.fit_urls) == 2
    assert recorders[0].fitted is not None and set(recorders[0].fitted) == set(result.fit_urls)
    page, learner = result.methods
    assert page.fitted and learner.fitted and learner.fit_cpu_seconds >= 0.0
    assert len(page.pages) == 5 and sum(p.is_post_page for p in page.pages) == 3
    data = templates_json([result])
    pooled = data["pooled"]["page"]
    assert pooled["precision"] is not None and 0.0 <= pooled["recall"] <= 1.0
    for key in ("f1_in_feed", "f1_not_in_feed"):
        assert 0.0 <= pooled[key]["value"] <= 1.0 and pooled[key]["pages"] > 0
    assert pooled["f1_in_feed"]["value"] > 0.8  # the fixture's body is easy to find
    assert data["pooled"]["recorder"]["precision"] == 1.0  # its fit pages are posts
    assert data["pooled"]["recorder"]["recall"] == pytest.approx(2 / 3, abs=1e-3)
    assert set(data["sites"][0]["methods"]) == {"page", "recorder"}
    assert "pooled (1 sites)" in render_templates([result])


def test_the_chosen_method_keeps_the_page_level_where_the_feed_checks_too_little(
    tmp_path: Path,
) -> None:
    (site,) = find_sites(_site(tmp_path))
    result = run_site(site, TemplatesOptions((PageLevelMethod, ChosenMethod)))
    page, chosen = result.methods
    assert chosen.method == "chosen" and chosen.fitted
    # two feed items: one check per field and fold, too few to trust the template anywhere
    assert [(p.title, p.date, p.f1) for p in chosen.pages] == [
        (p.title, p.date, p.f1) for p in page.pages]  # fmt: skip


def _run(method: str, titles: list[bool], f1: float) -> MethodRun:
    pages = tuple(PageScore(f"p{n}", True, True, title=t, f1=f1) for n, t in enumerate(titles))
    return MethodRun(method, True, 0.0, 0.0, pages)


def test_chosen_is_compared_with_the_best_single_method_pooled_and_per_site() -> None:
    one = SiteRun("one", 2, 0, 2, (), (_run("page", [True, False], 0.9),
                                       _run("template", [True, True], 0.8),
                                       _run("chosen", [True, True], 0.9)))  # fmt: skip
    two = SiteRun("two", 2, 0, 2, (), (_run("page", [True, True], 0.7),
                                       _run("template", [False, False], 0.9),
                                       _run("chosen", [True, False], 0.9)))  # fmt: skip
    by_measure = {c.measure: c for c in compare_chosen([one, two])}
    title = by_measure["title"]
    assert (title.chosen, title.best, title.best_method) == (0.75, 0.75, "page")
    assert (title.sites_at_least, title.sites) == (1, 2)
    assert [(s.site, s.chosen, s.best, s.best_method) for s in title.short] == [
        ("two", 0.5, 1.0, "page")]  # fmt: skip
    body = by_measure["F1 rest"]  # every post is outside the feed here
    assert body.sites_at_least == 2 and body.short == () and body.chosen == pytest.approx(0.9)
    assert by_measure["F1 feed"].sites == 0  # no single method has a value
    text = render_templates([one, two])
    assert "chosen against the best single method" in text
    assert "short on title: two 0.500 < page 1.000" in text
    assert templates_json([one, two])["chosen_against_best"][2]["measure"] == "title"
    assert compare_chosen([SiteRun("x", 2, 0, 2, (), (_run("page", [True], 1.0),))]) == []


def test_unparsable_feed_leaves_methods_unfitted(tmp_path: Path) -> None:
    (site,) = find_sites(_site(tmp_path, feed="\x00\x01 not a feed"))
    result = run_site(site, TemplatesOptions((_Recorder,)))
    assert result.note is not None and result.note.startswith("feed not parsed")
    (run,) = result.methods
    assert not run.fitted
    posts = [p for p in run.pages if p.is_post_page]
    assert all(p.error and "NotFittedError" in p.error and p.f1 == 0.0 for p in posts)
    assert "not fitted: jane__garden" in render_templates([result])


def test_chosen_without_a_feed_to_check_on_is_the_page_level(tmp_path: Path) -> None:
    (site,) = find_sites(_site(tmp_path, feed="\x00\x01 not a feed"))
    page, chosen = run_site(site, TemplatesOptions((PageLevelMethod, ChosenMethod))).methods
    assert not chosen.fitted and not any(p.error for p in chosen.pages)
    assert [(p.predicted, p.title, p.f1) for p in chosen.pages] == [
        (p.predicted, p.title, p.f1) for p in page.pages]  # fmt: skip


def test_bench_templates_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _site(tmp_path / "sites")
    out_json = tmp_path / "out" / "templates.json"
    status = main(["bench", "--templates", str(root), "--json", str(out_json), "--quiet"])
    out = capsys.readouterr().out
    assert status == 0 and "jane__garden" in out and "pooled (1 sites)" in out
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert {"measures", "max_fit_items", "methods", "pooled", "sites"} <= set(data)
    assert data["sites"][0]["site"] == "jane__garden" and "page" in data["pooled"]
    assert "fit_cpu_seconds" in data["pooled"]["page"]
    assert {"template", "page", "chosen"} <= set(data["methods"])  # chosen beside the others
    assert "chosen against the best single method" in out
    if "trafilatura" in data["methods"]:  # the peer cannot tell posts, but finds their text
        peer = data["pooled"]["trafilatura"]
        assert peer["precision"] is None and peer["f1_in_feed"]["value"] > 0.5


def test_missing_default_folder_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "--templates", "--quiet"]) != 0
    assert "shared blog sites data is not there" in capsys.readouterr().err
