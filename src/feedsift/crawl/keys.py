"""The crawl's URL-key parameter learners: one per site, learned from its feeds' items.

Each polled feed's items are learned by the :class:`~feedsift.dedup.params.QueryParamLearner`
of their site (the host of their links, not of the feed), and its state is saved in the
store in the same transaction as the poll's items. Keys of a site's pages are then made with
what it learned (:meth:`SiteKeys.learned_for`). The stored state is the truth: another
process on the same database may have learned since, so it is read again (a row by its key)
before a key is made, and learning starts from it under a row lock (PostgreSQL), so two
processes polling feeds of one site add to one state and make the same keys.

A learned drop changes the key of a story already stored under its key of before (its
parameters all kept). :meth:`SiteKeys.earlier_document` finds that document again, so the
story is not stored twice: by the key without learned state (the same URL stored before the
site was learned, or found through a link), then by the stored documents a feed item with
the same title led to whose key, made with today's learned state, is the new key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from feedsift.dedup.params import ItemSample, QueryParamLearner
from feedsift.dedup.rules import QueryRule
from feedsift.dedup.site import site_of
from feedsift.dedup.urlkeys import url_key
from feedsift.errors import InputError, ModelError
from feedsift.storage import Store

__all__ = ["SiteKeys"]


class SiteKeys:
    """Per site, the learned query parameters of one crawl, read from and saved to the store."""

    def __init__(self, store: Store, rules: Sequence[QueryRule]) -> None:
        self.store, self.rules = store, rules
        #: per site, the learner and the stored state it was read from or saved as
        self._learners: dict[str, tuple[QueryParamLearner, bytes]] = {}

    def learn(self, samples: Iterable[ItemSample], now: datetime) -> None:
        """Learn one poll's items, per site, and save the states (in the caller's
        transaction, with the items)."""
        per_site: dict[str, list[ItemSample]] = {}
        for sample in samples:
            site = _site(sample.url)
            if site is not None:
                per_site.setdefault(site, []).append(sample)
        for site, items in per_site.items():
            learner = (self._learner(site, lock=True) or QueryParamLearner()).partial_fit(items)
            state = learner.to_bytes()
            self.store.url_params.save(site, state, now)
            self._learners[site] = (learner, state)

    def learned_for(self, url: str) -> QueryParamLearner | None:
        """The learner of ``url``'s site, ``None`` when nothing was learned there."""
        site = _site(url)
        return None if site is None else self._learner(site)

    def key_of(self, response_url: str, title: str | None) -> str:
        """The URL key of a page of the crawl, with what its site has learned."""
        return url_key(response_url, title, self.rules, self.learned_for(response_url))

    def stored_document(self, response_url: str, title: str | None) -> int | None:
        """The stored document this page is: by its key, else by its key of before."""
        found = self.store.documents.id_of(self.key_of(response_url, title))
        return found if found is not None else self.earlier_document(response_url, title)

    def earlier_document(self, response_url: str, title: str | None) -> int | None:
        """A stored document this page is, under the key it had before its site's learned
        drops; ``None`` when the site drops nothing here (the key alone decides then)."""
        learned = self.learned_for(response_url)
        if learned is None or title is None:
            return None
        key, plain = (url_key(response_url, title, self.rules, learned),
                      url_key(response_url, title, self.rules))  # fmt: skip
        if key == plain:
            return None
        earlier = self.store.documents.id_of(plain)
        if earlier is not None:
            return earlier
        for document_id, stored_url in self.store.documents.of_item_title(
            site_of(response_url), title
        ):
            if url_key(stored_url, title, self.rules, learned) == key:
                return document_id
        return None

    def _learner(self, site: str, *, lock: bool = False) -> QueryParamLearner | None:
        """The site's learner as stored now (``lock``: its row locked until the caller's
        transaction ends); read again only when the stored state changed."""
        saved = self.store.url_params.get(site, lock=lock)
        if saved is None:
            return None
        cached = self._learners.get(site)
        if cached is not None and cached[1] == saved:
            return cached[0]
        try:
            learner = QueryParamLearner.from_bytes(saved)
        except ModelError:  # another version's state: learn the site again
            return None
        self._learners[site] = (learner, saved)
        return learner


def _site(url: str | None) -> str | None:
    try:
        return site_of(url) if url else None
    except InputError:
        return None
