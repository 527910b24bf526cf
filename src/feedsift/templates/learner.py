"""The feed-learned template of one feed: paths per property, merged over its items.

:class:`FeedTemplate` follows the site-level learners' contract: ``__init__`` stores
parameters, :meth:`FeedTemplate.fit` learns from a feed sample (records, not the feed
parser's types: :class:`~feedsift.records.FeedSample`) and the pages its items link to and
returns ``self``, :meth:`FeedTemplate.partial_fit` learns one more poll, learned state ends
in ``_``, :meth:`FeedTemplate.extract` and :meth:`FeedTemplate.is_post` raise
:class:`~feedsift.errors.NotFittedError` before fitting, and the state is saved in the
learners' envelope with a schema version (:mod:`feedsift.saved_state`).

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

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self
from urllib.parse import urlsplit

from feedsift.errors import InputError, ModelError, NotFittedError
from feedsift.extractors.base import ExtractOptions
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, FeedSample
from feedsift.saved_state import pack_state, unpack_state
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
from feedsift.templates.textindex import PageText, value_tokens

__all__ = [
    "CONFIRMING",
    "CONFIRM_SHARE",
    "MAX_ITEMS",
    "MAX_MERGE_LOSS",
    "PROPERTIES",
    "FeedTemplate",
    "PathCluster",
    "fit_template",
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

    # learned state (set by fit and partial_fit; absent before)
    feed_url_: str
    comment_feed_: bool
    items_: list[ItemPaths]  #: the items learned by this process (not saved)
    clusters_: dict[str, list[PathCluster]]
    counts_: dict[str, tuple[int, int]]
    items_learned_: int
    link_share_: float
    dated_urls_: bool
    title_in_head_: bool

    def __init__(self, max_items: int = MAX_ITEMS) -> None:
        self.max_items = max_items

    # -- learning -----------------------------------------------------------------------

    def fit(self, feed: FeedSample, pages: Mapping[str, ParsedPage]) -> Self:
        """Forget what was learned, then learn from ``feed``'s newest items and their
        ``pages`` (keyed by item link)."""
        self.reset()
        return self.partial_fit(feed, pages)

    def partial_fit(self, feed: FeedSample, pages: Mapping[str, ParsedPage]) -> Self:
        """Learn from one more poll of the feed: its items' paths join the clusters learned
        so far, and the post checks widen to the new pages (the first call is :meth:`fit`).

        The dated-address and ``<title>`` rules stay off once an earlier poll turned them
        off (or had too few items to turn them on): only the new poll's items are at hand.
        """
        first = getattr(self, "clusters_", None) is None
        comment = is_comment_feed(feed)
        items = [] if comment else _learn_items(feed, pages, self.max_items)
        learned = [pages[item.url] for item in items]
        if first:
            self._start(feed, comment)
        self.items_ = [*self.items_, *items]
        self.clusters_ = {name: _cluster((item.get(name) for item in items),
                                         self.clusters_.get(name, []))
                          for name in PROPERTIES}  # fmt: skip
        self.items_learned_ += len(items)
        if learned:  # no new page: nothing to widen the counts with
            self.counts_ = _widen(self.counts_, {name: _range(path, learned) for name in (
                "key", *CONFIRMING) if (path := self._confirming(name)) is not None})  # fmt: skip
        self.dated_urls_ = (first or self.dated_urls_) and self.items_learned_ >= (
            MIN_DATED_ITEMS) and all(_dated(item.url) for item in items)  # fmt: skip
        self.title_in_head_ = (first or self.title_in_head_) and self.items_learned_ >= (
            MIN_HEAD_TITLE_ITEMS) and all(item.title_in_head for item in items)  # fmt: skip
        key = self.key_path
        shares = [link_share(p, key) for p in learned] if key is not None else []
        self.link_share_ = max([self.link_share_, *shares])
        return self

    def _start(self, feed: FeedSample, comment: bool) -> None:
        """The learned state of a template that has seen nothing yet."""
        self.feed_url_ = feed.url
        self.comment_feed_ = comment
        self.items_, self.clusters_, self.counts_ = [], {}, {}
        self.items_learned_, self.link_share_ = 0, 0.0
        self.dated_urls_ = self.title_in_head_ = False

    def reset(self) -> None:
        """Forget everything learned (parameters stay)."""
        for name in [n for n in vars(self) if n.endswith("_")]:
            delattr(self, name)

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
        """The state in the learners' envelope (:mod:`feedsift.saved_state`)."""
        return pack_state(self.name, self.schema_version, self.get_state())

    @classmethod
    def from_bytes(cls, data: bytes) -> FeedTemplate:
        """Read what :meth:`to_bytes` wrote; ModelError for another learner, version or a
        malformed state."""
        state = unpack_state(cls.name, cls.schema_version, data)
        try:
            return cls._from_state(state)
        except (ValueError, KeyError, TypeError, AttributeError, InputError) as exc:
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


def fit_template(feed: FeedSample, pages: Mapping[str, ParsedPage]) -> FeedTemplate:
    """A template with default parameters fitted on ``feed`` and ``pages`` (what
    :func:`~feedsift.sitelevel.combiner.cross_fit` takes to fit one fold)."""
    return FeedTemplate().fit(feed, pages)


def _learn_items(
    feed: FeedSample, pages: Mapping[str, ParsedPage], max_items: int
) -> list[ItemPaths]:
    """Each item's paths in its page, found again without the site's constant paths."""
    learned: list[ItemValues] = []
    for entry in feed.items[:max_items]:
        values = item_values(entry)
        if values is not None and values.url in pages:
            learned.append(values)
    texts = [PageText(pages[values.url].body) for values in learned]  # built once a page
    items = [find_item_paths(values, pages[values.url], text=text)
             for values, text in zip(learned, texts, strict=True)]  # fmt: skip
    avoid = _constant_paths(items, learned, pages)
    if not avoid:
        return items
    return [find_item_paths(values, pages[values.url], avoid, text=text)
            for values, text in zip(learned, texts, strict=True)]  # fmt: skip


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


def _widen(
    old: dict[str, tuple[int, int]], new: dict[str, tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """The count ranges of both (a range only one of them has is kept as it is)."""
    merged = dict(old)
    for name, (least, most) in new.items():
        was = merged.get(name, (least, most))
        merged[name] = (min(was[0], least), max(was[1], most))
    return merged


def _range(path: KeyPath, pages: list[ParsedPage]) -> tuple[int, int]:
    """The fewest and most nodes ``path`` finds on the feed's posts."""
    counts = [count_found(page, path) for page in pages] or [1]
    return min(counts), max(counts)


def _cluster(paths: Any, start: list[PathCluster] | None = None) -> list[PathCluster]:
    """Merge the paths (``None``s skipped) into clusters (``start``'s first), best
    supported first."""
    clusters: list[PathCluster] = list(start or [])
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
