"""The crawl commands end to end through the CLI, against the loopback test web."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from feedsift.cli.demo_cmd import closing_summary
from feedsift.cli.export_cmd import parse_since
from feedsift.cli.main import main
from feedsift.crawl.report import CrawlCounts
from feedsift.testweb import TestWeb

LOOPBACK = ("--allow-private", "--delay", "0", "--timeout", "3")


@pytest.fixture(scope="module")
def web() -> Iterator[TestWeb]:
    with TestWeb(seed=13, rounds=1) as started:
        yield started


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_feeds_add_finds_the_feed_of_a_site(
    capsys: pytest.CaptureFixture[str], web: TestWeb, tmp_path: Path
) -> None:
    db = str(tmp_path / "f.db")
    site = web.site_urls()["marginalia"] + "/"
    status, out, err = run(capsys, "feeds", "add", site, "--db", db, *LOOPBACK)
    assert (status, err) == (0, "")
    assert out.startswith(f"added: {site}feed/ (found by link-tag)")
    status, out, _ = run(capsys, "feeds", "add", site + "feed/", "--db", db, *LOOPBACK)
    assert out.startswith("already subscribed")


def test_feeds_add_reports_each_failure_and_goes_on(
    capsys: pytest.CaptureFixture[str], web: TestWeb, tmp_path: Path
) -> None:
    db = str(tmp_path / "f.db")
    good = web.site_urls()["fieldnotes"] + "/atom.xml"
    broken = web.site_urls()["faults"] + "/broken/feed.xml"
    status, out, err = run(capsys, "feeds", "add", broken, good, "--db", db, *LOOPBACK)
    assert status == 1 and f"added: {good}" in out
    assert err.startswith(f"feedsift: {broken}: ") and len(err.splitlines()) == 1


def test_feeds_add_without_a_scheme_tries_https_then_http(
    capsys: pytest.CaptureFixture[str], web: TestWeb, tmp_path: Path
) -> None:
    db = str(tmp_path / "f.db")
    site = web.site_urls()["marginalia"]  # http only: https fails (no TLS there), then http
    status, out, err = run(capsys, "feeds", "add", site.removeprefix("http://"), "--db", db,
                           *LOOPBACK)  # fmt: skip
    assert (status, err) == (0, "")
    assert out == f"added: {site}/feed/ (found by link-tag)\n"
    status, out, _ = run(capsys, "feeds", "add", f"feed:{site}/feed/", "--db", db, *LOOPBACK)
    assert (status, out) == (0, f"already subscribed: {site}/feed/\n")


def test_a_host_nothing_listens_on_is_named_and_no_database_is_left(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nobody listens there
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
    db = tmp_path / "new.db"
    status, out, err = run(capsys, "feeds", "add", address, "--db", str(db), *LOOPBACK)
    assert (status, out) == (1, "") and len(err.splitlines()) == 1
    refused = f"cannot connect to {address}: connection refused"
    assert f"https://{address}: {refused}; http://{address}: {refused} after 4 attempts" in err
    assert "robots.txt" not in err
    assert not list(tmp_path.iterdir())  # no database file (nor its -wal, -shm) created


def test_loopback_feeds_are_refused_without_allow_private(
    capsys: pytest.CaptureFixture[str], web: TestWeb, tmp_path: Path
) -> None:
    url = web.site_urls()["fieldnotes"] + "/atom.xml"
    status, _, err = run(capsys, "feeds", "add", url, "--db", str(tmp_path / "f.db"))
    assert status == 1 and "--allow-private" in err


def test_opml_round_trip_list_and_remove(
    capsys: pytest.CaptureFixture[str], web: TestWeb, tmp_path: Path
) -> None:
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    for url in web.feed_urls("good")[:3]:
        assert run(capsys, "feeds", "add", url, "--as-is", "--db", str(first))[0] == 0
    opml = tmp_path / "subs.opml"
    assert run(capsys, "feeds", "export", "-o", str(opml), "--db", str(first))[0] == 0
    status, out, _ = run(capsys, "feeds", "import", str(opml), "--db", str(second))
    assert (status, out.split(",")[0]) == (0, "3 feeds added")
    status, out, _ = run(capsys, "feeds", "list", "--db", str(second))
    assert all(url in out for url in web.feed_urls("good")[:3])
    removed = web.feed_urls("good")[0]
    assert run(capsys, "feeds", "remove", removed, "--db", str(second))[0] == 0
    assert removed not in run(capsys, "feeds", "list", "--db", str(second))[1]
    status, _, err = run(capsys, "feeds", "remove", removed, "--db", str(second))
    assert status == 1 and "not subscribed" in err


def test_crawl_export_stats_and_show(
    capsys: pytest.CaptureFixture[str], web: TestWeb, tmp_path: Path
) -> None:
    db = str(tmp_path / "f.db")
    for url in web.feed_urls("good"):
        run(capsys, "feeds", "add", url, "--as-is", "--db", db)
    status, out, _ = run(capsys, "crawl", "--once", "--db", db, *LOOPBACK)
    assert status == 0 and "0 page errors" in out and f"database: {db}" in out
    status, out, err = run(capsys, "export", "--db", db)
    rows = [json.loads(line) for line in out.splitlines()]
    titles = {p.title for s in web.truth().sites if s.name != "faults" for p in s.posts}
    assert status == 0 and {row["title"] for row in rows} == titles
    assert err == f"exported {len(rows)} articles from {db}\n"
    site = web.site_urls()["gazette"].removeprefix("http://")
    status, out, _ = run(capsys, "export", "--db", db, "--site", site, "--format", "markdown")
    assert out.count("\n# ") + out.startswith("# ") == sum(
        len(s.posts) for s in web.truth().sites if s.name == "gazette"
    )
    assert run(capsys, "export", "--db", db, "--since", "1h", "-f", "txt")[1].count("==> ") == len(
        rows
    )
    assert run(capsys, "export", "--db", db, "--since", "2999-01-01")[1] == ""
    status, out, _ = run(capsys, "stats", "--db", db)
    assert status == 0 and site in out and "latest errors (0)" in out
    post = next(s for s in web.truth().sites if s.name == "marginalia").posts[0]
    status, out, _ = run(capsys, "show", post.variants[-1], "--title", post.title, "--db", db)
    assert status == 0 and f"URL key:             {post.url}" in out
    assert "stored document" in out


def test_export_of_a_missing_database_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "export", "--db", str(tmp_path / "none.db"))
    assert (status, out) == (1, "") and "no such database" in err


def test_since_must_be_a_date_or_an_age(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "export", "--since", "last tuesday")
    assert status == 2 and "not a date, time or age" in err


def test_an_age_past_year_one_means_since_the_beginning() -> None:
    assert parse_since("99999999d") == datetime.min.replace(tzinfo=UTC)
    assert parse_since("9" * 400 + "d") == datetime.min.replace(tzinfo=UTC)  # inf seconds
    assert datetime.now(UTC) - parse_since("2d") > timedelta(days=1, hours=23)


def test_demo_runs_the_pipeline_and_says_where_the_database_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "demo.db"
    status, out, err = run(capsys, "demo", "--rounds", "2", "--no-faults", "--db", str(db))
    assert status == 0 and f"database: {db}" in err
    assert "round 2:" in err and "articles (duplicates left out)" in out
    assert db.exists()
    closing = err.splitlines()[-6:]
    assert "extra posts found by following links in" in closing[0]
    assert closing[1:3] == [f"demo: database: {db}", "demo: try:"]
    assert closing[3:] == [
        f"demo:   feedsift stats --db {db}",
        f"demo:   feedsift export --db {db} --format markdown",
        f"demo:   feedsift templates list --db {db}",
    ]


def test_demo_summary_adds_up_the_rounds_in_plain_words() -> None:
    first = CrawlCounts(feeds_polled=21, articles=31, templates_learned=6, harvest_pages=68)
    second = CrawlCounts(feeds_polled=21, articles=5, harvest_posts=2, harvest_pages=10)
    assert closing_summary([first, second]) == (
        "36 articles stored from 21 feeds; 6 templates learned from the feeds; "
        "2 extra posts found by following links in 78 pages"
    )
