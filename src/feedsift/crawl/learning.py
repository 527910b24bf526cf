"""The crawl's side of the site-level learners: state in and out of the store, comparisons.

The learners live in the extraction workers (:mod:`feedsift.crawl.extraction`); this object
is what the crawler keeps about them:

* the first job of a site in a session carries the site's saved state from the store, so a
  restarted daemon (or another process on the same database) goes on from what was learned;
* after each round the state of every site that learned something is saved, in one
  transaction; documents stored after the saved state (a crawl killed mid-round) are
  replayed to the learners on restart (:meth:`SiteLearning.replay_ids`), so nothing learned
  is lost and nothing is learned twice;
* a site that cannot be judged yet (fewer than ``n_min`` stored pages for the URL Tree and
  no page of the same crawl for DiffPost) gets older items of its feed fetched again as
  comparison pages, learned and not stored (:meth:`SiteLearning.comparisons_wanted`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from feedsift.crawl.extraction import ArrivalExtraction
from feedsift.sitelevel.diffpost import MAX_AGE
from feedsift.sitelevel.models import SavedSite
from feedsift.storage import SavedSiteModel, Store

__all__ = ["REPLAY_LIMIT", "SiteLearning"]

#: Stored pages of a site replayed to its learners on restart, at most (the newest): the
#: URL Tree keeps the 100 most recent whatever their age, so more would mostly be evicted.
REPLAY_LIMIT = 200


class SiteLearning:
    """What the crawler tracks about the site-level learners of one session."""

    def __init__(
        self, store: Store, extraction: ArrivalExtraction, clock: Callable[[], datetime]
    ) -> None:
        self.store, self.extraction, self._clock = store, extraction, clock
        self._sent: set[str] = set()
        self._dirty: set[str] = set()

    @property
    def enabled(self) -> bool:
        return self.extraction.site_level is not None

    def state_for(self, site: str) -> SavedSite | None:
        """The site's saved state for its first job of the session, else ``None``."""
        self._dirty.add(site)
        if not self.enabled or site in self._sent:
            return None
        self._sent.add(site)
        saved = self.store.site_models.get(site)
        if saved is None:
            return None
        return SavedSite(saved.site, saved.state, saved.documents, saved.last_document)

    def replay_ids(self) -> list[int]:
        """Stored, extracted documents the saved states have not learned, in id order."""
        return self.store.site_models.to_replay(REPLAY_LIMIT) if self.enabled else []

    def comparisons_wanted(self, site: str) -> int:
        """How many comparison pages to fetch before the new pages of ``site`` (0: none)."""
        options = self.extraction.site_level
        if options is None or self.store.documents.count_of_site(site) >= options.n_min:
            return 0
        last = self.store.documents.last_fetched(site)
        if last is not None and self._clock() - last <= MAX_AGE:
            return 0
        return options.comparisons

    async def save(self) -> int:
        """Save the state of every site that learned since the last save; return how many."""
        if not self.enabled or not self._dirty:
            return 0
        sites, self._dirty = sorted(self._dirty), set()
        saved = await self.extraction.save_sites(sites)
        now = self._clock()
        with self.store.transaction():
            for state in saved:
                self.store.site_models.save(SavedSiteModel(
                    state.site, state.state, state.last_document, state.documents, now
                ))  # fmt: skip
        return len(saved)
