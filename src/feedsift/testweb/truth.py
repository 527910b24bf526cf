"""What the test web knows to be true: its sites, feeds, posts, planted duplicates and faults.

The same records are returned in process (:meth:`TestWeb.truth`) and as JSON by the control
server (``GET /_testweb/truth``); :meth:`Truth.from_json` reads the JSON back, so a test can
check a crawler that runs against a test web in another process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

__all__ = ["FeedFormat", "FeedKind", "Truth", "TruthFault", "TruthFeed", "TruthPost", "TruthSite"]

FeedKind = Literal["good", "faulty"]
FeedFormat = Literal["rss", "atom", "json"]
#: Version of the JSON layout below.
TRUTH_SCHEMA = 1


@dataclass(frozen=True, slots=True)
class TruthFeed:
    """One feed URL; a faulty feed names its fault."""

    url: str
    kind: FeedKind
    format: FeedFormat
    fault: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "kind": self.kind, "format": self.format, "fault": self.fault}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TruthFeed:
        return cls(data["url"], data["kind"], data["format"], data.get("fault"))


@dataclass(frozen=True, slots=True)
class TruthFault:
    """A URL that fails on purpose, and what a crawler should record for it (one line)."""

    name: str
    url: str
    expect: str
    target: Literal["feed", "page"]


@dataclass(frozen=True, slots=True)
class TruthPost:
    """One published post: where it lives, every URL that reaches it, and its true content.

    ``variants`` are the duplicates a crawler must merge (canonical URL first); ``feeds``
    the feed URLs listing it now; ``text`` the body paragraphs joined by blank lines.
    """

    post_id: str
    site: str
    url: str
    variants: tuple[str, ...]
    title: str
    text: str
    author: str | None
    published: datetime | None
    tags: tuple[str, ...]
    feeds: tuple[str, ...]
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "post_id": self.post_id,
            "site": self.site,
            "url": self.url,
            "variants": list(self.variants),
            "title": self.title,
            "text": self.text,
            "author": self.author,
            "published": self.published.isoformat() if self.published else None,
            "tags": list(self.tags),
            "feeds": list(self.feeds),
            "round": self.round,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TruthPost:
        published = data.get("published")
        return cls(
            data["post_id"],
            data["site"],
            data["url"],
            tuple(data["variants"]),
            data["title"],
            data["text"],
            data.get("author"),
            datetime.fromisoformat(published) if published else None,
            tuple(data["tags"]),
            tuple(data["feeds"]),
            int(data["round"]),
        )


@dataclass(frozen=True, slots=True)
class TruthSite:
    """One origin of the test web.

    ``template`` is "wordpress", "ghost", "news", "faults" or "ssg"; ``unserved`` lists feed
    item links the server has no page for (real feeds of ``ssg`` blogs only).
    """

    name: str
    title: str
    base_url: str
    template: str
    feeds: tuple[TruthFeed, ...]
    posts: tuple[TruthPost, ...]
    faults: tuple[TruthFault, ...] = ()
    unserved: tuple[str, ...] = ()

    def post(self, post_id: str) -> TruthPost:
        return next(p for p in self.posts if p.post_id == post_id)

    def fault(self, name: str) -> TruthFault:
        return next(f for f in self.faults if f.name == name)

    def feed_urls(self, kind: FeedKind | Literal["all"] = "all") -> list[str]:
        return [f.url for f in self.feeds if kind in ("all", f.kind)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "base_url": self.base_url,
            "template": self.template,
            "feeds": [f.to_dict() for f in self.feeds],
            "posts": [p.to_dict() for p in self.posts],
            "faults": {
                f.name: {"url": f.url, "expect": f.expect, "target": f.target} for f in self.faults
            },
            "unserved": list(self.unserved),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TruthSite:
        faults = tuple(
            TruthFault(name, f["url"], f["expect"], f["target"])
            for name, f in data.get("faults", {}).items()
        )
        return cls(
            data["name"],
            data["title"],
            data["base_url"],
            data["template"],
            tuple(TruthFeed.from_dict(f) for f in data["feeds"]),
            tuple(TruthPost.from_dict(p) for p in data["posts"]),
            faults,
            tuple(data.get("unserved", ())),
        )


@dataclass(frozen=True, slots=True)
class Truth:
    """The whole web in one round."""

    round: int
    control_url: str
    sites: tuple[TruthSite, ...]

    def site(self, name: str) -> TruthSite:
        found = next((s for s in self.sites if s.name == name), None)
        if found is None:
            raise KeyError(f"no site {name!r}; sites: {', '.join(s.name for s in self.sites)}")
        return found

    def posts(self) -> list[TruthPost]:
        return [post for site in self.sites for post in site.posts]

    def faults(self) -> list[TruthFault]:
        return [fault for site in self.sites for fault in site.faults]

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": TRUTH_SCHEMA,
            "round": self.round,
            "control_url": self.control_url,
            "sites": [s.to_dict() for s in self.sites],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Truth:
        sites = tuple(TruthSite.from_dict(s) for s in data["sites"])
        return cls(int(data["round"]), str(data["control_url"]), sites)

    @classmethod
    def from_json(cls, text: str | bytes) -> Truth:
        return cls.from_dict(cast(dict[str, Any], json.loads(text)))
