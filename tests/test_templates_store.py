"""The ``templates`` table (versions per feed, valid from a time) and ``feedsift templates``."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from feedsift.acquisition.feeds import parse_feed
from feedsift.cli.main import main
from feedsift.parsing.page import parse_page
from feedsift.saved_state import pack_state
from feedsift.storage import NewTemplate, Store, StoredTemplate
from feedsift.storage.migrations import MIGRATIONS, SCHEMA_VERSION
from feedsift.templates.learner import FeedTemplate

T0 = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
FEED = "http://blog.example/feed.xml"
OTHER_FEED = "http://blog.example/comments/feed.xml"
SENTENCES = (
    "The harbour wall was rebuilt in granite after the winter storms of that year.",
    "Fishermen still moor their boats along the eastern quay every single evening.",
    "A small museum keeps the old lamps and the keeper's log books on show.",
    "Visitors climb the hill behind the town to watch the tide come in at dusk.",
)
NAV = '<nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/tags/">Tags</a></nav>'


def _post_url(n: int) -> str:
    return f"http://blog.example/posts/{n}/"


def _body(n: int) -> str:
    return " ".join(SENTENCES[(n + i) % len(SENTENCES)] for i in range(4)) + f" Post {n} ends."


def _feed_xml() -> bytes:
    items = "".join(
        f"<item><title>Title {n}</title><link>{_post_url(n)}</link>"
        f"<description>{_body(n)}</description></item>"
        for n in (1, 2, 3)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Blog</title>'
        f"<link>http://blog.example/</link><description>Notes</description>{items}"
        "</channel></rss>"
    ).encode()


def _page_html(n: int) -> str:
    return (
        f'<html><body>{NAV}<div id="post-{n}" class="post"><h1>Title {n}</h1>'
        f'<div class="content"><p>{_body(n)}</p></div></div></body></html>'
    )


@pytest.fixture(scope="module")
def learned() -> FeedTemplate:
    """A template learned for real from a 3-item feed and its 3 post pages."""
    feed = parse_feed(_feed_xml(), FEED)
    pages = {_post_url(n): parse_page(_page_html(n), _post_url(n)) for n in (1, 2, 3)}
    template = FeedTemplate().fit(feed.sample(), pages)
    assert template.is_fitted
    return template


def _subscribe(store: Store, url: str, site: str = "blog.example") -> int:
    store.feeds.add(url, site, now=T0, interval=3600.0)
    record = store.feeds.get(url)
    assert record is not None
    return record.id


def _new(feed_id: int, valid_from: datetime, state: bytes = b"s") -> NewTemplate:
    return NewTemplate(
        feed_id=feed_id, site="blog.example", valid_from=valid_from, learned_at=valid_from,
        items=3, key_path="|html|body|div", state=state,
    )  # fmt: skip


def _store_learned(store: Store, feed_id: int, template: FeedTemplate, at: datetime) -> None:
    store.templates.add(
        NewTemplate(
            feed_id=feed_id, site="blog.example", valid_from=at, learned_at=at,
            items=len(template.items_), key_path=str(template.key_path),
            state=template.to_bytes(),
        )
    )  # fmt: skip


# -- the table ---------------------------------------------------------------------------


def test_versions_count_up_per_feed_and_round_trip(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        a, b = _subscribe(store, FEED), _subscribe(store, OTHER_FEED)
        first = store.templates.add(replace(_new(a, T0, b"\x00state"), items=7, key_path="|html|p"))
        second = store.templates.add(_new(a, T0 + timedelta(days=3)))
        other = store.templates.add(_new(b, T0))
        assert (first.version, second.version, other.version) == (1, 2, 1)
        assert first == StoredTemplate(
            first.id, a, "blog.example", 1, T0, T0, 7, "|html|p", b"\x00state"
        )
        assert store.templates.current(a) == second
        assert store.templates.current(b) == other
        assert store.templates.current(a + b + 1) is None


def test_at_gives_each_moment_the_version_that_held_then(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        feed = _subscribe(store, FEED)
        v1 = store.templates.add(_new(feed, T0))
        v2 = store.templates.add(_new(feed, T0 + timedelta(days=10)))
        at = store.templates.at
        assert at(feed, T0 - timedelta(seconds=1)) is None  # before any template
        assert at(feed, T0) == v1
        assert at(feed, T0 + timedelta(days=9, hours=23)) == v1  # older pages: older version
        assert at(feed, T0 + timedelta(days=10)) == v2
        assert at(feed, T0 + timedelta(days=400)) == v2
        naive = (T0 + timedelta(days=11)).replace(tzinfo=None)  # taken to be UTC
        assert at(feed, naive) == v2


def test_of_site_is_by_feed_then_version_and_sites_counts(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        a, b = _subscribe(store, FEED), _subscribe(store, OTHER_FEED)
        elsewhere = _subscribe(store, "http://news.example/rss", "news.example")
        for feed, when in ((b, T0), (a, T0), (b, T0 + timedelta(days=1)), (a, T0)):
            store.templates.add(_new(feed, when))
        store.templates.add(replace(_new(elsewhere, T0), site="news.example"))
        listed = [(t.feed_id, t.version) for t in store.templates.of_site("blog.example")]
        assert listed == [(a, 1), (a, 2), (b, 1), (b, 2)]
        assert store.templates.of_site("nowhere.example") == []
        assert store.templates.sites() == [("blog.example", 4), ("news.example", 1)]


def test_removing_a_feed_removes_its_templates(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        a, b = _subscribe(store, FEED), _subscribe(store, OTHER_FEED)
        store.templates.add(_new(a, T0))
        store.templates.add(_new(b, T0))
        assert store.feeds.remove(FEED)
        assert [t.feed_id for t in store.templates.of_site("blog.example")] == [b]
        assert store.templates.current(a) is None


def test_a_version_is_stored_once_per_feed(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        feed = _subscribe(store, FEED)
        store.templates.add(_new(feed, T0))
        with pytest.raises(sqlite3.IntegrityError):
            store.connection.execute(
                "INSERT INTO templates (feed_id, site, version, valid_from, learned_at, items,"
                " key_path, state) VALUES (?, 'blog.example', 1, 'x', 'x', 0, '', x'')",
                (feed,),
            )


def test_a_version_2_database_gains_the_templates_table_and_keeps_its_data(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    connection = sqlite3.connect(path)
    for migration in MIGRATIONS[:2]:
        connection.executescript(migration.sql)
    connection.execute(
        "INSERT INTO feeds (url, site, added_at, interval_s, next_poll_at)"
        " VALUES (?, 'blog.example', '2026-01-01', 60, '2026-01-01')",
        (FEED,),
    )
    connection.execute("PRAGMA user_version = 2")
    connection.commit()
    connection.close()
    with Store(path, create=False) as store:
        assert store.database.previous_version == 2 and SCHEMA_VERSION >= 3
        feed = store.feeds.get(FEED)
        assert feed is not None
        assert store.templates.add(_new(feed.id, T0)).version == 1


# -- the command line --------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _columns(out: str) -> list[list[str]]:
    """Each line as its first two words and the rest (paths hold spaces)."""
    return [line.split(maxsplit=2) for line in out.splitlines()]


def test_show_prints_each_version_newest_first_with_paths_and_support(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, learned: FeedTemplate
) -> None:
    db = tmp_path / "t.db"
    with Store(db) as store:
        feed = _subscribe(store, FEED)
        _store_learned(store, feed, learned, T0)
        _store_learned(store, feed, learned, T0 + timedelta(days=30))
    status, out, err = run(capsys, "templates", "show", "blog.example", "--db", str(db))
    assert (status, err) == (0, "")
    key_path = str(learned.key_path)
    assert "div[@class=content]" in key_path
    assert out.count(f"key-path {key_path}") == 2
    assert f"feed {FEED}" in out
    assert out.index("version 2  valid from 2026-03-31 08:00:00 UTC") < out.index("version 1")
    assert "learned 2026-03-01 08:00:00 UTC from 3 items" in out
    lines = _columns(out)
    assert ["content", "3/3", key_path] in lines
    title = learned.clusters_["title"][0]
    assert ["title", "3/3", str(title.path)] in lines and str(title.path).endswith("|h1")
    assert ["author", "-", "not found"] in lines
    _, by_url, _ = run(capsys, "templates", "show", "http://www.Blog.example/x", "--db", str(db))
    assert by_url == out


def test_show_reports_an_unreadable_state_on_its_line_and_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, learned: FeedTemplate
) -> None:
    db = tmp_path / "t.db"
    with Store(db) as store:
        feed = _subscribe(store, FEED)
        _store_learned(store, feed, learned, T0)
        store.templates.add(_new(feed, T0 + timedelta(days=1), b"not gzip at all"))
    status, out, _ = run(capsys, "templates", "show", "blog.example", "--db", str(db))
    assert status == 0
    broken = next(line for line in out.splitlines() if "version 2" in line)
    assert "state unreadable: not a saved template state" in broken
    assert ["content", "3/3", str(learned.key_path)] in _columns(out)


def test_list_names_sites_feeds_and_versions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, learned: FeedTemplate
) -> None:
    db = tmp_path / "t.db"
    with Store(db) as store:
        a, b = _subscribe(store, FEED), _subscribe(store, OTHER_FEED)
        for feed in (a, a, b):
            _store_learned(store, feed, learned, T0)
    status, out, err = run(capsys, "templates", "list", "--db", str(db))
    assert (status, err) == (0, "")
    assert [line.split() for line in out.splitlines()] == [
        ["site", "feeds", "versions"],
        ["blog.example", "2", "3"],
    ]


def test_a_site_without_templates_is_one_line_on_stderr_and_status_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    Store(db).close()
    status, out, err = run(capsys, "templates", "show", "blog.example", "--db", str(db))
    assert (status, out) == (1, "")
    assert err.startswith("feedsift: blog.example: no templates") and len(err.splitlines()) == 1
    status, out, err = run(capsys, "templates", "list", "--db", str(db))
    assert (status, out) == (0, "") and "no templates" in err
    status, _, err = run(capsys, "templates", "list", "--db", str(tmp_path / "missing.db"))
    assert status == 1 and "no such database" in err


def test_help_teaches_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "templates", "show", "--help")
    assert status == 0 and "examples:" in out and "feedsift templates show" in out


def test_show_says_when_titles_are_read_from_the_title_tag(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed = parse_feed(_feed_xml(), FEED)
    pages = {
        _post_url(n): parse_page(
            _page_html(n).replace("<html>", f"<html><head><title>Title {n}</title></head>"),
            _post_url(n),
        )
        for n in (1, 2, 3)
    }
    template = FeedTemplate().fit(feed.sample(), pages)
    assert template.title_in_head_
    db = tmp_path / "t.db"
    with Store(db) as store:
        _store_learned(store, _subscribe(store, FEED), template, T0)
    status, out, _ = run(capsys, "templates", "show", "blog.example", "--db", str(db))
    assert status == 0 and "titles are read from <title>" in out


# -- the per-field checks (issue 17) -------------------------------------------------------


def _checks(template_title: float = 1.0, items: int = 6) -> bytes:
    """A combiner's saved checks: the template's titles right, the page level's wrong,
    dates alike (a tie goes to the page level), bodies never checked."""
    checks = {"page": {"title": [[0.0, 0.0]] * items, "published": [[1.0, 1.0]] * items},
              "template": {"title": [[template_title, 0.0]] * items,
                           "published": [[1.0, 1.0]] * items}}  # fmt: skip
    state = {"min_checks": 3, "window": 12, "items": items, "checks": checks}
    return pack_state("combiner", 1, state)


def test_a_version_keeps_its_per_field_checks(tmp_path: Path) -> None:
    with Store(tmp_path / "t.db") as store:
        feed = _subscribe(store, FEED)
        unchecked = store.templates.add(_new(feed, T0))
        checked = store.templates.add(replace(_new(feed, T0 + timedelta(days=1)), checks=_checks()))
        assert unchecked.checks is None and checked.checks == _checks()
        assert store.templates.current(feed) == checked
        (version,) = store.templates.feed_versions()
        assert version.checks == _checks()
        store.templates.set_checks(checked.id, _checks(template_title=0.0))  # a later poll's
        assert store.templates.current(feed) == replace(checked, checks=_checks(0.0))
        assert store.templates.of_site("blog.example")[0].checks is None


def test_a_version_4_database_gains_the_checks_column(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    connection = sqlite3.connect(path)
    for migration in MIGRATIONS[:4]:
        connection.executescript(migration.sql)
    connection.execute("PRAGMA user_version = 4")
    connection.commit()
    connection.close()
    with Store(path, create=False) as store:
        assert store.database.previous_version == 4
        feed = _subscribe(store, FEED)
        assert store.templates.add(_new(feed, T0)).checks is None


def test_show_and_stats_print_the_per_field_choice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, learned: FeedTemplate
) -> None:
    db = tmp_path / "t.db"
    with Store(db) as store:
        feed = _subscribe(store, FEED)
        new = NewTemplate(feed, "blog.example", T0, T0, 3, str(learned.key_path),
                          learned.to_bytes(), _checks())  # fmt: skip
        store.templates.add(new)
    status, out, _ = run(capsys, "templates", "show", "blog.example", "--db", str(db))
    assert status == 0 and "per field, checked on the feed's items against the page level" in out
    lines = _columns(out)
    assert ["title", "template", "1.00 against the page level's 0.00 on the same 6 items"] in lines
    assert ["published", "page", "1.00 against template's 1.00 on the same 6 items"] in lines
    assert ["body", "page", "no feed item could check it"] in lines
    status, out, _ = run(capsys, "stats", "--db", str(db))
    assert status == 0 and "title 1.00/0.00" in out and "published" not in out


def test_unreadable_checks_are_said_on_their_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, learned: FeedTemplate
) -> None:
    db = tmp_path / "t.db"
    with Store(db) as store:
        new = NewTemplate(_subscribe(store, FEED), "blog.example", T0, T0, 3,
                          str(learned.key_path), learned.to_bytes(), b"not a state")  # fmt: skip
        store.templates.add(new)
    status, out, _ = run(capsys, "templates", "show", "blog.example", "--db", str(db))
    assert status == 0 and "per-field checks unreadable" in out
    assert "checks unreadable" in run(capsys, "stats", "--db", str(db))[1]
