"""The posts of a generated site and the rounds in which they are published.

:func:`plan_posts` writes every post of every round up front from the seed, so a post's
text, date and URL never depend on when or how often the web is asked; publishing a round
only moves the :class:`Schedule`'s counter.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from feedsift.testweb.content import ProseWriter, slugify

__all__ = [
    "BASE_DATE",
    "Blueprint",
    "Post",
    "Schedule",
    "plan_posts",
    "published",
]

#: Date of the first post; fixed so that the truth does not depend on the clock.
BASE_DATE = datetime(2026, 9, 1, 7, 30, tzinfo=UTC)
#: Posts published in round 1 (inclusive bounds): a site already has a history.
ROUND_ONE_POSTS = (7, 9)
#: Posts added by each later round (inclusive bounds).
LATER_ROUND_POSTS = (1, 3)
#: Paragraphs per post (inclusive bounds).
PARAGRAPHS = (3, 8)
#: Hours between two consecutive posts (inclusive bounds).
HOURS_BETWEEN_POSTS = (9, 40)
#: Post (0-based) that is always filed in two sections, so every site plants that duplicate.
CROSS_FILED_POST = 2


@dataclass(frozen=True, slots=True)
class Blueprint:
    """What kind of posts a site publishes."""

    name: str  #: site key, also the prefix of its post ids
    register: str  #: "essay", "field" or "news" (see :mod:`feedsift.testweb.vocabulary`)
    sections: tuple[str, ...]  #: categories / sections; a post's topic picks one, else the last
    authors: int  #: size of the site's staff
    second_section_share: float  #: share of posts filed in a second section


@dataclass(frozen=True, slots=True)
class Post:
    """One post of a generated site."""

    post_id: str
    number: int  #: 1-based position in publication order
    slug: str
    title: str
    paragraphs: tuple[str, ...]
    subheading: tuple[int, str] | None  #: (paragraph it precedes, text)
    author: str
    published: datetime
    tags: tuple[str, ...]  #: free tags (sites that show sections as tags override this)
    sections: tuple[str, ...]  #: the first is the primary section
    round: int

    @property
    def blocks(self) -> tuple[tuple[str, str], ...]:
        """The body as ``(tag, text)`` pairs: ``h2`` for the subheading, ``p`` otherwise."""
        blocks = [("p", text) for text in self.paragraphs]
        if self.subheading is not None:
            blocks.insert(self.subheading[0], ("h2", self.subheading[1]))
        return tuple(blocks)

    @property
    def text(self) -> str:
        """The body text as the truth records it: blocks joined by blank lines."""
        return "\n\n".join(text for _, text in self.blocks)

    def excerpt(self, words: int = 40) -> str:
        """The first ``words`` words of the body, with an ellipsis when cut."""
        tokens = self.paragraphs[0].split()
        return " ".join(tokens[:words]) + ("…" if len(tokens) > words else "")


class Schedule:
    """The current round, shared by every site of a web; thread-safe."""

    def __init__(self, rounds: int) -> None:
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {rounds}")
        self.rounds = rounds
        self._round = 1
        self._lock = threading.Lock()

    @property
    def round(self) -> int:
        with self._lock:
            return self._round

    def advance(self) -> int:
        """Publish the next round; past the last round nothing changes. Returns the round."""
        with self._lock:
            self._round = min(self._round + 1, self.rounds)
            return self._round


def published(posts: tuple[Post, ...], round_: int) -> tuple[Post, ...]:
    """The posts visible in ``round_``, newest first."""
    return tuple(sorted((p for p in posts if p.round <= round_), key=lambda p: -p.number))


def plan_posts(blueprint: Blueprint, seed: int, rounds: int) -> tuple[Post, ...]:
    """Every post of every round of one site, oldest first."""
    rng = random.Random(f"{seed}/{blueprint.name}")
    writer = ProseWriter(rng, blueprint.register)
    staff = sorted({writer.person_name() for _ in range(blueprint.authors * 3)})
    authors = staff[: blueprint.authors]
    posts: list[Post] = []
    used: set[str] = set()
    when = BASE_DATE
    for round_ in range(1, rounds + 1):
        bounds = ROUND_ONE_POSTS if round_ == 1 else LATER_ROUND_POSTS
        for _ in range(rng.randint(*bounds)):
            posts.append(_post(writer, blueprint, len(posts), (round_, when), (authors, used)))
            when = posts[-1].published
    return tuple(posts)


def _post(
    writer: ProseWriter,
    blueprint: Blueprint,
    index: int,
    moment: tuple[int, datetime],
    pools: tuple[list[str], set[str]],
) -> Post:
    rng = writer.rng
    (round_, previous), (authors, used) = moment, pools
    prose = writer.prose(rng.randint(*PARAGRAPHS), used)
    slug = slugify(prose.title)
    slug = f"{slug}-{index + 1}" if slug in used else slug
    used.add(slug)
    primary = prose.topic if prose.topic in blueprint.sections else blueprint.sections[-1]
    sections = [primary]
    others = [s for s in blueprint.sections if s != primary]
    if others and (index == CROSS_FILED_POST or rng.random() < blueprint.second_section_share):
        sections.append(rng.choice(others))
    hours = rng.randint(*HOURS_BETWEEN_POSTS)
    return Post(
        post_id=f"{blueprint.name}-{index + 1}",
        number=index + 1,
        slug=slug,
        title=prose.title,
        paragraphs=prose.paragraphs,
        subheading=prose.subheading,
        author=rng.choice(authors),
        published=previous + timedelta(hours=hours, minutes=rng.randint(0, 59)),
        tags=(prose.focus, prose.second),
        sections=tuple(sections),
        round=round_,
    )
