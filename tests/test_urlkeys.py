"""URL keys (URL Tree paper, Section 3), query rules and feed-item history keys."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedsift.dedup import (
    CID_PARAMETER,
    DEFAULT_USER_RULES,
    QueryRule,
    explain_url_key,
    history_key,
    load_rules,
    parse_rules,
    title_hash,
    url_key,
)
from feedsift.dedup.tracking import is_tracking
from feedsift.errors import ConfigError, InputError

RULES = load_rules()
TITLE = "Fire crews battle blaze in Los Angeles"
CID = title_hash(TITLE)
#: Parameters that only say where a click came from; no rule may keep them.
TRACKING = ("utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content")
TRACKING += ("fbclid", "gclid", "ref", "source", "mc_cid", "mc_eid", "yclid", "_ga")


# --- title hash -------------------------------------------------------------------------


def test_title_hash_is_md5_of_the_whitespace_normalised_title() -> None:
    assert title_hash("hello world") == hashlib.md5(b"hello world").hexdigest()
    assert title_hash("  hello \n\t world ") == title_hash("hello world")
    assert title_hash("Hello world") != title_hash("hello world")  # case is kept
    assert re.fullmatch(r"[0-9a-f]{32}", title_hash("Ünïcode title"))


# --- the paper's examples ---------------------------------------------------------------


def test_paper_abcnews_example_through_the_three_steps() -> None:
    response = "http://abcnews.go.com/kabc/story?section=news/local/los_angeles&id=8691010"
    steps = explain_url_key(response, TITLE, RULES)
    assert steps.response_url == response
    assert steps.with_cid == (
        f"http://abcnews.go.com/kabc/story?_cid_={CID}&id=8691010&section=news/local/los_angeles"
    )
    assert steps.key == "http://abcnews.go.com/kabc/story?id=8691010"
    assert steps.rule is not None and steps.rule.keep == ("id",)


def test_paper_step_two_url_gives_the_paper_key() -> None:
    step2 = (
        "http://abcnews.go.com/kabc/story?_cid_=090c0a49e55c9734bc2311e08ff006d4"
        "&id=8691010&section=news/local/los_angeles"
    )
    assert url_key(step2, TITLE, RULES) == "http://abcnews.go.com/kabc/story?id=8691010"


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://www.fitchratings.com/creditdesk/press_releases/detail.cfm?pr_id=7&print=1",
         "http://www.fitchratings.com/creditdesk/press_releases/detail.cfm?pr_id=7"),
        ("http://bbs.chinadaily.com.cn/viewthread.php?tid=12&extra=page%3D1",
         "http://bbs.chinadaily.com.cn/viewthread.php?tid=12"),
        ("http://www.hurriyetdailynews.com/n.php?n=turkey-news&pageCatID=0",
         "http://www.hurriyetdailynews.com/n.php?n=turkey-news"),
        ("http://globeandmail.golfcanada.ca/news/story.aspx?articleId=42&cat=3",
         "http://globeandmail.golfcanada.ca/news/story.aspx?articleId=42"),
        ("http://podcast.ft.com/index.php?pid=1337&utm_source=rss",
         "http://podcast.ft.com/index.php?pid=1337"),
        ("http://www.dailymail.co.uk/home/index.html?ito=1490",
         f"http://www.dailymail.co.uk/home/index.html?_cid_={CID}"),
        ("http://www.foxnews.com/on-air/hannity/index.html#mid",
         f"http://www.foxnews.com/on-air/hannity/index.html?_cid_={CID}"),
        ("http://www.aljazeera.com", f"http://www.aljazeera.com/?_cid_={CID}"),
        ("http://www.aljazeera.com/?utm_source=twitter", f"http://www.aljazeera.com/?_cid_={CID}"),
    ],
)  # fmt: skip
def test_every_table_one_rule(url: str, key: str) -> None:
    assert url_key(url, TITLE, RULES) == key


def test_aljazeera_home_page_documents_differ_by_title() -> None:
    first = url_key("http://www.aljazeera.com/", "Morning news", RULES)
    second = url_key("http://www.aljazeera.com/", "Evening news", RULES)
    assert first != second
    assert url_key("http://www.aljazeera.com/", "Morning  news ", RULES) == first
    assert url_key("http://www.aljazeera.com/", None, RULES) == "http://www.aljazeera.com/"
    # an article page of the site has a path, so the home-page rule does not apply
    article = url_key("http://www.aljazeera.com/news/a.html?utm_source=x", "Morning news", RULES)
    assert article == "http://www.aljazeera.com/news/a.html"


def test_without_a_rule_only_tracking_parameters_and_the_title_hash_go() -> None:
    url = "https://news.example.org/2024/05/fire-crews.html?cmp=rss&_cid_=abc&x=&CMP=a&_ga=1"
    steps = explain_url_key(url, TITLE, RULES)
    assert steps.rule is None
    assert steps.key == "https://news.example.org/2024/05/fire-crews.html?x="
    assert steps.dropped == ("CMP=a", f"_cid_={CID}", "_ga=1", "cmp=rss")
    plain = "https://news.example.org/2024/05/fire-crews.html?utm_medium=rss&fbclid=1"
    assert url_key(plain, TITLE, RULES) == "https://news.example.org/2024/05/fire-crews.html"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("https://news.example.com/story?id=12", "Flood closes the bridge"),
         ("https://news.example.com/story?id=13", "Council approves budget")),
        (("https://zeitung.example.de/nachrichten/index.html?artikel=77", "Brücke gesperrt"),
         ("https://zeitung.example.de/nachrichten/index.html?artikel=78", "Haushalt beschlossen")),
        (("https://shop.example/item?sku=A1", "Red kettle"),
         ("https://shop.example/item?sku=B2", "Blue kettle")),
        (("https://shop.example/?sku=A1", "Red kettle"),  # the WordPress rule keeps nothing here
         ("https://shop.example/?sku=B2", "Blue kettle")),
    ],
)  # fmt: skip
def test_two_stories_behind_one_script_keep_two_keys(
    first: tuple[str, str], second: tuple[str, str]
) -> None:
    first_key, second_key = url_key(*first, RULES), url_key(*second, RULES)
    assert first_key != second_key
    assert first_key == first[0]  # nothing in these URLs is tracking
    tracked = f"{first[0]}&utm_source=rss&utm_medium=feed&fbclid=a1&gclid=b2&ref=home"
    assert url_key(tracked, first[1], RULES) == first_key


def test_a_rule_applies_only_when_the_url_has_a_parameter_it_keeps() -> None:
    steps = explain_url_key("https://blog.example/?p=3&sku=A1", TITLE, RULES)
    assert steps.key == "https://blog.example/?p=3" and steps.rule is not None
    steps = explain_url_key("https://blog.example/?sku=A1&utm_source=x", TITLE, RULES)
    assert steps.key == "https://blog.example/?sku=A1" and steps.rule is None
    steps = explain_url_key("http://abcnews.go.com/kabc/story?section=local", TITLE, RULES)
    assert steps.key == "http://abcnews.go.com/kabc/story?section=local"


# --- the generic rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://blog.example/?p=12&utm_source=tw", "https://blog.example/?p=12"),
        ("https://blog.example/index.php?page_id=3&replytocom=9",
         "https://blog.example/index.php?page_id=3"),
        ("https://example.org/blog/?p=7", "https://example.org/blog/?p=7"),
        ("https://forum.example/viewtopic.php?f=3&t=77&sid=d41d8c",
         "https://forum.example/viewtopic.php?t=77"),
        ("https://forum.example/phpBB3/viewtopic.php?p=5#p5",
         "https://forum.example/phpBB3/viewtopic.php?p=5"),
        ("https://forum.example/showthread.php?t=9&page=2&s=abc",
         "https://forum.example/showthread.php?page=2&t=9"),
        ("https://bbs.example.cn/viewthread.php?tid=4&extra=page%3D1",
         "https://bbs.example.cn/viewthread.php?tid=4"),
        ("https://site.example/index.php?option=com_content&view=article&id=12:slug&Itemid=101",
         "https://site.example/index.php?id=12:slug&option=com_content&view=article"),
        ("https://paper.example/news/story.php?id=991&ref=home",
         "https://paper.example/news/story.php?id=991"),
        ("https://paper.example/article.aspx?articleId=5&fbclid=xyz",
         "https://paper.example/article.aspx?articleId=5"),
        ("https://paper.example/article.aspx?page=2&fbclid=xyz",
         "https://paper.example/article.aspx?page=2"),
    ],
)  # fmt: skip
def test_generic_rules(url: str, key: str) -> None:
    assert url_key(url, TITLE, RULES) == key


def test_shipped_rules_keep_no_tracking_parameter() -> None:
    for rule in RULES:
        assert rule.reason, rule
        for name in rule.keep:
            assert name not in TRACKING and not name.startswith("utm_"), rule


# --- normalisation beyond the paper -----------------------------------------------------


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("HTTP://WWW.Example.COM:80/Path/A.html", "http://www.example.com/Path/A.html"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("http://user:secret@example.com/a", "http://example.com/a"),
        ("http://example.com/a%2fb%7Ec%41", "http://example.com/a%2Fb~cA"),
        ("http://example.com/caf\u00e9 menu", "http://example.com/caf%C3%A9%20menu"),
        ("http://example.com/100%", "http://example.com/100%25"),
        ("  http://example.com/a#top  ", "http://example.com/a"),
        ("http://[2001:DB8::1]:8080/x", "http://[2001:db8::1]:8080/x"),
    ],
)
def test_url_normalisation(url: str, key: str) -> None:
    assert url_key(url, None, RULES) == key


def test_blank_and_repeated_parameters_are_kept_and_sorted() -> None:
    rules = parse_rules(r"example\.com/  a,b  # test", "test")
    key = url_key("http://example.com/?b=2&a=z&a&a=&b=1&&c=3", None, rules)
    assert key == "http://example.com/?a&a=&a=z&b=1&b=2"


def test_an_existing_cid_is_replaced_not_repeated() -> None:
    first = url_key("http://www.aljazeera.com/", TITLE, RULES)
    assert first.count(CID_PARAMETER) == 1
    assert url_key(first, "Other title", RULES) == url_key(
        "http://www.aljazeera.com/", "Other title", RULES
    )


@pytest.mark.parametrize(
    "url",
    ["", "example.com/a", "/relative/path", "ftp://example.com/f", "mailto:a@example.com",
     "http://", "http:///path", "http://exa mple.com/", "http://example.com:99999/",
     "http://[::1/", "javascript:alert(1)"],
)  # fmt: skip
def test_not_an_absolute_http_url_is_an_input_error(url: str) -> None:
    with pytest.raises(InputError, match="not a valid URL"):
        url_key(url, TITLE, RULES)


# --- rule files -------------------------------------------------------------------------


def test_parse_rules_reads_rules_reasons_and_skips_comments() -> None:
    text = "# comment\n\n  example\\.com/news  id,page   # news articles\nfoo\\.org  q\n"
    rules = parse_rules(text, "mine.txt")
    assert [r.trigger.pattern for r in rules] == [r"example\.com/news", r"foo\.org"]
    assert rules[0].keep == ("id", "page") and rules[0].reason == "news articles"
    assert rules[1].keep == ("q",) and rules[1].reason == ""
    assert rules[0].applies("https://example.com/news/1") and rules[0].applies(
        "http://example.com/news"
    )
    assert not rules[0].applies("http://www.example.com/news")  # anchored after the scheme
    assert not rules[0].applies("http://evil.test/example.com/news")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("example\\.com/(  id", "bad regular expression"),
        ("example\\.com/", "no query parameters"),
        ("example\\.com/  # only a comment", "no query parameters"),
        ("example\\.com/  id  trailing words", "unexpected text"),
        ("example\\.com/  id,,page", "bad query parameter list"),
        ("example\\.com/  id=1", "bad query parameter list"),
        ("https?://example\\.com/  id", "starts with a scheme"),
    ],
)
def test_rule_errors_name_file_and_line(line: str, message: str) -> None:
    text = "# header\n\ngood\\.example  id\n" + line + "\n"
    with pytest.raises(ConfigError, match=rf"^rules\.txt:4: .*{message}"):
        parse_rules(text, "rules.txt")


def test_user_rules_come_first_and_override_the_defaults(tmp_path: Path) -> None:
    mine = tmp_path / "url_rules.txt"
    mine.write_text("abcnews\\.go\\.com  section  # keep the section instead\n", encoding="utf-8")
    rules = load_rules(mine)
    assert rules[0].keep == ("section",) and rules[1:] == RULES
    url = "http://abcnews.go.com/kabc/story?section=local&id=8691010"
    assert url_key(url, TITLE, rules) == "http://abcnews.go.com/kabc/story?section=local"
    assert load_rules(mine, include_defaults=False) == rules[:1]


def test_load_rules_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read URL rules"):
        load_rules(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_text("\n\nexample\\.com/[  id\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.txt:3: bad regular expression"):
        load_rules(bad)


def test_default_user_rules_path_is_not_expanded_or_read() -> None:
    assert str(DEFAULT_USER_RULES).startswith("~")
    assert load_rules(include_defaults=False) == ()


def test_shipped_rules_hold_all_of_table_one() -> None:
    triggers = {rule.trigger.pattern: rule.keep for rule in RULES}
    assert triggers[r"abcnews\.go\.com"] == ("id",)
    assert triggers[r"podcast\.ft\.com/index\.php"] == ("pid",)
    assert triggers[r"globeandmail\.golfcanada\.ca"] == ("articleId",)
    assert triggers[r"www\.hurriyetdailynews\.com/n\.php"] == ("n",)
    assert triggers[r"bbs\.chinadaily\.com\.cn/viewthread\.php"] == ("tid",)
    assert sum(keep == (CID_PARAMETER,) for keep in triggers.values()) == 3
    assert isinstance(RULES[0], QueryRule)


# --- properties -------------------------------------------------------------------------

_HOSTS = st.sampled_from(
    ["abcnews.go.com", "www.aljazeera.com", "www.fitchratings.com", "podcast.ft.com",
     "www.dailymail.co.uk", "www.foxnews.com", "Blog.Example", "forum.example", "x.test"]
)  # fmt: skip
_SEGMENTS = st.one_of(
    st.sampled_from(
        [
            "",
            "index.php",
            "index.html",
            "home",
            "on-air",
            "detail.cfm",
            "viewtopic.php",
            "showthread.php",
            "story.php",
            "article.aspx",
            "n.php",
            "A%2fb",
            "%",
            "caf\u00e9 au lait",
        ]
    ),
    st.text(alphabet="abcXYZ019-._~%!$'()*+,;=:@", max_size=8),
)
_NAMES = st.one_of(
    st.sampled_from(["id", "p", "t", "page_id", "pid", "pr_id", "n", "tid", "articleId",
                     "option", "view", "section", "page", "start", "q", CID_PARAMETER]),
    st.text(alphabet="abcxyz_%2F", min_size=1, max_size=5),
)  # fmt: skip
#: No space: a URL ending in one loses it to stripping, so the order would matter.
_VALUES = st.text(alphabet="abc019-_.~%/:?=+\u00e9", max_size=8)
_PARAMS = st.lists(
    st.one_of(
        st.tuples(_NAMES, _VALUES).map(lambda nv: f"{nv[0]}={nv[1]}"),
        _NAMES,
        st.just("option=com_content"),
    ),
    max_size=6,
)
_TITLES = st.one_of(st.none(), st.text(max_size=20))
_TRACKING = st.lists(
    st.tuples(st.sampled_from(TRACKING), _VALUES).map(lambda nv: f"{nv[0]}={nv[1]}"),
    min_size=1,
    max_size=4,
)


@st.composite
def _origins(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "https", "HTTP", "Https"]))
    port = draw(st.sampled_from(["", ":80", ":443", ":8080"]))
    host = draw(_HOSTS)
    host = "".join(c.upper() if draw(st.booleans()) else c for c in host)
    return f"{scheme}://{host}{port}"


def _url(origin: str, segments: list[str], params: list[str]) -> str:
    path = "/" + "/".join(segments) if segments else ""
    return f"{origin}{path}?{'&'.join(params)}" if params else f"{origin}{path}"


@given(_origins(), st.lists(_SEGMENTS, max_size=4), _PARAMS, _TITLES)
def test_url_keys_are_idempotent(
    origin: str, segments: list[str], params: list[str], title: str | None
) -> None:
    key = url_key(_url(origin, segments, params), title, RULES)
    assert url_key(key, title, RULES) == key


@given(_origins(), st.lists(_SEGMENTS, max_size=4), _PARAMS, _TITLES, st.randoms())
def test_url_keys_ignore_the_order_of_parameters(
    origin: str, segments: list[str], params: list[str], title: str | None, rnd: st.Random
) -> None:
    shuffled = list(params)
    rnd.shuffle(shuffled)
    assert url_key(_url(origin, segments, shuffled), title, RULES) == url_key(
        _url(origin, segments, params), title, RULES
    )


@given(_origins(), st.lists(_SEGMENTS, max_size=4), _PARAMS, _TRACKING, _TITLES, st.randoms())
def test_tracking_parameters_never_change_the_key(
    origin: str,
    segments: list[str],
    params: list[str],
    tracking: list[str],
    title: str | None,
    rnd: st.Random,
) -> None:
    tracked = params + tracking
    rnd.shuffle(tracked)
    assert url_key(_url(origin, segments, tracked), title, RULES) == url_key(
        _url(origin, segments, params), title, RULES
    )


#: Values that stay distinct after normalisation (no escapes to decode).
_PLAIN_VALUES = st.text(alphabet="abcXYZ019-_.~:/", max_size=8)


@given(
    _origins(),
    st.lists(_SEGMENTS, max_size=4),
    _PARAMS,
    _NAMES.filter(lambda name: not is_tracking(name) and name != CID_PARAMETER),
    st.tuples(_PLAIN_VALUES, _PLAIN_VALUES).filter(lambda pair: pair[0] != pair[1]),
    st.tuples(_TITLES, _TITLES),
)
def test_urls_that_differ_in_a_parameter_no_rule_drops_never_share_a_key(
    origin: str,
    segments: list[str],
    params: list[str],
    name: str,
    values: tuple[str, str],
    titles: tuple[str | None, str | None],
) -> None:
    others = [p for p in params if p.partition("=")[0] != name]
    urls = [_url(origin, segments, [*others, f"{name}={value}"]) for value in values]
    steps = [explain_url_key(url, title, RULES) for url, title in zip(urls, titles, strict=True)]
    # a parameter is dropped only when it is tracking, or when an applying rule drops it
    for step in steps:
        if step.rule is None:
            names = [unquote(p.partition("=")[0]) for p in step.dropped]
            assert all(is_tracking(n) or n == CID_PARAMETER for n in names)
    if all(step.rule is None or step.rule.keeps(unquote(name)) for step in steps):
        assert steps[0].key != steps[1].key


@given(_origins(), st.lists(_SEGMENTS, max_size=4), _PARAMS, _TITLES)
def test_the_title_splits_a_url_only_where_a_rule_keeps_the_title_hash(
    origin: str, segments: list[str], params: list[str], title: str | None
) -> None:
    """So a page keyed from a feed item and the same page found by a link share a key."""
    url = _url(origin, segments, params)
    key = url_key(url, title, RULES)
    if f"{CID_PARAMETER}=" not in key:
        assert key == url_key(url, None, RULES)


@given(_origins(), st.lists(_SEGMENTS, max_size=4), _PARAMS, _TITLES, st.text(max_size=10))
def test_the_fragment_never_matters(
    origin: str, segments: list[str], params: list[str], title: str | None, fragment: str
) -> None:
    url = _url(origin, segments, params)
    assert url_key(f"{url}#{fragment}", title, RULES) == url_key(url, title, RULES)


# --- history keys -----------------------------------------------------------------------

_WORDS = st.lists(st.text(alphabet="abcé<>&\"'1-", min_size=1, max_size=6), max_size=6)
_SPACE = st.text(alphabet=" \t\n\r\u00a0\u2003", min_size=1, max_size=3)
_DATES = st.one_of(
    st.none(),
    st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
    ),
)


@st.composite
def _reformatted(draw: st.DrawFn, words: list[str]) -> str:
    """``words`` joined by arbitrary whitespace, with whitespace around them."""
    text = draw(_SPACE) if draw(st.booleans()) else ""
    for word in words:
        text += word + draw(_SPACE)
    return text


@given(st.data(), _WORDS, _WORDS, _DATES)
def test_history_key_ignores_whitespace_reformatting(
    data: st.DataObject, title: list[str], description: list[str], published: datetime | None
) -> None:
    plain = history_key(" ".join(title), " ".join(description), published)
    title_text = data.draw(_reformatted(title))
    description_text = data.draw(_reformatted(description))
    assert history_key(title_text, description_text, published) == plain


@given(
    st.tuples(_WORDS.map(" ".join), _WORDS.map(" ".join), _DATES),
    st.tuples(_WORDS.map(" ".join), _WORDS.map(" ".join), _DATES),
)
def test_history_keys_of_distinct_triples_differ(
    first: tuple[str, str, datetime | None], second: tuple[str, str, datetime | None]
) -> None:
    if first == second:
        assert history_key(*first) == history_key(*second)
    else:
        assert history_key(*first) != history_key(*second)


def test_history_key_examples() -> None:
    when = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    key = history_key("Title", "Summary", when)
    assert re.fullmatch(r"[0-9a-f]{32}", key)
    assert history_key("Title", "Summary", when.astimezone(timezone(timedelta(hours=2)))) == key
    assert history_key("Title", "Summary", when.replace(tzinfo=None)) == key  # naive is UTC
    assert history_key("Title", "Summary", None) != key
    assert history_key(None, None, None) == history_key("", " ", None)
    # no way to move text between the fields
    assert history_key("a", "b c", None) != history_key("a b", "c", None)
    assert history_key('a","b', "", None) != history_key("a", 'b","', None)
