"""Bytes to text with real charset handling.

Order of evidence (WHATWG's, with practical exceptions):

1. a byte-order mark;
2. UTF-16 without a BOM, told by the NUL bytes of its ASCII characters (``<\\0h\\0``): the
   ``<meta charset="utf-16">`` inside cannot be read before the text is decoded;
3. the ``charset`` of the HTTP ``Content-Type`` header, when the caller has one;
4. ``<meta charset>`` or ``<meta http-equiv="Content-Type">`` in the first bytes;
5. statistical detection (``charset-normalizer``);
6. windows-1252, the web's default, with replacement characters.

The exceptions:

* bytes that are valid UTF-8 *and* contain non-ASCII sequences are read as UTF-8 even when
  a legacy charset is declared. Mislabelled UTF-8 is by far the most common charset error
  on the web, while legacy-encoded text is almost never valid UTF-8 by chance;
* a declared charset the bytes do not decode in is not trusted: bytes without any UTF-8
  sequence under a UTF-8 label (a windows-1252 page behind ``<meta charset="utf-8">``) go
  to the detector, and a UTF-8 page with stray windows-1252 bytes (a UTF-8 template around
  text pasted from a legacy database) is decoded piece by piece, UTF-8 where the bytes are
  UTF-8 and windows-1252 for the others, as ``UnicodeDammit.detwingle`` does. Replacement
  characters remain only when nothing decodes the bytes.

The decoded record says which encoding was used, the evidence (``source``), what the page
declared, and why, in one line (``reason``).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from charset_normalizer import from_bytes

from feedsift.errors import InputError

__all__ = ["DecodedHtml", "EncodingSource", "decode_html", "sniff_binary"]

#: The evidence that chose the encoding: a BOM, UTF-16's NUL pattern, the header, the
#: ``<meta>``, UTF-8 that decodes, the detector, UTF-8 with stray windows-1252 bytes, or none.
EncodingSource = Literal[
    "bom", "nul-pattern", "header", "meta", "utf-8", "detected", "mixed", "default"
]

#: How far into the document a ``<meta>`` charset declaration is looked for (HTML spec: 1024;
#: real pages often put it later, after long comments or scripts).
META_SNIFF_BYTES = 8192
#: Bytes inspected by the binary sniffer.
BINARY_SNIFF_BYTES = 4096
#: Share of NUL and control bytes above which a body is treated as binary, not text.
BINARY_CONTROL_SHARE = 0.10
#: Bytes given to the statistical detector (more costs time without changing the answer).
DETECT_BYTES = 65536
#: The web's default for legacy pages (WHATWG); it also wins the detector's ties, since
#: short Western text decodes identically in several single-byte codecs.
WEB_DEFAULT = "cp1252"
#: Bytes looked at for UTF-16 without a BOM (even, so the byte pairs stay aligned).
UTF16_SNIFF_BYTES = 1024
#: Share of one byte of each pair that must be NUL: ASCII markup in UTF-16 has one per pair.
UTF16_NUL_SHARE = 0.6
#: Share of the other byte that may be NUL: NUL is no text character.
UTF16_OTHER_NUL_SHARE = 0.05
#: Longest run of non-UTF-8 bytes read as windows-1252 inside UTF-8: Western text has its
#: accents and quotes one or two at a time; Cyrillic, Greek or CJK legacy text whole words.
MIXED_MAX_RUN = 3

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
#: The windows-1252 bytes Python's codec leaves undefined (as surrogate escapes), mapped to
#: the C1 controls as WHATWG's windows-1252 does: a page labelled so always decodes.
_CP1252_UNDEFINED = {0xDC00 + byte: byte for byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}
#: A non-ASCII character of well-formed UTF-8 (RFC 3629: no overlongs, no surrogates).
_UTF8_MULTIBYTE = (
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
_UTF8_MULTIBYTE_RE = re.compile(_UTF8_MULTIBYTE)
#: A maximal run of well-formed UTF-8; what lies between two runs is not UTF-8.
_UTF8_RUN_RE = re.compile(rb"(?:[\x00-\x7f]|" + _UTF8_MULTIBYTE + rb")+")
#: The start of a multi-byte character cut off by the end of the body (a truncated download).
_UTF8_CUT_TAIL_RE = re.compile(rb"[\xc2-\xf4][\x80-\xbf]{0,2}")


@dataclass(frozen=True, slots=True)
class DecodedHtml:
    """Decoded page text, the codec used, the evidence that chose it and why."""

    text: str
    encoding: str  #: a Python codec name (``mixed``: UTF-8, stray bytes as windows-1252)
    source: EncodingSource
    declared: str | None = None  #: the codec the header or ``<meta>`` named, if any
    reason: str = ""  #: one line: why ``encoding`` was used


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
    """The detector's codec; ties (same chaos and coherence) go to the web's default."""
    matches = from_bytes(data[:DETECT_BYTES])
    best = matches.best()
    if best is None:
        return None
    score = (best.chaos, best.coherence)
    tied = {m.encoding for m in matches if (m.chaos, m.coherence) == score}
    if WEB_DEFAULT in {_codec(name) for name in (*tied, *best.could_be_from_charset)}:
        return WEB_DEFAULT
    return _codec(best.encoding)


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` when the first bytes have UTF-16's NUL pattern and hold markup."""
    head = data[: min(len(data), UTF16_SNIFF_BYTES) // 2 * 2]
    if not head:
        return None
    even, odd = head[0::2], head[1::2]
    for nuls, other, codec in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if (
            nuls.count(0) >= UTF16_NUL_SHARE * len(nuls)
            and other.count(0) <= UTF16_OTHER_NUL_SHARE * len(other)
            and _is_markup(head.decode(codec, errors="replace"))
        ):
            return codec
    return None


def _is_markup(text: str) -> bool:
    """Whether decoded text looks like the start of an HTML page: a tag first, few controls."""
    controls = sum(1 for char in text if ord(char) < 32 and char not in "\t\n\r\f")
    return text.lstrip().startswith("<") and controls <= BINARY_CONTROL_SHARE * len(text)


def _choose(data: bytes, content_type: str | None) -> tuple[str, EncodingSource, str | None]:
    """The encoding, the evidence that chose it and the declared codec (BOM excluded)."""
    declared = _declared_in_header(content_type)
    source: EncodingSource = "header"
    if declared is None:
        declared, source = _declared_in_meta(data), "meta"
    if declared is not None and declared.startswith("utf-16") and b"\x00" not in data[:512]:
        declared = "utf-8"  # a UTF-16 label on 8-bit bytes (browsers do the same)
    if declared != "utf-8" and _utf8_with_non_ascii(data):
        return "utf-8", "utf-8", declared
    if declared is not None:
        return declared, source, declared
    if data.isascii():
        return "utf-8", "utf-8", None
    detected = _detect(data)
    return (detected, "detected", None) if detected else (WEB_DEFAULT, "default", None)


def _why(source: EncodingSource, declared: str | None) -> str:
    """The one-line reason for an encoding that decoded the bytes as chosen."""
    reasons: dict[EncodingSource, str] = {
        "bom": "byte-order mark",
        "nul-pattern": "no byte-order mark; NUL bytes in every pair, as UTF-16 ASCII text has",
        "header": "declared in the Content-Type header",
        "meta": "declared in <meta>",
        "utf-8": "valid UTF-8" + (f" (the declared {declared} is ignored)" if declared else ""),
        "detected": "no declaration; detected by charset-normalizer",
        "default": "no declaration and no detection: the web's default",
    }
    return reasons.get(source, source)


def _distrusted(data: bytes, declared: str, source: EncodingSource, error: str) -> DecodedHtml:
    """The declared codec fails on the bytes: read stray bytes in UTF-8 or detect."""
    why = f"declared {declared} ({source}) does not decode: {error}"
    if declared == "utf-8" and _utf8_is_mixed(data):
        text, stray = _utf8_with_cp1252(data)
        reason = f"{why}; UTF-8 with {stray} bytes read as windows-1252"
        return DecodedHtml(text, "utf-8", "mixed", declared, reason)
    for codec, evidence in _alternatives(data, source):
        if codec is None or codec == declared:
            continue
        try:
            text = _strict(data, codec)
        except UnicodeDecodeError:
            continue
        reason = f"{why}; {'detected' if evidence == 'detected' else 'the <meta> says'} {codec}"
        return DecodedHtml(_without_bom(text), codec, evidence, declared, reason)
    text = data.decode(declared, errors="replace")
    return DecodedHtml(text, declared, source, declared, f"{why}; replaced by U+FFFD")


def _alternatives(
    data: bytes, source: EncodingSource
) -> Iterator[tuple[str | None, EncodingSource]]:
    """Codecs to try when the declared one fails: the ``<meta>`` under a header, the detector."""
    if source == "header":
        yield _declared_in_meta(data), "meta"
    yield _detect(data), "detected"


def _utf8_is_mixed(data: bytes) -> bool:
    """UTF-8 with some stray single-byte text: UTF-8 characters, short non-UTF-8 runs."""
    if _UTF8_MULTIBYTE_RE.search(data) is None:
        return False
    gaps = (len(gap) for gap in _UTF8_RUN_RE.split(data))
    return max(gaps, default=0) <= MIXED_MAX_RUN


def _utf8_with_cp1252(data: bytes) -> tuple[str, int]:
    """UTF-8 runs as UTF-8, the bytes between as windows-1252; and how many such bytes.

    A multi-byte character cut by the end of the body is a U+FFFD, not windows-1252.
    """
    pieces: list[str] = []
    end = stray = 0
    for run in _UTF8_RUN_RE.finditer(data):
        stray += run.start() - end
        pieces.append(_strict(data[end : run.start()], WEB_DEFAULT))
        pieces.append(run.group().decode("utf-8"))
        end = run.end()
    tail = data[end:]
    if _UTF8_CUT_TAIL_RE.fullmatch(tail):
        pieces.append("\ufffd")
    else:
        stray += len(tail)
        pieces.append(_strict(tail, WEB_DEFAULT))
    return "".join(pieces), stray


def decode_html(data: bytes, content_type: str | None = None) -> DecodedHtml:
    """Decode an HTML body to text.

    ``content_type`` is the HTTP ``Content-Type`` header when the page was fetched.
    Raises :class:`InputError` for empty or binary bodies; bytes no evidence decodes never
    raise, they become U+FFFD (and the record's ``reason`` says so).
    """
    if not data.strip():
        raise InputError("empty document")
    bom = _bom(data)
    if bom is not None:
        return _decoded(data, bom, "bom", None)
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return _decoded(data, utf16, "nul-pattern", None)
    binary = sniff_binary(data)
    if binary is not None:
        raise InputError(f"not an HTML page: looks like {binary}")
    encoding, source, declared = _choose(data, content_type)
    return _decoded(data, encoding, source, declared)


def _decoded(
    data: bytes, encoding: str, source: EncodingSource, declared: str | None
) -> DecodedHtml:
    try:
        text = _strict(data, encoding)
    except UnicodeDecodeError as err:
        error = f"{err.reason} at byte {err.start}"
        if source in ("header", "meta"):
            return _distrusted(data, encoding, source, error)
        text = data.decode(encoding, errors="replace")
        reason = f"{_why(source, declared)}; {error} replaced by U+FFFD"
        return DecodedHtml(_without_bom(text), encoding, source, declared, reason)
    return DecodedHtml(_without_bom(text), encoding, source, declared, _why(source, declared))


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _strict(data: bytes, encoding: str) -> str:
    """``data`` decoded, ``UnicodeDecodeError`` if it does not decode; windows-1252 as WHATWG's."""
    if encoding == WEB_DEFAULT:
        return data.decode(encoding, errors="surrogateescape").translate(_CP1252_UNDEFINED)
    return data.decode(encoding)
