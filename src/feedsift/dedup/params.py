"""Query parameters learned per site: which ones name a page, and which ones never do.

A URL key keeps every query parameter that is not a known tracking parameter
(:mod:`feedsift.dedup.urlkeys`), so a site that writes a session id, a sort order or a
page-view counter into its feed's links (``story?id=12&sid=8f3a``) gives the same story a new
key each time the feed lists it with a new value. :class:`QueryParamLearner` learns, from the
site's own feed items, which parameters can be dropped from its keys, and keeps every other
one. It sees items as (URL, title) pairs (:class:`ItemSample`), one call of
:meth:`QueryParamLearner.partial_fit` per poll of a feed, and compares two items only when
their URLs have the same scheme, host, port and path and differ in the value (or presence)
of exactly one parameter, tracking parameters and ``_cid_`` aside. Per parameter name:

* **identifying** when it alone tells apart two items whose titles differ, or two entries of
  the same poll (a feed lists each story once, so two entries are two items even when their
  titles are the same: a web comic whose every post is "Daily comic");
* **not identifying** when it alone differs between items of *different* polls with the
  *same* title: the same story listed again with a new session id;
* **unknown** otherwise: never compared, or always changing together with another one.

A parameter is dropped from the site's keys only when it was found not identifying on at
least :data:`MIN_STORIES` different titles and never identifying. Identifying is a veto for
good: one story retitled between two polls that also changed a session id makes that id
identifying, and the site keeps it (a false split, which content fingerprints still catch,
never a false merge). Unknown parameters are always kept.

The learned drop is applied after the rules' fast path, only when no rule applies and the
item has a title; once a site drops any parameter, the title's hash ``_cid_`` stays in its
keys (:func:`feedsift.dedup.urlkeys.url_key` with ``learned``), in place of the dropped
parameters (a story keeps one key whether its link has them or not). So a learned
drop can only join items with the same title and the same URL but for not-identifying
parameters: two items with different titles never share a key through it, whatever was
learned. The remaining risk is two different posts with the same title whose URLs differ
only in a parameter that other stories of the site were seen to repeat with new values, and
that never named one of the site's posts; :data:`MIN_STORIES` is there for that.

The learner follows the site-level learners' contract: ``__init__`` stores parameters,
:meth:`~QueryParamLearner.fit` and :meth:`~QueryParamLearner.partial_fit` return ``self``,
learned state ends in ``_``, judging before fitting raises
:class:`~feedsift.errors.NotFittedError`, and the state is saved in the learners' envelope
with a schema version (:mod:`feedsift.saved_state`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, Self

from feedsift.dedup.urlkeys import identity_params, param_name, title_hash
from feedsift.errors import InputError, ModelError, NotFittedError
from feedsift.saved_state import pack_state, unpack_state
from feedsift.text.tokens import normalize_space

__all__ = [
    "MAX_REMEMBERED",
    "MIN_STORIES",
    "ItemSample",
    "ParamStatus",
    "QueryParamLearner",
]

#: Different titles a parameter must be seen to change on (each story listed again with a
#: new value) before it is dropped: one title could be two posts that share it, three are
#: the site's habit.
MIN_STORIES = 3
#: Items remembered per site to compare later polls with, the oldest forgotten first: 20
#: polls of a 20-item feed, and a saved state of a few kilobytes.
MAX_REMEMBERED = 400

#: What is known of one parameter name.
ParamStatus = Literal["identifying", "not identifying", "unknown"]


@dataclass(frozen=True, slots=True)
class ItemSample:
    """One feed item as the learner sees it: its link and its title as the feed gives them."""

    url: str
    title: str | None


@dataclass(frozen=True, slots=True)
class _Seen:
    """A remembered item: URL without query, identifying query pieces, title hash."""

    base: str
    params: tuple[str, ...]
    title: str


#: Items that differ only in one parameter: (name, base, the other pieces).
_GroupKey = tuple[str, str, tuple[str, ...]]
#: Per value of that parameter (its pieces, () when absent): the titles seen with it.
_Group = dict[tuple[str, ...], set[str]]


class QueryParamLearner:
    """Per site: which query parameters name a page, learned from the site's feed items."""

    name = "query-params"
    schema_version = 1

    def __init__(
        self, min_stories: int = MIN_STORIES, max_remembered: int = MAX_REMEMBERED
    ) -> None:
        if min_stories < 1 or max_remembered < 2:
            raise InputError("min_stories must be at least 1 and max_remembered at least 2")
        self.min_stories = min_stories
        self.max_remembered = max_remembered

    # -- learning -----------------------------------------------------------------------

    def fit(self, items: Iterable[ItemSample]) -> Self:
        """Forget what was learned, then learn ``items`` as one poll of the site's feed."""
        self.reset()
        return self.partial_fit(items)

    def partial_fit(self, items: Iterable[ItemSample]) -> Self:
        """Learn one more poll: ``items`` are the entries of one feed of the site."""
        if not self.is_fitted:
            self.reset()
        batch = list(dict.fromkeys(s for s in map(_seen, items) if s is not None))
        for group_key, group in _groups(batch).items():
            if len(group) > 1:  # two entries of one poll told apart by this parameter
                self.identifying_.add(group_key[0])
        for seen in batch:
            self.remembered_.pop(seen, None)
            self.remembered_[seen] = None  # the most recent last
        for group_key, group in _groups(list(self.remembered_)).items():
            self._judge(group_key[0], group)
        for old in list(self.remembered_)[: max(0, len(self.remembered_) - self.max_remembered)]:
            del self.remembered_[old]
        self.polls_ += 1
        self.items_seen_ += len(batch)
        return self

    def reset(self) -> None:
        """Forget everything learned (parameters stay)."""
        self.remembered_: dict[_Seen, None] = {}
        self.identifying_: set[str] = set()
        self.varying_: dict[str, set[str]] = {}
        self.polls_ = 0
        self.items_seen_ = 0

    def _judge(self, name: str, group: _Group) -> None:
        """Evidence of items that differ in ``name`` only (remembered and new)."""
        if len(group) < 2:
            return
        if len(set[str]().union(*group.values())) > 1:
            # two values and two titles: some pair differs in both, so ``name`` told two
            # different stories apart
            self.identifying_.add(name)
            return
        stories = self.varying_.setdefault(name, set())
        titles = Counter(title for titles in group.values() for title in titles)
        for title, values in titles.items():
            if values > 1 and len(stories) < self.min_stories:
                stories.add(title)

    # -- judging ------------------------------------------------------------------------

    @property
    def is_fitted(self) -> bool:
        return hasattr(self, "remembered_")

    def check_fitted(self) -> None:
        if not self.is_fitted:
            raise NotFittedError(
                f"{self.name} has not learned this site yet: call fit() or partial_fit() first"
            )

    def status(self, name: str) -> ParamStatus:
        """What is known of the (decoded) parameter ``name``."""
        self.check_fitted()
        if name in self.identifying_:
            return "identifying"
        if len(self.varying_.get(name, ())) >= self.min_stories:
            return "not identifying"
        return "unknown"

    def drops(self, name: str) -> bool:
        """Whether keys of this site may drop parameter ``name`` (see the module)."""
        return self.status(name) == "not identifying"

    def dropped_names(self) -> list[str]:
        """The parameter names this site's keys drop, sorted."""
        self.check_fitted()
        return sorted(name for name in self.varying_ if self.drops(name))

    # -- state --------------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """Parameters and learned state as JSON-safe data."""
        self.check_fitted()
        return {
            "min_stories": self.min_stories,
            "max_remembered": self.max_remembered,
            "remembered": [[s.base, list(s.params), s.title] for s in self.remembered_],
            "identifying": sorted(self.identifying_),
            "varying": {name: sorted(titles) for name, titles in sorted(self.varying_.items())},
            "polls": self.polls_,
            "items": self.items_seen_,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Self:
        """A learner with the state :meth:`get_state` returned; ModelError when malformed."""
        try:
            learner = cls(int(state["min_stories"]), int(state["max_remembered"]))
            learner.reset()
            for base, params, title in state["remembered"]:
                learner.remembered_[_Seen(str(base), tuple(map(str, params)), str(title))] = None
            learner.identifying_ = set(map(str, state["identifying"]))
            learner.varying_ = {str(n): set(map(str, t)) for n, t in state["varying"].items()}
            learner.polls_, learner.items_seen_ = int(state["polls"]), int(state["items"])
        except (KeyError, TypeError, ValueError, AttributeError, InputError) as exc:
            raise ModelError(f"not a saved {cls.name} state: {exc!r}") from exc
        return learner

    def to_bytes(self) -> bytes:
        """The state, compressed, with the learner's name and schema version."""
        return pack_state(self.name, self.schema_version, self.get_state())

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        """Read what :meth:`to_bytes` wrote; ModelError for another learner or version."""
        return cls.from_state(unpack_state(cls.name, cls.schema_version, data))


def _seen(item: ItemSample) -> _Seen | None:
    """The item as remembered; ``None`` without a title or a URL that has a key."""
    if item.title is None or not normalize_space(item.title):
        return None
    try:
        base, params = identity_params(item.url)
    except InputError:
        return None
    return _Seen(base, params, title_hash(item.title))


def _groups(items: list[_Seen]) -> dict[_GroupKey, _Group]:
    """Items grouped by (parameter name, base, the other pieces), then by the value."""
    names: dict[str, set[str]] = {}
    for item in items:
        names.setdefault(item.base, set()).update(map(param_name, item.params))
    groups: dict[_GroupKey, _Group] = {}
    for item in items:
        for name in names[item.base]:
            value = tuple(p for p in item.params if param_name(p) == name)
            others = tuple(p for p in item.params if param_name(p) != name)
            groups.setdefault((name, item.base, others), {}).setdefault(value, set()).add(
                item.title
            )
    return groups
