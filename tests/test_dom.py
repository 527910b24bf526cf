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
