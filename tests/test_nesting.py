"""Pages nested deeper than libxml2 reads keep their text (issue 16: 3,000 nested <div>
lost the deep text and the rest of the page, silently)."""

from __future__ import annotations

from lxml import etree

import feedsift
from feedsift.parsing.dom import parse_html
from feedsift.parsing.nesting import MAX_DEPTH, PARSER_DEPTH, flatten_nesting

SENTENCE = "is a paragraph long enough to be the content of a post, with words of its own."


def nested(depths: tuple[int, ...]) -> str:
    """A page with a paragraph at each of ``depths`` (nested <div>, deepest last), and one
    after they all close."""
    parts, depth = ["<html><body><p>Before the nesting " + SENTENCE + "</p>"], 0
    for target in depths:
        parts.append("<div>" * (target - depth) + f"<p>Depth {target} {SENTENCE}</p>")
        depth = target
    parts.append("</div>" * depth + "<p>After the nesting " + SENTENCE + "</p></body></html>")
    return "".join(parts)


def depth_of(root: etree._Element) -> int:
    return max(sum(1 for _ in element.iterancestors()) for element in root.iter())


def test_text_at_every_depth_is_kept() -> None:
    depths = (10, 500, 1_500, 2_500, 3_000)
    root = parse_html(nested(depths))
    text = etree.tostring(root, encoding=str, method="text")
    for label in ("Before the nesting", *(f"Depth {d} " for d in depths), "After the nesting"):
        assert label in text
    assert depth_of(root) < PARSER_DEPTH  # read whole, flattened past MAX_DEPTH
    article = feedsift.extract(nested(depths), "https://deep.example/post")
    assert "Depth 3000 " in article.text and "After the nesting" in article.text
    assert article.truncated is None  # nothing was cut


def test_one_deep_paragraph_is_extracted() -> None:
    html = "<div>" * 3_000 + f"<p>deep text {SENTENCE}</p>" + "</div>" * 3_000
    assert feedsift.extract(html).text == f"deep text {SENTENCE}"


def test_a_page_the_parser_reads_whole_is_not_rewritten() -> None:
    deep = parse_html(nested((3_000,)))  # a flattened parse first: nothing may carry over
    assert depth_of(deep) < PARSER_DEPTH
    root = parse_html(nested((1_500,)))
    assert depth_of(root) == 1_500 + 2  # html, body and 1,500 div around the <p>


def test_flattening_drops_only_tags_past_the_depth() -> None:
    html = ("<div><p>one<p>two<br><img src=x><span>three</span></div>"
            "<script>if (a<div) {}</script><!-- <div> -->")  # fmt: skip
    assert flatten_nesting(html, max_depth=5) == html
    assert flatten_nesting(html, max_depth=1) == (
        "<div> one two<br><img src=x> three </div>"
        "<script>if (a<div) {}</script><!-- <div> -->"
    )
    assert flatten_nesting("<b><i>x</i></b></i>", max_depth=1) == "<b> x </b></i>"
    assert flatten_nesting("<div>" * 3 + "x" + "</div>" * 3, MAX_DEPTH) == (
        "<div>" * 3 + "x" + "</div>" * 3
    )
