"""Does feedsift tell listings from posts? A check on real blogs' non-post pages.

Layout of one site folder (``../shared/sites/ssg/<site>/``)::

    site.json            site_url (page URLs are site_url + path)
    other.jsonl          non-post pages: id, path, kind (home, tag, about, 404 ...)
    other/<id>.html.gz   those pages (plain <id>.html works too)
    gold.jsonl, pages/   the site's real posts

Every page goes through ``feedsift.extract``; its outcome is what the result says the page
is: a listing with at least one teaser, a listing without teasers, an article, or empty.
Listing kinds should come out as listings with posts; non-listing kinds and posts should
not come out as listings.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from tqdm import tqdm

import feedsift
from feedsift.errors import DatasetError, FeedsiftError
from feedsift.evaluation.datasets import find_page_file, iter_pages, marked_dirs, read_page_html
from feedsift.evaluation.report import format_table
from feedsift.records import Article, PageKind

__all__ = [
    "DEFAULT_SITES_DIR",
    "LISTING_KINDS",
    "NON_LISTING_KINDS",
    "KindSummary",
    "ListingsOptions",
    "ListingsRun",
    "PageOutcome",
    "SitePage",
    "check_page",
    "group_of",
    "iter_site_pages",
    "listings_json",
    "outcome_of",
    "render_listings",
    "run_listings",
    "site_dirs",
    "summarize_listings",
]

#: Where the shared blog sites live relative to the working directory.
DEFAULT_SITES_DIR = Path("../shared/sites/ssg")

#: Page kinds that list posts: they should be reported as listings with teasers.
LISTING_KINDS = frozenset({"home", "archive", "archive/list", "tag", "category", "pagination"})
#: Page kinds that are neither a post nor a list of posts (a tag-cloud index is "taxonomy").
NON_LISTING_KINDS = frozenset({"about", "static-page", "404", "search", "taxonomy"})
#: Kind given to the site's real posts (``pages/`` with ``gold.jsonl``).
POST_KIND = "post"

Group = Literal["listing", "non-listing", "post", "other"]
Outcome = Literal["listing", "listing-no-posts", "article", "empty", "error"]
OUTCOMES: tuple[Outcome, ...] = ("listing", "listing-no-posts", "article", "empty", "error")
GROUPS: tuple[Group, ...] = ("listing", "non-listing", "post", "other")


@dataclass(frozen=True, slots=True)
class ListingsOptions:
    """``limit``: at most this many non-post pages and posts per site; ``posts``: check the
    site's posts too."""

    limit: int | None = None
    posts: bool = True
    progress: bool = True


@dataclass(frozen=True, slots=True)
class SitePage:
    """One page of a site with its (URL-guessed) kind."""

    site: str
    page_id: str
    kind: str
    path: Path
    url: str | None


@dataclass(frozen=True, slots=True)
class PageOutcome:
    """What feedsift made of one page."""

    site: str
    page_id: str
    kind: str
    outcome: Outcome
    posts: int
    error: str | None = None


@dataclass(frozen=True, slots=True)
class ListingsRun:
    """Every page checked, site by site."""

    root: Path
    sites: tuple[str, ...]
    outcomes: tuple[PageOutcome, ...]
    wall_seconds: float


@dataclass(frozen=True, slots=True)
class KindSummary:
    """Outcome counts of one page kind, or of a whole group (``kind`` = ``all <group>``)."""

    kind: str
    group: Group
    counts: dict[str, int]

    @property
    def pages(self) -> int:
        return sum(self.counts.values())

    def share(self, *outcomes: Outcome) -> float:
        """Share of the pages whose outcome is one of ``outcomes``."""
        hits = sum(self.counts.get(o, 0) for o in outcomes)
        return hits / self.pages if self.pages else 0.0


def group_of(kind: str) -> Group:
    """Which group a page kind belongs to."""
    if kind == POST_KIND:
        return "post"
    if kind in LISTING_KINDS:
        return "listing"
    return "non-listing" if kind in NON_LISTING_KINDS else "other"


def site_dirs(root: Path) -> list[Path]:
    """The site folders under ``root`` (or ``root`` itself when it is one site)."""
    return marked_dirs(root, "other.jsonl", "site")


def _site_url(site: Path) -> str | None:
    path = site / "site.json"
    if not path.is_file():
        return None
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("site_url")
    except (json.JSONDecodeError, AttributeError) as exc:
        raise DatasetError(f"{path}: not a JSON object: {exc}") from exc
    return str(value) if value else None


def _join(site_url: str | None, path: str) -> str | None:
    # Paths are relative to the site's root URL, which may itself have a path (/blog/).
    if not site_url:
        return None
    return site_url.rstrip("/") + "/" + path.lstrip("/")


def _other_rows(site: Path) -> Iterator[dict[str, Any]]:
    listing = site / "other.jsonl"
    with listing.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{listing}:{number}: {exc.msg}") from exc


def _other_pages(site: Path) -> Iterator[SitePage]:
    site_url = _site_url(site)
    for row in _other_rows(site):
        page_id = str(row["id"])
        path = find_page_file(site, page_id, "other")
        if path is not None:
            url = _join(site_url, str(row.get("path") or ""))
            yield SitePage(site.name, page_id, str(row.get("kind") or "unknown"), path, url)


def _post_pages(site: Path) -> Iterator[SitePage]:
    if not (site / "gold.jsonl").is_file():
        return
    for gold in iter_pages(site, "all"):
        yield SitePage(site.name, gold.id, POST_KIND, gold.path, gold.url)


def iter_site_pages(site: Path, options: ListingsOptions = ListingsOptions()) -> list[SitePage]:
    """A site's non-post pages, then its posts, each at most ``options.limit``."""
    others = list(_other_pages(site))[: options.limit]
    posts = list(_post_pages(site))[: options.limit] if options.posts else []
    return others + posts


def outcome_of(article: Article) -> Outcome:
    """What an extraction result says the page is."""
    if article.kind.lists_items:
        return "listing" if article.posts else "listing-no-posts"
    return "empty" if article.kind is PageKind.EMPTY else "article"


def check_page(page: SitePage) -> PageOutcome:
    """Run feedsift on one page and classify its answer."""
    try:
        article = feedsift.extract(read_page_html(page.path), page.url)
    except FeedsiftError as exc:
        return PageOutcome(page.site, page.page_id, page.kind, "error", 0, str(exc))
    return PageOutcome(page.site, page.page_id, page.kind, outcome_of(article), len(article.posts))


def run_listings(root: Path, options: ListingsOptions = ListingsOptions()) -> ListingsRun:
    """Check every site under ``root``; raises :class:`DatasetError` if there is none."""
    sites = site_dirs(root)
    pages = [page for site in sites for page in iter_site_pages(site, options)]
    clock = time.perf_counter()
    bar = tqdm(pages, desc="listings", unit="page", disable=not options.progress)
    outcomes = tuple(check_page(page) for page in bar)
    return ListingsRun(root, tuple(s.name for s in sites), outcomes, time.perf_counter() - clock)


def summarize_listings(run: ListingsRun) -> list[KindSummary]:
    """One summary per kind (grouped, most frequent first), then one per group."""
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    by_group: dict[Group, Counter[str]] = defaultdict(Counter)
    for item in run.outcomes:
        by_kind[item.kind][item.outcome] += 1
        by_group[group_of(item.kind)][item.outcome] += 1
    kinds = sorted(by_kind, key=lambda k: (GROUPS.index(group_of(k)), -by_kind[k].total(), k))
    rows = [KindSummary(k, group_of(k), dict(by_kind[k])) for k in kinds]
    rows += [KindSummary(f"all {g}", g, dict(by_group[g])) for g in GROUPS if g in by_group]
    return rows


def _row_cells(row: KindSummary) -> list[str]:
    return [row.kind, row.group, str(row.pages), *(f"{row.share(o):.3f}" for o in OUTCOMES)]


def _verdicts(rows: Sequence[KindSummary]) -> list[str]:
    groups = {row.group: row for row in rows if row.kind.startswith("all ")}
    lines = []
    if "listing" in groups:
        row = groups["listing"]
        share = row.share("listing")
        lines.append(f"listing kinds reported as listing with posts: {share:.3f} of {row.pages}")
    for group, label in (("non-listing", "non-listing kinds"), ("post", "posts")):
        if group in groups:
            row = groups[group]
            share = row.share("listing", "listing-no-posts")
            lines.append(f"{label} misreported as listing: {share:.3f} of {row.pages}")
    return lines


def render_listings(run: ListingsRun) -> str:
    """Terminal table: share of each outcome per kind and per group, then the verdicts."""
    rows = summarize_listings(run)
    headers = ["kind", "group", "n", *OUTCOMES]
    table = format_table(headers, [_row_cells(r) for r in rows], left=2)
    footer = [*_verdicts(rows), f"{len(run.sites)} sites; wall time {run.wall_seconds:.1f} s"]
    failed = next((o for o in run.outcomes if o.error), None)
    if failed is not None:
        footer.append(f"first error: {failed.site}/{failed.page_id}: {failed.error}")
    return table + "\n\n" + "\n".join(footer) + "\n"


def listings_json(run: ListingsRun) -> dict[str, Any]:
    """The summaries and every page's outcome, for ``--json``."""
    rows = summarize_listings(run)
    return {
        "root": str(run.root),
        "sites": list(run.sites),
        "wall_seconds": run.wall_seconds,
        "summary": [{**asdict(r), "pages": r.pages} for r in rows],
        "verdicts": _verdicts(rows),
        "pages": [asdict(o) for o in run.outcomes],
    }
