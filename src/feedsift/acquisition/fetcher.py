"""The polite asynchronous fetcher of the acquisition stage.

One :class:`Fetcher` serves one crawl. It holds the HTTP client (connections are reused),
the robots.txt cache and the politeness state of every host, so requests to one host are
few and spaced out while requests to different hosts run in parallel. For each URL it:

- refuses non-HTTP URLs and, unless ``allow_private``, hosts that are or resolve to
  non-public addresses (:mod:`~feedsift.acquisition.safety`), again for every redirect hop
  and again for the address actually connected;
- asks the origin's robots.txt (:mod:`~feedsift.acquisition.robots`), also on every hop;
- waits for its turn at the host (:mod:`~feedsift.acquisition.politeness`);
- follows redirects itself, bounded, naming a loop when it sees one;
- retries 5xx, 429, connection failures and timeouts with exponential backoff and jitter,
  honouring ``Retry-After`` up to ``max_retry_after``;
- streams the body, refused as soon as it passes ``max_bytes`` after decompression.

Every failure is a :class:`~feedsift.errors.FetchError` with a one-line reason.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import math
import random
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from types import TracebackType
from typing import Self, TypeVar
from urllib.parse import urlsplit

import h11
import httpcore
import httpx

from feedsift._version import __version__
from feedsift.acquisition.politeness import HostStats, Politeness
from feedsift.acquisition.robots import (
    ROBOTS_MAX_BYTES,
    ROBOTS_MAX_REDIRECTS,
    RobotsCache,
    RobotsRules,
    robots_url,
)
from feedsift.acquisition.safety import AddressGuard, Resolver, SystemResolver, is_transient
from feedsift.errors import FetchError, HttpStatusError, UnsafeAddressError

__all__ = [
    "ACCEPT",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "HTML_MEDIA_TYPES",
    "MAX_REDIRECTS",
    "USER_AGENT",
    "FetchPolicy",
    "FetchResult",
    "Fetcher",
    "HostStats",
    "Validators",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Names us to site owners and points to a page that says what feedsift is.
USER_AGENT = f"feedsift/{__version__} (+https://github.com/feedsift/feedsift)"
#: Seconds of network time per attempt (redirects and body included): real pages need < 5 s.
DEFAULT_TIMEOUT = 20.0
#: Largest body accepted, after decompression: article pages are < 5 MB, more is a dump or a bomb.
DEFAULT_MAX_BYTES = 20 * 1024 * 1024
#: Redirect hops followed: real sites need 1-3 (http -> https -> www -> slash); browsers stop at 20.
MAX_REDIRECTS = 10
#: What we ask for: HTML first, anything else only so servers do not answer 406.
ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
#: What we ask for when reading robots.txt.
ROBOTS_ACCEPT = "text/plain,*/*;q=0.1"
#: Media types that are pages; a response without ``Content-Type`` is accepted and sniffed later.
HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: The only schemes fetched; ``file:``, ``ftp:`` and the like are not web pages.
SCHEMES = ("http", "https")
#: Ports of URLs that name none.
DEFAULT_PORTS = {"http": 80, "https": 443}
#: Longest label of a host name (RFC 1035); longer ones cannot be resolved.
MAX_LABEL_LENGTH = 63
#: Statuses that say "try again later": server errors and 429 Too Many Requests.
RETRY_CLIENT_STATUSES = frozenset({429})
#: Largest random share added to a backoff, so many fetches do not retry in lockstep.
JITTER = 0.25
#: What a failed connection's error number means, after "cannot connect to HOST:PORT: ".
CONNECT_ERRORS = {
    errno.ECONNREFUSED: "connection refused",
    errno.EHOSTUNREACH: "no route to the host",
    errno.ENETUNREACH: "the network is unreachable",
    errno.ETIMEDOUT: "the connection timed out",
}
#: How a failure's reason begins, by the kind of failure (the first match wins).
FAILURE_PREFIXES: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str], ...] = (
    (httpx.ConnectError, "cannot connect"),
    (httpx.RemoteProtocolError, "the server broke the connection"),
    (httpx.DecodingError, "cannot decode the compressed body"),
    ((httpx.InvalidURL, UnicodeError), "invalid URL"),
    (httpx.NetworkError, "network error"),
)
#: Network failures worth another attempt: timeouts, refused or reset connections.
RETRYABLE_ERRORS = (
    TimeoutError,
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """How one crawl fetches: identity, limits, politeness, retries and safety."""

    #: Who we are, for site owners and robots.txt groups.
    user_agent: str = USER_AGENT
    #: Seconds of network time for one attempt, redirects and body included.
    timeout: float = DEFAULT_TIMEOUT
    #: Largest decompressed body accepted.
    max_bytes: int = DEFAULT_MAX_BYTES
    #: Redirect hops followed before giving up.
    max_redirects: int = MAX_REDIRECTS
    #: Requests at once per origin: one is what small blogs can bear.
    per_host: int = 1
    #: Seconds between two request starts on one origin; a robots.txt Crawl-delay raises it.
    min_delay: float = 1.0
    #: Extra attempts after a 5xx, a 429, a connection failure or a timeout.
    retries: int = 3
    #: Seconds before the first retry; doubled for each further one, plus jitter.
    backoff: float = 1.0
    #: Longest Retry-After waited for; a longer one is raised for the caller to reschedule.
    max_retry_after: float = 120.0
    #: Obey robots.txt (RFC 9309).
    robots: bool = True
    #: Fetch private, loopback and local addresses: only for loopback tests and the demo.
    allow_private: bool = False
    #: The Accept header of page requests.
    accept: str = ACCEPT


@dataclass(frozen=True, slots=True)
class Validators:
    """What a conditional GET sends back: the ETag and Last-Modified of the last answer."""

    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True, slots=True)
class FetchResult:
    """One fetched URL: where it led, the answer, and what it cost."""

    request_url: str  #: the URL asked for
    response_url: str  #: where redirects ended
    status: int  #: a 2xx, or 304 when not modified
    headers: tuple[tuple[str, str], ...]
    body: bytes  #: decompressed; ``b""`` on 304
    fetched_at: datetime  #: aware UTC, when the fetch began
    elapsed: float  #: seconds of network time, every attempt and hop included
    waited: float  #: seconds waited for politeness, robots.txt and retry backoffs
    redirects: tuple[str, ...]  #: the URLs before ``response_url``, in order
    attempts: int  #: 1 unless retried

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def content_type(self) -> str | None:
        return self.header("content-type")

    @property
    def validators(self) -> Validators:
        """What to send with the next fetch of this URL."""
        return Validators(self.header("etag"), self.header("last-modified"))

    def header(self, name: str) -> str | None:
        """The first value of the response header ``name`` (case-insensitive), if present."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class _Job:
    """What one fetch asks for, passed down the helpers as one record."""

    url: str
    headers: tuple[tuple[str, str], ...]
    kinds: frozenset[str] | None
    max_bytes: int
    max_redirects: int
    robots: bool  #: check robots.txt on every hop (off for robots.txt itself)
    truncate: bool = False  #: keep the first ``max_bytes`` instead of refusing the body


@dataclass(frozen=True, slots=True)
class _Answer:
    """One HTTP exchange: the response, its body if wanted, and where it redirects."""

    url: str
    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    location: str | None

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class _Failure:
    """An attempt that may succeed if tried again."""

    error: FetchError
    origin: str
    status: int | None = None
    retry_after: float | None = None


class _Tally:
    """The running costs of one fetch (mutable, private to it)."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self.attempt_elapsed = 0.0
        self.waited = 0.0
        self.attempts = 0


class Fetcher:
    """Fetches URLs politely and safely for one crawl; use as ``async with Fetcher() as f``."""

    def __init__(
        self,
        policy: FetchPolicy = FetchPolicy(),
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver | None = None,
        seed: int = 0,
    ) -> None:
        self.policy = policy
        self._guard = AddressGuard(resolver or SystemResolver(), policy.allow_private)
        self._politeness = Politeness(policy.per_host, policy.min_delay)
        self._robots = RobotsCache()
        self._random = random.Random(seed)
        # Environment proxies are not used: the SSRF guard checks the peer actually connected.
        self._client = httpx.AsyncClient(
            transport=transport,
            headers={"User-Agent": policy.user_agent},
            timeout=policy.timeout,
            follow_redirects=False,
            trust_env=False,
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections; the fetcher cannot be used afterwards."""
        await self._client.aclose()

    def host_stats(self) -> dict[str, HostStats]:
        """Requests, errors and waits per origin so far (for ``feedsift stats``)."""
        return self._politeness.stats()

    def robots_unavailable(self) -> dict[str, str]:
        """Origins skipped for this crawl because their robots.txt could not be read, and why."""
        return self._robots.unavailable()

    async def fetch(
        self,
        url: str,
        *,
        validators: Validators | None = None,
        accept: str | None = None,
        kinds: frozenset[str] | None = None,
    ) -> FetchResult:
        """GET ``url``; raise :class:`FetchError` (or a subclass) with the reason on failure.

        ``validators`` make the GET conditional (a 304 is then a normal result); ``kinds``
        are the accepted media types (None: any), a response without ``Content-Type`` passes.
        """
        headers = [("Accept", accept or self.policy.accept)]
        if validators is not None and validators.etag:
            headers.append(("If-None-Match", validators.etag))
        if validators is not None and validators.last_modified:
            headers.append(("If-Modified-Since", validators.last_modified))
        job = _Job(
            url=url,
            headers=tuple(headers),
            kinds=kinds,
            max_bytes=self.policy.max_bytes,
            max_redirects=self.policy.max_redirects,
            robots=self.policy.robots,
        )
        return await self._run(job)

    # --- attempts and retries ------------------------------------------------------------

    async def _run(self, job: _Job) -> FetchResult:
        start = _require_http(job.url)
        fetched_at = datetime.now(UTC)
        tally = _Tally()
        while True:
            tally.attempts += 1
            tally.attempt_elapsed = 0.0
            outcome = await self._attempt(job, start, tally)
            if not isinstance(outcome, _Failure):
                answer, chain = outcome
                return FetchResult(
                    request_url=job.url,
                    response_url=answer.url,
                    status=answer.status,
                    headers=answer.headers,
                    body=answer.body,
                    fetched_at=fetched_at,
                    elapsed=tally.elapsed,
                    waited=tally.waited,
                    redirects=tuple(chain[:-1]),
                    attempts=tally.attempts,
                )
            delay = self._retry_delay(outcome, tally.attempts)
            if delay is None:
                final = _final_error(outcome, tally.attempts, self.policy.max_retry_after)
                raise final from outcome.error.__cause__
            logger.debug("retrying %s in %.2f s: %s", job.url, delay, outcome.error)
            self._politeness.gate(outcome.origin).record_wait(delay)
            tally.waited += delay
            await asyncio.sleep(delay)

    def _retry_delay(self, failure: _Failure, attempts: int) -> float | None:
        """Seconds to wait before the next attempt, or None when there is none."""
        if attempts > self.policy.retries:
            return None
        wished = failure.retry_after
        if wished is not None and wished > self.policy.max_retry_after:
            return None
        delay = self.policy.backoff * 2.0 ** (attempts - 1)
        delay *= 1.0 + self._random.uniform(0.0, JITTER)
        if wished is not None:
            self._politeness.gate(failure.origin).defer(wished)
            delay = max(delay, wished)
        return delay

    async def _attempt(
        self, job: _Job, start: httpx.URL, tally: _Tally
    ) -> tuple[_Answer, list[str]] | _Failure:
        """Follow ``start`` to a final answer once; a failure worth retrying is returned."""
        origin = _origin(start)
        try:
            answer, chain = await self._follow(job, start, tally)
        except RETRYABLE_ERRORS as exc:
            failure = FetchError(_describe(exc, self.policy.timeout))
            failure.__cause__ = exc
            return _Failure(failure, origin)
        except FetchError as exc:
            if is_transient(exc):
                return _Failure(exc, origin)
            raise
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError, OSError) as exc:
            raise FetchError(_describe(exc, self.policy.timeout)) from exc
        if 200 <= answer.status < 300 or answer.status == 304:
            return answer, chain
        error = HttpStatusError(
            f"HTTP {answer.status} {answer.reason}".rstrip(),
            answer.status,
            _retry_after(answer.header("retry-after")),
        )
        if not _is_retryable_status(answer.status):
            raise error
        final_origin = _origin(httpx.URL(answer.url))
        return _Failure(error, final_origin, answer.status, error.retry_after)

    # --- redirects and hops ----------------------------------------------------------------

    async def _follow(
        self, job: _Job, start: httpx.URL, tally: _Tally
    ) -> tuple[_Answer, list[str]]:
        """Send GETs from ``start`` until an answer is not a redirect."""
        chain = [str(start)]
        target = start
        while True:
            answer = await self._hop(job, target, tally)
            if answer.location is None:
                return answer, chain
            if answer.location in chain:
                loop = chain[chain.index(answer.location) :]
                raise FetchError("redirect loop: " + " -> ".join([*loop, answer.location]))
            if len(chain) > job.max_redirects:
                raise FetchError(f"too many redirects (more than {job.max_redirects})")
            target = _require_http(answer.location)
            chain.append(answer.location)

    async def _hop(self, job: _Job, target: httpx.URL, tally: _Tally) -> _Answer:
        """One checked, polite exchange with ``target``'s host."""
        host = target.raw_host.decode("ascii")
        port = target.port or DEFAULT_PORTS[target.scheme]
        await self._timed(tally, self._guard.check_host(host, port))
        origin = _origin(target)
        if job.robots:
            await self._check_robots(str(target), origin, tally)
        gate = self._politeness.gate(origin)
        async with gate.turn() as waited:
            tally.waited += waited
            logger.debug("GET %s", target)
            try:
                answer = await self._timed(tally, self._exchange(job, target, host))
            except RETRYABLE_ERRORS:
                gate.record_error()
                raise
        if _is_retryable_status(answer.status):
            gate.record_error()
        return answer

    async def _timed(self, tally: _Tally, work: Awaitable[T]) -> T:
        """Await network ``work`` within what is left of the attempt's time budget."""
        left = max(0.0, self.policy.timeout - tally.attempt_elapsed)
        began = time.monotonic()
        try:
            async with asyncio.timeout(left):
                return await work
        finally:
            spent = time.monotonic() - began
            tally.attempt_elapsed += spent
            tally.elapsed += spent

    async def _exchange(self, job: _Job, target: httpx.URL, host: str) -> _Answer:
        request = self._client.build_request("GET", target, headers=list(job.headers))
        response = await self._client.send(request, stream=True)
        overlong: bytes = b""
        try:
            self._guard.check_peer(host, _peer_address(response))
            location = None
            if response.has_redirect_location and response.next_request is not None:
                location = str(response.next_request.url)
            body = b""
            if location is None and response.is_success:
                _require_kind(response.headers.get("content-type"), job.kinds)
                body = await _read_capped(response, job.max_bytes, job.truncate)
                overlong = _bytes_past_content_length(response)
        finally:
            await response.aclose()
        if overlong:
            await _close_connection(response)  # those bytes would be read as the next answer
            declared = response.headers.get("content-length")
            raise FetchError(
                f"the body is longer than its Content-Length ({declared} bytes declared, "
                f"at least {len(overlong)} more sent): cut short or smuggled"
            )
        return _Answer(
            url=str(response.url),
            status=response.status_code,
            reason=response.reason_phrase,
            headers=tuple(response.headers.multi_items()),
            body=body,
            location=location,
        )

    # --- robots.txt ------------------------------------------------------------------------

    async def _check_robots(self, url: str, origin: str, tally: _Tally) -> None:
        began = time.monotonic()
        rules = await self._robots.get(origin, self._load_robots)
        tally.waited += time.monotonic() - began
        rules.check(url, self.policy.user_agent)

    async def _load_robots(self, origin: str) -> RobotsRules:
        """Download and read ``origin``'s robots.txt, politely and through the guard."""
        headers = (("Accept", ROBOTS_ACCEPT),)
        job = _Job(
            url=robots_url(origin),
            headers=headers,
            kinds=None,
            max_bytes=ROBOTS_MAX_BYTES,
            max_redirects=ROBOTS_MAX_REDIRECTS,
            robots=False,
            truncate=True,
        )
        try:
            rules = RobotsRules.parse(origin, (await self._run(job)).body)
        except UnsafeAddressError:
            raise
        except HttpStatusError as exc:
            if exc.retry_after is not None and exc.retry_after > self.policy.max_retry_after:
                raise  # the host asks us to come back later: nothing to remember yet
            rules = RobotsRules.after_error(origin, exc)
        except FetchError as exc:
            if _could_not_connect(exc):
                raise  # the host itself is unreachable: say so, and try again next time
            rules = RobotsRules.after_error(origin, exc)
        self._politeness.gate(origin).obey_crawl_delay(rules.crawl_delay(self.policy.user_agent))
        logger.debug("%s: unavailable: %s", robots_url(origin), rules.unavailable)
        return rules


def _require_http(url: str) -> httpx.URL:
    """``url`` parsed, if it is an absolute http(s) URL with a host."""
    try:
        parts = urlsplit(url)
        host, _ = parts.hostname, parts.port  # both parse (and raise) lazily
        parsed = httpx.URL(url)
    except (ValueError, httpx.InvalidURL) as exc:  # an unclosed bracket, a port out of range
        raise FetchError(f"invalid URL: {exc}") from exc
    if parts.scheme.lower() not in SCHEMES:
        raise FetchError(f"unsupported URL scheme {parts.scheme or '(none)'!r}: only http(s)")
    if not host:
        raise FetchError("URL has no host")
    if any(len(label) > MAX_LABEL_LENGTH for label in parsed.raw_host.split(b".")):
        raise FetchError(f"invalid URL: a host name label is longer than {MAX_LABEL_LENGTH}")
    return parsed


def _origin(url: httpx.URL) -> str:
    """Scheme, host and port (when not the default): what robots.txt and politeness are per."""
    host = url.raw_host.decode("ascii")
    if ":" in host:  # IPv6
        host = f"[{host}]"
    port = "" if url.port in (None, DEFAULT_PORTS[url.scheme]) else f":{url.port}"
    return f"{url.scheme}://{host}{port}"


def _is_retryable_status(status: int) -> bool:
    return status >= 500 or status in RETRY_CLIENT_STATUSES


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number or an HTTP date; None if unreadable."""
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _final_error(failure: _Failure, attempts: int, max_retry_after: float) -> FetchError:
    message = str(failure.error)
    if attempts > 1:
        message += f" after {attempts} attempts"
    wished = failure.retry_after
    if wished is not None and wished > max_retry_after:
        message += f": retry after {wished:g} s (longer than the {max_retry_after:g} s we wait)"
    if failure.status is not None:
        return HttpStatusError(message, failure.status, wished)
    return FetchError(message)


def _peer_address(response: httpx.Response) -> str | None:
    """The IP address the response came from, if the transport tells."""
    stream = response.extensions.get("network_stream")
    address = None if stream is None else stream.get_extra_info("server_addr")
    return str(address[0]) if address else None


def _require_kind(content_type: str | None, kinds: frozenset[str] | None) -> None:
    if kinds is None or content_type is None:
        return
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type and media_type not in kinds:
        wanted = (
            "an HTML page"
            if kinds <= HTML_MEDIA_TYPES
            else "an accepted type (" + ", ".join(sorted(kinds)) + ")"
        )
        raise FetchError(f"not {wanted}: content type {media_type}")


async def _read_capped(response: httpx.Response, max_bytes: int, truncate: bool) -> bytes:
    """The decoded body, refused (or cut when ``truncate``) once it passes ``max_bytes``."""
    declared = response.headers.get("content-length", "")
    if not truncate and declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(f"body larger than {max_bytes} bytes (Content-Length {declared})")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            if truncate:
                break
            raise FetchError(f"body larger than {max_bytes} bytes")
    return b"".join(chunks)[:max_bytes]


#: Where httpx keeps the HTTP/1.1 connection of a streamed response: its stream, the
#: transport's stream, the pool's stream, the connection's stream, then the connection.
_CONNECTION_PATH = ("_stream", "_httpcore_stream", "_stream", "_connection")


def _connection_of(response: httpx.Response) -> httpcore.AsyncHTTP11Connection | None:
    """The HTTP/1.1 connection ``response`` came on, or None (HTTP/2, a test transport).

    Nothing public leads there; the path is httpx 0.28's and httpcore 1.0's (both pinned),
    and ``tests/test_fetcher.py`` fails if it stops leading there."""
    found: object = response.stream
    for name in _CONNECTION_PATH:
        found = getattr(found, name, None)
    return found if isinstance(found, httpcore.AsyncHTTP11Connection) else None


def _bytes_past_content_length(response: httpx.Response) -> bytes:
    """Bytes the server sent after the end of a body it declared the length of.

    h11 stops reading a body at its Content-Length and keeps what follows for the next
    response on the connection (``trailing_data``): a body cut short by a wrong length, or
    a second answer smuggled in. A lone line end some old servers add is not counted."""
    connection = _connection_of(response)
    if connection is None or "content-length" not in response.headers:
        return b""
    state = getattr(connection, "_h11_state", None)
    trailing = state.trailing_data[0] if isinstance(state, h11.Connection) else b""
    return bytes(trailing) if bytes(trailing).strip(b"\r\n") else b""


async def _close_connection(response: httpx.Response) -> None:
    connection = _connection_of(response)
    if connection is not None:
        await connection.aclose()


def _describe(exc: BaseException, timeout: float) -> str:
    """A one-line reason for a network or protocol failure."""
    if isinstance(exc, httpx.ConnectTimeout):
        return f"cannot connect{_to_where(exc)}: no answer in {timeout:g} s"
    if isinstance(exc, TimeoutError | httpx.TimeoutException):
        return f"timed out after {timeout:g} s"
    if _was_reset(exc):
        return "connection reset by peer"
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect{_to_where(exc)}: {_connect_error(exc)}"
    detail = str(exc) or type(exc).__name__
    prefix = next((text for kind, text in FAILURE_PREFIXES if isinstance(exc, kind)), None)
    return f"{prefix or type(exc).__name__}: {detail}"


def _to_where(exc: httpx.RequestError) -> str:
    """`` to host:port`` of the request that failed, when the error knows it."""
    try:
        url = exc.request.url
    except RuntimeError:  # raised without a request
        return ""
    return f" to {url.host}:{url.port or DEFAULT_PORTS.get(url.scheme, '')}"


def _connect_error(exc: BaseException) -> str:
    """Why a connection failed: the meaning of the system's error number, else the message."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in CONNECT_ERRORS:
            return CONNECT_ERRORS[seen.errno]
        seen = seen.__cause__ or seen.__context__
    return str(exc) or type(exc).__name__


def _could_not_connect(error: FetchError) -> bool:
    """Whether ``error`` is a connection that could not be made (the host is unreachable)."""
    return isinstance(error.__cause__, httpx.ConnectError | httpx.ConnectTimeout)


def _was_reset(exc: BaseException) -> bool:
    """Whether a connection reset (``ECONNRESET``) is behind ``exc``."""
    seen: BaseException | None = exc
    while seen is not None:
        if getattr(seen, "errno", None) == errno.ECONNRESET or "reset by peer" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
