"""What the three generated sites share: their posts, schedule, feeds and truth.

A :class:`GeneratedSite` knows its posts (all rounds, written up front), shows those of the
current round, lists the newest :data:`FEED_ITEMS` in each of its feeds, and describes
itself as a :class:`~feedsift.testweb.truth.TruthSite`. The templates
(:mod:`~feedsift.testweb.marginalia`, :mod:`~feedsift.testweb.fieldnotes`,
:mod:`~feedsift.testweb.gazette`) add their URL scheme, their HTML and their feed shapes.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from feedsift.testweb.posts import Blueprint, Post, Schedule, plan_posts, published
from feedsift.testweb.responses import Request, Response, Router
from feedsift.testweb.truth import FeedFormat, TruthFeed, TruthPost, TruthSite

__all__ = ["FEED_ITEMS", "FeedSpec", "GeneratedSite", "SiteContext"]

#: Items per feed, newest first (WordPress's default "show the most recent 10 items").
FEED_ITEMS = 10


@dataclass(frozen=True, slots=True)
class FeedSpec:
    """One feed of a site: its path, its format and the section it lists (None: all)."""

    path: str
    format: FeedFormat
    section: str | None = None


@dataclass(frozen=True, slots=True)
class SiteContext:
    """What a site needs from the web around it."""

    base_url: str
    seed: int
    schedule: Schedule


class GeneratedSite(ABC):
    """A site whose posts are written from the seed and published round by round."""

    name: ClassVar[str]
    title: ClassVar[str]
    template: ClassVar[str]
    blueprint: ClassVar[Blueprint]
    feed_specs: ClassVar[tuple[FeedSpec, ...]]

    def __init__(self, context: SiteContext) -> None:
        self.base_url = context.base_url
        self.seed = context.seed
        self.schedule = context.schedule
        self.posts = plan_posts(self.blueprint, context.seed, context.schedule.rounds)
        self._hits = 0
        self._hits_lock = threading.Lock()
        self.router = self.routes()

    def respond(self, request: Request) -> Response:
        return self.router.dispatch(request)

    def hit(self) -> int:
        """A counter bumped on every call: what rotating ads rotate on."""
        with self._hits_lock:
            self._hits += 1
            return self._hits

    def url(self, path: str) -> str:
        return self.base_url + path

    def live(self) -> tuple[Post, ...]:
        """The posts published so far, newest first."""
        return published(self.posts, self.schedule.round)

    def find(self, slug: str) -> Post | None:
        return next((p for p in self.live() if p.slug == slug), None)

    def feed_posts(self, spec: FeedSpec) -> tuple[Post, ...]:
        """What one feed lists now: the newest posts of its section."""
        chosen = [p for p in self.live() if spec.section is None or spec.section in p.sections]
        return tuple(chosen[:FEED_ITEMS])

    def truth(self) -> TruthSite:
        listing = {
            spec.path: {p.post_id for p in self.feed_posts(spec)} for spec in self.feed_specs
        }
        posts = tuple(
            TruthPost(
                post_id=post.post_id,
                site=self.name,
                url=self.canonical(post),
                variants=self.variants(post),
                title=post.title,
                text=post.text,
                author=post.author,
                published=post.published,
                tags=self.tags(post),
                feeds=tuple(self.url(path) for path, ids in listing.items() if post.post_id in ids),
                round=post.round,
            )
            for post in sorted(self.live(), key=lambda p: p.number)
        )
        feeds = tuple(TruthFeed(self.url(s.path), "good", s.format) for s in self.feed_specs)
        return TruthSite(self.name, self.title, self.base_url, self.template, feeds, posts)

    def tags(self, post: Post) -> tuple[str, ...]:
        """The tags the site shows for ``post`` (its free tags unless a template says else)."""
        return post.tags

    @abstractmethod
    def routes(self) -> Router:
        """The site's URL scheme."""

    @abstractmethod
    def canonical(self, post: Post) -> str:
        """The post's canonical (absolute) URL."""

    @abstractmethod
    def variants(self, post: Post) -> tuple[str, ...]:
        """Every URL the site uses for the post anywhere, canonical first."""
