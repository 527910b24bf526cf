"""The feed-learned template of one feed: paths per property, merged over its items.

:class:`FeedTemplate` follows the site-level learners' contract: ``__init__`` stores
parameters, :meth:`FeedTemplate.fit` learns from a feed and the pages its items link to and
returns ``self``, learned state ends in ``_``, :meth:`FeedTemplate.extract` raises
:class:`~feedsift.errors.NotFittedError` before fitting, and the state is saved with a
schema version (:meth:`FeedTemplate.to_bytes`).

Per property, the paths found in the items (:mod:`~feedsift.templates.finding`) are merged
into *clusters*: a path joins the best-supported cluster it merges with without losing more
than :data:`MAX_MERGE_LOSS` nodes, else it starts its own; the cluster with most items is
the property's path, and the content path is promoted to the key-path (the title path when
the feed gives no content that the pages hold). A comment feed is recognised and learns
nothing.

A path of the title, author, date or tags that finds the same values on every learned page
while the feed's values for it vary (a menu, a footer) is no property path: the items'
paths are found again with its nodes avoided.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self
from urllib.parse import urlsplit

from feedsift.acquisition.feeds import ParsedFeed
from feedsift.errors import InputError, ModelError, NotFittedError
from feedsift.extractors.base import ExtractOptions
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article
from feedsift.templates.apply import (
    MAX_KEY_MATCHES,
    TemplatePaths,
    apply_paths,
    count_found,
    is_post,
    link_share,
)
from feedsift.templates.feedvalues import ItemValues, is_comment_feed, item_values
from feedsift.templates.finding import ItemPaths, find_item_paths
from feedsift.templates.paths import KeyPath, find, merge, parse_path
from feedsift.templates.textindex import value_tokens

__all__ = [
    "CONFIRMING",
    "CONFIRM_SHARE",
    "MAX_ITEMS",
    "MAX_MERGE_LOSS",
    "PROPERTIES",
    "FeedTemplate",
    "PathCluster",
]

#: Feed items learned from: the paper's feeds list about 10; 20 covers most feeds whole.
MAX_ITEMS = 20
#: A merge may drop this many trailing nodes (a ``p`` against a ``div`` end); more, and the
#: paths point to different things, so they stay apart.
MAX_MERGE_LOSS = 0
#: Properties whose path must find exactly one node on a post (when most items agree).
CONFIRMING = ("title", "date")
#: Share of the items a property path needs to confirm posts (a path a few items gave may
#: be an accident of those pages).
CONFIRM_SHARE = 0.5
#: A body this linked is a list of links, whatever the feed's posts look like.
MAX_LINK_SHARE = 0.9
#: How much more of a candidate's body may be link text than the most linked learned post.
LINK_SLACK = 0.1
#: A path segment starting with a year: date-based permalinks (``/2019/04/...``).
DATED_PATH = re.compile(r"/(?:19|20)\d\d(?:/|-)")
#: Items needed before "all the feed's posts have dated addresses" is taken as a rule.
MIN_DATED_ITEMS = 3
#: Items whose ``<title>`` must all say their feed title word for word before titles are
#: read from it: the ``<title>`` is then the field the feed is written from (a theme may
#: show another heading in the page), and a site that appends its name never qualifies.
MIN_HEAD_TITLE_ITEMS = 3
#: The properties a template has paths for, in the order they are reported.
PROPERTIES = ("title", "content", "author", "date", "tags")
#: Properties whose path is dropped when it finds the same values on every learned page
#: while the feed's values vary: a menu or a footer, not the property (the content is the
#: key-path and is judged by its own checks).
VALUE_PROPERTIES = ("title", "author", "date", "tags")
#: Learned pages needed before "the same on every page" says anything.
MIN_CONSTANT_PAGES = 3


@dataclass(frozen=True, slots=True)
class PathCluster:
    """Paths of one property merged over the items that agree, and how many they are."""

    path: KeyPath
    support: int


class FeedTemplate:
    """A feed's template: where its posts keep their title, body, author, date and tags."""

    name = "template"
    schema_version = 1

    def __init__(self, max_items: int = MAX_ITEMS) -> None:
        self.max_items = max_items

    # -- learning -----------------------------------------------------------------------

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> Self:
        """Learn from ``feed``'s newest items and their ``pages`` (keyed by item link)."""
        self.feed_url_ = feed.url
        self.comment_feed_ = is_comment_feed(feed)
        self.items_ = [] if self.comment_feed_ else _learn_items(feed, pages, self.max_items)
        self.clusters_ = {name: _cluster(item.get(name) for item in self.items_)
                          for name in PROPERTIES}  # fmt: skip
        self.items_learned_ = len(self.items_)
        learned = [pages[item.url] for item in self.items_]
        self.counts_ = {name: _range(path, learned) for name in ("key", *CONFIRMING)
                        if (path := self._confirming(name)) is not None}  # fmt: skip
        self.dated_urls_ = len(self.items_) >= MIN_DATED_ITEMS and all(
            _dated(item.url) for item in self.items_)  # fmt: skip
        self.title_in_head_ = len(self.items_) >= MIN_HEAD_TITLE_ITEMS and all(
            item.title_in_head for item in self.items_)  # fmt: skip
        key = self.key_path
        self.link_share_ = max((link_share(p, key) for p in learned), default=0.0) if (
            key is not None) else 0.0  # fmt: skip
        return self

    @property
    def is_fitted(self) -> bool:
        return getattr(self, "clusters_", None) is not None and self.key_path is not None

    @property
    def paths(self) -> TemplatePaths:
        """The promoted path of each property (after :meth:`fit`)."""
        self._check()
        best = self._best
        return TemplatePaths(best("title"), best("content"), best("author"), best("date"),
                             best("tags"), title_in_head=self.title_in_head_)  # fmt: skip

    @property
    def key_path(self) -> KeyPath | None:
        """The path that tells a post: the content path, else the title path."""
        clusters = getattr(self, "clusters_", None)
        if clusters is None:
            return None
        return self._best("content") or self._best("title")

    def _best(self, name: str) -> KeyPath | None:
        clusters = self.clusters_.get(name) or []
        return clusters[0].path if clusters else None

    # -- judging ------------------------------------------------------------------------

    def is_post(self, page: ParsedPage) -> bool:
        """Whether ``page`` is one of the feed's posts: its address is dated when all the
        feed's posts' are, its key-path finds a body, and the key, title and date paths
        find as many nodes as they did on the feed's own posts (a listing shows many titles
        and dates, an index page none)."""
        self._check()
        key = self.key_path
        assert key is not None
        if self.dated_urls_ and not _dated(page.url or ""):
            return False  # the feed's posts all have dated addresses; an about page has not
        least, most = self.counts_.get("key", (1, MAX_KEY_MATCHES))
        if not is_post(page, key, max(most, MAX_KEY_MATCHES)):
            return False
        for name, (least, most) in self.counts_.items():
            path = self._confirming(name)
            if path is not None and least == most and count_found(page, path) != least:
                return False  # a path that finds a varying number on posts tells nothing
        return link_share(page, key) <= min(MAX_LINK_SHARE, self.link_share_ + LINK_SLACK)

    def _confirming(self, name: str) -> KeyPath | None:
        """The path checked on candidate posts: the key-path, and the title and date paths
        most items agree on (a path few items gave may be an accident of those pages)."""
        if name == "key":
            return self.key_path
        clusters = self.clusters_.get(name) or []
        items = max(1, self.items_learned_)
        if clusters and clusters[0].support >= CONFIRM_SHARE * items:
            return clusters[0].path
        return None

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """The page's properties by the template's paths (metadata fills the gaps)."""
        del options  # the template decides what is body; the page-level options do not apply
        return apply_paths(page, self.paths, self.name)

    def _check(self) -> None:
        if not self.is_fitted:
            reason = "it is a comment feed" if getattr(self, "comment_feed_", False) else (
                "fit() it on a feed and its pages first")  # fmt: skip
            raise NotFittedError(f"the feed template has learned no key-path: {reason}")

    # -- state --------------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        self._check()
        return {
            "max_items": self.max_items, "feed_url": self.feed_url_, "items": self.items_learned_,
            "clusters": {name: [[str(c.path), c.support] for c in clusters]
                         for name, clusters in self.clusters_.items()},
            "counts": {name: list(bounds) for name, bounds in self.counts_.items()},
            "link_share": self.link_share_,
            "dated_urls": self.dated_urls_,
            "title_in_head": self.title_in_head_,
        }  # fmt: skip

    def to_bytes(self) -> bytes:
        payload = {"learner": self.name, "schema": self.schema_version, "state": self.get_state()}
        return gzip.compress(json.dumps(payload, separators=(",", ":")).encode("utf-8"))

    @classmethod
    def from_bytes(cls, data: bytes) -> FeedTemplate:
        try:
            saved = json.loads(gzip.decompress(data))
            if saved.get("learner") != cls.name or saved.get("schema") != cls.schema_version:
                raise ModelError(f"saved state is {saved.get('learner')} schema "
                                 f"{saved.get('schema')}; this feedsift reads {cls.name} "
                                 f"schema {cls.schema_version}")  # fmt: skip
            return cls._from_state(saved["state"])
        except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError,
                InputError) as exc:  # fmt: skip
            raise ModelError(f"not a saved feed template: {exc}") from exc

    @classmethod
    def _from_state(cls, state: dict[str, Any]) -> FeedTemplate:
        template = cls(int(state["max_items"]))
        template.feed_url_ = str(state["feed_url"])
        template.comment_feed_ = False
        template.items_ = []
        template.items_learned_ = int(state["items"])
        template.link_share_ = float(state["link_share"])
        template.dated_urls_ = bool(state["dated_urls"])
        template.title_in_head_ = bool(state.get("title_in_head", False))  # older states: no
        template.counts_ = {name: (int(lo), int(hi)) for name, (lo, hi) in state["counts"].items()}
        template.clusters_ = {
            name: [PathCluster(parse_path(path), int(support)) for path, support in clusters]
            for name, clusters in state["clusters"].items()
        }
        return template


def _learn_items(
    feed: ParsedFeed, pages: Mapping[str, ParsedPage], max_items: int
) -> list[ItemPaths]:
    """Each item's paths in its page, found again without the site's constant paths."""
    learned: list[ItemValues] = []
    for entry in feed.entries[:max_items]:
        values = item_values(entry)
        if values is not None and values.url in pages:
            learned.append(values)
    items = [find_item_paths(values, pages[values.url]) for values in learned]
    avoid = _constant_paths(items, learned, pages)
    if not avoid:
        return items
    return [find_item_paths(values, pages[values.url], avoid) for values in learned]


def _constant_paths(
    items: list[ItemPaths], learned: list[ItemValues], pages: Mapping[str, ParsedPage]
) -> tuple[KeyPath, ...]:
    """Paths of the :data:`VALUE_PROPERTIES` that find the same values on every learned
    page while the feed's values for the property vary (menus and footers), or, for tags
    every item shares (a category's feed), more values than the items have tags (a menu
    of the categories)."""
    if len(learned) < MIN_CONSTANT_PAGES:
        return ()
    shown = [pages[values.url] for values in learned]
    constant: list[KeyPath] = []
    for name in VALUE_PROPERTIES:
        varies = len({_feed_value(name, values) for values in learned}) > 1
        for cluster in _cluster(item.get(name) for item in items):
            found = _same_everywhere(cluster.path, shown)
            if found and (varies or (name == "tags" and len(found) > len(learned[0].tags))):
                constant.append(cluster.path)  # one author everywhere: a byline may repeat
    return tuple(constant)


def _feed_value(name: str, values: ItemValues) -> object:
    if name == "date":
        return values.published.date() if values.published is not None else None
    if name == "author":
        return values.authors
    return values.tags if name == "tags" else values.title


def _same_everywhere(path: KeyPath, pages: list[ParsedPage]) -> tuple[tuple[str, ...], ...]:
    """The words of each node ``path`` finds when they are the same on every page (empty
    when they differ or it finds no words)."""
    seen = {tuple(value_tokens(" ".join(str(t) for t in node.itertext()))
                  for node in find(page.root, path)) for page in pages}  # fmt: skip
    found = seen.pop() if len(seen) == 1 else ()
    return found if any(found) else ()


def _dated(url: str) -> bool:
    """Whether the URL's path has a year segment (``/2021/05/...``, ``/2021-05-03-...``)."""
    return bool(DATED_PATH.search(urlsplit(url).path))


def _range(path: KeyPath, pages: list[ParsedPage]) -> tuple[int, int]:
    """The fewest and most nodes ``path`` finds on the feed's posts."""
    counts = [count_found(page, path) for page in pages] or [1]
    return min(counts), max(counts)


def _cluster(paths: Any) -> list[PathCluster]:
    """Merge the paths (``None``s skipped) into clusters, best supported first."""
    clusters: list[PathCluster] = []
    for path in paths:
        if path is None:
            continue
        for index, cluster in enumerate(clusters):
            merged = merge(cluster.path, path)
            if merged is not None and len(merged) >= min(len(cluster.path), len(path)) - (
                    MAX_MERGE_LOSS):  # fmt: skip
                clusters[index] = PathCluster(merged, cluster.support + 1)
                break
        else:
            clusters.append(PathCluster(path, 1))
        clusters.sort(key=lambda c: -c.support)
    return clusters
