"""feedsift: clean article streams from blogs and news sites.

>>> import feedsift
>>> article = feedsift.extract("<html><body><article><h1>Hi</h1><p>...</p></article></body></html>")
"""

from feedsift.api import bundled_extractor, extract
from feedsift.errors import (
    DatasetError,
    FeedsiftError,
    FetchError,
    InputError,
    ModelError,
    NotFittedError,
)
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.model import ModelBundle, load_bundle
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.blocks import BlockView, Subtree, TextBlock, text_blocks
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import (
    Article,
    BodyPart,
    Comment,
    FieldSource,
    PageKind,
    Provenance,
    SourceKind,
    Teaser,
)

__version__ = "0.1.0"

__all__ = [
    "Article",
    "BlockView",
    "BodyPart",
    "Comment",
    "DatasetError",
    "ExtractOptions",
    "FeedsiftError",
    "FetchError",
    "FieldSource",
    "InputError",
    "LearnedPageExtractor",
    "ModelBundle",
    "ModelError",
    "NotFittedError",
    "PageExtractor",
    "PageKind",
    "ParsedPage",
    "Provenance",
    "SourceKind",
    "Subtree",
    "Teaser",
    "TextBlock",
    "__version__",
    "bundled_extractor",
    "extract",
    "load_bundle",
    "parse_page",
    "text_blocks",
]
