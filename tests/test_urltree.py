"""The URL Tree learner: block hashing, the tree's counts, node selection, heuristics,
eviction, state; properties: removal undoes insertion exactly, block order does not matter."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedsift.errors import InputError, ModelError, NotFittedError
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel.blockhash import (
    NO_LETTERS,
    block_hash,
    block_hashes,
    hash_set,
    normalise_block,
)
from feedsift.sitelevel.tree import Eviction, TreeDocument, UrlTreeIndex
from feedsift.sitelevel.urltree import DEFAULT_N, UrlTree, key_branch

NAV = "Home World Politics Business Sport"
FOOT = "Copyright The Example Gazette all rights reserved"
WORDS = ("river harbour council ferry bridge market school garden library station museum "
         "village forest coast island valley meadow orchard quarry mill").split()  # fmt: skip
DAY0 = datetime(2026, 3, 1, tzinfo=UTC)


def _story(n: int) -> str:
    """A paragraph of its own for each ``n`` (letters differ, not only digits)."""
    picks = [WORDS[(n // len(WORDS) ** k) % len(WORDS)] for k in range(3)]
    return f"The {picks[0]} {picks[1]} {picks[2]} story was told once and only here"


def _page(url: str, *texts: str) -> ParsedPage:
    body = "".join(f"<p>{text}</p>" for text in texts)
    return parse_page(f"<html><body>{body}</body></html>", url)


def _news(n: int, section: str = "news", host: str = "www.gazette.example") -> ParsedPage:
    return _page(f"https://{host}/{section}/story-{n}.html", NAV, _story(n), FOOT)


def _boilerplate(learner: UrlTree, page: ParsedPage) -> set[str]:
    mask = learner.boilerplate(page)
    return {block.text for block, drop in zip(page.view.blocks, mask, strict=True) if drop}


# -- normalisation and hashing -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("Home | News 24!", "homenews"),
        ("STRASSE vs. Straße", "strassevsstrasse"),
        ("Главная — Новости 2024", "главнаяновости"),
        ("首页 | 新闻 2024年", "首页新闻年"),
        ("ホーム・ニュース", "ホームニュース"),
        ("x² + ½ = Ⅻ_", "x"),
        ("2024-05-17 12:00 | 3 / 7", ""),
    ],
)
def test_normalise_keeps_letters_of_every_script(text: str, letters: str) -> None:
    assert normalise_block(text) == letters


def test_blocks_without_letters_get_no_hash() -> None:
    hashes = block_hashes(["Home | News", "2024-05-17", "home news", "", "Новости"])
    assert hashes[0] == hashes[2] != NO_LETTERS  # case and punctuation do not matter
    assert hashes[1] == hashes[3] == NO_LETTERS
    assert list(hash_set(hashes)) == sorted({int(hashes[0]), int(hashes[4])})


@given(st.text(max_size=60))
def test_fast_ascii_path_agrees_with_the_normaliser(text: str) -> None:
    letters = normalise_block(text)
    (value,) = block_hashes([text])
    assert value == (block_hash(letters) if letters else NO_LETTERS)


def test_key_branch_splits_domain_path_and_leaf() -> None:
    assert key_branch("http://www.x.com/news/world/a.html") == ("x.com", ("news", "world"))
    assert key_branch("http://x.com:8080/a/b?id=3") == ("x.com:8080", ("a", "b"))
    assert key_branch("https://x.com/") == ("x.com", ())


# -- node selection and heuristics ---------------------------------------------------


def test_template_is_boilerplate_from_the_second_page_for_every_heuristic() -> None:
    for heuristic in ("strict", "strict-support", "strict-at-domain", "relaxed-at-domain"):
        learner = UrlTree(heuristic, n=2)
        first = _news(1)
        assert not learner.partial_fit(first).boilerplate(first).any()  # nothing repeats yet
        for n in range(2, 5):
            page = _news(n)
            assert _boilerplate(learner.partial_fit(page), page) == {NAV, FOOT}, heuristic


def test_node_selection_walks_up_until_the_support_is_reached() -> None:
    shared = "Latest from the newsroom and the sports desk"
    learner = UrlTree("strict", n_min=2)
    for page in (_page("https://g.example/news/a", shared, _story(1)),
                 _page("https://g.example/news/b", _story(2))):  # fmt: skip
        learner.partial_fit(page)
    sport_c = _page("https://g.example/sport/c", shared, _story(3))
    learner.partial_fit(sport_c)
    # the sport node has one document: the domain node (3 documents) decides
    assert _boilerplate(learner, sport_c) == {shared}
    learner.partial_fit(_page("https://g.example/sport/d", _story(4)))
    # now the sport node has two, and there the block is in sport/c only
    assert _boilerplate(learner, sport_c) == set()
    at_domain = UrlTree("strict-at-domain").fit(
        [_page("https://g.example/news/a", shared), _page("https://g.example/sport/d", "x y")]
    )
    assert _boilerplate(at_domain, _page("https://g.example/sport/c", shared)) == {shared}


def test_supports_and_counts_of_a_branch() -> None:
    learner = UrlTree().fit([_news(1), _news(2), _news(3, "sport")])
    assert learner.tree_ is not None
    doc = learner.hashed(_news(2)).doc
    assert learner.tree_.supports(doc) == [3, 2, 1]  # domain, /news, the document
    nav = block_hash(normalise_block(NAV))
    at = int(np.flatnonzero(doc.hashes == nav)[0])
    assert [int(learner.tree_.counts(doc, depth)[at]) for depth in range(3)] == [3, 2, 1]


def test_relaxed_at_domain_asks_a_share_of_the_domain() -> None:
    rare = "Sponsored by the harbour ferry company"
    pages = [_news(n) for n in range(10)]
    pages[3] = _page("https://gazette.example/news/story-3.html", NAV, _story(3), rare, FOOT)
    pages[7] = _page("https://gazette.example/news/story-7.html", NAV, _story(7), rare, FOOT)
    relaxed = UrlTree("relaxed-at-domain", n=3).fit(pages)
    strict = UrlTree("strict-at-domain").fit(pages)
    assert _boilerplate(relaxed, pages[7]) == {NAV, FOOT}  # 2 of 10 < 10/3
    assert _boilerplate(strict, pages[7]) == {NAV, FOOT, rare}
    assert _boilerplate(UrlTree("relaxed-at-domain", n=5).fit(pages), pages[7]) == {
        NAV, FOOT, rare}  # fmt: skip


def test_judging_a_page_not_in_the_tree_is_judging_it_inserted() -> None:
    learner = UrlTree().fit([_news(1), _news(2)])
    state = learner.get_state()
    page = _news(3)
    before = learner.boilerplate(page)
    assert learner.get_state() == state  # judging learned nothing
    assert (learner.partial_fit(page).boilerplate(page) == before).all()


def test_the_mask_repeats_each_hash_verdict_on_every_block_that_has_it() -> None:
    repeated_twice = [NAV, "2024-05-17 | 3", _story(1), NAV, "Only letters here", FOOT]
    learner = UrlTree().fit([_news(1), _news(2)])
    page = _page("https://www.gazette.example/news/story-9.html", *repeated_twice)
    hashed = learner.hashed(page)
    expected = np.isin(hashed.blocks, hashed.doc.hashes[learner.judge(hashed.doc)])
    assert learner.boilerplate(page).tolist() == expected.tolist()
    assert learner.boilerplate(page).tolist() == [True, False, True, True, False, True]
    digits_only = _page("https://www.gazette.example/news/story-10.html", "2024", "| 7 |")
    assert learner.boilerplate(digits_only).tolist() == [False, False]


def test_method_names_carry_the_variant() -> None:
    assert UrlTree().method == "urltree-strict"
    assert UrlTree(n_min=7).method == "urltree-strict-nmin7"
    support = DEFAULT_N["strict-support"]
    assert UrlTree("strict-support").method == f"urltree-strict-support-{support}"
    assert UrlTree("relaxed-at-domain", n=500).method == "urltree-relaxed-at-domain-500"
    assert UrlTree("strict-at-domain").method == "urltree-strict-at-domain"
    with pytest.raises(ValueError, match="heuristic"):
        UrlTree("loose")  # type: ignore[arg-type]


# -- errors --------------------------------------------------------------------------


def test_not_fitted_per_domain_and_pages_without_url() -> None:
    learner = UrlTree()
    with pytest.raises(NotFittedError):
        learner.boilerplate(_news(1))
    learner.partial_fit(_news(1))
    assert learner.is_fitted
    with pytest.raises(NotFittedError, match=r"other\.example"):
        learner.boilerplate(_news(1, host="other.example"))
    assert learner.boilerplate(_news(2, host="gazette.example")).any()  # www. is the same site
    with pytest.raises(InputError):
        learner.partial_fit(parse_page("<p>no address</p>"))
    learner.reset()
    assert not learner.is_fitted


# -- eviction ------------------------------------------------------------------------


def _kept_days(learner: UrlTree) -> list[float]:
    assert learner.tree_ is not None
    return [(doc.seen or 0) / 86_400 for _, doc in learner.tree_.documents()]


def test_eviction_by_count_drops_the_oldest_and_its_counts() -> None:
    learner = UrlTree(eviction=Eviction(max_docs=3, keep_recent=1))
    lone = "A block only the first page ever had in it"
    first = _page("https://gazette.example/news/story-0.html", NAV, lone, FOOT)
    learner.partial_fit(first, DAY0)
    for n in range(1, 5):
        learner.partial_fit(_news(n), DAY0 + timedelta(days=n))
    assert learner.tree_ is not None and learner.tree_.n_documents == 3
    day0 = DAY0.timestamp() / 86_400
    assert [round(d - day0) for d in _kept_days(learner)] == [2, 3, 4]
    counts = learner.tree_.logical_counts("gazette.example")
    lone_hash = block_hash(normalise_block(lone))
    assert all(lone_hash not in c for _, c in counts.values())
    assert counts[()][0] == 3 and counts[("news",)][0] == 3


def test_eviction_by_age_keeps_the_newest() -> None:
    learner = UrlTree(eviction=Eviction(max_age_days=14, keep_recent=3))
    for n, day in enumerate((0, 1, 2, 100)):
        learner.partial_fit(_news(n), DAY0 + timedelta(days=day))
    day0 = DAY0.timestamp() / 86_400
    assert [round(d - day0) for d in _kept_days(learner)] == [1, 2, 100]  # 3 newest kept
    learner = UrlTree(eviction=Eviction(max_age_days=14, keep_recent=1))
    for n, day in enumerate((0, 1, 10, 20, 21)):
        learner.partial_fit(_news(n), DAY0 + timedelta(days=day))
    assert [round(d - day0) for d in _kept_days(learner)] == [10, 20, 21]
    learner.partial_fit(_news(9))  # no time: as new as the newest
    assert [round(d - day0) for d in _kept_days(learner)] == [10, 20, 21, 21]


# -- state ---------------------------------------------------------------------------


def test_state_round_trip() -> None:
    learner = UrlTree("relaxed-at-domain", n=4, eviction=Eviction(50, 7.0, 5))
    for n in range(6):
        learner.partial_fit(_news(n, "news" if n % 2 else "sport"), DAY0 + timedelta(hours=n))
    state = json.loads(json.dumps(learner.get_state()))
    copy = UrlTree.from_state(state)
    assert copy.get_state() == learner.get_state()
    assert (copy.eviction, copy.method) == (learner.eviction, learner.method)
    assert copy.tree_ is not None and learner.tree_ is not None
    assert _view(copy.tree_) == _view(learner.tree_)
    page = _news(9)
    assert (UrlTree.from_bytes(learner.to_bytes()).boilerplate(page)
            == learner.boilerplate(page)).all()  # fmt: skip
    with pytest.raises(ModelError):
        UrlTree.from_state({"params": state["params"], "documents": [{"domain": "x"}]})


# -- properties ----------------------------------------------------------------------

_SEGMENTS = st.sampled_from(["news", "sport", "world", "2026"])
_DOCS = st.lists(
    st.tuples(
        st.lists(_SEGMENTS, max_size=3).map(tuple),
        st.sets(st.integers(1, 40), max_size=12),
        st.integers(0, 30),
    ),
    min_size=1,
    max_size=12,
)


def _doc(item: tuple[tuple[str, ...], set[int], int], number: int) -> TreeDocument:
    path, blocks, day = item
    hashes = np.array(sorted(blocks), dtype=np.int64)
    return TreeDocument("d.example", path, number, hashes, day * 86_400.0)


def _view(index: UrlTreeIndex) -> tuple[list[Any], dict[str, Any]]:
    """What the tree holds: its documents and every node's ``n_s`` and counts."""
    docs = [(d.domain, d.path, d.key, d.hashes.tolist(), d.seen) for _, d in index.documents()]
    domains = {doc[0] for doc in docs}
    return docs, {domain: index.logical_counts(domain) for domain in sorted(domains)}


def _brute_counts(index: UrlTreeIndex) -> dict[tuple[str, ...], tuple[int, dict[int, int]]]:
    docs = [doc for _, doc in index.documents()]
    prefixes = {doc.path[:k] for doc in docs for k in range(len(doc.path) + 1)}
    result = {}
    for prefix in prefixes:
        below = [doc for doc in docs if doc.path[: len(prefix)] == prefix]
        counts = Counter(h for doc in below for h in doc.hashes.tolist())
        result[prefix] = (len(below), dict(counts))
    return result


@settings(max_examples=100, deadline=None)
@given(_DOCS, _DOCS.map(lambda docs: docs[0]))
def test_removing_a_document_undoes_its_insertion(
    items: list[Any], extra: tuple[tuple[str, ...], set[int], int]
) -> None:
    index = UrlTreeIndex()
    for number, item in enumerate(items):
        index.insert(_doc(item, number))
    assert index.logical_counts("d.example") == _brute_counts(index)
    before = _view(index)
    index.insert(_doc(extra, 99))
    assert index.logical_counts("d.example") == _brute_counts(index)
    seq = next(seq for seq, doc in index.documents() if doc.key == 99)
    index.remove("d.example", seq)
    assert _view(index) == before


@settings(max_examples=100, deadline=None)
@given(_DOCS)
def test_evicting_the_oldest_document_undoes_its_insertion(items: list[Any]) -> None:
    index = UrlTreeIndex(Eviction(max_docs=len(items), keep_recent=len(items)))
    for number, item in enumerate(items):
        index.insert(_doc(item, number))
    before = _view(index)
    path, blocks, _ = items[-1]
    oldest = _doc((path, blocks, 0), 99)
    index.insert(TreeDocument(oldest.domain, path, 99, oldest.hashes, -1.0))  # before all
    assert index.evict("d.example") == 1
    assert _view(index) == before
    assert index.logical_counts("d.example") == _brute_counts(index)


@settings(max_examples=100, deadline=None)
@given(_DOCS, st.lists(st.integers(0, 11), max_size=12), _DOCS)
def test_counts_stay_exact_through_any_inserts_and_removals(
    first: list[Any], removals: list[int], later: list[Any]
) -> None:
    index = UrlTreeIndex()
    for number, item in enumerate(first):
        index.insert(_doc(item, number))
    for step, (pick, item) in enumerate(zip(removals, later, strict=False)):
        retained = [seq for seq, _ in index.documents()]
        if len(retained) > 1:
            index.remove("d.example", retained[pick % len(retained)])
        index.insert(_doc(item, 100 + step))
        assert index.logical_counts("d.example") == _brute_counts(index)


_TEMPLATE = [NAV, FOOT, "Sign up to our newsletter", "Most read today on the site"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations([*_TEMPLATE[:3], _story(40), _story(41), "Page 3 of 7"]))
def test_boilerplate_does_not_depend_on_block_order(order: list[str]) -> None:
    pages = [_page(f"https://g.example/news/{n}", *_TEMPLATE, _story(n)) for n in range(4)]
    pages.append(_page("https://g.example/news/4", _story(40), _TEMPLATE[0]))
    learner = UrlTree().fit(pages)
    url = "https://g.example/news/new"
    reference = _page(url, *sorted(order))
    assert _boilerplate(learner, _page(url, *order)) == _boilerplate(learner, reference)
    assert _boilerplate(learner, reference) == {*_TEMPLATE[:3], _story(40)}
