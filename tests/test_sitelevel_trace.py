"""``site_trace``: what a site's saved URL Tree, DiffPost and feed template say of each
block of one page (learned for real on a small site of the coast: three posts with the
same navigation and footer, and a template fitted on its feed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from feedsift.api import bundled_extractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel.models import SiteModels
from feedsift.sitelevel.trace import SiteEvidence, site_trace
from test_server_api import COAST, _body, _learned_template, _post_url

NOW = datetime(2026, 11, 1, 12, tzinfo=UTC)


#: The text of the page inspected: none of its words' order is on the other pages.
NEW = ("A gale in the night took the weather vane from the roof of the lamp room, and the "
       "keepers found it at noon half a mile inland, stuck in a farmer's hedge.")  # fmt: skip


def _post(n: int, text: str | None = None, title: str | None = None) -> ParsedPage:
    return parse_page(
        f'<html><body><nav><a href="/">Home</a> <a href="/about/">About the coast</a></nav>'
        f'<div class="post"><h1>{title or f"Title {n}"}</h1>'
        f'<div class="content"><p>{text or _body(n)}</p></div>'
        "</div><footer><p>Written on the coast since 1998, every word by hand.</p></footer>"
        "</body></html>", _post_url(n),
    )  # fmt: skip


def _notes_of(page: ParsedPage, notes: tuple[str, ...], text: str) -> str:
    index = next(i for i, block in enumerate(page.view.blocks) if text in block.text)
    return notes[index]


def test_each_method_says_what_it_sees() -> None:
    extractor = bundled_extractor()
    models = SiteModels(extractor)
    for n in (1, 2, 3, 4):
        models.learn(_post(n), NOW + timedelta(minutes=n))
    saved = models.save_site(COAST)
    evidence = SiteEvidence(COAST, saved, _learned_template().to_bytes(), "template v1")
    page = _post(5, NEW, "The vane in the hedge")
    trace = site_trace(page, evidence, extractor, NOW + timedelta(minutes=5))
    assert trace.site == COAST and len(trace.notes) == len(page.view.blocks)
    assert [line.split(":")[0] for line in trace.consulted] == ["URL Tree", "DiffPost",
                                                                "template v1"]  # fmt: skip
    assert "4 pages learned" in trace.consulted[0]
    assert "|html|body|div[@class=post]|div[@class=content]" in trace.consulted[2]
    footer = _notes_of(page, trace.notes, "Written on the coast")
    assert "URL Tree: repeated" in footer and "DiffPost: repeated" in footer
    assert "template: outside content" in footer
    body = _notes_of(page, trace.notes, NEW[:40])
    assert body == "template: content"  # new text: no repeat, inside the content node
    assert _notes_of(page, trace.notes, "The vane") == "template: title"


def test_nothing_learned_and_unreadable_state() -> None:
    page = _post(1)
    empty = site_trace(page, SiteEvidence(COAST, None, None), bundled_extractor())
    assert empty.consulted == ("nothing learned of this site yet",)
    assert set(empty.notes) == {""}
    broken = site_trace(page, SiteEvidence(COAST, None, b"not a template", "template v2"),
                        bundled_extractor())  # fmt: skip
    assert broken.consulted[0].startswith("template v2: cannot be read")


def test_a_template_that_finds_nothing_here() -> None:
    page = parse_page("<html><body><main><p>Elsewhere entirely, a page of another shape "
                      "with enough words to be a page.</p></main></body></html>", _post_url(9))
    trace = site_trace(page, SiteEvidence(COAST, None, _learned_template().to_bytes(), "t"),
                       bundled_extractor())  # fmt: skip
    assert "finds nothing on this page" in trace.consulted[0]
    assert set(trace.notes) == {""}
