"""A single polite GET: what ``feedsift extract URL`` needs, and nothing more.

``fetch_page`` identifies itself, asks the host's ``robots.txt`` first, follows a bounded
number of redirects (naming a loop when it sees one), refuses bodies that are not HTML and
stops reading a body, counted after decompression, as soon as it passes the size cap (so a
gzip bomb costs at most one decompressed network chunk beyond the cap). Every failure is a
:class:`~feedsift.errors.FetchError` with a one-line reason.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

import httpx

from feedsift import __version__
from feedsift.errors import FetchError

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "HTML_MEDIA_TYPES",
    "MAX_REDIRECTS",
    "USER_AGENT",
    "FetchedPage",
    "fetch_page",
]

logger = logging.getLogger(__name__)

#: Names us to site owners and points to a page that says what feedsift is.
USER_AGENT = f"feedsift/{__version__} (+https://github.com/feedsift/feedsift)"
#: Seconds allowed for the whole fetch (robots.txt, redirects, body): real pages need < 5 s.
DEFAULT_TIMEOUT = 20.0
#: Largest body accepted, after decompression: article pages are < 5 MB, more is a dump or a bomb.
DEFAULT_MAX_BYTES = 20 * 1024 * 1024
#: Redirect hops followed: real sites need 1-3 (http -> https -> www -> slash); browsers stop at 20.
MAX_REDIRECTS = 10
#: Part of robots.txt read: Google's documented limit; rules after it are ignored.
ROBOTS_MAX_BYTES = 500 * 1024
#: Media types that are pages; a response without ``Content-Type`` is accepted and sniffed later.
HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: What we ask for: HTML first, anything else only so servers do not answer 406.
ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
#: The only schemes fetched; ``file:``, ``ftp:`` and the like are not web pages.
SCHEMES = ("http", "https")


@dataclass(frozen=True, slots=True)
class FetchedPage:
    """One fetched page: the URL asked for, where redirects ended, and the decoded body."""

    url: str
    final_url: str
    status: int
    content_type: str | None
    body: bytes
    headers: tuple[tuple[str, str], ...]

    def header(self, name: str) -> str | None:
        """The first value of the response header ``name`` (case-insensitive), if present."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class _Budget:
    """The limits of one fetch, passed down the helpers as one record."""

    deadline: float
    timeout: float
    max_bytes: int
    user_agent: str
    check_robots: bool

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise FetchError(f"timed out after {self.timeout:g} s")


def fetch_page(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    user_agent: str = USER_AGENT,
    check_robots: bool = True,
) -> FetchedPage:
    """GET one HTML page politely; raise :class:`FetchError` with the reason on any failure.

    ``timeout`` bounds every network operation and the whole fetch; ``max_bytes`` bounds the
    decompressed body. With ``check_robots`` the host's ``robots.txt`` must allow the URL
    (and every redirect target) for ``user_agent``.
    """
    _require_http(url)
    budget = _Budget(time.monotonic() + timeout, timeout, max_bytes, user_agent, check_robots)
    headers = {"User-Agent": user_agent, "Accept": ACCEPT}
    try:
        with httpx.Client(headers=headers, timeout=timeout, max_redirects=MAX_REDIRECTS) as client:
            response = _follow_redirects(client, url, budget)
            try:
                return _read_page(url, response, budget)
            finally:
                response.close()
    except httpx.TimeoutException as exc:
        raise FetchError(f"timed out after {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise FetchError(_describe(exc)) from exc
    except (httpx.InvalidURL, UnicodeError) as exc:  # bad port, bad IDNA host name
        raise FetchError(f"invalid URL: {exc}") from exc


def _require_http(url: str) -> None:
    try:
        parts = urlsplit(url)
        host, _ = parts.hostname, parts.port  # both parse (and raise) lazily
    except ValueError as exc:  # an unclosed IPv6 bracket, a port out of range
        raise FetchError(f"invalid URL: {exc}") from exc
    if parts.scheme.lower() not in SCHEMES:
        raise FetchError(f"unsupported URL scheme {parts.scheme or '(none)'!r}: only http(s)")
    if not host:
        raise FetchError("URL has no host")


def _describe(exc: httpx.HTTPError) -> str:
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect: {exc}"
    if isinstance(exc, httpx.DecodingError):
        return f"cannot decode the compressed body: {exc}"
    return f"{type(exc).__name__}: {exc}"


def _follow_redirects(client: httpx.Client, url: str, budget: _Budget) -> httpx.Response:
    """Send GETs until a response is not a redirect; return it still streaming."""
    chain = [url]
    robots: dict[str, RobotFileParser] = {}
    while True:
        if budget.check_robots:
            _require_allowed(client, chain[-1], robots, budget)
        budget.check_time()
        logger.debug("GET %s", chain[-1])
        response = client.send(client.build_request("GET", chain[-1]), stream=True)
        if not response.has_redirect_location or response.next_request is None:
            return response
        response.close()
        target = str(response.next_request.url)
        if target in chain:
            raise FetchError(
                "redirect loop: " + " -> ".join([*chain[chain.index(target) :], target])
            )
        if len(chain) > MAX_REDIRECTS:
            raise FetchError(f"too many redirects (more than {MAX_REDIRECTS})")
        _require_http(target)
        chain.append(target)


def _read_page(url: str, response: httpx.Response, budget: _Budget) -> FetchedPage:
    if not response.is_success:
        raise FetchError(f"HTTP {response.status_code} {response.reason_phrase}".rstrip())
    content_type = response.headers.get("content-type")
    _require_html(content_type)
    return FetchedPage(
        url=url,
        final_url=str(response.url),
        status=response.status_code,
        content_type=content_type,
        body=_read_capped(response, budget),
        headers=tuple(response.headers.multi_items()),
    )


def _require_html(content_type: str | None) -> None:
    if content_type is None:
        return
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type and media_type not in HTML_MEDIA_TYPES:
        raise FetchError(f"not an HTML page: content type {media_type}")


def _read_capped(response: httpx.Response, budget: _Budget) -> bytes:
    """The decoded body, refused as soon as it passes ``budget.max_bytes``."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > budget.max_bytes:
        raise FetchError(f"body larger than {budget.max_bytes} bytes (Content-Length {declared})")
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > budget.max_bytes:
            raise FetchError(f"body larger than {budget.max_bytes} bytes")
        budget.check_time()
        chunks.append(chunk)
    return b"".join(chunks)


def _require_allowed(
    client: httpx.Client, url: str, cache: dict[str, RobotFileParser], budget: _Budget
) -> None:
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    if origin not in cache:
        cache[origin] = _load_robots(client, origin, budget)
    if not cache[origin].can_fetch(budget.user_agent, url):
        raise FetchError(f"disallowed by {origin}/robots.txt")


def _load_robots(client: httpx.Client, origin: str, budget: _Budget) -> RobotFileParser:
    """The rules of ``origin`` as RFC 9309 reads them: a 4xx means no rules, a 5xx no access."""
    rules = RobotFileParser(f"{origin}/robots.txt")
    try:
        with client.stream("GET", f"{origin}/robots.txt", follow_redirects=True) as response:
            if response.is_server_error:
                raise FetchError(f"robots.txt unavailable (HTTP {response.status_code})")
            text = _read_robots(response) if response.is_success else ""
    except httpx.TooManyRedirects as exc:
        raise FetchError("robots.txt unavailable (too many redirects)") from exc
    rules.parse(text.splitlines())
    logger.debug(
        "%s/robots.txt: HTTP %d, %d bytes of rules", origin, response.status_code, len(text)
    )
    budget.check_time()
    return rules


def _read_robots(response: httpx.Response) -> str:
    data = bytearray()
    for chunk in response.iter_bytes():
        data += chunk
        if len(data) >= ROBOTS_MAX_BYTES:
            break
    return bytes(data[:ROBOTS_MAX_BYTES]).decode("utf-8", errors="replace")
