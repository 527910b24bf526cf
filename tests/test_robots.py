"""robots.txt: RFC 9309 outcomes, the per-crawl cache, and the fetcher obeying both."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

import pytest

from conftest import Hit, Reply, ScriptedServer
from feedsift.acquisition.fetcher import Fetcher, FetchPolicy, FetchResult
from feedsift.acquisition.politeness import MAX_CRAWL_DELAY, HostGate
from feedsift.acquisition.robots import ROBOTS_MAX_BYTES, RobotsCache, RobotsRules
from feedsift.errors import FetchError, HttpStatusError, RobotsDisallowedError

ORIGIN = "https://blog.example"
AGENT = "feedsift/0.1.0 (+https://github.com/feedsift/feedsift)"
PAGE = b"<html><body><p>polite</p></body></html>"
#: Loopback, no delay, no retries unless a test asks.
POLICY = FetchPolicy(allow_private=True, min_delay=0.0, retries=0, timeout=5.0)

Start = Callable[[], ScriptedServer]


def fetch_all(policy: FetchPolicy, *urls: str) -> list[FetchResult | FetchError]:
    async def run() -> list[FetchResult | FetchError]:
        async with Fetcher(policy) as fetcher:
            outcomes = await asyncio.gather(*map(fetcher.fetch, urls), return_exceptions=True)
        assert all(isinstance(o, FetchResult | FetchError) for o in outcomes), outcomes
        return list(outcomes)  # type: ignore[arg-type]

    return asyncio.run(run())


def robots(text: str, **options: object) -> Reply:
    return Reply(text.encode(), content_type="text/plain", **options)  # type: ignore[arg-type]


# --- the rules on their own --------------------------------------------------------------


def test_rules_for_our_agent_and_crawl_delay() -> None:
    text = (
        b"User-agent: feedsift\nDisallow: /drafts/\nCrawl-delay: 2.5\n\n"
        b"User-agent: *\nDisallow: /\n"
    )
    rules = RobotsRules.parse(ORIGIN, text)
    rules.check(f"{ORIGIN}/2024/post.html", AGENT)
    with pytest.raises(RobotsDisallowedError, match=f"^disallowed by {ORIGIN}/robots.txt$"):
        rules.check(f"{ORIGIN}/drafts/x.html", AGENT)
    with pytest.raises(RobotsDisallowedError):
        rules.check(f"{ORIGIN}/2024/post.html", "OtherBot/1.0")
    assert rules.crawl_delay(AGENT) == 2.5
    assert rules.crawl_delay("OtherBot/1.0") is None


def test_rules_after_the_cap_are_ignored() -> None:
    text = b"# " + b"x" * ROBOTS_MAX_BYTES + b"\nUser-agent: *\nDisallow: /\n"
    RobotsRules.parse(ORIGIN, text).check(f"{ORIGIN}/page", AGENT)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410])
def test_client_errors_mean_no_rules(status: int) -> None:
    rules = RobotsRules.after_error(ORIGIN, HttpStatusError(f"HTTP {status}", status))
    assert rules.unavailable is None
    rules.check(f"{ORIGIN}/anything", AGENT)


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (HttpStatusError("HTTP 503 Service Unavailable", 503), "HTTP 503"),
        (HttpStatusError("HTTP 429 Too Many Requests", 429), "HTTP 429"),
        (FetchError("connection reset by peer"), "connection reset by peer"),
        (FetchError("timed out after 5 s"), "timed out after 5 s"),
    ],
)
def test_server_and_network_errors_mean_nothing_allowed(error: FetchError, reason: str) -> None:
    rules = RobotsRules.after_error(ORIGIN, error)
    assert rules.unavailable == reason
    with pytest.raises(RobotsDisallowedError) as caught:
        rules.check(f"{ORIGIN}/page", AGENT)
    assert str(caught.value) == f"disallowed: {ORIGIN}/robots.txt unavailable ({reason})"


def test_cache_loads_each_origin_once_and_forgets_failures() -> None:
    cache = RobotsCache()
    loads: list[str] = []

    async def load(origin: str) -> RobotsRules:
        loads.append(origin)
        await asyncio.sleep(0.01)
        if origin.endswith("flaky"):
            raise FetchError("host asks to come back later")
        return RobotsRules.after_error(origin, FetchError("down"))

    async def run() -> None:
        await asyncio.gather(*(cache.get(ORIGIN, load) for _ in range(5)))
        for _ in range(2):
            with pytest.raises(FetchError):
                await cache.get("https://flaky", load)

    asyncio.run(run())
    assert loads == [ORIGIN, "https://flaky", "https://flaky"]
    assert cache.unavailable() == {ORIGIN: "down"}


def test_crawl_delay_is_capped_and_never_below_min_delay() -> None:
    gate = HostGate(per_host=1, min_delay=1.0)
    gate.obey_crawl_delay(3600)
    assert gate.delay == MAX_CRAWL_DELAY
    gate.obey_crawl_delay(0.2)
    assert gate.delay == 1.0
    gate.obey_crawl_delay(None)
    assert gate.delay == 1.0


# --- the fetcher obeying them ------------------------------------------------------------


def test_disallowed_page_is_never_requested_and_robots_is_read_once(scripted: Start) -> None:
    site = scripted()
    site.script("/robots.txt", robots("User-agent: *\nDisallow: /private/\n"))
    public, private = site.script("/a.html", Reply(PAGE)), site.script("/private/b.html")
    other = site.script("/b.html", Reply(PAGE))
    first, second, refused = fetch_all(POLICY, public, other, private)
    assert isinstance(first, FetchResult) and isinstance(second, FetchResult)
    assert isinstance(refused, RobotsDisallowedError)
    assert str(refused) == f"disallowed by {site.base_url}/robots.txt"
    assert sorted(hit.path for hit in site.hits()) == ["/a.html", "/b.html", "/robots.txt"]


def test_robots_server_error_disallows_the_host_for_the_crawl(scripted: Start) -> None:
    site = scripted()
    site.script("/robots.txt", robots("oops", status=503))
    page = site.script("/a.html", Reply(PAGE))
    policy = FetchPolicy(allow_private=True, min_delay=0.0, retries=1, backoff=0.01)

    async def run() -> tuple[list[FetchError | FetchResult], dict[str, str]]:
        async with Fetcher(policy) as fetcher:
            outcomes = [await _outcome(fetcher, page) for _ in range(2)]
            return outcomes, fetcher.robots_unavailable()

    outcomes, unavailable = asyncio.run(run())
    for outcome in outcomes:
        assert isinstance(outcome, RobotsDisallowedError)
        assert "robots.txt unavailable (HTTP 503)" in str(outcome)
    assert unavailable == {site.base_url: "HTTP 503"}
    assert [hit.path for hit in site.hits()] == ["/robots.txt", "/robots.txt"]  # one retry


def test_robots_unreachable_disallows(scripted: Start) -> None:
    site = scripted()
    site.script("/robots.txt", Reply(reset=True))
    (outcome,) = fetch_all(POLICY, site.script("/a.html", Reply(PAGE)))
    assert isinstance(outcome, RobotsDisallowedError)
    assert "unavailable (connection reset by peer)" in str(outcome)


def test_robots_not_found_allows_everything(scripted: Start) -> None:
    site = scripted()  # every unscripted path is a 404, robots.txt included
    (result,) = fetch_all(POLICY, site.script("/a.html", Reply(PAGE)))
    assert isinstance(result, FetchResult) and result.body == PAGE
    assert [hit.path for hit in site.hits()] == ["/robots.txt", "/a.html"]


def test_robots_redirects_are_followed(scripted: Start) -> None:
    site = scripted()
    site.script("/robots.txt", Reply(status=301, headers={"Location": "/moved/robots.txt"}))
    site.script("/moved/robots.txt", robots("User-agent: *\nDisallow: /\n"))
    (outcome,) = fetch_all(POLICY, site.script("/a.html", Reply(PAGE)))
    assert isinstance(outcome, RobotsDisallowedError)


def test_crawl_delay_spaces_requests(scripted: Start) -> None:
    site = scripted()
    site.script("/robots.txt", robots("User-agent: *\nCrawl-delay: 0.25\n"))
    urls = [site.script(f"/p{n}.html", Reply(PAGE)) for n in range(3)]
    results = fetch_all(POLICY, *urls)
    assert all(isinstance(r, FetchResult) for r in results)
    pages = [hit for hit in site.hits() if hit.path != "/robots.txt"]
    # without the delay the gaps are ~0.001 s; the server sees each request a little after
    # it is sent, more so on a loaded machine, so a gap may look shorter than the delay
    assert len(pages) == 3 and min(_gaps(pages)) >= 0.1
    assert pages[-1].began - pages[0].began >= 0.45


async def _outcome(fetcher: Fetcher, url: str) -> FetchResult | FetchError:
    try:
        return await fetcher.fetch(url)
    except FetchError as exc:
        return exc


def _gaps(hits: list[Hit]) -> list[float]:
    return [later.began - earlier.began for earlier, later in itertools.pairwise(hits)]
