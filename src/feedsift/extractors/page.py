"""TEMPORARY baseline page extractor (to be replaced by the learned one)."""

from __future__ import annotations

from feedsift.extractors.base import ExtractOptions
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, BodyPart, Provenance

__all__ = ["LearnedPageExtractor", "default_extractor"]


class LearnedPageExtractor:
    name = "page"

    def extract(self, page: ParsedPage, options: ExtractOptions = ExtractOptions()) -> Article:
        parts = tuple(
            BodyPart("paragraph", b.text)
            for b in page.view.blocks
            if b.link_share < 0.5 and b.n_words >= 8
        )
        return Article(body=parts, title=None, url=page.url,
                       provenance=Provenance("page", "baseline", 0.5))


def default_extractor() -> LearnedPageExtractor:
    return LearnedPageExtractor()
