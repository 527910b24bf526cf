"""``feedsift examples``: extract the example pages bundled with the package and show the result.

No network and no data needed: the pages ship inside the package (``feedsift/examples``).
The default output is a short readable summary per page; ``--format`` prints the full
result in any output format instead.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Literal

from feedsift.api import extract
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.errors import FeedsiftError, ModelError
from feedsift.outputs.formats import OUTPUT_FORMATS, DocumentStream, OutputFormat
from feedsift.records import Article, PageKind

__all__ = ["EXAMPLES", "Example", "example_page", "register", "run", "summarize"]


@dataclass(frozen=True, slots=True)
class Example:
    """One bundled page, the address it pretends to come from, and what it shows."""

    name: str
    url: str
    about: str

    @property
    def file_name(self) -> str:
        return f"{self.name}.html"


#: The bundled pages, in the order shown (invented sites under reserved example domains).
EXAMPLES = (
    Example(
        "blog-post",
        "https://blog.example.org/2024/02/kitchen-radio-no-schematic/",
        "a blog post with navigation, sidebar, share buttons, related posts and comments",
    ),
    Example(
        "news-article",
        "https://news.example.com/local/2024/05/14/council-backs-floating-solar-pilot-marlow-reservoir",
        "a news article with a byline, dates, ads and JSON-LD metadata",
    ),
    Example(
        "blog-home",
        "https://blog.example.org/",
        "a blog's home page: a listing of post teasers, not an article",
    ),
    Example(
        "artikel-de",
        "https://magazin.example.de/natur/streuobstwiesen-pflege",
        "a German magazine article",
    ),
)
#: Paragraphs of body text shown per article in the summary.
SUMMARY_PARAGRAPHS = 3
#: Characters shown of each paragraph or teaser in the summary.
SUMMARY_CHARS = 220
#: Width the summary is wrapped to (fits a default 80-column terminal).
SUMMARY_WIDTH = 78
#: Label column width in the summary.
LABEL_WIDTH = 11

DemoFormat = Literal["summary", OutputFormat]

DESCRIPTION = """\
Extract the example pages bundled with feedsift (no network needed) and show what was
found: kind, title, date, authors, language and the start of the text, or the posts of a
listing page."""

EPILOG = """\
examples:
  feedsift examples                   a short summary of each example page
  feedsift examples news-article      only one example
  feedsift examples --format json     the full result, as the extract command writes it
  feedsift examples blog-post --comments --format markdown

The example pages are installed with feedsift; their folder is printed at the end of the
summary, so you can run `feedsift extract` on them yourself.
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``feedsift examples`` to the command line."""
    parser = subparsers.add_parser(
        "examples",
        help="show what feedsift extracts from bundled example pages (no network)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "examples",
        nargs="*",
        metavar="EXAMPLE",
        type=_example_name,
        help="examples to show: " + ", ".join(example.name for example in EXAMPLES) + " (all)",
    )
    parser.add_argument(
        "-f",
        "--format",
        choices=("summary", *OUTPUT_FORMATS),
        default="summary",
        metavar="FORMAT",
        help="summary (default), or txt, json, jsonl, markdown, html as extract writes them",
    )
    parser.add_argument("--comments", action="store_true", help="also extract reader comments")
    parser.set_defaults(func=run)


def _example_name(text: str) -> str:
    names = [example.name for example in EXAMPLES]
    name = text.removesuffix(".html")
    if name not in names:
        raise argparse.ArgumentTypeError(f"no example {text!r} (choose from {', '.join(names)})")
    return name


def example_page(example: Example) -> Traversable:
    """The bundled file of ``example``."""
    return files("feedsift").joinpath("examples", example.file_name)


def run(args: argparse.Namespace) -> int:
    """Extract the chosen examples and print them; return the exit status."""
    chosen = [e for e in EXAMPLES if not args.examples or e.name in args.examples]
    stream = None if args.format == "summary" else DocumentStream(sys.stdout, args.format)
    failed = 0
    for example in chosen:
        try:
            article = _extract_example(example, args.comments)
        except ModelError:  # no example can be extracted: main reports it once
            raise
        except (FeedsiftError, OSError) as exc:
            report(example.file_name, str(exc))
            failed += 1
            continue
        if stream is None:
            print(summarize(example, article))
        else:
            stream.write(article, example.file_name)
    if stream is None:
        folder = files("feedsift").joinpath("examples")
        print(
            f"The example pages are in {folder}\nTry: feedsift extract {folder} --format markdown"
        )
    else:
        stream.close()
    return EXIT_FAILED if failed else EXIT_OK


def _extract_example(example: Example, include_comments: bool) -> Article:
    data = example_page(example).read_bytes()
    return extract(data, example.url, include_comments=include_comments)


def summarize(example: Example, article: Article) -> str:
    """A few readable lines about one extracted example."""
    lines = [f"== {example.file_name}: {example.about}"]
    fields = [
        ("kind", article.kind.value),
        ("title", article.title or "(none found)"),
        ("published", article.published.isoformat() if article.published else "(none found)"),
        ("authors", ", ".join(article.authors) or "(none found)"),
        ("language", article.language or "(none found)"),
    ]
    if article.tags:
        fields.append(("tags", ", ".join(article.tags)))
    lines.extend(_field(label, value) for label, value in fields)
    lines.extend(_listing_lines(article) if article.posts else _text_lines(article))
    if article.comments:
        lines.append(_field("comments", f"{len(article.comments)} (kept apart from the body)"))
    return "\n".join(lines) + "\n"


def _field(label: str, value: str) -> str:
    return textwrap.fill(
        value,
        SUMMARY_WIDTH,
        initial_indent=f"  {label:<{LABEL_WIDTH}}",
        subsequent_indent=" " * (LABEL_WIDTH + 2),
    )


def _text_lines(article: Article) -> list[str]:
    words = len(article.text.split())
    paragraphs = [part.text for part in article.body][:SUMMARY_PARAGRAPHS]
    lines = [_field("text", f"{words} words in {len(article.body)} parts; it begins:")]
    lines.extend(
        _field("", "¶ " + textwrap.shorten(p, SUMMARY_CHARS, placeholder=" …")) for p in paragraphs
    )
    if article.kind is PageKind.EMPTY:
        lines.append(_field("", "(no article content found)"))
    return lines


def _listing_lines(article: Article) -> list[str]:
    lines = [_field("posts", str(len(article.posts)))]
    for post in article.posts:
        date = f" ({post.published.date().isoformat()})" if post.published else ""
        lines.append(_field("", f"- {post.title}{date}"))
        if post.url:
            lines.append(_field("", f"  {post.url}"))
    return lines
