"""Serialisation and every output format, on records built by hand (no extraction involved)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from lxml import etree
from lxml import html as lxml_html

from feedsift.outputs import (
    FILE_SUFFIXES,
    OUTPUT_FORMATS,
    DocumentStream,
    article_to_dict,
    render,
)
from feedsift.outputs.deserialize import article_from_dict
from feedsift.outputs.serialize import to_json
from feedsift.records import (
    Article,
    BodyPart,
    Comment,
    FieldSource,
    PageKind,
    Provenance,
    Teaser,
)

CET = timezone(timedelta(hours=1))
PROVENANCE = Provenance("page", "test-model-1", 0.87)


def full_article() -> Article:
    return Article(
        body=(
            BodyPart("paragraph", "The first paragraph of the story, with *stars* and _under_."),
            BodyPart("heading", "What happened next", level=2),
            BodyPart("item", "first point"),
            BodyPart("item", "second point"),
            BodyPart("quote", "A quoted line.\nAnd its second line."),
            BodyPart("code", "print('```')\nx = 1 < 2"),
            BodyPart("paragraph", "# not a heading, 1. not a list"),
            BodyPart("caption", "A photo of the harbour."),
            BodyPart.table((("Ship", "Tonnes"), ("Ada | B", "1,200"), ("Eve", "")), head_rows=1),
        ),
        title="Harbour <News> & more",
        provenance=PROVENANCE,
        kind=PageKind.ARTICLE,
        url="https://example.org/2024/05/harbour",
        authors=("Ann Lee", "Bo Chen"),
        published=datetime(2024, 5, 14, 7, 30, tzinfo=CET),
        updated=datetime(2024, 5, 14, 16, 5, tzinfo=UTC),
        tags=("harbour", "energy"),
        language="en",
        canonical_url="https://example.org/harbour",
        site_name="The Example Courier",
        image="https://example.org/img.jpg",
        description="A short description.",
        comments=(Comment("Great read!", "Tom"), Comment("<b>bold</b> claim", None)),
        sources=(FieldSource("title", "json-ld", "headline"), FieldSource("published", "meta")),
    )


def listing() -> Article:
    return Article(
        body=(),
        title="Blog home",
        provenance=PROVENANCE,
        kind=PageKind.LISTING,
        url="https://blog.example.org/",
        posts=(
            Teaser(
                "First post",
                "https://blog.example.org/first",
                "Teaser one.",
                datetime(2024, 3, 9, tzinfo=UTC),
            ),
            Teaser("Second post", None, "Teaser two."),
        ),
    )


def test_article_to_dict_keeps_every_field_json_safe() -> None:
    data = article_to_dict(full_article())
    assert json.loads(json.dumps(data)) == data
    assert data["kind"] == "article"
    assert data["published"] == "2024-05-14T07:30:00+01:00"
    assert data["updated"] == "2024-05-14T16:05:00+00:00"
    assert data["authors"] == ["Ann Lee", "Bo Chen"]
    assert data["text"] == full_article().text
    assert data["provenance"] == {
        "method": "page",
        "model_version": "test-model-1",
        "confidence": 0.87,
        "kind_confidence": 0.0,
    }
    assert data["sources"][0] == {"field": "title", "source": "json-ld", "detail": "headline"}
    assert data["comments"] == [
        {"text": "Great read!", "author": "Tom", "published": None},
        {"text": "<b>bold</b> claim", "author": None, "published": None},
    ]
    assert data["body"][1] == {"kind": "heading", "text": "What happened next", "level": 2}
    assert list(data)[:4] == ["kind", "url", "canonical_url", "title"]
    expected_fields = set(Article.__dataclass_fields__) | {"text"}
    assert set(data) == expected_fields


def test_listing_posts_are_serialised() -> None:
    data = article_to_dict(listing())
    assert data["kind"] == "listing"
    assert data["text"] == ""
    assert data["posts"][0] == {
        "title": "First post",
        "url": "https://blog.example.org/first",
        "text": "Teaser one.",
        "published": "2024-03-09T00:00:00+00:00",
    }
    assert data["posts"][1]["published"] is None


def test_to_json_edge_values() -> None:
    assert to_json(float("nan")) is None
    assert to_json((1, 2.5, "x", None, True)) == [1, 2.5, "x", None, True]
    with pytest.raises(TypeError, match="cannot serialise object"):
        to_json(object())


def test_to_json_takes_enum_members_and_subclasses_by_value() -> None:
    class Word(str):
        pass

    kind = to_json(PageKind.ARTICLE)
    assert kind == "article" and type(kind) is str  # the member's value, not the member
    assert to_json(((PageKind.LISTING,), [Word("w")])) == [["listing"], ["w"]]
    assert to_json((True, 3, None, "x", float("inf"))) == [True, 3, None, "x", None]


def test_txt() -> None:
    text = render(full_article(), "txt")
    title, blank, first = text.splitlines()[:3]
    assert (title, blank) == ("Harbour <News> & more", "")
    assert first.startswith("The first paragraph of the story")
    assert "Comments (2)" in text and "Tom wrote:\nGreat read!" in text
    assert text.endswith("\n")


def test_txt_listing() -> None:
    text = render(listing(), "txt")
    assert text.startswith("Blog home\n\n1. First post\n   https://blog.example.org/first\n")
    assert "   2024-03-09\n   Teaser one." in text
    assert "2. Second post\n   Teaser two." in text


def test_json_and_jsonl() -> None:
    pretty = render(full_article(), "json", input_name="harbour.html")
    assert pretty.count("\n") > 10
    data = json.loads(pretty)
    assert data["input"] == "harbour.html"
    assert data["title"] == "Harbour <News> & more"
    line = render(full_article(), "jsonl", input_name="harbour.html")
    assert line.endswith("\n") and line.count("\n") == 1
    assert json.loads(line) == data


def test_markdown_structure() -> None:
    md = render(full_article(), "markdown")
    assert md.endswith("claim\n")
    blocks = md.rstrip("\n").split("\n\n")
    assert blocks[0] == "# Harbour <News> & more".replace("<", "\\<").replace(">", "\\>")
    assert blocks[1] == "*By Ann Lee, Bo Chen · 2024-05-14 07:30+01:00 · The Example Courier*"
    assert "Source: <https://example.org/harbour>" in blocks
    assert "Tags: harbour, energy" in blocks
    assert "## What happened next" in blocks
    assert "- first point\n- second point" in blocks
    assert "> A quoted line.\n> And its second line." in blocks
    assert "````\nprint('```')\nx = 1 < 2\n````" in md  # a fence longer than any run inside
    assert "\\*stars\\* and \\_under\\_" in md
    assert "\\# not a heading, 1. not a list" in blocks
    assert "*A photo of the harbour.*" in blocks
    assert "## Comments" in blocks
    assert blocks[-4:-2] == ["**Tom** wrote:", "> Great read!"]
    assert blocks[-2:] == ["**Anonymous** wrote:", "> \\<b\\>bold\\</b\\> claim"]


def test_markdown_listing_links() -> None:
    md = render(listing(), "markdown")
    assert "## [First post](<https://blog.example.org/first>)" in md
    assert "*2024-03-09*" in md
    assert "## Second post\n\nTeaser two." in md


def test_html_is_standalone_escaped_and_structured() -> None:
    page = render(full_article(), "html")
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert "<title>Harbour &lt;News&gt; &amp; more</title>" in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt; claim" in page
    doc = lxml_html.document_fromstring(page)
    assert doc.findtext(".//h1") == "Harbour <News> & more"
    assert [li.text for li in doc.iterfind(".//ul/li")] == ["first point", "second point"]
    assert doc.findtext(".//h2") == "What happened next"
    assert doc.findtext(".//blockquote/p").startswith("A quoted line.")
    assert doc.findtext(".//pre/code") == "print('```')\nx = 1 < 2"
    assert doc.find(".//time").get("datetime") == "2024-05-14T07:30:00+01:00"
    assert [a.text for a in doc.iterfind(".//span[@class='author']")] == ["Ann Lee", "Bo Chen"]
    assert doc.find(".//link[@rel='canonical']").get("href") == "https://example.org/harbour"
    assert len(doc.findall(".//section[@class='comments']/article")) == 2


def test_html_refuses_unsafe_links() -> None:
    article = Article(
        body=(),
        title="t",
        provenance=PROVENANCE,
        posts=(Teaser('x"><script>alert(1)</script>', "javascript:alert(1)", ""),),
    )
    page = render(article, "html")
    assert "javascript:" not in page and "<script>" not in page
    doc = lxml_html.document_fromstring(page)
    assert doc.findtext(".//section[@class='posts']//h2") == 'x"><script>alert(1)</script>'


@pytest.mark.parametrize("fmt", OUTPUT_FORMATS)
def test_every_format_renders_an_empty_page(fmt: str) -> None:
    empty = Article(body=(), title=None, provenance=PROVENANCE, kind=PageKind.EMPTY)
    out = render(empty, fmt)  # type: ignore[arg-type]
    assert isinstance(out, str)
    assert FILE_SUFFIXES[fmt].startswith(".")  # type: ignore[index]


def stream(fmt: str, count: int) -> str:
    out = io.StringIO()
    documents = DocumentStream(out, fmt)  # type: ignore[arg-type]
    for number in range(count):
        documents.write(full_article() if number % 2 == 0 else listing(), f"page-{number}.html")
    documents.close()
    return out.getvalue()


def test_stream_json_is_one_array() -> None:
    assert json.loads(stream("json", 0)) == []
    items = json.loads(stream("json", 3))
    assert [item["input"] for item in items] == ["page-0.html", "page-1.html", "page-2.html"]
    assert items[1]["kind"] == "listing"


def test_stream_jsonl_is_one_line_each() -> None:
    lines = stream("jsonl", 3).splitlines()
    assert [json.loads(line)["input"] for line in lines] == [
        "page-0.html",
        "page-1.html",
        "page-2.html",
    ]


def test_stream_txt_has_header_lines() -> None:
    text = stream("txt", 2)
    assert text.startswith("==> page-0.html <==\nHarbour <News> & more\n\n")
    assert "\n==> page-1.html <==\nBlog home\n" in text


def test_stream_markdown_and_html() -> None:
    md = stream("markdown", 2)
    assert md.startswith("<!-- input: page-0.html -->\n\n# Harbour")
    assert "\n---\n\n<!-- input: page-1.html -->" in md
    page = stream("html", 3)
    assert page.count("<!DOCTYPE html>") == 1 and page.rstrip().endswith("</html>")
    doc = lxml_html.document_fromstring(page)
    assert [a.get("data-input") for a in doc.iterfind("body/article")] == [
        "page-0.html",
        "page-1.html",
        "page-2.html",
    ]


def test_table_parts_carry_rows_in_json_and_come_back() -> None:
    data = article_to_dict(full_article())
    table = data["body"][-1]
    assert table == {
        "kind": "table",
        "text": "Ship\tTonnes\nAda | B\t1,200\nEve\t",
        "level": 0,
        "rows": [["Ship", "Tonnes"], ["Ada | B", "1,200"], ["Eve", ""]],
        "head_rows": 1,
    }
    assert "rows" not in data["body"][0] and "head_rows" not in data["body"][0]
    assert article_from_dict(json.loads(json.dumps(data))) == full_article()


def test_txt_has_code_verbatim_and_one_table_row_a_line() -> None:
    text = render(full_article(), "txt")
    assert "\n\nprint('```')\nx = 1 < 2\n\n" in text
    assert "\n\nShip\tTonnes\nAda | B\t1,200\nEve\t\n" in text


def test_markdown_table() -> None:
    md = render(full_article(), "markdown")
    table = "| Ship | Tonnes |\n| --- | --- |\n| Ada \\| B | 1,200 |\n| Eve |  |"
    assert table in md.split("\n\n")


def test_html_table() -> None:
    doc = lxml_html.document_fromstring(render(full_article(), "html"))
    assert [th.text for th in doc.iterfind(".//table/thead/tr/th")] == ["Ship", "Tonnes"]
    rows = [[td.text or "" for td in tr] for tr in doc.iterfind(".//table/tbody/tr")]
    assert rows == [["Ada | B", "1,200"], ["Eve", ""]]


def test_xml_has_trafilatura_shape() -> None:
    out = render(full_article(), "xml", input_name="harbour.html")
    assert out.startswith('<?xml version="1.0" encoding="utf-8"?>\n<doc ')
    doc = etree.fromstring(out.encode())
    assert doc.tag == "doc"
    assert doc.get("title") == "Harbour <News> & more"
    assert doc.get("author") == "Ann Lee; Bo Chen"
    assert doc.get("date") == "2024-05-14" and doc.get("hostname") == "example.org"
    assert doc.get("url") == "https://example.org/harbour" and doc.get("pagetype") == "article"
    assert doc.get("input") == "harbour.html" and doc.get("tags") == "harbour; energy"
    main = doc.find("main")
    assert [child.tag for child in main] == [
        "p", "head", "list", "quote", "code", "p", "p", "table",
    ]  # fmt: skip
    assert main.find("head").get("rend") == "h2"
    assert [item.text for item in main.iterfind("list[@rend='ul']/item")] == [
        "first point", "second point",
    ]  # fmt: skip
    quote = main.find("quote")
    assert quote.text == "A quoted line." and quote.find("lb").tail == "And its second line."
    assert main.findtext("code") == "print('```')\nx = 1 < 2"
    rows = main.findall("table/row")
    assert [c.get("role") for c in rows[0]] == ["head", "head"]
    assert [[c.text or "" for c in row] for row in rows[1:]] == [["Ada | B", "1,200"], ["Eve", ""]]
    assert [p.get("author") for p in doc.iterfind("comments/p")] == ["Tom", None]
    assert doc.find("comments/p[2]").text == "<b>bold</b> claim"


def test_xml_drops_characters_xml_cannot_hold() -> None:
    article = Article((BodyPart("code", "a\x00b\x0c\tc"),), "t\x01", PROVENANCE)
    doc = etree.fromstring(render(article, "xml").encode())
    assert doc.findtext("main/code") == "ab\tc" and doc.get("title") == "t"


def test_xml_listing_posts() -> None:
    doc = etree.fromstring(render(listing(), "xml").encode())
    assert doc.get("pagetype") == "listing"
    first, second = doc.iterfind("posts/post")
    assert (first.get("title"), first.get("url"), first.get("date"), first.text) == (
        "First post", "https://blog.example.org/first", "2024-03-09", "Teaser one.",
    )  # fmt: skip
    assert second.get("url") is None


def test_csv_is_one_quoted_row_under_a_header() -> None:
    out = render(full_article(), "csv", input_name="harbour.html")
    header, row = csv.reader(io.StringIO(out))
    assert header[:6] == ["input", "url", "title", "authors", "date", "kind"]
    record = dict(zip(header, row, strict=True))
    assert record["title"] == "Harbour <News> & more"
    assert record["authors"] == "Ann Lee; Bo Chen"
    assert record["date"] == "2024-05-14T07:30:00+01:00"
    assert record["text"] == full_article().text  # line breaks, tabs and quotes survive
    assert record["comments"] == "Great read!\n\n<b>bold</b> claim"


def test_stream_xml_and_csv() -> None:
    docs = etree.fromstring(stream("xml", 3).encode())
    assert docs.tag == "docs"
    assert [doc.get("input") for doc in docs] == ["page-0.html", "page-1.html", "page-2.html"]
    assert etree.fromstring(stream("xml", 0).encode()).tag == "docs"
    rows = list(csv.reader(io.StringIO(stream("csv", 3))))
    assert [row[0] for row in rows] == ["input", "page-0.html", "page-1.html", "page-2.html"]
    assert rows[2][5] == "listing"
    assert list(csv.reader(io.StringIO(stream("csv", 0)))) == [rows[0]]


def test_a_forum_thread_and_a_cut_page_survive_the_store_round_trip() -> None:
    from dataclasses import replace as changed
    from datetime import UTC, datetime

    when = datetime(2025, 3, 3, 19, 40, tzinfo=UTC)
    post = Comment("Buy the cheapest station.", "oldtimer", when)
    article = changed(
        full_article(), kind=PageKind.FORUM, thread=(post,), truncated="cut at 50,000 elements",
        provenance=Provenance("page", "test-model-1", 0.87, 0.91),
    )  # fmt: skip
    data = json.loads(json.dumps(article_to_dict(article)))
    assert data["thread"][0]["published"] == "2025-03-03T19:40:00+00:00"
    assert article_from_dict(data) == article
