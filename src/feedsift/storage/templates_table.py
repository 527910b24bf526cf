"""The ``templates`` table: each feed's learned templates, one row per version.

A feed's first template is version 1; every later one (a re-learned or drifted template) is
the next version, and the older rows stay: a version holds from its ``valid_from`` time until
the next version's, so a page is read with the template of its time (:meth:`TemplateTable.at`).
The learner state is kept as the learner saved it (:meth:`FeedTemplate.to_bytes
<feedsift.templates.learner.FeedTemplate.to_bytes>`); the key-path and the item count sit
in their own columns so that listings need not read it. ``checks`` holds, when the crawl
checked the template per field against the page level on the feed's own items (issue 17),
the :class:`~feedsift.sitelevel.combiner.FieldCombiner`'s state: which method makes each
field on the site, and its scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection, RowLike

__all__ = ["FeedTemplateVersion", "NewTemplate", "StoredTemplate", "TemplateTable"]


@dataclass(frozen=True, slots=True)
class NewTemplate:
    """A feed's template to store as its next version."""

    feed_id: int
    site: str
    valid_from: datetime  #: from when this version holds (pages of that time on)
    learned_at: datetime
    items: int  #: feed items it was learned from
    key_path: str  #: the promoted key-path in path notation
    state: bytes  #: the learner's saved state
    checks: bytes | None = None  #: the per-field checks' state (None: not checked)


@dataclass(frozen=True, slots=True)
class StoredTemplate:
    """One stored version of a feed's template."""

    id: int
    feed_id: int
    site: str
    version: int  #: 1, 2, ... per feed
    valid_from: datetime
    learned_at: datetime
    items: int
    key_path: str
    state: bytes
    checks: bytes | None = None


@dataclass(frozen=True, slots=True)
class FeedTemplateVersion:
    """A feed's newest template version, for ``feedsift stats``."""

    feed_url: str
    version: int
    items: int  #: items it was learned from
    valid_from: datetime
    checks: bytes | None = None  #: its per-field checks (None: not checked)


class TemplateTable:
    """Reads and writes of the ``templates`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, new: NewTemplate) -> StoredTemplate:
        """Store ``new`` as the feed's next version (its highest so far plus one)."""
        row = self._db.execute(
            "INSERT INTO templates (feed_id, site, version, valid_from, learned_at, items,"
            " key_path, state, checks) VALUES (:feed, :site, (SELECT COALESCE(MAX(version), 0)"
            " + 1 FROM templates WHERE feed_id = :feed), :valid_from, :learned_at, :items,"
            " :key_path, :state, :checks) RETURNING *",
            {"feed": new.feed_id, "site": new.site, "valid_from": moment_to_db(new.valid_from),
             "learned_at": moment_to_db(new.learned_at), "items": new.items,
             "key_path": new.key_path, "state": new.state, "checks": new.checks},
        ).fetchone()  # fmt: skip
        return _record(row)

    def set_checks(self, template_id: int, checks: bytes) -> None:
        """Replace a version's per-field checks (re-checked on a later poll's items)."""
        self._db.execute("UPDATE templates SET checks = ? WHERE id = ?", (checks, template_id))

    def current(self, feed_id: int) -> StoredTemplate | None:
        """The feed's newest version, or None when it has no template."""
        row = self._db.execute(
            "SELECT * FROM templates WHERE feed_id = ? ORDER BY version DESC LIMIT 1", (feed_id,)
        ).fetchone()
        return None if row is None else _record(row)

    def at(self, feed_id: int, moment: datetime) -> StoredTemplate | None:
        """The version that held at ``moment``: the latest ``valid_from`` not after it (the
        highest version among equals); None when the feed had no template yet then."""
        row = self._db.execute(
            "SELECT * FROM templates WHERE feed_id = ? AND valid_from <= ?"
            " ORDER BY valid_from DESC, version DESC LIMIT 1",
            (feed_id, moment_to_db(moment)),
        ).fetchone()
        return None if row is None else _record(row)

    def of_site(self, site: str) -> list[StoredTemplate]:
        """Every version of every feed of ``site``, by feed then version."""
        rows = self._db.execute(
            "SELECT * FROM templates WHERE site = ? ORDER BY feed_id, version", (site,)
        ).fetchall()
        return [_record(row) for row in rows]

    def feed_versions(self) -> list[FeedTemplateVersion]:
        """Each feed's newest template version (a version above 1: the site changed its
        template and it was relearned)."""
        rows = self._db.execute(
            "SELECT f.url, t.version, t.items, t.valid_from, t.checks FROM templates t"
            " JOIN feeds f ON f.id = t.feed_id WHERE t.version ="
            " (SELECT MAX(version) FROM templates WHERE feed_id = t.feed_id) ORDER BY f.url"
        )
        return [FeedTemplateVersion(str(url), int(version), int(items), _moment(valid_from),
                                    None if checks is None else bytes(checks))
                for url, version, items, valid_from, checks in rows]  # fmt: skip

    def sites(self) -> list[tuple[str, int]]:
        """Every site with templates and how many (all versions of all its feeds)."""
        rows = self._db.execute("SELECT site, COUNT(*) FROM templates GROUP BY site ORDER BY site")
        return [(str(site), int(count)) for site, count in rows]


def _record(row: RowLike) -> StoredTemplate:
    return StoredTemplate(
        id=int(row["id"]),
        feed_id=int(row["feed_id"]),
        site=str(row["site"]),
        version=int(row["version"]),
        valid_from=_moment(row["valid_from"]),
        learned_at=_moment(row["learned_at"]),
        items=int(row["items"]),
        key_path=str(row["key_path"]),
        state=bytes(row["state"]),
        checks=None if row["checks"] is None else bytes(row["checks"]),
    )


def _moment(text: str) -> datetime:
    moment = moment_from_db(text)
    assert moment is not None  # NOT NULL column
    return moment
