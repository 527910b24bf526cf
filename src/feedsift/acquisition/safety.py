"""The SSRF guard: a crawler must not be steered into the network it runs in.

A feed, a page or a redirect can point anywhere, including the cloud metadata service
(169.254.169.254), the router, or a database on loopback. :class:`AddressGuard` refuses a
host that is, or resolves to, an address that is not public, at three moments:

1. before connecting, when the host is an IP literal or a ``localhost`` name;
2. before connecting, for every address of the DNS answer (one bad address is enough: the
   HTTP client may pick any of them);
3. after the response headers arrive, for the peer actually connected, which defeats DNS
   rebinding (a name that resolved to a public address for the check and to a private one
   for the connection).

The fetcher runs the three checks again for every redirect hop.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from typing import Protocol

from feedsift.errors import FetchError, UnsafeAddressError

__all__ = [
    "LOCALHOST_NAMES",
    "AddressGuard",
    "Resolver",
    "SystemResolver",
    "address_problem",
    "is_loopback_host",
    "is_transient",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Names that mean this machine whatever DNS says (RFC 6761 reserves ``.localhost``).
LOCALHOST_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")
#: What the refusal tells the user to do when the address is really wanted.
OVERRIDE_HINT = "use --allow-private to fetch it"
#: ``getaddrinfo`` failures worth a retry: a resolver that did not answer, not a missing name.
TRANSIENT_DNS_ERRORS = frozenset({socket.EAI_AGAIN})


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name, an IP address, an IPv6 literal in brackets) can only mean
    this machine: a localhost name, a ``.localhost`` name or a loopback address."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if name in LOCALHOST_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class Resolver(Protocol):
    """Turns a host name into the addresses a connection may use."""

    async def resolve(self, host: str, port: int) -> list[str]:
        """The addresses (IPv4 or IPv6 text) of ``host``; raise ``OSError`` when there are none."""
        ...


@dataclass(frozen=True, slots=True)
class SystemResolver:
    """The operating system's resolver (``getaddrinfo``), the one the HTTP client uses too."""

    async def resolve(self, host: str, port: int) -> list[str]:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        return list(dict.fromkeys(str(info[4][0]) for info in infos))


def address_problem(address: str) -> str | None:
    """Why ``address`` must not be fetched (``"a private address"``...), or None if public."""
    ip = _unwrap(ipaddress.ip_address(address.split("%", 1)[0]))
    checks = (
        (ip.is_unspecified, "an unspecified address"),
        (ip.is_loopback, "a loopback address"),
        (ip.is_link_local, "a link-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_private, "a private address"),
        (ip.is_reserved, "a reserved address"),
        (not ip.is_global, "a non-public address"),
    )
    return next((label for failed, label in checks if failed), None)


def _unwrap(ip: IPAddress) -> IPAddress:
    """The IPv4 address inside an IPv4-mapped (``::ffff:a.b.c.d``) or 6to4 IPv6 address."""
    if isinstance(ip, ipaddress.IPv6Address):
        return ip.ipv4_mapped or ip.sixtofour or ip
    return ip


def _literal(host: str) -> str | None:
    """``host`` as an IP address text when it is an IP literal (brackets removed), else None."""
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return None
    return bare


def _is_localhost_name(host: str) -> bool:
    name = host.rstrip(".").lower()
    return name in LOCALHOST_NAMES or name.endswith(".localhost")


@dataclass(frozen=True, slots=True)
class AddressGuard:
    """Refuses non-public addresses unless ``allow_private`` (loopback tests, the demo)."""

    resolver: Resolver
    allow_private: bool = False

    async def check_host(self, host: str, port: int) -> None:
        """Checks 1 and 2: the host itself and every address it resolves to."""
        if self.allow_private:
            return
        literal = _literal(host)
        if literal is not None:
            _refuse_if_unsafe(literal, f"{host} is")
            return
        if _is_localhost_name(host):
            raise UnsafeAddressError(f"refused: {host} is a loopback name ({OVERRIDE_HINT})")
        for address in await self._resolve(host, port):
            _refuse_if_unsafe(address, f"{host} resolves to {address},")

    def check_peer(self, host: str, peer: str | None) -> None:
        """Check 3: the address actually connected (None when the transport does not say)."""
        if self.allow_private or peer is None:
            return
        _refuse_if_unsafe(peer, f"{host} connected to {peer},")

    async def _resolve(self, host: str, port: int) -> list[str]:
        try:
            addresses = await self.resolver.resolve(host, port)
        except UnicodeError as exc:  # a label longer than 63 characters, bad IDNA
            raise FetchError(f"invalid URL: bad host name {host!r}") from exc
        except OSError as exc:
            raise FetchError(f"cannot resolve {host}: {exc.strerror or exc}") from exc
        if not addresses:
            raise FetchError(f"cannot resolve {host}: no addresses")
        return addresses


def is_transient(error: FetchError) -> bool:
    """Whether a guard failure is worth a retry: a DNS server that did not answer in time."""
    cause = error.__cause__
    return isinstance(cause, socket.gaierror) and cause.errno in TRANSIENT_DNS_ERRORS


def _refuse_if_unsafe(address: str, subject: str) -> None:
    problem = address_problem(address)
    if problem is not None:
        raise UnsafeAddressError(f"refused: {subject} {problem} ({OVERRIDE_HINT})")
