"""Writing WARC records: pages saved as web archives, for tests, benchmarks and round trips.

:func:`http_response` makes the HTTP message a server would have sent; :func:`warc_record`
wraps a block in a WARC/1.1 record (FastWARC writes the headers: record id, date, length);
:func:`write_warc` writes records to a file, each in its own gzip member as crawlers write
``.warc.gz`` files (so a reader can start at any record), or plain.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

from fastwarc.warc import WarcRecord, WarcRecordType

__all__ = ["HTTP_RESPONSE_TYPE", "http_response", "warc_record", "write_warc"]

#: The WARC ``Content-Type`` of a block holding an HTTP response (WARC 1.1, section 5.6).
HTTP_RESPONSE_TYPE = "application/http; msgtype=response"
#: WARC record types by name.
_RECORD_TYPES = {
    "response": WarcRecordType.response,
    "request": WarcRecordType.request,
    "metadata": WarcRecordType.metadata,
    "resource": WarcRecordType.resource,
    "revisit": WarcRecordType.revisit,
    "warcinfo": WarcRecordType.warcinfo,
}


def http_response(
    body: bytes,
    content_type: str | None = "text/html; charset=utf-8",
    *,
    status: str = "200 OK",
    headers: Sequence[tuple[str, str]] = (),
) -> bytes:
    """An HTTP/1.1 response: status line, ``Content-Type``, ``headers``, then
    ``Content-Length`` (unless ``headers`` say ``Transfer-Encoding``) and ``body`` as is."""
    lines = [f"HTTP/1.1 {status}"]
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    lines.extend(f"{name}: {value}" for name, value in headers)
    if not any(name.lower() == "transfer-encoding" for name, _ in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def warc_record(
    url: str,
    block: bytes,
    *,
    record_type: str = "response",
    content_type: str = HTTP_RESPONSE_TYPE,
    date: datetime | None = None,
    headers: Sequence[tuple[str, str]] = (),
) -> bytes:
    """One WARC/1.1 record of ``record_type`` for ``url`` holding ``block`` (a new record
    id; ``date`` or now as ``WARC-Date``; more WARC ``headers`` such as ``WARC-Truncated``)."""
    record = WarcRecord()
    record.init_headers(_RECORD_TYPES[record_type])
    record.headers["WARC-Target-URI"] = url
    record.headers["Content-Type"] = content_type
    if date is not None:
        record.record_date = date
    for name, value in headers:
        record.headers[name] = value
    record.set_bytes_content(block)
    out = io.BytesIO()
    record.write(out)
    return out.getvalue()


def write_warc(path: Path | str, records: Iterable[bytes], *, compress: bool = True) -> int:
    """Write ``records`` to ``path`` (one gzip member each when ``compress``); return how
    many were written."""
    count = 0
    with open(path, "wb") as handle:
        for record in records:
            handle.write(gzip.compress(record) if compress else record)
            count += 1
    return count
