"""Outputs: articles as JSON-safe data and as txt, json, jsonl, markdown or html documents."""

from feedsift.outputs.formats import (
    DOCUMENT_FORMATS,
    FILE_SUFFIXES,
    OUTPUT_FORMATS,
    DocumentStream,
    OutputFormat,
    render,
)
from feedsift.outputs.serialize import JsonValue, article_to_dict

__all__ = [
    "DOCUMENT_FORMATS",
    "FILE_SUFFIXES",
    "OUTPUT_FORMATS",
    "DocumentStream",
    "JsonValue",
    "OutputFormat",
    "article_to_dict",
    "render",
]
