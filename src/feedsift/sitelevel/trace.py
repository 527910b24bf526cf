"""What a site's learned state says of each text block of one page, for the inspector.

The page level explains its own decisions (:mod:`feedsift.extractors.explain`); on a site
the crawl has learned, three more methods have a say, each from its saved state:

- the **URL Tree** (URL Tree paper): the block's text seen in other documents under the
  node of the page's URL that judges it (boilerplate to the tree);
- **DiffPost** (DiffPost paper): the block's element repeated in one of the site's
  comparison pages, or too link-heavy (its pre-step);
- the **feed template** (feed-template paper): the block inside the node its content,
  title, author or date path finds on the page.

:func:`site_trace` reads them block by block and says which were consulted, with their
size; a method the state cannot apply (no comparison page of the same crawl, a template
whose content path finds nothing here) is named with the reason instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from lxml import etree

from feedsift.errors import ModelError, NotFittedError
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.sitelevel.base import BlockMask
from feedsift.sitelevel.models import SavedSite, SiteModels
from feedsift.templates.apply import Found, found_nodes
from feedsift.templates.learner import FeedTemplate

__all__ = ["SiteEvidence", "SiteTrace", "site_trace"]

#: The nodes of a template, in the order a block's note names the first that holds it.
TEMPLATE_PROPERTIES = ("title", "author", "date", "content")


@dataclass(frozen=True, slots=True)
class SiteEvidence:
    """What the store holds of a site: its learners' saved state and its latest feed
    template (each None when there is none), and how to name the template."""

    site: str
    saved: SavedSite | None
    template: bytes | None
    template_name: str = "the feed template"


@dataclass(frozen=True, slots=True)
class SiteTrace:
    """The site-level view of one page: what was consulted, and a note per block."""

    site: str
    consulted: tuple[str, ...]  #: each method with its size, or why it could not apply
    notes: tuple[str, ...]  #: one per text block; "" when no method says anything of it


def site_trace(
    page: ParsedPage,
    evidence: SiteEvidence,
    page_level: LearnedPageExtractor,
    seen_at: datetime | None = None,
) -> SiteTrace:
    """The notes of the site's methods on every block of ``page``."""
    said: list[_Said] = []
    if evidence.saved is not None:
        said += _learners(page, evidence.saved, page_level, seen_at)
    if evidence.template is not None:
        said += _template(page, evidence)
    blocks = len(page.view.blocks)
    notes = ["; ".join(note for s in said if (note := _at(s.notes, i))) for i in range(blocks)]
    consulted = tuple(s.consulted for s in said) or ("nothing learned of this site yet",)
    return SiteTrace(evidence.site, consulted, tuple(notes))


@dataclass(frozen=True, slots=True)
class _Said:
    """One method's line on what it is, and its note on each block (None: on none)."""

    consulted: str
    notes: tuple[str, ...] | None = None


def _learners(
    page: ParsedPage, saved: SavedSite, page_level: LearnedPageExtractor,
    seen_at: datetime | None,
) -> list[_Said]:  # fmt: skip
    models = SiteModels(page_level)
    try:
        models.restore_site(saved)
    except ModelError as exc:
        return [_Said(f"URL Tree and DiffPost: the saved state cannot be read ({exc})")]
    learners = models.sites_[saved.site]
    tree, diffpost = learners.urltree, learners.diffpost
    said = []
    if tree.is_fitted:
        said.append(_Said(
            f"URL Tree: {tree.support(page)} documents under the node that judges this URL "
            f"({saved.documents} pages learned)",
            _flagged(tree.boilerplate(page), "URL Tree: repeated"),
        ))  # fmt: skip
    try:
        comparisons = diffpost.comparison_pages(page, seen_at)
    except NotFittedError as exc:
        return [*said, _Said(f"DiffPost: {exc}")]
    mask = diffpost.boilerplate(page, seen_at)
    return [*said, _Said(f"DiffPost: {len(comparisons)} comparison pages of the same crawl",
                         _flagged(mask, "DiffPost: repeated or link-heavy"))]


def _template(page: ParsedPage, evidence: SiteEvidence) -> list[_Said]:
    assert evidence.template is not None
    name = evidence.template_name
    try:
        template = FeedTemplate.from_bytes(evidence.template)
        paths = template.paths
    except (ModelError, NotFittedError) as exc:
        return [_Said(f"{name}: cannot be read ({exc})")]
    found = found_nodes(page, paths)
    if found.content is None:
        return [_Said(f"{name}: its content path {paths.content} finds nothing on this page",
                      tuple(_in_node(b.element, found, "") for b in page.view.blocks))]
    return [_Said(f"{name}: content path {paths.content}",
                  tuple(_in_node(b.element, found, "template: outside content")
                        for b in page.view.blocks))]  # fmt: skip


def _in_node(element: etree._Element, found: Found, outside: str) -> str:
    """The note of a block whose owner is ``element``: the first of the template's nodes
    (title, author, date, content) that holds it, else ``outside``."""
    lineage = {element, *element.iterancestors()}
    for name in TEMPLATE_PROPERTIES:
        node = getattr(found, name)
        if node is not None and node in lineage:
            return f"template: {name}"
    return outside


def _at(notes: tuple[str, ...] | None, index: int) -> str:
    return notes[index] if notes is not None and index < len(notes) else ""


def _flagged(mask: BlockMask, note: str) -> tuple[str, ...]:
    return tuple(note if flagged else "" for flagged in mask)
