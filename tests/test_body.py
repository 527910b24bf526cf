"""Body assembly: code kept verbatim, data tables kept as rows and cells, words unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from feedsift.extractors.body import assemble_body
from feedsift.parsing.blocks import TextBlock, text_blocks
from feedsift.parsing.dom import clean_dom, parse_html
from feedsift.records import BodyPart
from feedsift.text.tokens import tokenize

CODE = """<pre><code>def area(r):
    <span class="k">return</span> 3.14 * r * r  # square

<span class="k">print</span>(area(2))
</code></pre>"""

DATA_TABLE = """<table><caption>Capacitors</caption>
<thead><tr><th>Part</th><th>Value</th><th>Note</th></tr></thead>
<tbody><tr><td>C3</td><td>100 uF</td><td></td></tr>
<tr><td><p>C7</p></td><td>47 uF</td><td>kept <b>anyway</b></td></tr></tbody></table>"""

#: A page's layout in a table: one cell holds the whole article.
LAYOUT_TABLE = (
    "<table><tr><td>"
    + "<p>"
    + " ".join(["word"] * 90)
    + "</p>"
    + ("<p>Second paragraph of the article.</p></td><td>Menu</td></tr></table>")
)


def _blocks(html: str) -> tuple[TextBlock, ...]:
    return text_blocks(clean_dom(parse_html(f"<html><body>{html}</body></html>"))).blocks


def _tokens(parts: tuple[BodyPart, ...]) -> list[str]:
    return tokenize("\n\n".join(part.text for part in parts))


def test_code_keeps_line_breaks_and_indentation() -> None:
    (part,) = assemble_body(_blocks(CODE))
    assert part.kind == "code"
    assert part.text == ("def area(r):\n    return 3.14 * r * r  # square\n\nprint(area(2))")


def test_code_lines_in_divs_and_br_make_one_part() -> None:
    divs = '<pre><div class="line">if x:</div><div class="line">\xa0\xa0go()</div></pre>'
    (part,) = assemble_body(_blocks(divs))
    assert (part.kind, part.text) == ("code", "if x:\n  go()")
    (part,) = assemble_body(_blocks("<pre>one\n  two<br>  three</pre>"))
    assert (part.kind, part.text) == ("code", "one\n  two\n  three")


def test_two_pre_elements_are_two_code_parts() -> None:
    parts = assemble_body(_blocks("<pre>a = 1</pre><pre>b = 2</pre>"))
    assert [(p.kind, p.text) for p in parts] == [("code", "a = 1"), ("code", "b = 2")]


def test_verbatim_text_is_used_only_when_it_has_the_blocks_words() -> None:
    (block,) = _blocks("<pre>x  =  1</pre>")
    changed = block._replace(text="something else")
    assert assemble_body([changed]) == (BodyPart("code", "something else"),)


def test_only_the_selected_blocks_of_a_pre_come_out() -> None:
    blocks = _blocks("<pre>first  line<br>second  line<br>third  line</pre>")
    (part,) = assemble_body([blocks[0], blocks[2]])
    assert part.text == "first  line\nthird  line"


def test_data_table_keeps_rows_cells_and_header() -> None:
    parts = assemble_body(_blocks(DATA_TABLE))
    assert [p.kind for p in parts] == ["caption", "table"]
    table = parts[1]
    assert table.rows == (
        ("Part", "Value", "Note"),
        ("C3", "100 uF", ""),
        ("C7", "47 uF", "kept anyway"),
    )
    assert table.head_rows == 1
    assert table.text == "Part\tValue\tNote\nC3\t100 uF\t\nC7\t47 uF\tkept anyway"


def test_header_row_of_th_cells_without_thead() -> None:
    html = "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
    (table,) = assemble_body(_blocks(html))
    assert (table.kind, table.head_rows) == ("table", 1)


def test_layout_tables_keep_their_paragraphs() -> None:
    parts = assemble_body(_blocks(LAYOUT_TABLE))
    assert [p.kind for p in parts] == ["paragraph", "paragraph", "cell"]
    rows = "<tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr>"
    presentation = f'<table role="presentation">{rows}</table>'
    assert [p.kind for p in assemble_body(_blocks(presentation))] == ["cell"] * 4
    nested = f"<table>{rows}<tr><td><table>{rows}</table></td></tr></table>"
    assert [p.kind for p in assemble_body(_blocks(nested))] == ["cell"] * 4 + ["table"]
    post = "<table><tr><td>Ann, member since 2001</td><td>My reply to the post.</td></tr></table>"
    assert [p.kind for p in assemble_body(_blocks(post))] == ["cell", "cell"]


def test_a_lone_kept_cell_is_no_table() -> None:
    blocks = _blocks(DATA_TABLE)
    kept = [b for b in blocks if b.text == "100 uF"]
    assert assemble_body(kept) == (BodyPart("cell", "100 uF"),)


def test_a_table_cut_by_another_block_is_two_parts_in_order() -> None:
    blocks = _blocks("<p>before</p>" + DATA_TABLE + "<p>after</p>")
    parts = assemble_body(blocks)
    assert [p.kind for p in parts] == ["paragraph", "caption", "table", "paragraph"]
    assert _tokens(parts) == [t for b in blocks for t in b.tokens]


RICH_PAGE = (
    "<h1>Title</h1><p>Intro, with <a href='/x'>a link</a>.</p>"
    + CODE
    + DATA_TABLE
    + LAYOUT_TABLE
    + "<ul><li>one</li><li>two<br>lines</li></ul><blockquote>q</blockquote>"
    + "<pre>x = 1<br>  y = 2<div>z  =  3</div> tail</pre><table><tr><td>only</td></tr></table>"
)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_selection_keeps_its_words_in_order(data: st.DataObject) -> None:
    blocks = _blocks(RICH_PAGE)
    keep = data.draw(st.lists(st.booleans(), min_size=len(blocks), max_size=len(blocks)))
    selected = [b for b, kept in zip(blocks, keep, strict=True) if kept]
    parts = assemble_body(selected)
    assert _tokens(parts) == [t for b in selected for t in b.tokens]
    assert " ".join("\n\n".join(p.text for p in parts).split()) == " ".join(
        b.text for b in selected
    )
