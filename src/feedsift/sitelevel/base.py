"""The contract every site-level learner follows (scikit-learn's, adapted to pages).

A site-level learner learns a site's boilerplate from the site's own pages: ``__init__``
stores parameters only; :meth:`SiteLearner.fit` (from scratch) and
:meth:`SiteLearner.partial_fit` (one more page of the stream) learn and return ``self``;
learned state lives in attributes ending in ``_``; :meth:`SiteLearner.boilerplate` marks the
text blocks of a page that are the site's template; :meth:`SiteLearner.extract` turns the
rest into an :class:`~feedsift.records.Article`, so a fitted learner is a
:class:`~feedsift.extractors.base.PageExtractor` like any other. Before fitting, both raise
:class:`~feedsift.errors.NotFittedError`. :meth:`SiteLearner.to_bytes` and
:meth:`SiteLearner.from_bytes` keep the state with the learner's name and schema version;
another version is refused with a :class:`~feedsift.errors.ModelError`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from datetime import datetime
from typing import Any, ClassVar, Self

import numpy as np
import numpy.typing as npt

from feedsift.errors import NotFittedError
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.body import assemble_body
from feedsift.metadata.read import read_metadata
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, FieldSource, PageKind, Provenance
from feedsift.saved_state import pack_state, unpack_state

__all__ = ["BlockMask", "SiteLearner", "article_from_mask"]

#: One boolean per text block of a page (``page.view.blocks``): True for boilerplate.
BlockMask = npt.NDArray[np.bool_]


class SiteLearner(ABC):
    """Base class of the site-level learners (URL Tree, DiffPost)."""

    #: short name, recorded in the articles' provenance and in saved state
    name: ClassVar[str]
    #: version of the saved state's layout; bump it when the layout changes
    schema_version: ClassVar[int]

    # -- learning -----------------------------------------------------------------------

    def fit(self, pages: Iterable[ParsedPage], seen_at: Iterable[datetime | None] = ()) -> Self:
        """Forget what was learned, then learn ``pages`` in order (``seen_at``: their times)."""
        self.reset()
        times = iter(seen_at)
        for page in pages:
            self.partial_fit(page, next(times, None))
        return self

    @abstractmethod
    def partial_fit(self, page: ParsedPage, seen_at: datetime | None = None) -> Self:
        """Learn one more page of the site's stream (seen at ``seen_at``, UTC)."""

    @abstractmethod
    def reset(self) -> None:
        """Forget everything learned (parameters stay)."""

    @property
    @abstractmethod
    def is_fitted(self) -> bool:
        """Whether the learner has seen enough to judge pages."""

    # -- judging ------------------------------------------------------------------------

    @abstractmethod
    def boilerplate(self, page: ParsedPage, seen_at: datetime | None = None) -> BlockMask:
        """The blocks of ``page`` (downloaded at ``seen_at``, when known) that are the site's
        boilerplate; NotFittedError before fit."""

    @property
    def method(self) -> str:
        """The method name articles record (the learner's name and its variant, if any)."""
        return self.name

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """The page's article: every block that is not boilerplate, with the page metadata."""
        return article_from_mask(page, self.boilerplate(page), self.method, options)

    def check_fitted(self) -> None:
        if not self.is_fitted:
            raise NotFittedError(
                f"{self.name} has not learned this site yet: call fit() or partial_fit() first"
            )

    # -- state --------------------------------------------------------------------------

    @abstractmethod
    def get_state(self) -> dict[str, Any]:
        """Parameters and learned state as JSON-safe data."""

    @classmethod
    @abstractmethod
    def from_state(cls, state: dict[str, Any]) -> Self:
        """A learner with the state :meth:`get_state` returned."""

    def to_bytes(self) -> bytes:
        """The state, compressed, with the learner's name and schema version."""
        return pack_state(self.name, self.schema_version, self.get_state())

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        """Read what :meth:`to_bytes` wrote; ModelError for another learner or version."""
        return cls.from_state(unpack_state(cls.name, cls.schema_version, data))


def article_from_mask(
    page: ParsedPage, boilerplate: BlockMask, method: str, options: ExtractOptions | None = None
) -> Article:
    """The article made of the blocks not marked boilerplate, with the page's metadata."""
    options = options or ExtractOptions()
    blocks = [b for b, masked in zip(page.view.blocks, boilerplate, strict=True) if not masked]
    meta = read_metadata(page, date_search=options.htmldate) if options.with_metadata else None
    title = meta.title if meta else None
    if title:
        blocks = [b for b in blocks if b.text.strip() != title.strip()]
    body = assemble_body(blocks)
    kept = 1.0 - float(np.mean(boilerplate)) if len(boilerplate) else 0.0
    article = Article(
        body=body,
        title=title,
        url=page.url,
        kind=PageKind.ARTICLE if body else PageKind.EMPTY,
        provenance=Provenance(method, "site", round(kept, 3)),
    )
    if meta is None:
        return article
    sources: tuple[FieldSource, ...] = meta.sources
    return Article(
        body=body, title=title, url=page.url, kind=article.kind, provenance=article.provenance,
        authors=meta.authors, published=meta.published, updated=meta.updated, tags=meta.tags,
        language=meta.language, canonical_url=meta.canonical_url, site_name=meta.site_name,
        image=meta.image, description=meta.description, sources=sources,
    )  # fmt: skip
