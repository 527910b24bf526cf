"""The SSRF guard on its own: address classes, localhost names, DNS answers, the peer."""

from __future__ import annotations

import asyncio
import socket

import pytest

from feedsift.acquisition.safety import (
    AddressGuard,
    SystemResolver,
    address_problem,
    is_loopback_host,
    is_transient,
)
from feedsift.errors import FetchError, UnsafeAddressError

PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:4700:4700::1111"


class FakeResolver:
    """A DNS that answers from a table and counts the questions."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.asked: list[tuple[str, int]] = []

    async def resolve(self, host: str, port: int) -> list[str]:
        self.asked.append((host, port))
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return self.table[host]


class SlowDNS:
    async def resolve(self, host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")


def check(guard: AddressGuard, host: str, port: int = 80) -> None:
    asyncio.run(guard.check_host(host, port))


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("127.0.0.1", "a loopback address"),
        ("127.8.9.10", "a loopback address"),
        ("::1", "a loopback address"),
        ("::ffff:127.0.0.1", "a loopback address"),  # IPv4-mapped IPv6
        ("2002:7f00:1::", "a loopback address"),  # 6to4 around 127.0.0.1
        ("10.0.0.5", "a private address"),
        ("172.16.3.4", "a private address"),
        ("192.168.1.1", "a private address"),
        ("::ffff:10.1.2.3", "a private address"),
        ("fc00::1", "a private address"),
        ("169.254.169.254", "a link-local address"),  # the cloud metadata service
        ("fe80::1", "a link-local address"),
        ("fe80::1%eth0", "a link-local address"),
        ("224.0.0.1", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("0.0.0.0", "an unspecified address"),
        ("::", "an unspecified address"),
        ("100.64.0.1", "a non-public address"),  # carrier-grade NAT
    ],
)
def test_non_public_addresses(address: str, problem: str) -> None:
    assert address_problem(address) == problem


@pytest.mark.parametrize("address", ["240.0.0.1", "255.255.255.255", "64:ff9b::a00:1"])
def test_reserved_and_translated_addresses_are_refused(address: str) -> None:
    assert address_problem(address) is not None


@pytest.mark.parametrize("address", [PUBLIC_V4, "8.8.8.8", PUBLIC_V6, "::ffff:8.8.8.8"])
def test_public_addresses(address: str) -> None:
    assert address_problem(address) is None


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("127.0.0.1", "refused: 127.0.0.1 is a loopback address"),
        ("::1", "refused: ::1 is a loopback address"),
        ("[::1]", "refused: [::1] is a loopback address"),
        ("10.0.0.5", "refused: 10.0.0.5 is a private address"),
        ("169.254.169.254", "refused: 169.254.169.254 is a link-local address"),
        ("::ffff:127.0.0.1", "refused: ::ffff:127.0.0.1 is a loopback address"),
        ("localhost", "refused: localhost is a loopback name"),
        ("LocalHost.", "refused: LocalHost. is a loopback name"),
        ("app.localhost", "refused: app.localhost is a loopback name"),
    ],
)
def test_literal_hosts_and_localhost_names_are_refused_without_dns(host: str, message: str) -> None:
    resolver = FakeResolver({})
    with pytest.raises(UnsafeAddressError) as caught:
        check(AddressGuard(resolver), host)
    assert str(caught.value).startswith(message)
    assert str(caught.value).endswith("(use --allow-private to fetch it)")
    assert resolver.asked == []


def test_every_address_of_the_answer_is_checked() -> None:
    resolver = FakeResolver(
        {
            "public.example": [PUBLIC_V4, PUBLIC_V6],
            "mixed.example": [PUBLIC_V4, "10.0.0.5"],
            "rebound.example": ["127.0.0.1"],
        }
    )
    guard = AddressGuard(resolver)
    check(guard, "public.example", 443)
    assert resolver.asked == [("public.example", 443)]
    with pytest.raises(UnsafeAddressError) as caught:
        check(guard, "mixed.example")
    assert str(caught.value) == (
        "refused: mixed.example resolves to 10.0.0.5, a private address"
        " (use --allow-private to fetch it)"
    )
    with pytest.raises(UnsafeAddressError, match=r"resolves to 127\.0\.0\.1, a loopback address"):
        check(guard, "rebound.example")


def test_allow_private_skips_every_check() -> None:
    resolver = FakeResolver({})
    guard = AddressGuard(resolver, allow_private=True)
    for host in ("127.0.0.1", "localhost", "internal.example"):
        check(guard, host)
    guard.check_peer("internal.example", "10.0.0.5")
    assert resolver.asked == []


def test_resolution_failures_are_fetch_errors() -> None:
    with pytest.raises(
        FetchError, match=r"cannot resolve nowhere\.example: Name or service"
    ) as gone:
        check(AddressGuard(FakeResolver({})), "nowhere.example")
    assert not isinstance(gone.value, UnsafeAddressError)
    assert not is_transient(gone.value)
    with pytest.raises(FetchError, match=r"cannot resolve slow\.example: Temporary") as slow:
        check(AddressGuard(SlowDNS()), "slow.example")
    assert is_transient(slow.value)
    with pytest.raises(FetchError, match="no addresses"):
        check(AddressGuard(FakeResolver({"empty.example": []})), "empty.example")


def test_the_connected_peer_is_checked() -> None:
    guard = AddressGuard(FakeResolver({}))
    guard.check_peer("public.example", PUBLIC_V4)
    guard.check_peer("public.example", None)  # a transport that does not tell
    with pytest.raises(UnsafeAddressError) as caught:
        guard.check_peer("public.example", "127.0.0.1")
    assert str(caught.value) == (
        "refused: public.example connected to 127.0.0.1, a loopback address"
        " (use --allow-private to fetch it)"
    )


def test_system_resolver_answers_from_the_hosts_file() -> None:
    addresses = asyncio.run(SystemResolver().resolve("localhost", 80))
    assert addresses and set(addresses) <= {"127.0.0.1", "::1"}
    with pytest.raises(UnsafeAddressError):  # the name check fires before any lookup
        check(AddressGuard(SystemResolver()), "localhost")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("localhost", True), ("LOCALHOST.", True), ("app.localhost", True), ("127.0.0.9", True),
     ("[::1]", True), ("::1", True), ("ip6-loopback", True), ("10.0.0.1", False),
     ("example.org", False), ("localhost.example.org", False), ("", False)],
)  # fmt: skip
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback
