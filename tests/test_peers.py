"""The peer adapters: availability, selection, and each installed library on a real page."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from feedsift.evaluation.datasets import read_page_html
from feedsift.evaluation.peers import (
    JustextPeer,
    Peer,
    PeerInput,
    PeerResult,
    all_peers,
    html_language,
    parse_peer_date,
    select_peers,
    summary_to_text,
)

NEWS = Path(__file__).parent / "fixtures" / "bench" / "datasets" / "news" / "pages"

#: Long paragraphs, so that every extractor (jusText's defaults want 200+ characters
#: of stop-word-rich text somewhere) keeps the body.
LONG = (
    "The committee met again on Thursday evening to go through the plans for the new "
    "footbridge over the river, and after a long discussion about the cost of the steel and "
    "the height of the railings it agreed to ask the town for a second opinion from an "
    "engineer who has built bridges of the same kind in other places along the coast."
)
PAGE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Footbridge plans go back to the drawing board | Riverside News</title>
<meta name="author" content="Ada Quist">
<meta property="article:published_time" content="2023-09-14T18:00:00+02:00">
</head><body><nav><a href="/">Home</a> <a href="/news/">News</a></nav>
<article><h1>Footbridge plans go back to the drawing board</h1>
<p>{LONG}</p><p>{LONG.replace("Thursday", "Friday")}</p><p>{LONG.replace("river", "canal")}</p>
</article><footer>Riverside News, all rights reserved.</footer></body></html>"""
TEXT_PEERS = [p.name for p in all_peers() if "text" in p.fields]


class MissingPeer(Peer):
    name = "missing"
    module = "feedsift_no_such_module"
    distribution = "feedsift-no-such-distribution"
    fields = frozenset({"text"})

    def run(self, page: PeerInput) -> PeerResult:
        raise AssertionError("never called")


def _peer(name: str) -> Peer:
    peer = next(p for p in all_peers() if p.name == name)
    if not peer.available():
        pytest.skip(f"{name} is not installed")
    return peer


def _page() -> PeerInput:
    return PeerInput(PAGE.encode("utf-8"), PAGE, "https://riverside.example/news/footbridge/")


def test_peer_names_are_unique_and_feedsift_first() -> None:
    names = [p.name for p in all_peers()]
    assert names[0] == "feedsift" and len(set(names)) == len(names)
    assert {"trafilatura", "htmldate"} <= set(names)
    assert next(p for p in all_peers() if p.name == "htmldate").fields == {"date"}


def test_missing_library_is_not_available() -> None:
    peer = MissingPeer()
    assert not peer.available()
    assert peer.version() is None


def test_select_peers_keeps_order_and_rejects_unknown_names() -> None:
    installed, missing = select_peers(["trafilatura", "feedsift", "trafilatura"])
    assert [p.name for p in installed] + missing in (
        ["trafilatura", "feedsift"],
        ["feedsift", "trafilatura"],
    )
    with pytest.raises(ValueError, match="unknown peer nope"):
        select_peers(["feedsift", "nope"])


@pytest.mark.parametrize("name", TEXT_PEERS)
def test_text_peer_finds_the_body(name: str) -> None:
    peer = _peer(name)
    peer.warm_up()
    result = peer.complete(_page(), peer.run(_page()))
    assert "second opinion from an engineer" in " ".join(result.text.split())


def test_trafilatura_metadata_comes_from_the_untimed_call() -> None:
    peer = _peer("trafilatura")
    timed = peer.run(_page())
    assert timed.title is None and timed.date is None
    full = peer.complete(_page(), timed)
    assert full.title == "Footbridge plans go back to the drawing board"
    assert full.authors == ("Ada Quist",)
    assert full.date == date(2023, 9, 14)


def test_htmldate_finds_the_date_of_a_fixture_page() -> None:
    peer = _peer("htmldate")
    data = read_page_html(NEWS / "n1.html.gz")
    result = peer.run(PeerInput(data, data.decode("utf-8"), None))
    assert result.date == date(2024, 3, 5)
    assert result.text == ""


def test_feedsift_peer_reads_the_raw_bytes() -> None:
    data = read_page_html(NEWS / "n2.html")
    page = PeerInput(data, "", None)  # feedsift must not need the decoded text
    assert "reference room" in _peer("feedsift").run(page).text


def test_parse_peer_date() -> None:
    tz = timezone(timedelta(hours=-5))
    assert parse_peer_date("2024-03-05") == date(2024, 3, 5)
    assert parse_peer_date("2024-03-05T23:30:00-05:00") == date(2024, 3, 5)
    assert parse_peer_date(datetime(2024, 3, 5, 23, 30, tzinfo=tz)) == date(2024, 3, 5)
    assert parse_peer_date(date(2024, 3, 5)) == date(2024, 3, 5)
    assert parse_peer_date("March 2024") is None
    assert parse_peer_date(None) is None


def test_html_language_and_justext_stoplist_choice() -> None:
    assert html_language('<!DOCTYPE html><html class="x" lang="de-AT">') == "de"
    assert html_language("<html><body>") is None
    peer = _peer("justext")
    assert isinstance(peer, JustextPeer)
    german, english = peer._stoplist("de"), peer._stoplist("en")
    union = peer._stoplist(None)
    assert "und" in german and "und" not in english
    assert peer._stoplist("xx") is union  # no stoplist for the language: all of them
    assert german | english <= union and len(union) > len(german | english)


def test_summary_to_text_breaks_lines_at_blocks() -> None:
    html = "<div><h2>Head</h2><p>one <b>two</b></p><ul><li>three</li><li>four</li></ul></div>"
    assert summary_to_text(html) == "Head\none two\nthree\nfour"
    assert summary_to_text("  ") == ""
