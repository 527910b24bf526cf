"""The polite asynchronous fetcher against real loopback servers.

Politeness is measured on the server side (when each request arrived and was answered);
delays are a few tenths of a second so the whole module stays fast.
"""

from __future__ import annotations

import asyncio
import gzip
import itertools
import socket
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest

from conftest import Hit, Reply, ScriptedServer
from feedsift.acquisition.fetcher import (
    USER_AGENT,
    Fetcher,
    FetchPolicy,
    FetchResult,
    Validators,
)
from feedsift.acquisition.politeness import HostGate
from feedsift.errors import (
    FetchError,
    HttpStatusError,
    RobotsDisallowedError,
    UnsafeAddressError,
)

PAGE = b"<html><body><p>A page served on loopback.</p></body></html>"
#: Loopback allowed, robots.txt off, no delay, no retries: each test turns on what it tests.
FAST = FetchPolicy(allow_private=True, robots=False, min_delay=0.0, retries=0, timeout=5.0)
#: An address that is public, so a resolver may claim it for a test host.
PUBLIC = "93.184.215.14"

Start = Callable[[], ScriptedServer]


def policy(**changes: Any) -> FetchPolicy:
    fields = {name: getattr(FAST, name) for name in FAST.__dataclass_fields__}
    return FetchPolicy(**{**fields, **changes})


def fetch(url: str, settings: FetchPolicy = FAST, **options: Any) -> FetchResult:
    """One fetch with a fresh fetcher; ``options`` go to the Fetcher or to ``fetch``."""
    return fetch_many([url], settings, **options)[0]


def fetch_many(urls: list[str], settings: FetchPolicy = FAST, **options: Any) -> list[FetchResult]:
    """Fetch ``urls`` at once with one fetcher; raise the first failure."""
    made = {key: options.pop(key) for key in ("transport", "resolver") if key in options}

    async def run() -> list[FetchResult]:
        async with Fetcher(settings, **made) as fetcher:
            return list(await asyncio.gather(*(fetcher.fetch(u, **options) for u in urls)))

    return asyncio.run(run())


def starts(hits: list[Hit]) -> list[float]:
    return [later.began - earlier.began for earlier, later in itertools.pairwise(hits)]


class FakeResolver:
    """A DNS that answers from a table."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table

    async def resolve(self, host: str, port: int) -> list[str]:
        return self.table[host]


class PinnedTransport(httpx.AsyncBaseTransport):
    """Connects every request to 127.0.0.1 whatever its host (like ``curl --resolve``).

    With ``hide_peer`` it does not tell which address it connected to, like a transport
    that does not expose its socket: then only the checks before connecting apply.
    """

    def __init__(self, hide_peer: bool = False) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self._hide_peer = hide_peer

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        pinned = httpx.Request(
            request.method,
            request.url.copy_with(host="127.0.0.1"),
            headers=request.headers,  # Host: still the name asked for
            stream=request.stream,
            extensions=request.extensions,
        )
        response = await self._inner.handle_async_request(pinned)
        if not self._hide_peer:
            return response
        extensions = {k: v for k, v in response.extensions.items() if k != "network_stream"}
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=response.stream,
            extensions=extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


# --- results -----------------------------------------------------------------------------


def test_result_record(scripted: Start) -> None:
    site = scripted()
    url = site.script("/post.html", Reply(PAGE, headers={"ETag": '"v1"'}))
    before = datetime.now(UTC)
    result = fetch(url)
    assert (result.request_url, result.response_url, result.status) == (url, url, 200)
    assert result.body == PAGE and result.redirects == () and result.attempts == 1
    assert result.content_type == "text/html; charset=utf-8"
    assert result.header("etag") == '"v1"' and result.validators == Validators('"v1"', None)
    assert before <= result.fetched_at <= datetime.now(UTC)
    assert result.fetched_at.tzinfo is UTC
    assert 0 < result.elapsed < 1 and 0 <= result.waited < 0.1
    (hit,) = site.hits()
    assert hit.headers["User-Agent"] == USER_AGENT
    assert hit.headers["Accept"].startswith("text/html")


def test_conditional_get(scripted: Start) -> None:
    site = scripted()
    stamp = "Tue, 07 May 2024 10:00:00 GMT"
    first = Reply(PAGE, headers={"ETag": '"v1"', "Last-Modified": stamp})
    url = site.script("/feed.xml", first, Reply(status=304, headers={"ETag": '"v1"'}))
    validators = fetch(url).validators
    assert validators == Validators('"v1"', stamp)
    again = fetch(url, validators=validators, accept="application/rss+xml")
    assert again.status == 304 and again.not_modified and again.body == b""
    hit = site.hits()[-1]
    assert hit.headers["If-None-Match"] == '"v1"'
    assert hit.headers["If-Modified-Since"] == stamp
    assert hit.headers["Accept"] == "application/rss+xml"


def test_accepted_kinds(scripted: Start) -> None:
    site = scripted()
    png = site.script("/logo.png", Reply(b"\x89PNG", content_type="image/png"))
    with pytest.raises(FetchError, match=r"^not an HTML page: content type image/png$"):
        fetch(png, kinds=frozenset({"text/html", "application/xhtml+xml"}))
    feeds = frozenset({"application/rss+xml", "application/atom+xml"})
    with pytest.raises(FetchError, match=r"not an accepted type \(application/atom\+xml, appl"):
        fetch(png, kinds=feeds)
    assert fetch(png).body == b"\x89PNG"  # any kind when none is asked for


# --- politeness --------------------------------------------------------------------------


def test_one_request_at_a_time_per_host(scripted: Start) -> None:
    site = scripted()
    urls = [site.script(f"/p{n}", Reply(PAGE, delay=0.15)) for n in range(3)]
    fetch_many(urls)
    hits = site.hits()
    assert len(hits) == 3
    for earlier, later in itertools.pairwise(hits):
        assert later.began >= earlier.answered  # never two at once


def test_per_host_slots_allow_parallel_requests(scripted: Start) -> None:
    site = scripted()
    urls = [site.script(f"/p{n}", Reply(PAGE, delay=0.2)) for n in range(2)]
    fetch_many(urls, policy(per_host=2))
    first, second = site.hits()
    assert second.began < first.answered


def test_min_delay_spaces_request_starts_robots_included(scripted: Start) -> None:
    site = scripted()
    urls = [site.script(f"/p{n}", Reply(PAGE)) for n in range(3)]

    async def run() -> tuple[list[FetchResult], dict[str, Any]]:
        async with Fetcher(policy(min_delay=0.2, robots=True)) as fetcher:
            results = await asyncio.gather(*map(fetcher.fetch, urls))
            return list(results), fetcher.host_stats()

    results, stats = asyncio.run(run())
    hits = site.hits()
    assert hits[0].path == "/robots.txt"
    # Starts are spaced on our side; the server sees each a little later (the first after
    # the connection is set up), so allow a few hundredths of jitter (no delay: ~0.001 s).
    assert len(hits) == 4 and min(starts(hits)) >= 0.15
    assert hits[-1].began - hits[0].began >= 0.55
    assert max(r.waited for r in results) >= 0.5  # the last one waited for three turns
    host = stats[site.base_url]
    assert (host.requests, host.errors) == (4, 0) and host.waited >= 0.5


def test_two_hosts_do_not_slow_each_other(scripted: Start) -> None:
    one, two = scripted(), scripted()
    urls = [s.script(f"/p{n}", Reply(PAGE, delay=0.25)) for s in (one, two) for n in range(2)]
    fetch_many(urls, policy(min_delay=0.1))
    for mine, theirs in zip(one.hits(), two.hits(), strict=True):
        assert mine.began < theirs.answered and theirs.began < mine.answered  # at once


def test_gate_defers_and_counts() -> None:
    async def run() -> list[float]:
        gate = HostGate(per_host=1, min_delay=0.0)
        gate.defer(0.2)
        async with gate.turn() as waited:
            pass
        return [waited, gate.stats().waited]

    waited, total = asyncio.run(run())
    assert 0.18 <= waited <= total


# --- redirects ---------------------------------------------------------------------------


def test_redirect_chain(scripted: Start) -> None:
    site = scripted()
    final = site.script("/final.html", Reply(PAGE))
    site.script("/r2", Reply(status=307, headers={"Location": final}))
    start = site.script("/r1", Reply(status=301, headers={"Location": "r2"}))
    result = fetch(start)
    assert (result.request_url, result.response_url) == (start, final)
    assert result.redirects == (start, site.url("/r2"))


def test_redirect_loop_is_named(scripted: Start) -> None:
    site = scripted()
    a = site.script("/a", Reply(status=302, headers={"Location": "/b"}))
    b = site.script("/b", Reply(status=302, headers={"Location": "/a"}))
    with pytest.raises(FetchError) as caught:
        fetch(a, policy(retries=3))
    assert str(caught.value) == f"redirect loop: {a} -> {b} -> {a}"
    assert len(site.hits()) == 2  # not retried


def test_too_many_redirects(scripted: Start) -> None:
    site = scripted()
    for n in range(6):
        site.script(f"/hop/{n}", Reply(status=302, headers={"Location": f"/hop/{n + 1}"}))
    with pytest.raises(FetchError, match=r"^too many redirects \(more than 3\)$"):
        fetch(site.url("/hop/0"), policy(max_redirects=3))
    assert len(site.hits()) == 4


def test_redirect_target_is_checked_against_robots(scripted: Start) -> None:
    site = scripted()
    site.script("/robots.txt", Reply(b"User-agent: *\nDisallow: /members/\n"))
    site.script("/members/post", Reply(PAGE))
    start = site.script("/short", Reply(status=302, headers={"Location": "/members/post"}))
    with pytest.raises(RobotsDisallowedError):
        fetch(start, policy(robots=True))
    assert "/members/post" not in [hit.path for hit in site.hits()]


# --- retries -----------------------------------------------------------------------------


def test_server_errors_are_retried_with_backoff(scripted: Start) -> None:
    site = scripted()
    oops = Reply(b"oops", status=500)
    url = site.script("/flaky", oops, Reply(b"oops", status=502), Reply(PAGE))

    async def run() -> tuple[FetchResult, Any]:
        async with Fetcher(policy(retries=3, backoff=0.05)) as fetcher:
            return await fetcher.fetch(url), fetcher.host_stats()

    result, stats = asyncio.run(run())
    assert (result.status, result.attempts, result.body) == (200, 3, PAGE)
    gaps = starts(site.hits())
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1  # doubled
    assert result.waited >= 0.15
    assert (stats[site.base_url].requests, stats[site.base_url].errors) == (3, 2)


def test_retries_give_up_with_the_last_reason(scripted: Start) -> None:
    site = scripted()
    url = site.script("/down", Reply(b"oops", status=500))
    with pytest.raises(HttpStatusError) as caught:
        fetch(url, policy(retries=2, backoff=0.01))
    assert str(caught.value) == "HTTP 500 Internal Server Error after 3 attempts"
    assert (caught.value.status, caught.value.retry_after) == (500, None)
    assert len(site.hits()) == 3


def test_429_retry_after_is_honoured(scripted: Start) -> None:
    site = scripted()
    busy = Reply(status=429, headers={"Retry-After": "1"})
    url = site.script("/busy", busy, Reply(PAGE))
    result = fetch(url, policy(retries=1, backoff=0.01))
    assert (result.status, result.attempts) == (200, 2)
    assert starts(site.hits())[0] >= 0.99 and result.waited >= 0.99


@pytest.mark.parametrize(("as_date", "seconds"), [(False, 3600.0), (True, 7200.0)])
def test_a_long_retry_after_is_left_to_the_caller(
    scripted: Start, as_date: bool, seconds: float
) -> None:
    later = datetime.now(UTC) + timedelta(seconds=seconds)
    retry_after = format_datetime(later, usegmt=True) if as_date else f"{seconds:.0f}"
    site = scripted()
    url = site.script("/busy", Reply(status=503, headers={"Retry-After": retry_after}))
    with pytest.raises(HttpStatusError) as caught:
        fetch(url, policy(retries=3, backoff=0.01))
    assert caught.value.status == 503
    assert caught.value.retry_after == pytest.approx(seconds, abs=5)
    assert "HTTP 503 Service Unavailable: retry after" in str(caught.value)
    assert "longer than the 120 s we wait" in str(caught.value)
    assert len(site.hits()) == 1


@pytest.mark.parametrize("status", [400, 403, 404, 410])
def test_client_errors_are_not_retried(scripted: Start, status: int) -> None:
    site = scripted()
    url = site.script("/gone", Reply(b"no", status=status))
    with pytest.raises(HttpStatusError, match=f"^HTTP {status} ") as caught:
        fetch(url, policy(retries=3, backoff=0.01))
    assert caught.value.status == status
    assert len(site.hits()) == 1


def free_port() -> int:
    """A port that was free a moment ago: nobody listens there."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_connection_refused_is_retried_then_reported() -> None:
    port = free_port()
    refused = f"^cannot connect to 127.0.0.1:{port}: connection refused after 2 attempts$"
    with pytest.raises(FetchError, match=refused):
        fetch(f"http://127.0.0.1:{port}/", policy(retries=1, backoff=0.01))


def test_an_unreachable_host_is_not_blamed_on_robots_txt() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/feed"
    refused = f"^cannot connect to 127.0.0.1:{port}: connection refused after 2 attempts$"

    async def run() -> None:
        async with Fetcher(policy(robots=True, retries=1, backoff=0.01)) as fetcher:
            for _ in range(2):  # not remembered: the host may be back for the next fetch
                with pytest.raises(FetchError, match=refused) as caught:
                    await fetcher.fetch(url)
                assert not isinstance(caught.value, RobotsDisallowedError)
            assert fetcher.robots_unavailable() == {}

    asyncio.run(run())


# --- time and size limits, broken connections --------------------------------------------


def test_slow_server_times_out(scripted: Start) -> None:
    site = scripted()
    url = site.script("/slow", Reply(PAGE, delay=1.5))
    began = time.monotonic()
    with pytest.raises(FetchError, match=r"^timed out after 0\.3 s$"):
        fetch(url, policy(timeout=0.3))
    assert time.monotonic() - began < 1.0


def test_a_timeout_is_retried(scripted: Start) -> None:
    site = scripted()
    url = site.script("/once-slow", Reply(PAGE, delay=1.0), Reply(PAGE))
    result = fetch(url, policy(timeout=0.3, retries=1, backoff=0.01))
    assert (result.body, result.attempts) == (PAGE, 2)


def test_connection_reset(scripted: Start) -> None:
    site = scripted()
    url = site.script("/reset", Reply(reset=True))
    with pytest.raises(FetchError, match=r"^connection reset by peer$"):
        fetch(url)
    url = site.script("/reset-once", Reply(reset=True), Reply(PAGE))
    assert fetch(url, policy(retries=1, backoff=0.01)).attempts == 2


def test_oversized_body_is_refused_before_reading(scripted: Start) -> None:
    site = scripted()
    url = site.script("/big", Reply(b"x" * 200_000))
    with pytest.raises(
        FetchError, match=r"^body larger than 100000 bytes \(Content-Length 200000\)$"
    ):
        fetch(url, policy(max_bytes=100_000, retries=2, backoff=0.01))
    assert len(site.hits()) == 1  # a size error is not retried


def test_gzip_bomb_is_stopped_at_the_cap(scripted: Start) -> None:
    site = scripted()
    bomb = gzip.compress(b" " * 20_000_000)
    headers = {"Content-Encoding": "gzip"}
    url = site.script("/bomb", Reply(bomb, headers=headers))
    began = time.monotonic()
    with pytest.raises(FetchError, match=r"^body larger than 1000000 bytes$"):
        fetch(url, policy(max_bytes=1_000_000))
    assert time.monotonic() - began < 2.0
    small = site.script("/gz", Reply(gzip.compress(PAGE), headers=headers))
    assert fetch(small).body == PAGE


class KeepAliveServer:
    """A raw HTTP/1.1 server that keeps connections open (http.server's speaks HTTP/1.0):
    ``/long`` declares a Content-Length of 10 and sends ``PAGE``, other paths send ``PAGE``."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:  # closed
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection, connection.makefile("rb") as lines:
            while request := lines.readline():
                while lines.readline() not in (b"\r\n", b""):
                    pass  # the headers
                declared = 10 if request.split()[1] == b"/long" else len(PAGE)
                head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {declared}"
                connection.sendall(head.encode() + b"\r\n\r\n" + PAGE)

    def close(self) -> None:
        self.socket.close()


def test_a_body_longer_than_its_content_length_is_an_error() -> None:
    server = KeepAliveServer()

    async def run() -> list[FetchResult]:
        async with Fetcher(FAST) as fetcher:
            first = await fetcher.fetch(server.url + "/first")
            declared = r"\(10 bytes declared, at least \d+ more sent\): cut short or smuggled$"
            with pytest.raises(FetchError, match=r"^the body is longer than its Content-Length "
                               + declared):  # fmt: skip
                await fetcher.fetch(server.url + "/long")
            # The bytes past the body stay on that connection, where they would be read as
            # the start of the next answer ("illegal status line"): it must not be reused.
            return [first, await fetcher.fetch(server.url + "/after")]

    try:
        assert [result.body for result in asyncio.run(run())] == [PAGE, PAGE]
    finally:
        server.close()
    assert server.connections == 2  # kept alive for /long, a new one after it


def test_a_line_end_after_the_body_is_tolerated(scripted: Start) -> None:
    site = scripted()
    url = site.script("/crlf", Reply(PAGE + b"\r\n", headers={"Content-Length": str(len(PAGE))}))
    assert fetch(url).body == PAGE


# --- the SSRF guard ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("http://127.0.0.1:{port}/", "127.0.0.1 is a loopback address"),
        ("http://[::1]:{port}/", "::1 is a loopback address"),
        ("http://[::ffff:127.0.0.1]:{port}/", "::ffff:127.0.0.1 is a loopback address"),
        ("http://localhost:{port}/", "localhost is a loopback name"),
        ("http://10.0.0.5/", "10.0.0.5 is a private address"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
    ],
)
def test_private_addresses_are_refused_by_default(
    scripted: Start, template: str, problem: str
) -> None:
    site = scripted()
    site.script("/", Reply(PAGE))
    with pytest.raises(UnsafeAddressError, match=f"^refused: {problem}"):
        fetch(template.format(port=site.port), policy(allow_private=False, robots=True))
    assert site.hits() == []  # refused before connecting


def test_a_name_resolving_to_loopback_is_refused(scripted: Start) -> None:
    site = scripted()
    site.script("/", Reply(PAGE))
    resolver = FakeResolver({"public.example": [PUBLIC, "127.0.0.1"]})
    with pytest.raises(UnsafeAddressError) as caught:
        fetch(
            f"http://public.example:{site.port}/",
            policy(allow_private=False),
            transport=PinnedTransport(),
            resolver=resolver,
        )
    assert str(caught.value) == (
        "refused: public.example resolves to 127.0.0.1, a loopback address"
        " (use --allow-private to fetch it)"
    )
    assert site.hits() == []


@pytest.mark.parametrize("robots", [False, True])
def test_the_connected_peer_is_checked(scripted: Start, robots: bool) -> None:
    """DNS said public, the connection went to loopback (rebinding): refused after connecting."""
    site = scripted()
    site.script("/page", Reply(PAGE))
    resolver = FakeResolver({"public.example": [PUBLIC]})
    with pytest.raises(UnsafeAddressError) as caught:
        fetch(
            f"http://public.example:{site.port}/page",
            policy(allow_private=False, robots=robots),
            transport=PinnedTransport(),
            resolver=resolver,
        )
    assert str(caught.value).startswith(
        "refused: public.example connected to 127.0.0.1, a loopback address"
    )
    assert [hit.path for hit in site.hits()] == ["/robots.txt" if robots else "/page"]


@pytest.mark.parametrize(
    ("location", "problem"),
    [
        ("http://127.0.0.1:{port}/admin", "127.0.0.1 is a loopback address"),
        ("http://internal.example:{port}/admin", "internal.example resolves to 10.0.0.5"),
    ],
)
def test_every_redirect_hop_is_checked(scripted: Start, location: str, problem: str) -> None:
    site = scripted()
    site.script("/admin", Reply(b"secret"))
    target = location.format(port=site.port)
    site.script("/go", Reply(status=302, headers={"Location": target}))
    resolver = FakeResolver({"public.example": [PUBLIC], "internal.example": ["10.0.0.5"]})
    with pytest.raises(UnsafeAddressError, match=f"^refused: {problem}"):
        fetch(
            f"http://public.example:{site.port}/go",
            policy(allow_private=False),
            transport=PinnedTransport(hide_peer=True),  # only the checks before connecting
            resolver=resolver,
        )
    assert [hit.path for hit in site.hits()] == ["/go"]


def test_allow_private_fetches_them(scripted: Start) -> None:
    site = scripted()
    url = site.script("/page", Reply(PAGE))
    assert fetch(url, policy(allow_private=True)).body == PAGE
    pinned = fetch(
        f"http://public.example:{site.port}/page",
        policy(allow_private=True),
        transport=PinnedTransport(),
        resolver=FakeResolver({}),  # not even asked
    )
    assert pinned.body == PAGE
    assert site.hits()[-1].headers["Host"] == f"public.example:{site.port}"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.org/x", "unsupported URL scheme 'ftp'"),
        ("http:///path", "URL has no host"),
        ("http://[::1/page", "invalid URL"),
        ("http://" + "a" * 300 + ".org/", "invalid URL"),
    ],
)
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(FetchError, match=message):
        fetch(url)
