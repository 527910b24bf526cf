"""The title ranker's options: strings merged by text, origins kept, cut strings mended."""

from __future__ import annotations

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
