"""Text blocks as the URL Tree paper defines them, with their counts and subtrees."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedsift.parsing.blocks import text_blocks
from feedsift.parsing.dom import clean_dom, parse_html
from feedsift.text.tokens import tokenize


def _view(html: str):  # type: ignore[no-untyped-def]
    return text_blocks(clean_dom(parse_html(html)))


def test_inline_tags_do_not_split_and_block_tags_do() -> None:
    view = _view(
        "<body><div>Hello <a href='/x'>there <b>bold</b></a> <em>world</em>"
        "<p>A para, with <span>span</span>.</p>tail text<br>after break</div></body>"
    )
    assert [b.text for b in view.blocks] == [
        "Hello there bold world",
        "A para, with span.",
        "tail text",
        "after break",
    ]
    assert [b.tag for b in view.blocks] == ["div", "p", "div", "div"]
    assert [b.boundary for b in view.blocks] == ["block", "block", "block", "line"]
    assert view.blocks[1].dom_path() == "/html/body/div/p"


def test_counts_and_link_share() -> None:
    view = _view(
        "<body><p>One, two: three! <a href='#'>link text</a></p>"
        "<ul><li><a>Home</a></li></ul></body>"
    )
    first, second = view.blocks
    assert first.n_words == 5 and first.n_punct == 3
    assert first.link_share == len("link text") / len("One, two: three!link text")
    assert second.link_share == 1.0 and second.tag == "li"


def test_a_named_anchor_is_no_link_but_a_script_link_without_href_is() -> None:
    # An unclosed <a name> of an old page (CleanEval's epinions review) held the whole
    # review; a script's <a class="button"> without href is still a link.
    view = _view(
        "<body><a name='top'><p>The review, all of it.</p>"
        "<p><a name='x' href='/y'>named link</a></p></a>"
        "<ul><li><a class='button'>Menu</a></li></ul></body>"
    )
    review, named, button = view.blocks
    assert review.link_share == 0.0 and view.subtrees[review.subtree].n_link_words == 0
    assert named.link_share == 1.0 and button.link_share == 1.0


def test_subtrees_hold_contiguous_blocks_and_totals() -> None:
    view = _view("<body><div><p>a b</p><p>c</p></div><ul><li>d e f</li></ul></body>")
    by_tag = {s.tag: s for s in view.subtrees}
    div = by_tag["div"]
    assert (div.first_block, div.last_block, div.n_words) == (0, 1, 3)
    assert by_tag["body"].n_words == 6 and by_tag["body"].parent == -1
    for sub in view.subtrees:
        blocks = view.blocks[sub.first_block : sub.last_block + 1]
        assert sum(b.n_words for b in blocks) == sub.n_words
        if sub.parent >= 0:
            assert sub.parent < sub.index


def test_whitespace_only_and_punctuation_only_text_makes_no_block() -> None:
    view = _view("<body><div>  \n </div><p>|</p><p>»</p><p>word</p></body>")
    assert [b.text for b in view.blocks] == ["word"]


words = st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=6), min_size=1, max_size=5)


@given(st.lists(st.tuples(st.sampled_from(["p", "div", "li", "h2"]), words), max_size=8))
def test_every_word_of_the_page_is_in_exactly_one_block(
    items: list[tuple[str, list[str]]],
) -> None:
    html = "<body>" + "".join(f"<{t}>{' '.join(w)}</{t}>" for t, w in items) + "</body>"
    view = _view(html)
    expected = [w for _, ws in items for w in ws]
    assert [t for b in view.blocks for t in tokenize(b.text)] == expected
    assert sum(b.n_words for b in view.blocks) == len(expected)
