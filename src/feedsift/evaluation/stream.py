"""Site-level methods evaluated as streams, the way the URL Tree paper measures them.

Each site folder (``pages/<id>.html.gz`` + ``gold.jsonl``, below ``../shared/sites`` by
default) is replayed in time order (gold ``date``, else ``subset`` then the file's order,
else the file's order) and every page goes through every method; after each page the
cumulative moving average of word-LCS F1 (mean F1 of the pages so far) is recorded per
method. The methods, on the same pages:

* ``page``: feedsift's page-level extractor;
* ``trafilatura``: the peer, with comments off (when installed);
* ``urltree-<heuristic>``: the URL Tree learner (the page inserted, then judged), each
  heuristic;
* ``diffpost``: DiffPost against the site's previous pages (judged, then learned); its
  first page, which has no comparison page, falls back to the page-level result, as the
  pipeline would;
* ``hybrid-urltree``, ``hybrid-diffpost``: the page-level extractor with the site-level
  boilerplate mask applied (see :mod:`feedsift.sitelevel.hybrid`);
* ``chosen``: what the crawl pipeline does, :class:`~feedsift.sitelevel.SiteModels`: each
  field from the method (page level, the two hybrids) that the site's feed items confirm
  (issue 17); a page the site's ``feed.xml`` lists comes with its item, so the methods are
  checked on it before it is extracted, as in a crawl. Without feed items (the news
  streams) nothing is checked and ``chosen`` is the page level.

Pages without a URL (most of the news streams) get ``http://<site>/<id>``: one flat path,
so the URL Tree learns at the domain node and is not told anything the URL would not say.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from feedsift.acquisition.feeds import parse_feed
from feedsift.errors import DatasetError, FeedsiftError, NotFittedError
from feedsift.evaluation.datasets import find_page_file, read_page_html
from feedsift.evaluation.metrics import lcs_prf
from feedsift.evaluation.peers import PeerInput, TrafilaturaPeer
from feedsift.evaluation.templates_bench import FEED_FILE, path_key
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import FeedItem
from feedsift.sitelevel.base import BlockMask, SiteLearner, article_from_mask
from feedsift.sitelevel.diffpost import DiffPost
from feedsift.sitelevel.hybrid import masked_decision
from feedsift.sitelevel.models import SiteModels
from feedsift.sitelevel.urltree import UrlTree

__all__ = [
    "DEFAULT_STREAM_DIR",
    "URLTREE_HEURISTICS",
    "WARM_UP",
    "SiteResult",
    "SiteStream",
    "StreamPage",
    "find_streams",
    "pooled_after",
    "pooled_seconds",
    "replay_site",
]

#: Where the site streams live relative to the working directory (the project's layout).
DEFAULT_STREAM_DIR = Path("../shared/sites")
#: Documents a site-level method may learn from before it is compared with the others.
WARM_UP = 20
#: The URL Tree heuristics replayed (names as :class:`~feedsift.sitelevel.urltree.UrlTree`
#: takes them).
URLTREE_HEURISTICS = ("strict", "strict-support", "strict-at-domain", "relaxed-at-domain")


@dataclass(frozen=True, slots=True)
class StreamPage:
    """One page of a site stream with its gold text."""

    id: str
    url: str
    gold: str
    path: Path


@dataclass(frozen=True, slots=True)
class SiteStream:
    """A site's pages in the order they are replayed."""

    group: str
    name: str
    pages: tuple[StreamPage, ...]
    feed: Path | None = None  #: the site's feed file (``feed.xml``), when it has one


@dataclass(slots=True)
class SiteResult:
    """Per method, the F1 of each page of one site, in stream order."""

    stream: SiteStream
    f1: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  #: see :func:`replay_site`

    def add(self, method: str, value: float) -> None:
        self.f1.setdefault(method, []).append(value)

    def cumulative(self, method: str) -> list[float]:
        """The cumulative moving average of F1 after each page."""
        values, total = [], 0.0
        for count, value in enumerate(self.f1.get(method, []), start=1):
            total += value
            values.append(total / count)
        return values


# -- finding and ordering the streams ----------------------------------------------------


def find_streams(root: Path, limit: int | None = None) -> list[SiteStream]:
    """Every site folder at or below ``root`` (two levels), its pages in stream order."""
    if not root.is_dir():
        raise DatasetError(f"{root}: no such folder of site streams")
    folders = sorted({p.parent for p in root.glob("gold.jsonl")}
                     | {p.parent for p in root.glob("*/gold.jsonl")}
                     | {p.parent for p in root.glob("*/*/gold.jsonl")})  # fmt: skip
    streams = [_stream(folder, root, limit) for folder in folders]
    streams = [s for s in streams if s.pages]
    if not streams:
        raise DatasetError(f"{root}: no site folders (pages/ and gold.jsonl) found")
    return streams


def _stream(folder: Path, root: Path, limit: int | None) -> SiteStream:
    rows = [json.loads(line) for line in _lines(folder / "gold.jsonl")]
    rows = _in_time_order(rows)
    base = _site_url(folder)
    pages = [page for row in rows if (page := _page(folder, row, base)) is not None]
    group = folder.parent.name if folder.parent != root else ""
    feed = folder / FEED_FILE
    return SiteStream(group, folder.name, tuple(pages[:limit] if limit else pages),
                      feed if feed.is_file() else None)  # fmt: skip


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as handle:
        yield from (line for line in handle if line.strip())


def _in_time_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By ``date`` when every row has one, else by ``subset`` (stable), else as given."""
    if rows and all(row.get("date") for row in rows):
        return sorted(rows, key=lambda row: str(row["date"]))
    if rows and all(row.get("subset") for row in rows):
        return sorted(rows, key=lambda row: str(row["subset"]))
    return rows


def _site_url(folder: Path) -> str:
    info = folder / "site.json"
    if info.is_file():
        url = json.loads(info.read_text(encoding="utf-8")).get("site_url")
        if isinstance(url, str) and url.startswith(("http://", "https://")):
            return url
    host = folder.name.split("__")[-1].lower().replace("_", "-")
    return f"http://{host}/"


def _page(folder: Path, row: dict[str, Any], base: str) -> StreamPage | None:
    page_id = str(row.get("id") or "")
    path = find_page_file(folder, page_id) if page_id else None
    if path is None or not row.get("text"):
        return None
    url = row.get("url") or ""
    url = urljoin(base, url) if url else urljoin(base, page_id)
    return StreamPage(page_id, url, str(row["text"]), path)


# -- replaying ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Replay:
    """One site's replay: fresh learners, the extractors, and where results go."""

    page_level: LearnedPageExtractor
    peer: TrafilaturaPeer | None
    result: SiteResult
    items: Mapping[str, FeedItem] = field(default_factory=dict)  #: by :func:`path_key`
    urltrees: dict[str, UrlTree] = field(init=False)
    diffpost: DiffPost = field(default_factory=DiffPost)
    models: SiteModels = field(init=False)

    def __post_init__(self) -> None:
        self.urltrees = {h: UrlTree(heuristic=h) for h in URLTREE_HEURISTICS}  # type: ignore[arg-type]
        self.models = SiteModels(self.page_level)

    def page(self, item_page: StreamPage) -> None:
        """Every method on the page; F1 per method, and the seconds of the timed stages.
        ``chosen`` gets the page's feed item when the site's feed lists it, as the crawl
        would (its methods are checked on it)."""
        started = time.perf_counter()
        try:
            raw = read_page_html(item_page.path)
            page = parse_page(raw, item_page.url)
        except (FeedsiftError, OSError):
            self.result.errors += 1
            return
        decision = self.page_level.decide(page)
        page_text = self.page_level.extract_decided(page, decision).text
        self._time("page", started)
        texts = {"page": page_text, **self._site_level(page, decision, page_text)}
        item = self.items.get(path_key(item_page.url))
        texts["chosen"] = self.models.process(page, item=item).text
        if self.peer is not None:
            texts["trafilatura"] = _peer_text(self.peer, raw, page)
        for method, text in texts.items():
            self.result.add(method, lcs_prf(text, item_page.gold).f1)

    def _site_level(self, page: ParsedPage, decision: Any, page_text: str) -> dict[str, str]:
        """Each learner learns and judges the page (timed), then its text and the hybrid's."""
        masks: dict[str, BlockMask | None] = {}
        for heuristic, tree in self.urltrees.items():
            started = time.perf_counter()
            tree.partial_fit(page)
            masks[f"urltree-{heuristic}"] = _mask(tree, page)
            self._time(f"urltree-{heuristic}", started)
        started = time.perf_counter()
        masks["diffpost"] = _mask(self.diffpost, page)
        self.diffpost.partial_fit(page)
        self._time("diffpost", started)
        texts = {m: _masked_text(page, mask, m, page_text) for m, mask in masks.items()}
        for name, method in (("hybrid-urltree", "urltree-strict"), ("hybrid-diffpost", "diffpost")):
            mask = masks[method]
            texts[name] = page_text if mask is None else self.page_level.extract_decided(
                page, masked_decision(page, decision, mask)).text  # fmt: skip
        return texts

    def _time(self, method: str, started: float) -> None:
        seconds = self.result.seconds
        seconds[method] = seconds.get(method, 0.0) + time.perf_counter() - started


def replay_site(
    stream: SiteStream,
    page_level: LearnedPageExtractor,
    peer: TrafilaturaPeer | None = None,
    progress: Callable[[], None] | None = None,
) -> SiteResult:
    """Every method on every page of ``stream``, in order; F1 per page per method.

    Also timed, per method: ``page`` (reading, parsing and page-level extraction) and each
    site-level learner's classification (learning the page and judging its blocks; the
    article is then assembled by the page level's code), so their cost can be set against
    the page level's."""
    replay = _Replay(page_level, peer, SiteResult(stream), feed_items(stream))
    for item in stream.pages:
        replay.page(item)
        if progress is not None:
            progress()
    return replay.result


def feed_items(stream: SiteStream) -> dict[str, FeedItem]:
    """The items of the site's feed by their link's :func:`path_key` (none when the site
    has no feed or it does not parse)."""
    if stream.feed is None:
        return {}
    base = _site_url(stream.feed.parent)
    try:
        sample = parse_feed(stream.feed.read_bytes(), urljoin(base, FEED_FILE)).sample()
    except (FeedsiftError, OSError):
        return {}
    return {path_key(item.url): item for item in sample.items if item.url}


def _mask(learner: SiteLearner, page: ParsedPage) -> BlockMask | None:
    """The learner's boilerplate mask of ``page``, ``None`` while it cannot judge it."""
    try:
        return learner.boilerplate(page)
    except NotFittedError:
        return None


def _masked_text(page: ParsedPage, mask: BlockMask | None, method: str, fallback: str) -> str:
    """The learner's own article text (the page-level text while it cannot judge)."""
    return fallback if mask is None else article_from_mask(page, mask, method).text


def _peer_text(peer: TrafilaturaPeer, raw: bytes, page: ParsedPage) -> str:
    try:
        return peer.run(PeerInput(raw, page.decoded.text, page.url)).text
    except Exception:  # a peer failing on a page scores 0 there, like an empty result
        return ""


# -- pooling -----------------------------------------------------------------------------


def pooled_after(results: Sequence[SiteResult], method: str, warm_up: int = WARM_UP) -> float:
    """Mean F1 of ``method`` over the pages after the first ``warm_up`` of every site."""
    values = [v for r in results for v in r.f1.get(method, [])[warm_up:]]
    return sum(values) / len(values) if values else float("nan")


def pooled_all(results: Sequence[SiteResult], method: str) -> float:
    """Mean F1 of ``method`` over every page of every site."""
    values = [v for r in results for v in r.f1.get(method, [])]
    return sum(values) / len(values) if values else float("nan")


def pooled_seconds(results: Sequence[SiteResult], method: str) -> float:
    """Mean seconds per page of a method's timed work over every site (see replay_site)."""
    pages = sum(len(r.f1.get("page", [])) for r in results)
    total = sum(r.seconds.get(method, 0.0) for r in results)
    return total / pages if pages else float("nan")
