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
  boilerplate mask applied (see :mod:`feedsift.sitelevel.hybrid`).

Pages without a URL (most of the news streams) get ``http://<site>/<id>``: one flat path,
so the URL Tree learns at the domain node and is not told anything the URL would not say.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from feedsift.errors import DatasetError, FeedsiftError, NotFittedError
from feedsift.evaluation.datasets import find_page_file, read_page_html
from feedsift.evaluation.metrics import lcs_prf
from feedsift.evaluation.peers import PeerInput, TrafilaturaPeer
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel.base import SiteLearner, article_from_mask
from feedsift.sitelevel.diffpost import DiffPost
from feedsift.sitelevel.hybrid import masked_decision
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


@dataclass(slots=True)
class SiteResult:
    """Per method, the F1 of each page of one site, in stream order."""

    stream: SiteStream
    f1: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0

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
    return SiteStream(group, folder.name, tuple(pages[:limit] if limit else pages))


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
class _Learners:
    """The site-level learners of one site's replay, fresh for each site."""

    urltrees: dict[str, UrlTree]
    diffpost: DiffPost

    @classmethod
    def fresh(cls) -> _Learners:
        trees = {h: UrlTree(heuristic=h) for h in URLTREE_HEURISTICS}  # type: ignore[arg-type]
        return cls(trees, DiffPost())


def replay_site(
    stream: SiteStream,
    page_level: LearnedPageExtractor,
    peer: TrafilaturaPeer | None = None,
    progress: Callable[[], None] | None = None,
) -> SiteResult:
    """Every method on every page of ``stream``, in order; F1 per page per method."""
    result = SiteResult(stream)
    learners = _Learners.fresh()
    for item in stream.pages:
        try:
            raw = read_page_html(item.path)
            page = parse_page(raw, item.url)
        except (FeedsiftError, OSError):
            result.errors += 1
            continue
        for method, text in _texts(page, raw, page_level, learners, peer).items():
            result.add(method, lcs_prf(text, item.gold).f1)
        if progress is not None:
            progress()
    return result


def _texts(
    page: ParsedPage,
    raw: bytes,
    page_level: LearnedPageExtractor,
    learners: _Learners,
    peer: TrafilaturaPeer | None,
) -> dict[str, str]:
    decision = page_level.decide(page)
    page_text = page_level.extract_decided(page, decision).text
    texts = {"page": page_text}
    if peer is not None:
        texts["trafilatura"] = _peer_text(peer, raw, page)
    for heuristic, tree in learners.urltrees.items():
        tree.partial_fit(page)
        texts[f"urltree-{heuristic}"] = _site_text(tree, page, page_text)
    tree = learners.urltrees["strict"]
    texts["hybrid-urltree"] = _hybrid_text(tree, page, page_level, decision, page_text)
    texts["diffpost"] = _site_text(learners.diffpost, page, page_text)
    texts["hybrid-diffpost"] = _hybrid_text(
        learners.diffpost, page, page_level, decision, page_text
    )
    learners.diffpost.partial_fit(page)
    return texts


def _site_text(learner: SiteLearner, page: ParsedPage, fallback: str) -> str:
    try:
        mask = learner.boilerplate(page)
    except NotFittedError:
        return fallback
    return article_from_mask(page, mask, learner.method).text


def _hybrid_text(
    learner: SiteLearner,
    page: ParsedPage,
    page_level: LearnedPageExtractor,
    decision: Any,
    fallback: str,
) -> str:
    try:
        mask = learner.boilerplate(page)
    except NotFittedError:
        return fallback
    return page_level.extract_decided(page, masked_decision(page, decision, mask)).text


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
