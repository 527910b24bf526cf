"""JSON-LD reading: broken scripts, @graph and @id references, author shapes, ranking."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

from feedsift.metadata import read_metadata
from feedsift.metadata.jsonld import jsonld_clues, load_json_ld
from feedsift.metadata.record import Clue
from feedsift.parsing.page import parse_page


def _page(*scripts: str, body: str = "<p>Body text of the story.</p>") -> str:
    tags = "".join(f'<script type="application/ld+json">{s}</script>' for s in scripts)
    return f"<html><head><title>T</title>{tags}</head><body>{body}</body></html>"


def _values(clues: list[Clue], field: str) -> list[str]:
    return [c.value for c in clues if c.field == field]


def test_load_json_ld_repairs_trailing_commas_control_characters_and_wrappers() -> None:
    broken = '<!--\n{"@type": "NewsArticle", "headline": "A\ttab",\n "keywords": ["a", "b",],}\n-->'
    assert load_json_ld(broken) == {
        "@type": "NewsArticle",
        "headline": "A\ttab",
        "keywords": ["a", "b"],
    }
    assert load_json_ld('//<![CDATA[\n{"@type": "Article", "name": "x",}\n//]]>') == {
        "@type": "Article",
        "name": "x",
    }


def test_load_json_ld_gives_none_for_what_cannot_be_repaired() -> None:
    assert load_json_ld("{not json at all") is None
    assert load_json_ld("") is None


def test_graph_with_id_references_is_resolved() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": "https://ex.org/#site", "name": "Example Site"},
            {
                "@type": "Article",
                "@id": "https://ex.org/a#article",
                "headline": "Graph headline",
                "author": {"@id": "https://ex.org/#/person/1"},
                "publisher": {"@id": "https://ex.org/#org"},
                "datePublished": "2024-03-05T10:00:00+01:00",
            },
            {"@type": "Person", "@id": "https://ex.org/#/person/1", "name": "Jane Doe"},
            {"@type": "Organization", "@id": "https://ex.org/#org", "name": "Example News"},
        ],
    }
    clues = jsonld_clues([json.dumps(graph)])
    assert _values(clues, "authors") == ["Jane Doe"]
    assert _values(clues, "title")[0] == "Graph headline"
    assert _values(clues, "site_name")[:2] == ["Example News", "Example Site"]
    assert _values(clues, "published") == ["2024-03-05T10:00:00+01:00"]


def test_author_shapes_string_person_list_and_nested_lists() -> None:
    article = {
        "@type": ["NewsArticle"],
        "headline": "H",
        "author": ["Ann One", {"@type": "Person", "name": "Bob Two"}, [{"name": "Cy Three"}]],
    }
    meta = read_metadata(parse_page(_page(json.dumps([[article]]))))
    assert meta.authors == ("Ann One", "Bob Two", "Cy Three")
    assert meta.source_of("authors") is not None
    assert meta.source_of("authors").source == "json-ld"  # type: ignore[union-attr]


def test_article_object_wins_over_web_page_and_other_objects() -> None:
    page = {"@type": "WebPage", "name": "Page name", "datePublished": "2020-01-01"}
    article = {"@type": "BlogPosting", "headline": "Post headline", "datePublished": "2021-06-07"}
    crumbs = {"@type": "BreadcrumbList", "name": "Crumbs", "datePublished": "2019-01-01"}
    meta = read_metadata(
        parse_page(_page(json.dumps(crumbs), json.dumps(page), json.dumps(article)))
    )
    assert meta.published == datetime(2021, 6, 7, tzinfo=UTC)
    assert meta.title == "Post headline"
    texts = [c.text for c in meta.title_candidates]
    assert "Page name" in texts
    assert "Crumbs" not in texts


def test_broken_script_is_tolerated_and_good_script_still_read() -> None:
    good = '{"@type": "NewsArticle", "headline": "Fine", "datePublished": "2022-02-02T08:00:00Z",}'
    meta = read_metadata(parse_page(_page("{{{ broken", good)))
    assert meta.title == "Fine"
    assert meta.published == datetime(2022, 2, 2, 8, tzinfo=UTC)
    assert meta.source_of("published") is not None
    assert meta.source_of("published").detail == "datePublished"  # type: ignore[union-attr]


def test_keywords_section_image_language_and_entities() -> None:
    article = {
        "@type": "ReportageNewsArticle",
        "headline": "Caf&eacute; &quot;news&quot;",
        "keywords": "politics, europe; elections",
        "articleSection": "World",
        "image": {"@type": "ImageObject", "url": "https://cdn.ex.org/a.jpg"},
        "inLanguage": {"@type": "Language", "name": "Portuguese", "alternateName": "pt-BR"},
        "mainEntityOfPage": {"@type": "WebPage", "@id": "https://ex.org/story", "name": "Story"},
        "dateModified": "2023-01-02T03:04:05-05:00",
    }
    meta = read_metadata(parse_page(_page(json.dumps(article))))
    assert meta.title == 'Café "news"'
    assert meta.tags == ("politics", "europe", "elections")
    assert meta.image == "https://cdn.ex.org/a.jpg"
    assert meta.language == "pt-br"
    assert meta.canonical_url == "https://ex.org/story"
    assert meta.updated == datetime(2023, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-5)))


def test_objects_that_are_not_content_give_no_title_or_date() -> None:
    person = {"@type": "Person", "name": "Someone", "birthDate": "1980-01-01"}
    assert jsonld_clues([json.dumps(person)]) == []


def test_creation_date_yields_to_a_publication_date_elsewhere() -> None:
    article = {"@type": "NewsArticle", "headline": "H", "dateCreated": "2017-02-24T01:18:13Z"}
    html = _page(json.dumps(article)).replace(
        "<title>",
        '<meta property="article:published_time" content="2017-02-23T17:18:13-08:00"><title>',
    )
    meta = read_metadata(parse_page(html))
    assert meta.published is not None
    assert meta.published.isoformat() == "2017-02-23T17:18:13-08:00"
    only_created = read_metadata(parse_page(_page(json.dumps(article))))
    assert only_created.published == datetime(2017, 2, 24, 1, 18, 13, tzinfo=UTC)
    assert only_created.source_of("published") is not None
    assert only_created.source_of("published").detail == "dateCreated"  # type: ignore[union-attr]


def test_headline_unlike_the_title_tag_yields_to_the_name() -> None:
    article = {"@type": "Article", "name": "Hermitian matrix",
               "headline": "matrix equal to its conjugate-transpose"}  # fmt: skip
    clues = jsonld_clues([json.dumps(article)], page_title="Hermitian matrix - Wikipedia")
    assert [(c.detail, c.value) for c in clues if c.field == "title"] == [
        ("alternativeHeadline", "matrix equal to its conjugate-transpose"),
        ("name", "Hermitian matrix"),
    ]
    # without a <title> to compare with, or when both are alike, schema.org's order stands
    plain = jsonld_clues([json.dumps(article)])
    assert [c.detail for c in plain if c.field == "title"] == ["headline", "name"]
    close = {"@type": "Article", "name": "Big story today", "headline": "Big story"}
    clues = jsonld_clues([json.dumps(close)], page_title="Big story - Example")
    assert [c.detail for c in clues if c.field == "title"] == ["headline", "name"]
