"""Outputs: articles as JSON-safe data and as txt, json, jsonl, markdown, html, xml or csv
documents, each with its :class:`Origin` (the input, and a WARC record's id and date)."""

from feedsift.outputs.formats import (
    DOCUMENT_FORMATS,
    FILE_SUFFIXES,
    OUTPUT_FORMATS,
    DocumentStream,
    OutputFormat,
    render,
)
from feedsift.outputs.origin import Origin
from feedsift.outputs.serialize import JsonValue, article_to_dict

__all__ = [
    "DOCUMENT_FORMATS",
    "FILE_SUFFIXES",
    "OUTPUT_FORMATS",
    "DocumentStream",
    "JsonValue",
    "Origin",
    "OutputFormat",
    "article_to_dict",
    "render",
]
