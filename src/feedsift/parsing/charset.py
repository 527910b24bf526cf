"""Bytes to text with real charset handling.

Order of evidence (WHATWG's, with one practical exception):

1. a byte-order mark;
2. the ``charset`` of the HTTP ``Content-Type`` header, when the caller has one;
3. ``<meta charset>`` or ``<meta http-equiv="Content-Type">`` in the first bytes;
4. statistical detection (``charset-normalizer``);
5. windows-1252, the web's default, with replacement characters.

The exception: bytes that are valid UTF-8 *and* contain non-ASCII sequences are read as
UTF-8 even when a legacy charset is declared. Mislabelled UTF-8 is by far the most common
charset error on the web, while legacy-encoded text is almost never valid UTF-8 by chance.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Literal

from charset_normalizer import from_bytes

from feedsift.errors import InputError

__all__ = ["DecodedHtml", "EncodingSource", "decode_html", "sniff_binary"]

EncodingSource = Literal["bom", "header", "meta", "utf-8", "detected", "default"]

#: How far into the document a ``<meta>`` charset declaration is looked for (HTML spec: 1024;
#: real pages often put it later, after long comments or scripts).
META_SNIFF_BYTES = 8192
#: Bytes inspected by the binary sniffer.
BINARY_SNIFF_BYTES = 4096
#: Share of NUL and control bytes above which a body is treated as binary, not text.
BINARY_CONTROL_SHARE = 0.10
#: Bytes given to the statistical detector (more costs time without changing the answer).
DETECT_BYTES = 65536

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

#: Magic numbers of formats that are surely not HTML, with the name given in the error.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "PDF document"),
    (b"\x89PNG", "PNG image"),
    (b"GIF8", "GIF image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"RIFF", "RIFF media"),
    (b"\x00\x00\x00", "binary data"),
)

#: WHATWG label aliases whose Python codec differs from the label (superset codecs).
_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "iso-8859-9": "cp1254",
    "tis-620": "cp874",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "euc-kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "big5": "big5hkscs",
    "utf8": "utf-8",
    "unicode": "utf-8",
}

#: Bytes that do not occur in text: C0 controls other than tab, newline, CR and form feed.
_CONTROL_BYTES = bytes([*range(9), *range(14, 32)])

_META_RE = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE
)
_HEADER_RE = re.compile(r"""charset\s*=\s*["']?([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DecodedHtml:
    """Decoded page text, the codec used and the evidence that chose it."""

    text: str
    encoding: str
    source: EncodingSource


def _codec(label: str | None) -> str | None:
    """Python codec name for a charset label, or ``None`` when the label is unknown."""
    if not label:
        return None
    name = _ALIASES.get(label.strip().lower(), label.strip().lower())
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def sniff_binary(data: bytes) -> str | None:
    """Name of the binary format ``data`` looks like, or ``None`` when it may be text."""
    head = data[:BINARY_SNIFF_BYTES]
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    if not head:
        return None
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls / len(head) > BINARY_CONTROL_SHARE:
        return "binary data"
    return None


def _bom(data: bytes) -> str | None:
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    return None


def _declared_in_meta(data: bytes) -> str | None:
    match = _META_RE.search(data[:META_SNIFF_BYTES])
    return _codec(match.group(1).decode("ascii", "ignore")) if match else None


def _declared_in_header(content_type: str | None) -> str | None:
    match = _HEADER_RE.search(content_type or "")
    return _codec(match.group(1)) if match else None


def _utf8_with_non_ascii(data: bytes) -> bool:
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _detect(data: bytes) -> str | None:
    best = from_bytes(data[:DETECT_BYTES]).best()
    return _codec(best.encoding) if best is not None else None


def _choose(data: bytes, content_type: str | None) -> tuple[str, EncodingSource]:
    bom = _bom(data)
    if bom:
        return bom, "bom"
    declared = _declared_in_header(content_type)
    source: EncodingSource = "header"
    if declared is None:
        declared, source = _declared_in_meta(data), "meta"
    if declared is not None and declared.startswith("utf-16") and b"\x00" not in data[:512]:
        declared = "utf-8"  # a UTF-16 label on 8-bit bytes (browsers do the same)
    if declared != "utf-8" and _utf8_with_non_ascii(data):
        return "utf-8", "utf-8"
    if declared is not None:
        return declared, source
    if data.isascii():
        return "utf-8", "utf-8"
    detected = _detect(data)
    return (detected, "detected") if detected else ("cp1252", "default")


def decode_html(data: bytes, content_type: str | None = None) -> DecodedHtml:
    """Decode an HTML body to text.

    ``content_type`` is the HTTP ``Content-Type`` header when the page was fetched.
    Raises :class:`InputError` for empty or binary bodies; undecodable bytes never raise,
    they become U+FFFD.
    """
    if not data.strip():
        raise InputError("empty document")
    binary = sniff_binary(data)
    if binary is not None and _bom(data) is None:
        raise InputError(f"not an HTML page: looks like {binary}")
    encoding, source = _choose(data, content_type)
    text = data.decode(encoding, errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return DecodedHtml(text=text, encoding=encoding, source=source)
