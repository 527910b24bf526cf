"""Reader comments measured against a gold set's ``comments`` field (Dragnet's: the text
after its comments separator, the comments' header lines of name and date included).

Each extracted comment is written as the page shows it, its author's name on a line, then
its text; the comments are joined and scored by LCS precision, recall and F1 on words
against the gold comments, averaged over the pages that have comment gold. Run it as
``python -m feedsift.evaluation.comments ../shared/bench/dragnet``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from feedsift.api import extract
from feedsift.errors import FeedsiftError
from feedsift.evaluation.datasets import GoldPage, iter_pages, read_page_html
from feedsift.evaluation.metrics import PRF, lcs_prf, mean_prf
from feedsift.records import Comment

__all__ = ["CommentScore", "comment_text", "main", "score_comments", "score_page"]

#: The default gold set: the one whose gold has comments.
DEFAULT_FOLDER = Path("../shared/bench/dragnet")


@dataclass(frozen=True, slots=True)
class CommentScore:
    """Comments of a gold set's pages with comment gold, against that gold."""

    pages: int  #: pages with comment gold
    text: PRF  #: mean LCS precision, recall and F1 of the joined comments
    comments: float  #: comments found per page
    authored: float  #: share of the comments found that name their author
    dated: float  #: share of the comments found that carry their date


def comment_text(comments: Sequence[Comment]) -> str:
    """The comments as a reader sees them: each author's name, then the text."""
    return "\n\n".join(f"{c.author}\n{c.text}" if c.author else c.text for c in comments)


def score_page(page: GoldPage) -> tuple[PRF, tuple[Comment, ...]]:
    """One page's comments and their score against its gold (an unreadable page: none)."""
    try:
        html = read_page_html(page.path)
        found = extract(html, url=page.url, include_comments=True).comments
    except FeedsiftError:
        found = ()
    return lcs_prf(comment_text(found), page.comments or ""), found


def score_comments(pages: Iterable[GoldPage]) -> CommentScore:
    """The measure over the ``pages`` that have comment gold."""
    scores: list[PRF] = []
    found: list[Comment] = []
    for page in pages:
        if page.comments:
            score, comments = score_page(page)
            scores.append(score)
            found.extend(comments)
    total = max(1, len(found))
    authored = sum(c.author is not None for c in found) / total
    dated = sum(c.published is not None for c in found) / total
    count = len(found) / len(scores) if scores else 0.0
    return CommentScore(len(scores), mean_prf(scores), count, authored, dated)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the measure for a gold folder's test split (default: Dragnet's)."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else DEFAULT_FOLDER
    if not (folder / "gold.jsonl").is_file():
        print(f"feedsift: no gold set at {folder} (../shared is not in the repository)",
              file=sys.stderr)  # fmt: skip
        return 1
    score = score_comments(iter_pages(folder, "test"))
    print(f"{folder.name} test, {score.pages} pages with comment gold: comments LCS "
          f"P {score.text.precision:.3f} R {score.text.recall:.3f} F1 {score.text.f1:.3f}; "
          f"{score.comments:.1f} comments a page, {score.authored:.0%} with an author, "
          f"{score.dated:.0%} with a date")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
