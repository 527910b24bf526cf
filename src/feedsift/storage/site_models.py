"""The ``site_models`` table: what the site-level learners know of each site.

A row holds a site's learner state (:meth:`feedsift.sitelevel.SiteModels.save_site`) and
the highest document id that state has learned. The state is saved at the end of each crawl
round, so a killed crawl loses at most the learning of one round, and
:meth:`SiteModelTable.to_replay` names the stored documents to learn again on restart: those
of each site after its saved state, the most recent ``limit`` of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection

__all__ = ["SavedSiteModel", "SiteModelTable"]


@dataclass(frozen=True, slots=True)
class SavedSiteModel:
    """One site's saved learner state."""

    site: str
    state: bytes
    last_document: int  #: highest document id the state has learned
    documents: int  #: documents learned in all
    saved_at: datetime


class SiteModelTable:
    """Reads and writes of the ``site_models`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def save(self, model: SavedSiteModel) -> None:
        """Store ``model``, replacing the site's previous state."""
        self._db.execute(
            "INSERT INTO site_models (site, state, last_document, documents, saved_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (site) DO UPDATE SET state = excluded.state,"
            " last_document = excluded.last_document, documents = excluded.documents,"
            " saved_at = excluded.saved_at",
            (model.site, model.state, model.last_document, model.documents,
             moment_to_db(model.saved_at)),
        )  # fmt: skip

    def get(self, site: str) -> SavedSiteModel | None:
        row = self._db.execute("SELECT * FROM site_models WHERE site = ?", (site,)).fetchone()
        if row is None:
            return None
        saved_at = moment_from_db(row["saved_at"])
        assert saved_at is not None  # NOT NULL column
        return SavedSiteModel(row["site"], bytes(row["state"]), int(row["last_document"]),
                              int(row["documents"]), saved_at)  # fmt: skip

    def sites(self) -> list[tuple[str, int]]:
        """Every site with saved state and how many documents it has learned."""
        rows = self._db.execute("SELECT site, documents FROM site_models ORDER BY site")
        return [(str(site), int(count)) for site, count in rows]

    def to_replay(self, limit: int) -> list[int]:
        """Extracted documents each site's saved state has not learned (newest ``limit``
        per site), in id order."""
        rows = self._db.execute(
            "SELECT id FROM (SELECT d.id AS id, ROW_NUMBER() OVER"
            " (PARTITION BY d.site ORDER BY d.id DESC) AS rank"
            " FROM documents d JOIN articles a ON a.document_id = d.id"
            " LEFT JOIN site_models m ON m.site = d.site"
            " WHERE d.id > COALESCE(m.last_document, 0)) AS r WHERE rank <= ? ORDER BY id",
            (limit,),
        )
        return [int(row[0]) for row in rows]
