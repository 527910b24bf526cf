"""The page-level extractor on hand-made pages: body, title, listings, comments, options."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import feedsift
from feedsift import InputError, ModelError, PageKind
from feedsift.extractors.listing import _URL_PARTS, url_says_listing
from feedsift.extractors.page import LearnedPageExtractor


def _example(name: str) -> bytes:
    return files("feedsift").joinpath("examples", name).read_bytes()


def test_blog_post_body_title_and_metadata() -> None:
    article = feedsift.extract(_example("blog-post.html"))
    assert article.kind is PageKind.ARTICLE
    assert article.title == "Bringing a 1974 kitchen radio back to life without a schematic"
    assert article.text.startswith("The radio arrived in a cardboard box")
    assert "for whoever opens it next." in article.text
    for boilerplate in ("Skip to content", "You might also like", "Leave a comment",
                        "Restringing a dial cord", "Lovely write-up"):  # fmt: skip
        assert boilerplate not in article.text
    assert article.authors == ("Ingrid Havel",)
    assert article.published is not None and article.published.utcoffset() is not None
    assert article.published.isoformat() == "2024-02-18T09:40:00+01:00"
    assert {"repair", "vintage radio"} <= set(article.tags)
    assert article.source_of("published") is not None
    assert article.provenance.method == "page"
    assert 0.0 <= article.provenance.confidence <= 1.0


def test_comments_only_when_asked_and_never_in_the_body() -> None:
    plain = feedsift.extract(_example("blog-post.html"))
    assert plain.comments == ()
    article = feedsift.extract(_example("blog-post.html"), include_comments=True)
    texts = [c.text for c in article.comments]
    assert any("series bulb has saved me" in t for t in texts)
    assert all("series bulb" not in part.text for part in article.body)
    assert article.text == plain.text


def test_body_parts_keep_structure() -> None:
    article = feedsift.extract(_example("blog-post.html"))
    kinds = {part.kind for part in article.body}
    assert {"paragraph", "heading", "item"} <= kinds
    heading = next(p for p in article.body if p.kind == "heading")
    assert heading.text == "First, make it safe" and heading.level == 2


def test_listing_page_gives_posts_and_their_teasers_as_text() -> None:
    article = feedsift.extract(_example("blog-home.html"), "https://blog.example.org/")
    assert article.kind is PageKind.LISTING
    assert article.text.startswith(article.posts[0].title)
    assert len(article.posts) >= 3
    assert all(post.title and post.url for post in article.posts)
    assert all(post.url.startswith("https://blog.example.org/") for post in article.posts)


def test_listing_detection_can_be_switched_off() -> None:
    article = feedsift.extract(_example("blog-home.html"), detect_listings=False)
    assert article.kind is not PageKind.LISTING and article.posts == ()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://a.example/", True),
        ("https://a.example/tags/python/", True),
        ("https://a.example/category/tools.html", True),
        ("https://a.example/archives/2021/05/", True),
        ("https://a.example/page/3/", True),
        ("https://a.example/2024/02/some-post/", False),
        ("https://a.example/posts/tags-are-fun/", False),
        (None, False),
    ],
)
def test_listing_urls(url: str | None, expected: bool) -> None:
    assert url_says_listing(url) is expected


_URL_TEXT = st.text(st.sampled_from("ab1-_./?#=&:;@%~"), max_size=12)


@given(
    st.sampled_from(["", "https:", "http:", "ftp:", "x+y:"]),
    st.sampled_from(["", "//", "//user@host:8", "//a.example"]),
    _URL_TEXT, _URL_TEXT,
)  # fmt: skip
def test_listing_url_parts_agree_with_urlsplit(
    scheme: str, authority: str, path: str, rest: str
) -> None:
    from urllib.parse import urlsplit

    url = scheme + authority + path + rest
    try:
        expected = urlsplit(url)
    except ValueError:  # a broken IPv6 netloc: url_says_listing says False either way
        return
    found = _URL_PARTS.match(url)
    assert found is not None
    assert (found.group(1), found.group(2) or "") == (expected.path, expected.query)


def test_without_metadata_the_title_comes_from_the_title_block() -> None:
    article = feedsift.extract(_example("news-article.html"), with_metadata=False)
    assert article.title and article.authors == () and article.published is None
    assert article.source_of("title") == feedsift.FieldSource("title", "model", "title block")


def test_a_page_without_text_is_empty() -> None:
    article = feedsift.extract("<html><body><img src='a.png'><hr><div> </div></body></html>")
    assert article.kind is PageKind.EMPTY and article.text == "" and article.body == ()


def test_bad_input_and_options_raise_clear_errors() -> None:
    with pytest.raises(InputError, match="empty"):
        feedsift.extract(b"")
    with pytest.raises(InputError, match="PDF"):
        feedsift.extract(b"%PDF-1.4 binary")
    with pytest.raises(TypeError, match="unknown extract option"):
        feedsift.extract("<p>x</p>", include_coments=True)


def test_a_missing_model_file_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot read model file"):
        LearnedPageExtractor.from_file(tmp_path / "missing.npz")
