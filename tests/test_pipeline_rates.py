"""`bench --pipeline`'s extraction-only reference: the peers take turns over the pages."""

from __future__ import annotations

from typing import ClassVar

from feedsift.evaluation.bench import DEFAULT_TURN
from feedsift.evaluation.peers import FeedsiftPeer, Peer, PeerInput, PeerResult
from feedsift.evaluation.pipeline import extraction_rates

PAGE = (
    b"<html><head><title>Harbour news</title></head><body><article><h1>Harbour news</h1>"
    b"<p>The ferry to the island runs twice a day again from Monday, the harbour master "
    b"said after the repairs to the pier were finished ahead of the summer.</p>"
    b"</article></body></html>"
)


class _Recording(Peer):
    """Writes down every page it extracts, in the order of the calls, to a shared log."""

    module: ClassVar[str] = "json"
    distribution: ClassVar[str] = "feedsift"
    fields: ClassVar[frozenset[str]] = frozenset({"text"})  # type: ignore[assignment]

    def __init__(self, name: str, log: list[tuple[str, str | None]]) -> None:
        self.name = name
        self.log = log

    def run(self, page: PeerInput) -> PeerResult:
        self.log.append((self.name, page.url))
        return PeerResult(text="x")

    def warm_up(self) -> None:
        return None


class _Missing(_Recording):
    module: ClassVar[str] = "no_such_module_for_feedsift_tests"


def test_the_peers_take_turns_over_runs_of_pages() -> None:
    log: list[tuple[str, str | None]] = []
    pages = [(f"http://127.0.0.1/{i}", PAGE) for i in range(2 * DEFAULT_TURN + 3)]
    peers: list[Peer] = [_Recording("a", log), _Recording("b", log), _Missing("c", log)]
    rates = extraction_rates(pages, peers)
    assert sorted(rates) == ["a", "b"]  # a peer that is not installed is left out
    assert all(rate > 0 for rate in rates.values())
    runs = [log[start : start + DEFAULT_TURN] for start in range(0, 4 * DEFAULT_TURN, DEFAULT_TURN)]
    assert [{name for name, _ in run} for run in runs] == [{"a"}, {"b"}, {"b"}, {"a"}]
    assert [url for _, url in runs[0]] == [url for _, url in runs[1]]  # the same pages
    tail = log[4 * DEFAULT_TURN :]
    assert [name for name, _ in tail] == ["a"] * 3 + ["b"] * 3
    assert len(log) == 2 * len(pages)


def test_feedsift_is_timed_on_real_pages() -> None:
    rates = extraction_rates([("http://127.0.0.1/harbour", PAGE)] * 3, [FeedsiftPeer()])
    assert list(rates) == ["feedsift"]
    assert rates["feedsift"] > 0
