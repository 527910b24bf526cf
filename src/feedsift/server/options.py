"""How ``feedsift serve`` runs: one frozen record of options, and the check that refuses
options that would expose the write endpoints to the network without a token."""

from __future__ import annotations

from dataclasses import dataclass

from feedsift.acquisition.fetcher import DEFAULT_TIMEOUT
from feedsift.acquisition.safety import LOCALHOST_NAMES, is_loopback_host
from feedsift.errors import ConfigError
from feedsift.rendering.browser import RenderOptions
from feedsift.storage.database import DEFAULT_DB
from feedsift.storage.location import DatabaseTarget

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_PORT",
    "DEFAULT_RENDER_TIMEOUT_MS",
    "LOOPBACK_NAMES",
    "TOKEN_ENV",
    "ServerOptions",
    "check_options",
    "is_loopback",
]

#: Where the server listens unless told otherwise: loopback, out of the network's reach.
DEFAULT_HOST = "127.0.0.1"
#: The port unless told otherwise: unassigned by IANA, far from the usual 8000 and 8080.
DEFAULT_PORT = 8765
#: Largest request body read (a page to extract): real pages are < 5 MB, more is a dump.
DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024
#: Default page limit of ``--render`` (ms): the renderer's own.
DEFAULT_RENDER_TIMEOUT_MS = RenderOptions().page_timeout_ms
#: Environment variable holding the write token when ``--token`` is not given.
TOKEN_ENV = "FEEDSIFT_TOKEN"
#: Host names that mean this machine only (the SSRF guard's list).
LOOPBACK_NAMES = LOCALHOST_NAMES


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """What the server serves and how: its address, database, limits and safety."""

    #: The feedsift database: a SQLite file (created if missing) or a PostgreSQL URL.
    db: DatabaseTarget = DEFAULT_DB
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: Bearer token the write endpoints (POST, DELETE) require; None: no token asked.
    token: str | None = None
    #: Largest request body read; a larger one is answered 413.
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    #: Fetch private, loopback and link-local addresses (a server of your own, the tests).
    allow_private_addresses: bool = False
    #: Seconds of network time for one fetch (redirects and body included).
    fetch_timeout: float = DEFAULT_TIMEOUT
    #: Lay the pages extracted out in a headless Chromium, not by the markup estimate.
    render: bool = False
    #: With ``render``: the markup estimate for a page not rendered within this many ms.
    render_timeout_ms: int = DEFAULT_RENDER_TIMEOUT_MS


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an IP address) can be reached from this machine only."""
    return is_loopback_host(host)


def check_options(options: ServerOptions) -> None:
    """Raise :class:`ConfigError` for options the server must not run with."""
    if not is_loopback(options.host) and not options.token:
        raise ConfigError(
            f"refusing to listen on {options.host} without a token: anyone who reaches it "
            f"could write; give --token or ${TOKEN_ENV} (or listen on {DEFAULT_HOST})"
        )
    if options.max_body_bytes < 1:
        raise ConfigError(f"the body limit must be at least 1 byte, not {options.max_body_bytes}")
    if not 0 <= options.port <= 65535:
        raise ConfigError(f"not a TCP port: {options.port}")
    if not options.fetch_timeout > 0:
        raise ConfigError(f"the fetch timeout must be above 0 s, not {options.fetch_timeout}")
    if options.render_timeout_ms < 1:
        raise ConfigError(
            f"the render timeout must be at least 1 ms, not {options.render_timeout_ms}"
        )
