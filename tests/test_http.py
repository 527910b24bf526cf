"""fetch_page against a real loopback HTTP server: success and every way a fetch can fail.

The loopback server is a private address, which ``fetch_page`` refuses by default (the SSRF
guard); the tests ask for it with ``allow_private=True`` except where the refusal is tested.
"""

from __future__ import annotations

import gzip
import socket
from typing import Any

import pytest

from conftest import ARTICLE_SENTENCE, LoopbackServer
from feedsift.acquisition.http import MAX_REDIRECTS, USER_AGENT, FetchedPage, fetch_page
from feedsift.errors import FetchError, UnsafeAddressError

PAGE = b"<html><body><p>A page served on loopback.</p></body></html>"


def fetch(url: str, **options: Any) -> FetchedPage:
    """``fetch_page`` allowed to reach the loopback server."""
    return fetch_page(url, allow_private=True, **options)


def test_ok_page(web: LoopbackServer, article_html: bytes) -> None:
    url = web.route("/post.html", article_html)
    page = fetch(url)
    assert page.status == 200
    assert page.url == page.final_url == url
    assert page.body == article_html
    assert ARTICLE_SENTENCE.encode() in page.body
    assert page.content_type == "text/html; charset=utf-8"
    assert page.header("content-length") == str(len(article_html))


def test_identifies_itself_and_asks_robots_first(web: LoopbackServer) -> None:
    fetch(web.route("/post.html", PAGE))
    paths = [path for path, _ in web.requests]
    assert paths == ["/robots.txt", "/post.html"]
    agent = web.requests[-1][1]["User-Agent"]
    assert agent == USER_AGENT
    assert agent.startswith("feedsift/") and "+https://" in agent


def test_redirect_chain_is_followed(web: LoopbackServer) -> None:
    final = web.route("/final.html", PAGE)
    web.redirect("/r3", "/final.html", status=301)
    web.redirect("/r2", web.url("/r3"), status=307)
    start = web.redirect("/r1", "r2")  # relative Location
    page = fetch(start)
    assert page.url == start
    assert page.final_url == final
    assert page.body == PAGE


def test_redirect_loop_is_named(web: LoopbackServer) -> None:
    web.redirect("/loop-b", "/loop-a")
    start = web.redirect("/loop-a", "/loop-b")
    with pytest.raises(FetchError, match="redirect loop") as caught:
        fetch(start)
    assert "/loop-a" in str(caught.value) and "/loop-b" in str(caught.value)


def test_too_many_redirects(web: LoopbackServer) -> None:
    for hop in range(MAX_REDIRECTS + 2):
        web.redirect(f"/hop/{hop}", f"/hop/{hop + 1}")
    with pytest.raises(FetchError, match=f"too many redirects \\(more than {MAX_REDIRECTS}\\)"):
        fetch(web.url("/hop/0"))


@pytest.mark.parametrize(("status", "reason"), [(404, "Not Found"), (500, "Internal Server Error")])
def test_error_status(web: LoopbackServer, status: int, reason: str) -> None:
    url = web.route("/broken", b"oops", status=status)
    with pytest.raises(FetchError, match=f"HTTP {status} {reason}"):
        fetch(url)


def test_oversized_body_with_content_length(web: LoopbackServer) -> None:
    url = web.route("/big.html", b"<p>" + b"x" * 200_000 + b"</p>")
    with pytest.raises(FetchError, match="body larger than 100000 bytes"):
        fetch(url, max_bytes=100_000)


def test_oversized_body_without_content_length(web: LoopbackServer) -> None:
    url = web.route("/stream.html", b"<p>" + b"x" * 300_000 + b"</p>", content_length=False)
    with pytest.raises(FetchError, match="body larger than 100000 bytes"):
        fetch(url, max_bytes=100_000)
    assert fetch(url, max_bytes=400_000).body.startswith(b"<p>xxx")


def test_gzip_bomb_is_capped_after_decompression(web: LoopbackServer) -> None:
    bomb = gzip.compress(b" " * 20_000_000)
    assert len(bomb) < 100_000  # small on the wire ...
    url = web.route("/bomb.html", bomb, headers={"Content-Encoding": "gzip"})
    with pytest.raises(FetchError, match="body larger than 1000000 bytes"):  # ... huge unpacked
        fetch(url, max_bytes=1_000_000)


def test_gzip_body_is_decoded(web: LoopbackServer) -> None:
    url = web.route("/gz.html", gzip.compress(PAGE), headers={"Content-Encoding": "gzip"})
    assert fetch(url).body == PAGE


@pytest.mark.parametrize("content_type", ["application/pdf", "image/png", "application/json"])
def test_binary_or_non_html_content_type(web: LoopbackServer, content_type: str) -> None:
    url = web.route("/file", b"%PDF-1.7 binary", content_type=content_type)
    with pytest.raises(FetchError, match=f"not an HTML page: content type {content_type}"):
        fetch(url)


def test_missing_content_type_is_accepted(web: LoopbackServer) -> None:
    url = web.route("/untyped", PAGE, content_type=None)
    assert fetch(url).content_type is None


def test_slow_response_times_out(web: LoopbackServer) -> None:
    url = web.route("/slow.html", PAGE, delay=2.0)
    with pytest.raises(FetchError, match=r"timed out after 0\.3 s"):
        fetch(url, timeout=0.3)


def test_robots_disallow(web: LoopbackServer) -> None:
    web.route("/robots.txt", b"User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    url = web.route("/private/post.html", PAGE)
    with pytest.raises(FetchError, match=r"disallowed by .*/robots\.txt"):
        fetch(url)
    assert [path for path, _ in web.requests] == ["/robots.txt"]  # the page was never asked for
    assert fetch(url, check_robots=False).body == PAGE


def test_robots_rules_for_feedsift_only(web: LoopbackServer) -> None:
    robots = b"User-agent: feedsift\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    web.route("/robots.txt", robots, content_type="text/plain")
    url = web.route("/post.html", PAGE)
    with pytest.raises(FetchError, match="disallowed"):
        fetch(url)
    assert fetch(url, user_agent="OtherBot/1.0").body == PAGE


def test_robots_checked_on_redirect_target(web: LoopbackServer) -> None:
    web.route("/robots.txt", b"User-agent: *\nDisallow: /members/\n", content_type="text/plain")
    web.route("/members/post.html", PAGE)
    start = web.redirect("/short", "/members/post.html")
    with pytest.raises(FetchError, match="disallowed"):
        fetch(start)


def test_robots_server_error_means_no_access(web: LoopbackServer) -> None:
    web.route("/robots.txt", b"down", status=503)
    url = web.route("/post.html", PAGE)
    with pytest.raises(FetchError, match=r"robots.txt unavailable \(HTTP 503\)"):
        fetch(url)


def test_unsupported_scheme_and_missing_host() -> None:
    with pytest.raises(FetchError, match="unsupported URL scheme 'ftp'"):
        fetch("ftp://example.org/file.html")
    with pytest.raises(FetchError, match="no host"):
        fetch("http:///path")


@pytest.mark.parametrize(
    "url", ["http://[::1/page", "http://127.0.0.1:99999999/", "http://" + "a" * 300 + ".org/"]
)
def test_invalid_urls(url: str) -> None:
    with pytest.raises(FetchError, match="invalid URL"):
        fetch(url, timeout=2)


def test_connection_refused() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nobody listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError, match="cannot connect"):
        fetch(f"http://127.0.0.1:{port}/page.html", timeout=2)


def test_loopback_is_refused_by_default(web: LoopbackServer) -> None:
    url = web.route("/post.html", PAGE)
    with pytest.raises(UnsafeAddressError, match=r"refused: 127\.0\.0\.1 is a loopback address"):
        fetch_page(url)
    assert web.requests == []  # refused before connecting, robots.txt included
    with pytest.raises(UnsafeAddressError, match="loopback name"):
        fetch_page(web.url("/post.html").replace("127.0.0.1", "localhost"))
