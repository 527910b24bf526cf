"""Parsing and cleaning: invisible parts go, visible text and the head stay."""

from __future__ import annotations

import pytest
from lxml import etree

from feedsift.errors import InputError
from feedsift.parsing.dom import clean_dom, parse_html
from feedsift.parsing.page import parse_page

PAGE = """<!doctype html><html lang="en"><head><title>T</title>
<meta property="og:title" content="OG"><style>p{}</style>
<script type="application/ld+json">{"@type": "Article", "headline": "H"}</script></head>
<body><p>Visible <script>var x;</script>text</p><!-- a comment -->
<div hidden>hidden attribute</div><div style="display: NONE">inline hidden</div>
<div style="visibility:hidden">invisible</div><input type="hidden" value="v">
<noscript>enable js</noscript><form><select><option>Choice</option></select>
<button>Click</button><label>Name</label></form><p>After</p></body></html>"""


def test_invisible_elements_are_dropped_and_tails_kept() -> None:
    root = parse_html("<body><p>a<span hidden>b</span> c</p></body>")
    body = clean_dom(root)
    assert etree.tostring(body, method="text", encoding="unicode") == "a c"


def test_clean_keeps_head_and_visible_text() -> None:
    root = parse_html(PAGE)
    body = clean_dom(root)
    text = etree.tostring(body, method="text", encoding="unicode")
    assert "Visible text" in text and "After" in text and "Name" in text
    for gone in ("var x", "hidden attribute", "inline hidden", "invisible", "enable js",
                 "Choice", "Click", "a comment"):
        assert gone not in text
    assert root.findtext("head/title") == "T"


def test_parse_page_keeps_json_ld_before_cleaning() -> None:
    page = parse_page(PAGE.encode())
    assert len(page.json_ld) == 1 and '"headline": "H"' in page.json_ld[0]
    assert [b.text for b in page.view.blocks] == ["Visible text", "Name", "After"]


def test_malformed_html_is_recovered() -> None:
    page = parse_page(b"<html><body><div><p>unclosed <b>bold<p>next</div></table></body>")
    assert [b.text for b in page.view.blocks] == ["unclosed bold", "next"]


def test_unparsable_input_raises() -> None:
    with pytest.raises(InputError):
        parse_page("   ")


_SENTENCE = "Bumping the minimum supported version has never been a breaking change. "
_POST = f"<p>{_SENTENCE * 8}</p>"


def test_content_served_in_noscript_is_kept() -> None:
    # Discourse serves the whole thread in <noscript> to readers without JavaScript
    html = f"<html><body><div id='app'></div><noscript><div class='post'>{_POST}</div>" \
           "</noscript></body></html>"  # fmt: skip
    body = clean_dom(parse_html(html))
    assert "never been a breaking change" in "".join(body.itertext())


def test_preloaded_script_data_does_not_outweigh_the_noscript_content() -> None:
    # Discourse also preloads the thread as JSON in a <script>: code, not shown text
    data = "<script>window.preloaded = {" + '"post": "x",' * 300 + "}</script>"
    html = f"<html><body><div id='app'></div>{data}<noscript><div class='post'>{_POST}</div>" \
           "</noscript></body></html>"  # fmt: skip
    assert "never been a breaking change" in "".join(clean_dom(parse_html(html)).itertext())


def test_noscript_fallbacks_beside_the_content_are_dropped() -> None:
    # an archive widget of 800 characters, less than half the page's text
    notice = "<noscript><ul>" + "<li><a href='/2010/'>2010 (304)</a></li>" * 80 + "</ul></noscript>"
    html = f"<html><body><article>{_POST}{_POST}</article>{notice}" \
           "<noscript>Please enable JavaScript.</noscript></body></html>"  # fmt: skip
    text = "".join(clean_dom(parse_html(html)).itertext())
    assert "never been a breaking change" in text
    assert "2010 (304)" not in text and "enable JavaScript" not in text


def test_headings_permalink_signs_go_and_other_in_page_links_stay() -> None:
    html = """<html><body><h2>Tasks<a class="headerlink" href="#tasks">¶</a></h2>
    <p>See <a href="#later">the section below</a> and <a href="#">#</a> this.</p>
    <h3>Next <a href="#next" aria-label="link">🔗</a></h3><p>Sign <a href="/x">¶</a> here</p>
    </body></html>"""
    texts = [b.text for b in parse_page(html).view.blocks]
    assert texts == ["Tasks", "See the section below and this.", "Next", "Sign ¶ here"]
