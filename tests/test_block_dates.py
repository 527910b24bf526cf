"""The date line near the title: around the title block, then around the body's start."""

from __future__ import annotations

from datetime import UTC, datetime

import feedsift
from feedsift.api import bundled_extractor
from feedsift.extractors.block_dates import AFTER_TITLE, DateAnchors, date_near_title
from feedsift.extractors.signals import PageSignals
from feedsift.parsing.page import ParsedPage, parse_page

# The post's heading, its date line, a table of contents, then the title again as the
# body's first heading, far below the date line (a Hugo theme of the ssg blogs).
CONTENTS = "".join(f"<li>Part {n}</li>" for n in range(AFTER_TITLE + 5))
PAGE = f"""<html><body><main><h1>Deploying Keycloak on AWS, part one</h1>
<p>Published Jun 6, 2023</p><ul>{CONTENTS}</ul>
<h3>Deploying Keycloak on AWS, part one</h3>
<p>It started out innocently enough, with an identity provider to set up.</p>
<p>So I needed one, and a way to run it that costs little every month.</p>
</main></body></html>"""


def _blocks_and_signals(html: str = PAGE) -> tuple[ParsedPage, PageSignals, list[str]]:
    page = parse_page(html.encode(), "https://blog.example.org/keycloak/")
    signals = bundled_extractor().decide(page).analysis.signals
    return page, signals, [block.text for block in page.view.blocks]


def test_a_title_inside_the_body_still_finds_the_date_line_above_the_body() -> None:
    page, signals, texts = _blocks_and_signals()
    heading = texts.index("Deploying Keycloak on AWS, part one", 1)
    anchors = DateAnchors(title=heading, first=0, last=len(texts) - 1)
    found = date_near_title(page.view, signals, anchors)
    assert found == datetime(2023, 6, 6, tzinfo=UTC)


def test_without_a_body_the_date_line_is_read_under_the_pages_h1() -> None:
    page, signals, texts = _blocks_and_signals()
    heading = texts.index("Deploying Keycloak on AWS, part one", 1)
    found = date_near_title(page.view, signals, DateAnchors(title=heading))
    assert found == datetime(2023, 6, 6, tzinfo=UTC)


def test_without_a_body_or_an_h1_the_title_window_alone_is_read() -> None:
    page, signals, texts = _blocks_and_signals(PAGE.replace("h1>", "h2>"))
    heading = texts.index("Deploying Keycloak on AWS, part one", 1)
    assert date_near_title(page.view, signals, DateAnchors(title=heading)) is None


def _sidebar_page(label: str) -> bytes:
    """A collection page whose only date is in a sidebar pair of lines, far below the title."""
    body = "".join(f"<p>Plate {n} shows the coffee house as Moseley describes it, with the "
                   f"merchants and the pots and the long tables of the port ({n}).</p>"
                   for n in range(30))  # fmt: skip
    return f"""<html><body><main><h1>A Treatise Concerning Coffee (1792)</h1>{body}</main>
<aside><div class="dateline"><p class="label">{label}</p><p class="date">Feb 2, 2023</p></div>
</aside></body></html>""".encode()


def test_a_date_after_a_label_that_names_it_is_read_anywhere_on_the_page() -> None:
    url = "https://review.example.org/collection/moseley-coffee"
    found = feedsift.extract(_sidebar_page("Published"), url).published
    assert found == datetime(2023, 2, 2, tzinfo=UTC)


def test_a_label_that_says_updated_names_no_publication_date() -> None:
    url = "https://review.example.org/collection/moseley-coffee"
    assert feedsift.extract(_sidebar_page("Last updated"), url).published is None
