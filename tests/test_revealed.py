"""Hidden markup that holds content: a swallowing button, script-revealed main content,
collapsed accordion panels; and the hidden markup that still goes."""

from __future__ import annotations

import feedsift
from feedsift.parsing.page import parse_page

STORY = (
    "The harbour authority approved the new breakwater on Tuesday after three years of "
    "hearings, and construction begins in the spring. Fishermen had asked for a wider "
    "channel; engineers answered that the current design already allows two trawlers to "
    "pass, and that widening it would double the cost. The council will review the budget "
    "in March, when the first tenders are due, and residents may comment until then."
)
SPEC = (
    "Height 39 cm, width 62 cm, weight 15.9 kg, stainless steel body with a removable ash "
    "pan and a base plate that lifts out for cleaning; ships with a stand and a lid."
)


def _text(html: str) -> str:
    return " ".join(block.text for block in parse_page(html, "https://example.org/a").view.blocks)


def _page(body: str) -> str:
    return f"<html><head><title>Breakwater</title></head><body>{body}</body></html>"


def test_a_button_left_open_does_not_take_the_page_with_it() -> None:
    html = _page(f"<header><button class='menu'>Menu<main><article><h1>Breakwater</h1>"
                 f"<p>{STORY}</p><p>{STORY}</p></article></main></header>")  # fmt: skip
    assert "harbour authority approved" in _text(html)
    article = feedsift.extract(html.encode(), url="https://example.org/a")
    assert "harbour authority approved" in article.text


def test_a_short_button_label_still_goes() -> None:
    assert "Subscribe" not in _text(_page(f"<button>Subscribe</button><p>{STORY}</p>"))


def test_content_a_script_reveals_stays() -> None:
    streamed = _page(f'<div hidden id="S:0"><main><h1>Breakwater</h1><p>{STORY}</p></main></div>')
    assert "harbour authority approved" in _text(streamed)
    locked = _page(f'<nav><a href="/">Home</a></nav><main><div style="display:none">'
                   f"<section><p>{STORY}</p></section></div></main>")  # fmt: skip
    assert "harbour authority approved" in _text(locked)


def test_a_streamed_segment_that_the_pages_script_moves_stays_without_a_landmark() -> None:
    # Next.js streams a Suspense boundary's content in <div hidden id="S:1a"> and moves it
    # into its placeholder with $RC (React 18) or $RR (React 19); no <main> or <article>
    placeholder = '<template id="B:1a"></template><p>Loading</p>'
    segment = f'<div hidden id="S:1a"><section><div class="prose"><p>{STORY}</p></div></section>'
    segment += "</div>"
    for move in ('$RC("B:1a","S:1a")', '$RR("B:1a","S:1a",[])'):
        html = _page(f"{placeholder}{segment}<script>{move}</script>")
        assert "harbour authority approved" in _text(html)
    # a hidden segment no script moves, or another hidden id, still goes
    assert "harbour authority approved" not in _text(_page(f"{placeholder}{segment}"))
    other = _page(f'<div hidden id="S:2"><p>{STORY}</p></div><script>$RC("B:1","S:1")</script>')
    assert "harbour authority approved" not in _text(other)


def test_a_collapsed_panel_stays_and_a_collapsed_menu_goes() -> None:
    html = _page(
        f"<main><h1>Summit fire pit</h1><p>{STORY}</p>"
        '<button aria-controls="spec" aria-expanded="false">Dimensions</button>'
        f'<div id="spec" style="display:none"><p>{SPEC}</p></div>'
        '<button aria-controls="menu">Shop</button><ul id="menu" hidden>'
        '<li><a href="/a">Fire pits and accessories</a></li><li><a href="/b">Pizza ovens</a>'
        "</li></ul></main>"
    )
    text = _text(html)
    assert "stainless steel body" in text
    assert "Pizza ovens" not in text


def test_hidden_text_outside_those_still_goes() -> None:
    popup = '<div style="display: none">Popup: win a prize</div>'
    comments = '<div class="comments" style="display:none"><p>First!</p></div>'
    html = _page(f"<main><p>{STORY}</p>{popup}{comments}</main>")
    text = _text(html)
    assert "win a prize" not in text and "First!" not in text
