"""Bodies cut into look-alike sibling containers grow to their common parent."""

from __future__ import annotations

from feedsift.extractors.chunks import chunked_body
from feedsift.extractors.pipeline import analyse_page
from feedsift.parsing.page import parse_page

PARAGRAPH = (
    "<p>This paragraph of the story runs long enough, with several sentences of plain "
    "prose, to count as the kind of text a reader came for. It goes on a little more.</p>"
)


def _body(html: str, first_chunk_class: str) -> tuple[int, int, list[str]]:
    """(chosen subtree, subtree the rule gives, tags of the subtrees) for a page whose body
    subtree stage picked the first element of ``first_chunk_class``."""
    page = parse_page(html)
    analysis = analyse_page(page)
    subtrees = page.view.subtrees
    first = next(s.index for s in subtrees if s.element.get("class") == first_chunk_class)
    body = chunked_body(subtrees, analysis.table, analysis.signals.roles.own, first)
    return first, body, [s.tag for s in subtrees]


def test_a_body_in_chunks_grows_to_the_chunks_parent() -> None:
    chunk = f'<div class="chunk grid">{PARAGRAPH * 2}</div>'
    ad = '<div class="ad">Advert</div>'
    html = f'<body><main class="story">{chunk}{ad}{chunk}{chunk}</main></body>'
    first, body, tags = _body(html, "chunk grid")
    assert body != first and tags[body] == "main"


def test_comments_and_prose_free_twins_leave_the_body_alone() -> None:
    comments = "".join(f'<li class="comment">{PARAGRAPH}</li>' for _ in range(3))
    html = f'<body><div class="post"><ol class="thread">{comments}</ol></div></body>'
    first, body, _ = _body(html, "comment")
    assert body == first  # a comment is never one chunk of the body
    teasers = '<div class="card"><a href="/x">Another story</a></div>' * 3
    html = f'<body><div class="col">{teasers}<div class="card">{PARAGRAPH * 3}</div></div></body>'
    page = parse_page(html)
    analysis = analyse_page(page)
    last = [s.index for s in page.view.subtrees if s.element.get("class") == "card"][-1]
    assert chunked_body(page.view.subtrees, analysis.table, analysis.signals.roles.own,
                        last) == last  # fmt: skip
    assert chunked_body(page.view.subtrees, analysis.table, analysis.signals.roles.own, -1) == -1
