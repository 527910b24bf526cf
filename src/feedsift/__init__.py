"""feedsift: clean article streams from blogs and news sites.

>>> import feedsift
>>> article = feedsift.extract("<html><body><article><h1>Hi</h1><p>...</p></article></body></html>")
"""

from feedsift.api import extract
from feedsift.errors import (
    DatasetError,
    FeedsiftError,
    FetchError,
    InputError,
    ModelError,
    NotFittedError,
)
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.parsing.blocks import BlockView, Subtree, TextBlock, text_blocks
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import (
    Article,
    BodyPart,
    Comment,
    FieldSource,
    PageKind,
    Provenance,
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
    "ModelError",
    "NotFittedError",
    "PageExtractor",
    "PageKind",
    "ParsedPage",
    "Provenance",
    "Subtree",
    "Teaser",
    "TextBlock",
    "__version__",
    "extract",
    "parse_page",
    "text_blocks",
]
