"""The title ranker's options: strings merged by text, origins kept, cut strings mended."""

from __future__ import annotations

import feedsift
from feedsift.extractors.title_ranker import title_options
from feedsift.metadata import read_metadata
from feedsift.parsing.page import parse_page

CUT_AT_QUOTE = """<html><head><title>Salvini: «E noi diciamo "go Donald go"» - Corriere</title>
<meta property="og:title" content="Salvini: «E noi diciamo "go Donald go"»">
</head><body><h1>Salvini: «E noi diciamo "go Donald go"»</h1><p>Testo.</p></body></html>"""


def test_a_title_cut_at_an_unescaped_quote_is_folded_into_the_whole_one() -> None:
    meta = read_metadata(parse_page(CUT_AT_QUOTE))
    cut = "Salvini: «E noi diciamo"
    assert any(c.text == cut for c in meta.title_candidates)  # what the parser gives
    options = {o.text: o for o in title_options(meta, None)}
    assert cut not in options
    whole = options['Salvini: «E noi diciamo "go Donald go"»']
    assert {"opengraph/og:title", "dom/h1"} <= whole.origins


def test_the_title_block_joins_the_string_it_repeats() -> None:
    html = """<html><head><title>Big story | Example</title>
    <meta property="og:title" content="Big story"></head>
    <body><h1>Big story</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = {o.text: o for o in title_options(meta, "Big story")}
    assert {"opengraph/og:title", "block"} <= options["Big story"].origins
    assert options["Big story"].rank == 0
    assert "Big story | Example" in options and "Example" in options  # the <title>'s parts


def test_the_sites_own_name_is_not_a_title_option_when_others_exist() -> None:
    html = """<html><head><title>Winter rides | Bike Hugger</title></head><body>
    <h1><a href="/">Bike Hugger</a></h1><h1>Winter rides</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.site_name == "Bike Hugger"
    texts = {o.text for o in title_options(meta, "Bike Hugger")}
    assert "Bike Hugger" not in texts and "Winter rides" in texts
    head = "<head><meta property='og:site_name' content='X'><title>X</title></head>"
    only = read_metadata(parse_page(f"<html>{head}<body><p>t</p></body></html>"))
    assert [o.text for o in title_options(only, None)] == ["X"]  # nothing else: kept


def test_a_blog_header_link_does_not_title_the_post() -> None:
    html = """<html><head><title>Winter rides | Bike Hugger</title></head><body>
    <header><h1><a href="/">Bike Hugger</a></h1></header>
    <article><h1>Winter rides</h1><p>We rode through the snow for three days and it was
    colder than any of us had expected, but the bikes held up well.</p></article>
    </body></html>"""
    article = feedsift.extract(html, url="https://bikehugger.example/2024/winter-rides")
    assert (article.title, article.site_name) == ("Winter rides", "Bike Hugger")
