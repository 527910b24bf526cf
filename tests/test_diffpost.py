"""DiffPost on tiny synthetic sites: repeated elements and link-heavy elements go, posts stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from feedsift.errors import ModelError, NotFittedError
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel.diffpost import DiffPost
from feedsift.sitelevel.elements import cover_blocks, element_signature, page_elements

NAV = (
    "<div id='nav'><ul><li><a href='/'>Home</a></li><li><a href='/archive'>Archive</a></li>"
    "<li><a href='/about'>About</a></li></ul></div>"
)
SIDEBAR = "<div id='side'><h3>About me</h3><p>I write about birds and bicycle bells.</p></div>"
SHARE = "<div class='share'><p>Share this post with your friends, please.</p></div>"
FOOTER = "<div id='foot'><p>Copyright 2024 the Example Blog, all rights reserved.</p></div>"
#: Enough words per post that no single template element holds a big share of the page.
POSTS = {
    "bells": "The first bicycle bells were little more than a hammer striking a dome of brass",
    "birds": "Small birds lose a surprising share of their body weight on a cold night",
    "lights": "Lighthouse keepers kept a log book in which they wrote the time of every ship",
    "clocks": "Tower clocks were wound by hand once a week by a keeper with a crank",
}


def _post(slug: str, extra: str = "", host: str = "blog.example") -> ParsedPage:
    sentence = POSTS[slug]
    body = "".join(f"<p>{sentence}, part {i}, and more about {slug} here.</p>" for i in range(4))
    html = (
        f"<html><body>{NAV}<div id='main'><article><h1>All about {slug}</h1>{body}{extra}"
        f"{SHARE}</article>{SIDEBAR}</div>{FOOTER}</body></html>"
    )
    return parse_page(html, f"https://{host}/posts/{slug}/")


def _kept(learner: DiffPost, page: ParsedPage, seen_at: datetime | None = None) -> list[str]:
    mask = learner.boilerplate(page, seen_at)
    assert mask.dtype == np.bool_ and mask.shape == (len(page.view.blocks),)
    return [b.text for b, drop in zip(page.view.blocks, mask, strict=True) if not drop]


def test_template_repeated_across_pages_is_removed_and_the_post_kept() -> None:
    learner = DiffPost(min_text_share=0.0).fit([_post("bells")])
    kept = _kept(learner, _post("birds"))
    assert kept[0] == "All about birds"
    assert len(kept) == 5 and all("birds" in text for text in kept)
    for template in ("Home", "About me", "Copyright", "Share this post"):
        assert not any(template in text for text in kept)


def test_repeated_box_inside_the_post_is_removed() -> None:
    box = "<div class='cta'><p>Subscribe to the newsletter for more stories.</p></div>"
    learner = DiffPost(min_text_share=0.0).fit([_post("bells", extra=box)])
    page = _post("birds", extra=box)
    kept = _kept(learner, page)
    assert not any("Subscribe" in text or "Share this" in text for text in kept)
    assert sum("Small birds" in text for text in kept) == 4


def test_prestep_drops_link_lists_but_keeps_a_paragraph_with_one_link() -> None:
    related = (
        "<div class='related'><p>Related: <a href='/a'>Why bells ring twice</a>, "
        "<a href='/b'>Twenty famous bicycle rides of the past</a></p></div>"
    )
    linked = "<p>See <a href='/c'>this note</a> for the whole history of the tower bells.</p>"
    page = _post("birds", extra=related + linked)
    learner = DiffPost().fit([_post("bells")])
    kept = _kept(learner, page)
    assert not any("Why bells ring twice" in text for text in kept)
    assert any(text.startswith("See this note") for text in kept)
    # with the pre-step off, only the diff judges: the related links are new, so they stay
    kept_plain = _kept(DiffPost(min_text_share=0.0).fit([_post("bells")]), page)
    assert any("Why bells ring twice" in text for text in kept_plain)


def test_prestep_never_removes_an_element_holding_most_of_the_page() -> None:
    links = "".join(f"<li><a href='/{i}'>Link number {i} to a page</a></li>" for i in range(30))
    html = f"<html><body><div><ul>{links}</ul><p>A short post, this one.</p></div></body></html>"
    page = parse_page(html, "https://links.example/p/1")
    other = parse_page(html.replace("short post", "tiny post"), "https://links.example/p/2")
    kept = _kept(DiffPost(min_text_share=0.6).fit([other]), page)
    assert kept == ["A short post, this one."]  # each link item goes, the body does not
    uncapped = DiffPost(min_text_share=0.6, max_prestep_share=1.0).fit([other])
    assert _kept(uncapped, page) == []  # the paper's ratio on every element: the body goes


def test_comparisons_window_is_honoured() -> None:
    only_first = "<p>A line only the first page and the judged page share, really.</p>"
    first = _post("bells", extra=only_first)
    judged = _post("clocks", extra=only_first)
    pages = [first, _post("birds"), _post("lights")]
    k1 = DiffPost(comparisons=1, min_text_share=0.0).fit(pages)
    k3 = DiffPost(comparisons=3, min_text_share=0.0).fit(pages)
    assert any("only the first page" in text for text in _kept(k1, judged))
    assert not any("only the first page" in text for text in _kept(k3, judged))
    assert [p.url for p in k1.comparison_pages(judged)] == [pages[2].url]
    assert (k1.method, k3.method) == ("diffpost", "diffpost-k3")


def test_a_page_is_not_its_own_comparison_page() -> None:
    page = _post("bells")
    learner = DiffPost(min_text_share=0.0).fit([page])
    with pytest.raises(NotFittedError):
        learner.boilerplate(page)  # its only comparison page has its URL
    learner.partial_fit(_post("birds")).partial_fit(page)  # learned before it is judged
    kept = _kept(learner, page)
    assert sum("bicycle bells" in text for text in kept) == 4
    assert not any("Copyright" in text for text in kept)


def test_same_document_under_another_url_is_not_a_comparison_page() -> None:
    page = _post("bells")
    copy = parse_page(page.decoded.text, "https://blog.example/?p=17")
    learner = DiffPost(min_text_share=0.0).fit([_post("birds"), copy])
    kept = _kept(learner, page)  # compared with "birds", not with its own copy
    assert sum("bicycle bells" in text for text in kept) == 4


def test_not_fitted_before_any_page_and_per_site() -> None:
    learner = DiffPost()
    assert not learner.is_fitted
    with pytest.raises(NotFittedError):
        learner.boilerplate(_post("bells"))
    with pytest.raises(NotFittedError):
        learner.extract(_post("bells"))
    learner.partial_fit(_post("bells", host="other.example"))
    assert learner.is_fitted
    with pytest.raises(NotFittedError, match=r"blog\.example"):
        learner.boilerplate(_post("birds"))


def test_comparison_pages_of_another_crawl_are_not_used_when_times_are_known() -> None:
    now = datetime(2024, 5, 1, 12, tzinfo=UTC)
    learner = DiffPost(min_text_share=0.0).partial_fit(_post("bells"), now - timedelta(days=3))
    judged = _post("birds")
    assert len(_kept(learner, judged)) < 8  # no time given: the comparison page is used
    with pytest.raises(NotFittedError):
        learner.boilerplate(judged, seen_at=now)
    learner.partial_fit(_post("lights"), datetime(2024, 5, 1, 11))  # naive = UTC
    assert not any("Copyright" in text for text in _kept(learner, judged, seen_at=now))
    no_limit = DiffPost(min_text_share=0.0, max_age=None).fit([_post("bells")], [now])
    assert _kept(no_limit, judged, seen_at=now + timedelta(days=30))


def test_result_does_not_depend_on_other_sites_learned_in_between() -> None:
    judged, comparison = _post("birds"), _post("bells")
    others = [_post(slug, host="other.example") for slug in ("lights", "clocks")]
    before = DiffPost().fit([comparison, *others]).boilerplate(judged)
    after = DiffPost().fit([*others, comparison]).boilerplate(judged)
    alone = DiffPost().fit([comparison]).boilerplate(judged)
    assert np.array_equal(before, alone) and np.array_equal(after, alone)
    assert alone.any() and not alone.all()


def test_state_round_trip() -> None:
    seen = datetime(2024, 5, 1, tzinfo=UTC)
    learner = DiffPost(comparisons=2, min_text_share=0.5, max_age=timedelta(hours=6))
    learner.fit([_post("bells"), _post("lights", host="other.example")], [seen, None])
    restored = DiffPost.from_bytes(learner.to_bytes())
    assert restored.get_state() == learner.get_state()
    assert (restored.comparisons, restored.max_age) == (2, timedelta(hours=6))
    judged = _post("birds")
    assert np.array_equal(restored.boilerplate(judged), learner.boilerplate(judged))
    empty = DiffPost.from_state(DiffPost().get_state())
    assert not empty.is_fitted
    with pytest.raises(ModelError):
        DiffPost.from_state({"comparisons": 1})


def test_bad_parameters_are_refused_when_learning() -> None:
    with pytest.raises(ValueError, match="comparisons"):
        DiffPost(comparisons=0).partial_fit(_post("bells"))
    with pytest.raises(ValueError, match="min_text_share"):
        DiffPost(min_text_share=1.5).partial_fit(_post("bells"))


def test_element_facts_and_block_cover() -> None:
    html = "<body><div><p>Plain words here</p><p><a href='/'>all link</a></p></div></body>"
    page = parse_page(html, "https://x.example/")
    elements = page_elements(page.view)
    assert [s.tag for s in page.view.subtrees] == ["body", "div", "p", "p"]
    assert elements.text_share.tolist()[2:] == [1.0, 0.0]
    assert elements.word_share.tolist() == [1.0, 1.0, 0.6, 0.4]
    assert elements.signatures[0] != elements.signatures[1]  # same text, another tag
    selected = np.array([False, False, False, True])
    assert cover_blocks(elements, selected).tolist() == [False, True]


def test_element_signatures_are_the_tag_and_joined_text_of_each_element() -> None:
    html = ("<body><div><p>Straße und Café</p><p>日本語の<a href='/'>リンク</a></p></div>"
            "<ul><li>a — b</li></ul></body>")  # fmt: skip
    page = parse_page(html, "https://x.example/")
    texts = [block.text for block in page.view.blocks]
    expected = [element_signature(s.tag, " ".join(texts[s.first_block : s.last_block + 1]))
                for s in page.view.subtrees]  # fmt: skip
    assert page_elements(page.view).signatures.tolist() == expected
    assert page_elements(parse_page("<body></body>").view).whole is None


def test_a_page_elements_are_computed_once_while_it_is_handled() -> None:
    learner, page = DiffPost(), _post("bells")
    assert learner.elements(page) is learner.elements(page)
    other = _post("birds")
    assert learner.elements(other) is not learner.elements(page)
    fresh = page_elements(page.view).signatures
    assert learner.elements(page).signatures.tolist() == fresh.tolist()


def test_block_cover_of_nested_selections_is_every_block_inside_one() -> None:
    page = _post("bells", extra=SIDEBAR)
    elements = page_elements(page.view)
    rng = np.random.default_rng(7)
    for _ in range(20):
        selected = rng.random(len(elements.signatures)) < 0.2
        naive = np.zeros(elements.n_blocks, dtype=bool)
        for first, last in zip(elements.first[selected], elements.last[selected], strict=True):
            naive[first : last + 1] = True
        assert cover_blocks(elements, selected).tolist() == naive.tolist()


def test_an_element_repeated_in_any_comparison_page_is_found() -> None:
    from feedsift.sitelevel.diffpost import ComparisonPage, _in_any

    signatures = np.array([5, -3, 9, 0, 12], dtype=np.int64)
    pages = [ComparisonPage(None, None, 1, np.array([-3, 4], dtype=np.int64)),
             ComparisonPage(None, None, 2, np.empty(0, dtype=np.int64)),
             ComparisonPage(None, None, 3, np.array([7, 12, 20], dtype=np.int64))]  # fmt: skip
    assert _in_any(signatures, pages).tolist() == [False, True, False, False, True]
    assert _in_any(signatures, []).tolist() == [False] * 5
