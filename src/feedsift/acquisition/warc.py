"""Web archives in: the HTML pages of a WARC file's response records.

:func:`read_warc` walks a WARC file (plain, or gzip with one member per record or one for
the whole file; a path or an open binary file) with FastWARC and yields, in file order, one
:class:`WarcPage` per HTML response record with status 200 (its HTTP body freed of its
transfer and content codings) and one :class:`WarcSkip` per other response record, saying
why it gave no page:

* ``not-html``: another media type (images, scripts, PDFs, feeds, ``dns:`` records), unless
  the caller asks for it too (``media_types``: the Spark job also reads a crawl's feeds);
* ``status``: an HTTP status other than 200 (redirects, errors, 304 revisits);
* ``truncated``: the crawler cut the record (``WARC-Truncated``), so the page is partial;
* ``too-large``: the body passes the size cap (counted decompressed, as for files);
* ``broken``: the record does not parse (no target URI or record id, no HTTP headers, a
  block shorter than its ``Content-Length``, a coding that does not decode). When the file
  itself breaks (garbage, a corrupt gzip member) there is no next record to find: one
  ``broken`` skip says where, and the file ends there.

(:func:`feedsift.extract_warc` adds ``failed``: a page the extractor refused, e.g. empty.)

Records of other types (``warcinfo``, ``request``, ``metadata``, ``revisit``, ...) hold no
page and are passed over without a word. A file that is no WARC at all, or cannot be
opened, raises :class:`~feedsift.errors.InputError`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO, Literal

from fastwarc.stream_io import BrotliReader, ChunkedReader, GzipReader, WarcReader, ZstdReader
from fastwarc.warc import ArchiveIterator, HeaderMap, WarcRecord, WarcRecordType

from feedsift.acquisition.fetcher import HTML_MEDIA_TYPES
from feedsift.errors import InputError

__all__ = [
    "DEFAULT_MAX_RECORD_BYTES",
    "WARC_SUFFIXES",
    "SkipReason",
    "WarcPage",
    "WarcSkip",
    "read_warc",
    "skip_detail",
]

#: File names read as WARC files (case-insensitive).
WARC_SUFFIXES = (".warc", ".warc.gz")
#: Largest body kept, decompressed: the same cap as one page file (pages are < 5 MB).
DEFAULT_MAX_RECORD_BYTES = 50 * 1024 * 1024
#: The HTTP status of a page; others are redirects, errors and "not modified" answers.
OK_STATUS = 200
#: The WARC ``Content-Type`` of a record that holds an HTTP message (WARC 1.1, section 5.6).
HTTP_BLOCK_TYPE = "application/http"
#: Bytes decoded per step, so a compression bomb is stopped within one step of the cap.
DECODE_STEP = 1024 * 1024
#: How far into a body without any ``Content-Type`` an HTML start tag is looked for.
SNIFF_BYTES = 1024
#: What starts an HTML document, lower-cased (a body without a media type is sniffed).
HTML_OPENINGS = (b"<!doctype html", b"<html")

SkipReason = Literal["not-html", "status", "truncated", "too-large", "broken", "failed"]

#: Decoders of HTTP content and transfer codings (RFC 9110, section 8.4.1); ``deflate`` is
#: the zlib format; ``identity`` needs none.
_DECODERS: dict[str, Callable[[WarcReader | BinaryIO], WarcReader]] = {
    "gzip": GzipReader,
    "x-gzip": GzipReader,
    "deflate": lambda inner: GzipReader(inner, zlib=True),
    "br": BrotliReader,
    "zstd": ZstdReader,
    "chunked": ChunkedReader,
}


@dataclass(frozen=True, slots=True)
class WarcPage:
    """One HTML page from a WARC response record (or a record of another media type the
    reader was asked for).

    ``content_type`` is the HTTP ``Content-Type`` header as the server sent it (charset
    included), ``charset`` its charset parameter; ``body`` is the HTTP body without transfer
    or content coding, still in the page's own encoding. ``date`` is the record's
    ``WARC-Date`` (when it was captured), ``None`` when missing or unreadable; ``offset``
    where the record starts in the file (in compressed bytes for a ``.warc.gz``).
    ``media_type`` is what made it a page: the HTTP ``Content-Type``'s media type, else
    ``WARC-Identified-Payload-Type``'s, ``None`` for a body without either that starts as HTML.
    """

    url: str
    record_id: str
    date: datetime | None
    status: int
    content_type: str | None
    charset: str | None
    body: bytes
    offset: int
    media_type: str | None = None


@dataclass(frozen=True, slots=True)
class WarcSkip:
    """A response record that gave no page, and why (``detail`` is one line)."""

    reason: SkipReason
    detail: str
    url: str | None
    record_id: str | None
    offset: int


def skip_detail(name: str, skip: WarcSkip) -> str:
    """The part of a skip's detail worth counting: the media type, the status, the cause
    (with the file's ``name`` for a broken record: it is a fault of that file)."""
    if skip.reason == "status":
        return skip.detail.removeprefix("HTTP ")
    if skip.reason == "broken":
        return f"{name}: {skip.detail}"
    return skip.detail


class _Skipped(Exception):
    """Raised inside the reader when a record gives no page."""

    def __init__(self, reason: SkipReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def read_warc(
    source: str | BinaryIO,
    max_bytes: int = DEFAULT_MAX_RECORD_BYTES,
    media_types: frozenset[str] = HTML_MEDIA_TYPES,
) -> Iterator[WarcPage | WarcSkip]:
    """The HTML pages of the WARC file ``source`` (a path, or a file open for reading bytes)
    and the response records that gave none.

    ``media_types`` are the HTTP media types that give a :class:`WarcPage` (HTML's by
    default; a body without any media type is still read as HTML only if it starts as
    HTML). Raises :class:`~feedsift.errors.InputError` when the file cannot be opened or
    does not start with a WARC record; a break later on is one ``broken`` :class:`WarcSkip`.
    """
    records = _records(source)
    seen = False
    offset = 0
    while True:
        try:
            record = next(records)
        except StopIteration:
            return
        except OSError as exc:
            if not seen:
                raise InputError(f"not a readable WARC file: {_reason(exc)}") from exc
            detail = f"the file breaks after the record at byte {offset}: {_reason(exc)}"
            yield WarcSkip("broken", detail, None, None, offset)
            return
        seen, offset = True, record.stream_pos
        yield _page_or_skip(record, max_bytes, media_types)


def _records(source: str | BinaryIO) -> Iterator[WarcRecord]:
    try:
        return iter(ArchiveIterator(source, record_types=WarcRecordType.response,
                                    parse_http=False))  # fmt: skip
    except OSError as exc:
        raise InputError(f"cannot read: {_reason(exc)}") from exc


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _page_or_skip(
    record: WarcRecord, max_bytes: int, media_types: frozenset[str]
) -> WarcPage | WarcSkip:
    url = _target_uri(record.headers.get("WARC-Target-URI"))
    record_id = record.record_id
    try:
        if not url or not record_id:
            missing = "WARC-Target-URI" if not url else "WARC-Record-ID"
            raise _Skipped("broken", f"no {missing} header")
        return _page(record, url, record_id, max_bytes, media_types)
    except _Skipped as skipped:
        return WarcSkip(skipped.reason, skipped.detail, url, record_id, record.stream_pos)


def _target_uri(value: str | None) -> str | None:
    """The target URI, without the angle brackets some writers put around it (wget, after
    the WARC 1.1 text's own examples)."""
    uri = (value or "").strip()
    if uri.startswith("<") and uri.endswith(">"):
        uri = uri[1:-1].strip()
    return uri or None


def _page(
    record: WarcRecord, url: str, record_id: str, max_bytes: int, media_types: frozenset[str]
) -> WarcPage:
    """The page in ``record``; raises :class:`_Skipped` when there is none."""
    truncated = record.headers.get("WARC-Truncated")
    if truncated is not None:
        raise _Skipped("truncated", truncated or "no reason given")
    block_type = _media_type(record.headers.get("Content-Type"))
    if block_type not in (HTTP_BLOCK_TYPE, None):  # untyped blocks are tried as HTTP
        raise _Skipped("not-html", f"no HTTP response but {block_type}")
    status = _parse_http(record)
    if status != OK_STATUS:
        raise _Skipped("status", f"HTTP status {status}")
    headers = record.http_headers
    content_type = headers.get("Content-Type")
    media_type = _media_type(content_type) or _media_type(
        record.headers.get("WARC-Identified-Payload-Type")
    )
    if media_type is not None and media_type not in media_types:
        raise _Skipped("not-html", media_type)
    body = _decoded(_raw_payload(record, max_bytes), headers, max_bytes)
    if media_type is None and not body[:SNIFF_BYTES].lstrip().lower().startswith(HTML_OPENINGS):
        raise _Skipped("not-html", "no content type, and the body does not start as HTML")
    return WarcPage(
        url=url, record_id=record_id, date=record.record_date, status=status,
        content_type=content_type or None, charset=record.http_charset, body=body,
        offset=record.stream_pos, media_type=media_type,
    )  # fmt: skip


def _parse_http(record: WarcRecord) -> int:
    """Parse the HTTP headers of ``record``'s block; return the status."""
    try:
        record.parse_http(auto_decode="none")
    except (OSError, ValueError) as exc:
        raise _Skipped("broken", f"HTTP headers do not parse: {exc}") from exc
    headers: HeaderMap | None = record.http_headers  # None when the block is no HTTP
    status = headers.status_code if headers is not None else None
    if status is None:
        raise _Skipped("broken", "HTTP headers do not parse: no status line")
    return status


def _raw_payload(record: WarcRecord, max_bytes: int) -> bytes:
    """The HTTP body as stored, refused when larger than the cap or shorter than declared."""
    declared = record.content_length  # the block's bytes left after the HTTP headers
    if declared > max_bytes:
        raise _Skipped("too-large", f"body of {declared} bytes, the limit is {max_bytes}")
    raw = record.reader.read(declared)
    if len(raw) < declared:
        raise _Skipped("broken", f"cut short: {len(raw)} of {declared} body bytes")
    return raw


def _media_type(value: str | None) -> str | None:
    media_type = (value or "").split(";")[0].strip().lower()
    return media_type or None


def _decoded(raw: bytes, headers: HeaderMap, max_bytes: int) -> bytes:
    """``raw`` freed of its codings, the last applied first, read step by step so that a
    compression bomb stops at the cap."""
    codings = _applied_codings(headers)
    if not codings:
        return raw
    reader: WarcReader | BinaryIO = io.BytesIO(raw)
    for coding in reversed(codings):
        decoder = _DECODERS.get(coding)
        if decoder is None:
            raise _Skipped("broken", f"unknown HTTP coding {coding!r}")
        reader = decoder(reader)
    return _read_capped(reader, max_bytes, "+".join(codings))


def _applied_codings(headers: HeaderMap) -> list[str]:
    """The body's codings in the order they were applied: content codings by the origin,
    then transfer codings (chunked last) on the way."""
    values = (headers.get("Content-Encoding"), headers.get("Transfer-Encoding"))
    codings = [part.strip().lower() for value in values for part in (value or "").split(",")]
    return [coding for coding in codings if coding and coding != "identity"]


def _read_capped(reader: WarcReader | BinaryIO, max_bytes: int, codings: str) -> bytes:
    out = bytearray()
    try:
        while piece := reader.read(DECODE_STEP):
            out += piece
            if len(out) > max_bytes:
                raise _Skipped("too-large", f"body larger than {max_bytes} bytes decoded")
    except OSError as exc:
        raise _Skipped("broken", f"{codings} body does not decode: {_reason(exc)}") from exc
    return bytes(out)
