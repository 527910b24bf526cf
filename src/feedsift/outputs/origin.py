"""Where a rendered article came from: the input's name, and for a page read from a WARC
file the record's id and capture date.

The outputs show it beside the article: json and jsonl as the first fields (``input``,
then ``warc_record_id`` and ``warc_date`` for WARC records only), csv as columns, xml and
html as attributes, txt and markdown in the line that introduces each document.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from feedsift.outputs.serialize import JsonValue

__all__ = ["WARC_FIELDS", "Origin"]

#: The fields a WARC record adds, in output order.
WARC_FIELDS = ("warc_record_id", "warc_date")


@dataclass(frozen=True, slots=True)
class Origin:
    """The input an article was extracted from; ``warc_*`` only for a WARC record."""

    input: str | None = None
    warc_record_id: str | None = None
    warc_date: datetime | None = None

    @property
    def is_warc(self) -> bool:
        return self.warc_record_id is not None

    def fields(self) -> dict[str, JsonValue]:
        """``input`` when known, then the WARC fields for a WARC record (date in ISO 8601)."""
        values: dict[str, JsonValue] = {} if self.input is None else {"input": self.input}
        if self.is_warc:
            values["warc_record_id"] = self.warc_record_id
            values["warc_date"] = self.warc_date.isoformat() if self.warc_date else None
        return values

    def heading(self, url: str | None) -> str:
        """How a document is introduced in txt and markdown streams: the input's name, and
        the page's URL for a WARC record (one file holds many pages)."""
        name = self.input or ""
        return f"{name}: {url}" if self.is_warc and url else name
