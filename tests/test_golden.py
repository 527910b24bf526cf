"""Golden tests: whole extractions of the bundled example pages, compared field by field.

A change of model or of any stage shows up here as a readable diff. After checking it,
rewrite the files with ``pytest tests/test_golden.py --update-golden``.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

import feedsift
from feedsift.records import Article

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = sorted(p.name for p in files("feedsift").joinpath("examples").iterdir()
                  if p.name.endswith(".html"))  # fmt: skip
#: The address each example pretends to come from (listing detection reads the URL).
URLS = {
    "blog-home.html": "https://blog.example.org/",
    "blog-post.html": "https://blog.example.org/2024/02/kitchen-radio-no-schematic/",
}


def _summary(article: Article) -> dict[str, Any]:
    return {
        "kind": str(article.kind),
        "title": article.title,
        "authors": list(article.authors),
        "published": article.published.isoformat() if article.published else None,
        "tags": list(article.tags),
        "language": article.language,
        "body": [[part.kind, part.text] for part in article.body],
        "posts": [[post.title, post.url] for post in article.posts],
        "comments": [[c.author, c.text] for c in article.comments],
    }


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_extraction_matches_golden(name: str, request: pytest.FixtureRequest) -> None:
    html = files("feedsift").joinpath("examples", name).read_bytes()
    article = feedsift.extract(html, URLS.get(name), include_comments=True)
    summary = _summary(article)
    golden = GOLDEN / name.replace(".html", ".json")
    if request.config.getoption("--update-golden"):
        golden.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    assert summary == expected
