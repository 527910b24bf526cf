"""Static layout estimates behind the LayoutProvider interface."""

from __future__ import annotations

from feedsift.parsing.blocks import text_blocks
from feedsift.parsing.dom import clean_dom, parse_html
from feedsift.parsing.layout import Box, Layout, LayoutProvider, StaticLayout


def _boxes(html: str) -> list[Box]:
    view = text_blocks(clean_dom(parse_html(html)))
    return StaticLayout().boxes(view)


def test_tag_defaults_and_inline_styles() -> None:
    boxes = _boxes(
        "<body><h1>Title</h1><p>Body text</p><p style='font-size: 2em'>Big</p>"
        "<p style='font-size:10px'>Tiny</p><p><strong>All bold</strong></p></body>"
    )
    assert [b.font_size for b in boxes] == [32.0, 16.0, 32.0, 10.0, 16.0]
    assert [b.bold for b in boxes] == [True, False, False, False, True]


def test_positions_grow_down_the_page_and_widths_shrink_in_columns() -> None:
    boxes = _boxes(
        "<body><p>first</p><div style='width:50%'><p>half</p></div>"
        "<table><tr><td>left</td><td>right</td></tr></table></body>"
    )
    ys = [b.y for b in boxes]
    assert ys == sorted(ys) and ys[0] == 0.0
    assert boxes[1].width == 0.5
    assert boxes[2].width == boxes[3].width == 0.5


def test_static_layout_is_a_layout_provider() -> None:
    provider: LayoutProvider = StaticLayout()
    assert isinstance(provider, StaticLayout)


def test_layout_arrays_and_boxes_agree_and_round_trip() -> None:
    view = text_blocks(clean_dom(parse_html(
        "<body><h1>Title</h1><p>Body text that runs a little longer than the title</p></body>"
    )))  # fmt: skip
    layout = StaticLayout().layout(view)
    boxes = StaticLayout().boxes(view)
    assert len(layout) == len(boxes) == 2
    assert [layout.box(i) for i in range(2)] == boxes
    again = Layout.from_boxes(boxes)
    assert [again.box(i) for i in range(2)] == boxes
    assert layout.y[1] > layout.y[0] + layout.height[0]  # a gap between blocks
    empty = StaticLayout().layout(text_blocks(clean_dom(parse_html("<body></body>"))))
    assert len(empty) == 0
