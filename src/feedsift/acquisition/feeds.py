"""Feed reading: the bytes of an RSS 0.9x/1.0/2.0, Atom or JSON Feed document into records.

:func:`parse_feed` is a pure function of the body, the URL it was fetched from and the
declared ``Content-Type``; fetching is the caller's business. XML feeds go through
feedparser, which reads broken feeds with a lenient parser when the strict one fails (the
entries come back with a warning); JSON Feeds go through :mod:`json`.

Safety comes first. A body larger than :data:`MAX_FEED_BYTES` is refused, and so is any XML
document whose prolog declares entities (``<!ENTITY``): neither entity expansion ("billion
laughs") nor external entities (``SYSTEM "file:///etc/passwd"``) ever reach a parser. The
check reads the very text the parser will read, decoded by feedparser's own rules (BOM,
declared charset, XML declaration), so a UTF-16 or EBCDIC body cannot slip past it.

Choices: HTML inside entries is sanitised by feedparser (scripts, styles, embeds and event
attributes dropped: a stranger's markup stays safe to show, and none of it is article text)
and relative URIs in it are resolved, so links and images in ``content`` are absolute like
the page they came from.
"""

from __future__ import annotations

import codecs
import contextlib
import html
import io
import json
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit
from xml.sax import SAXParseException

import feedparser
import feedparser.encodings
import feedparser.sanitizer
import feedparser.urls
from lxml import etree
from lxml import html as lxml_html

from feedsift.errors import FeedError
from feedsift.records import FeedItem, FeedSample

__all__ = [
    "FULL_CONTENT_SHARE",
    "JSON_FEED_VERSION_PREFIX",
    "JSON_MEDIA_TYPES",
    "MAX_FEED_BYTES",
    "MIN_YEAR",
    "FeedEntry",
    "FeedFormat",
    "ParsedFeed",
    "parse_feed",
    "split_xml_prolog",
    "xml_root_name",
]

FeedFormat = Literal["rss", "atom", "rdf", "json"]

#: Largest feed body read: full-content archives reach a few MB (the biggest real one we hold
#: is 2.4 MB); ten times more is a dump or an attack, not a feed.
MAX_FEED_BYTES = 10 * 1024 * 1024
#: Every JSON Feed ``version`` starts so (1 and 1.1); other JSON is not a feed.
JSON_FEED_VERSION_PREFIX = "https://jsonfeed.org/version/"
#: Media types under which JSON Feeds are served (the second by servers that know no better).
JSON_MEDIA_TYPES = frozenset({"application/feed+json", "application/json"})
#: "Most entries": share of entries whose content must outgrow the description.
FULL_CONTENT_SHARE = 0.5
#: Earlier dates are placeholders (Go's zero time 0001-01-01, the Unix epoch), not post dates.
MIN_YEAR = 1990
#: Schemes of item links worth keeping; ``mailto:``, ``tag:`` and ``urn:`` are not pages.
LINK_SCHEMES = ("http", "https")
#: Hosts of a developer's machine: a feed built locally links there, useless to anyone else.
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})
#: Root elements of an HTML page (or of a fragment of one) served where a feed was expected.
HTML_ROOTS = frozenset({"html", "head", "body"})
#: Leading bytes of common binary bodies, named in the error so the user knows what came back.
BINARY_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip-compressed data (decompress it first)"),
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"PK\x03\x04", "a ZIP archive"),
)
#: Leading bytes that give the encoding away: byte-order marks, then a first ``<`` in UTF-32
#: or UTF-16 without one (XML 1.0, appendix F). Longer patterns first: the UTF-32 LE mark
#: starts with UTF-16's.
ENCODING_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32le"),
    (codecs.BOM_UTF32_BE, "utf-32be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
    (b"<\x00\x00\x00", "utf-32le"),
    (b"\x00\x00\x00<", "utf-32be"),
    (b"<\x00", "utf-16le"),
    (b"\x00<", "utf-16be"),
    (b"\x4c\x6f\xa7\x94", "cp037"),  # "<?xm" in EBCDIC, as feedparser sniffs it
)
#: Characters of the decoded text searched for NUL: text feeds have none, binary has many.
BINARY_SNIFF_CHARS = 1024
#: Encoding of XML without a declared one (XML 1.0, section 4.3.3), and of what feedparser reads.
XML_DEFAULT_ENCODING = "utf-8"
#: The single-byte encoding a feed is read in when it is not in the encoding it declares and
#: not mostly UTF-8 either: the web's legacy default, and feedparser's own last resort.
LEGACY_ENCODING = "windows-1252"
#: Declared names that feedparser reads as a superset (GB2312 text is valid GB18030).
ENCODING_SUPERSETS = {"gb2312": "gb18030"}

_MARKUP = re.compile(r"<(\?|!--|!)?")
_DECLARATION_TOKEN = re.compile(r"\"|'|<!--|\[|\]|>")
_NAME = re.compile(r"<([A-Za-z_][\w.:-]*)")
_MEDIA_TYPE_CHARSET = re.compile(r";\s*charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
# feedparser's own pattern (feedparser.encodings.RE_XML_PI_ENCODING): "." stops at a line end,
# so it is tried on the first line alone, which bounds its cost.
_XML_PI_ENCODING = re.compile(rb"^<\?.*encoding=['\"](.*?)['\"].*\?>")
#: A numeric character reference (``&#xD800;``, ``&#99999999;``); long ones are cut short.
_CHAR_REFERENCE = re.compile(rb"&#(?:[xX]([0-9a-fA-F]{1,12})|([0-9]{1,12}));")
#: A lone UTF-16 surrogate, as JSON's ``\ud800`` escapes give.
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One item of a feed; ``content`` is ``None`` when the feed gives only an excerpt."""

    url: str | None
    title: str
    description: str
    content: str | None
    published: datetime | None
    updated: datetime | None
    authors: tuple[str, ...]
    tags: tuple[str, ...]
    guid: str | None


@dataclass(frozen=True, slots=True)
class ParsedFeed:
    """A feed as read: its own URL, format, title, site and entries, and what was wrong."""

    url: str
    format: FeedFormat
    title: str | None
    site_url: str | None
    entries: tuple[FeedEntry, ...]
    warnings: tuple[str, ...]

    @property
    def full_content(self) -> bool:
        """Whether most entries carry content longer than their description."""
        full = sum(
            1
            for entry in self.entries
            if entry.content is not None and len(entry.content) > len(entry.description)
        )
        return bool(self.entries) and full > FULL_CONTENT_SHARE * len(self.entries)

    def sample(self) -> FeedSample:
        """The feed's items as records (:class:`~feedsift.records.FeedSample`) for the
        learners, which do not depend on the feed parser's types."""
        items = tuple(FeedItem(e.url, e.title, e.description, e.content, e.published,
                               e.authors, e.tags) for e in self.entries)  # fmt: skip
        return FeedSample(self.url, self.title, items)


def parse_feed(body: bytes, url: str, content_type: str | None = None) -> ParsedFeed:
    """Read a feed body fetched from ``url``; :class:`FeedError` when it is not a feed."""
    if len(body) > MAX_FEED_BYTES:
        raise FeedError(
            f"refused: the feed is {len(body)} bytes, more than the limit of {MAX_FEED_BYTES}"
        )
    _refuse_binary(body)
    if _is_json(body, content_type):
        return _parse_json_feed(body, url)
    return _parse_xml_feed(body, url, content_type)


# --- XML prolog ------------------------------------------------------------------------------


def split_xml_prolog(text: str) -> tuple[str, str]:
    """``text`` cut where its root element starts: (prolog, rest); all prolog if none starts.

    Comments, processing instructions and the DOCTYPE (with its internal subset, quoted
    strings and comments) are skipped, so a ``<name`` inside them does not end the prolog.
    """
    pos = 0
    while (match := _MARKUP.search(text, pos)) is not None:
        kind = match.group(1)
        if kind is None:
            if _NAME.match(text, match.start()):
                return text[: match.start()], text[match.start() :]
            pos = match.end()
            continue
        if kind == "?":
            end = _end_after(text, "?>", match.end())
        elif kind == "!--":
            end = _end_after(text, "-->", match.end())
        else:
            end = _declaration_end(text, match.end())
        if end < 0:
            return text, ""
        pos = end
    return text, ""


def xml_root_name(text: str) -> str | None:
    """The name of the root element of an XML (or HTML) text, as written, if it has one."""
    match = _NAME.match(split_xml_prolog(text)[1])
    return match.group(1) if match else None


def _end_after(text: str, closer: str, start: int) -> int:
    found = text.find(closer, start)
    return -1 if found < 0 else found + len(closer)


def _declaration_end(text: str, start: int) -> int:
    """Index just past the ``<!...>`` declaration whose body starts at ``start``, or -1."""
    depth = 0
    pos = start
    while (token := _DECLARATION_TOKEN.search(text, pos)) is not None:
        mark = token.group()
        if mark in ("'", '"'):
            pos = _end_after(text, mark, token.end())
        elif mark == "<!--":
            pos = _end_after(text, "-->", token.end())
        elif mark == "[":
            depth, pos = depth + 1, token.end()
        elif mark == "]":
            depth, pos = max(depth - 1, 0), token.end()
        elif depth == 0:
            return token.end()
        else:
            pos = token.end()
        if pos < 0:
            return -1
    return -1


# --- XML feeds -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Decoded:
    """An XML body as the parser will read it (UTF-8) and how to map its lines back."""

    utf8: bytes
    line_shift: int  #: subtract from a parser line number to get the line in the body
    warning: str | None


def _possible_references(utf8: bytes) -> bytes:
    """Character references to characters no text can hold (a lone surrogate, a number past
    U+10FFFF, NUL) as ``&#xFFFD;``: feedparser raises on them instead of reading the feed."""

    def fix(match: re.Match[bytes]) -> bytes:
        hexa, decimal = match.groups()
        number = int(hexa, 16) if hexa else int(decimal)
        impossible = number == 0 or 0xD800 <= number <= 0xDFFF or number > 0x10FFFF
        return b"&#xFFFD;" if impossible else match.group(0)

    return _CHAR_REFERENCE.sub(fix, utf8)


def _feedparser_result(utf8: bytes, url: str) -> Any:
    """feedparser's reading of the feed; FeedError where feedparser itself breaks (its
    strict parser splits a namespaced name on any whitespace, so a namespace URI holding a
    no-break space raised ValueError out of the SAX handler)."""
    try:
        return feedparser.parse(
            io.BytesIO(utf8),
            response_headers={
                "content-type": "application/xml; charset=utf-8",
                "content-location": url,
            },
            sanitize_html=True,
            resolve_relative_uris=True,
        )
    except ValueError as exc:
        raise FeedError(f"the feed's XML could not be read ({exc})") from exc


def _parse_xml_feed(body: bytes, url: str, content_type: str | None) -> ParsedFeed:
    decoded = _decode_xml(body, content_type)
    utf8 = _possible_references(decoded.utf8)
    text = utf8.decode("utf-8", "replace")
    _refuse_unsafe_xml(text)
    result = _feedparser_result(utf8, url)
    feed_format = _checked_format(result, text, decoded.line_shift)
    feed = dict(result.feed)
    entries = tuple(_feedparser_entry(dict(raw), url, feed_format) for raw in result.entries)
    if feed_format == "atom":
        entries = _inherit_authors(entries, _authors(feed.get("authors")))
    warnings = [w for w in (decoded.warning, _bozo_warning(result, decoded.line_shift)) if w]
    return ParsedFeed(
        url=url,
        format=feed_format,
        title=_plain_detail(feed.get("title_detail")) or None,
        site_url=_absolute_link(feed.get("link"), url),
        entries=entries,
        warnings=(*warnings, *_link_warnings(entries, url)),
    )


def _decode_xml(body: bytes, content_type: str | None) -> _Decoded:
    """The body decoded as feedparser decides (declared charset, BOM, XML declaration)."""
    # Blank lines before the XML declaration (a classic of PHP templates) make it illegal.
    stripped = body.lstrip(b" \t\r\n")
    removed_lines = body[: len(body) - len(stripped)].count(b"\n")
    # Only the charset of the declared type counts: RFC 7303 lets the document decide
    # otherwise, and servers label feeds text/html or text/plain alike. A BOM (or UTF-16's
    # telltale zero bytes) beats an XML declaration that contradicts it.
    charset = _MEDIA_TYPE_CHARSET.search(content_type or "")
    label = charset.group(1) if charset else _sniffed_charset(stripped)
    repair = _repaired(stripped, label)
    if repair is not None:
        stripped, label = repair.utf8, XML_DEFAULT_ENCODING
    declared = "application/xml" + (f"; charset={label}" if label else "")
    status: dict[str, Any] = {}
    utf8 = feedparser.encodings.convert_to_utf8({"content-type": declared}, stripped, status)
    # feedparser writes its own declaration: over the body's, or on a new first line.
    added_lines = 0 if _starts_with_declaration(stripped, status.get("encoding")) else 1
    problem = status.get("bozo_exception")
    warning = repair.warning if repair else f"encoding: {problem}" if problem else None
    return _Decoded(utf8=utf8, line_shift=added_lines - removed_lines, warning=warning)


@dataclass(frozen=True, slots=True)
class _Repair:
    """A body that is not in the encoding feedparser would try first, re-encoded as UTF-8."""

    utf8: bytes
    warning: str


def _repaired(body: bytes, label: str | None) -> _Repair | None:
    """``None`` when the body reads in the encoding feedparser tries first; else the body
    decoded here, so that feedparser never falls back to its statistical guess.

    That guess is chardet's when it is installed (readability-lxml brings it), and chardet
    5's word filter (``[a-zA-Z]*[\\x80-\\xFF]+[a-zA-Z]*``) is quadratic in a run of ASCII
    letters: one broken UTF-8 sequence before a 20 kB attribute cost over 20 s. The order
    here is feedparser's without the guess: the declared encoding, the XML declaration's,
    UTF-8; then UTF-8 or windows-1252 with replacement characters, whichever fits.
    """
    xml_encoding = None if label else _xml_declared_encoding(body)
    first = _superset(label or xml_encoding or XML_DEFAULT_ENCODING)
    if _decodes(body, first):
        return None
    for candidate in (xml_encoding, XML_DEFAULT_ENCODING):
        if candidate and candidate != first and _decodes(body, _superset(candidate)):
            text = body.decode(_superset(candidate))
            return _Repair(text.encode("utf-8"), _override(first, candidate))
    used, text = _lossy_decode(body, first)
    if used != first:
        return _Repair(text.encode("utf-8"), _override(first, used))
    broken = text.count("\ufffd")
    noun = "sequence" if broken == 1 else "sequences"
    return _Repair(text.encode("utf-8"), f"encoding: {broken} invalid {used} {noun} replaced")


def _xml_declared_encoding(body: bytes) -> str | None:
    match = _XML_PI_ENCODING.match(body.split(b"\n", 1)[0])
    return match.group(1).decode("ascii", "replace").lower() if match else None


def _superset(encoding: str) -> str:
    return ENCODING_SUPERSETS.get(encoding.lower(), encoding)


def _decodes(body: bytes, encoding: str) -> bool:
    try:
        body.decode(encoding)
    except (UnicodeDecodeError, LookupError, ValueError):  # ValueError: a NUL in the name
        return False
    return True


def _override(declared: str, used: str) -> str:
    return f"encoding: document declared as {declared}, but parsed as {used}"


def _lossy_decode(body: bytes, declared: str) -> tuple[str, str]:
    """(encoding, text) of a body no encoding reads cleanly: the declared one if Python
    knows it and it is not UTF-8; else UTF-8 when at least as many of its non-ASCII
    characters are valid UTF-8 as are broken (a cut character), else windows-1252."""
    if _text_codec(declared) not in (None, "utf-8"):
        return declared, body.decode(declared, "replace")
    text = body.decode("utf-8", "replace")
    broken = text.count("\ufffd")
    valid = len(text.encode("utf-8")) - len(text) - 2 * broken  # extra bytes of good ones
    if valid >= broken:
        return XML_DEFAULT_ENCODING, text
    return LEGACY_ENCODING, body.decode(LEGACY_ENCODING, "replace")


def _text_codec(encoding: str) -> str | None:
    """Python's name of a text encoding; ``None`` for unknown names and bytes codecs."""
    try:
        b"".decode(encoding)
        return codecs.lookup(encoding).name
    except (LookupError, ValueError):  # a name with a NUL or bytes Python cannot look up
        return None


def _sniffed_charset(body: bytes) -> str | None:
    return next((name for mark, name in ENCODING_SIGNATURES if body.startswith(mark)), None)


def _starts_with_declaration(body: bytes, encoding: Any) -> bool:
    try:
        head = body[:64].decode(str(encoding or "utf-8"), "ignore")
    except LookupError:
        return False
    return head.lstrip("\ufeff").startswith("<?xml")


def _refuse_binary(body: bytes) -> None:
    if not body.strip():
        raise FeedError("not a feed: the body is empty")
    for signature, name in BINARY_SIGNATURES:
        if body.startswith(signature):
            raise FeedError(f"not a feed: the body is {name}")


def _refuse_unsafe_xml(text: str) -> None:
    if "\x00" in text[:BINARY_SNIFF_CHARS]:
        raise FeedError("not a feed: the body is binary data")
    prolog, rest = split_xml_prolog(text)
    if "<!entity" in prolog.lower():
        raise FeedError(
            "refused: the feed declares XML entities (<!ENTITY>), which could expand without bound"
        )
    root = _NAME.match(rest)
    if "<!doctype html" in prolog.lower() or (root and root.group(1).lower() in HTML_ROOTS):
        raise FeedError("not a feed: looks like an HTML page")


def _checked_format(result: Any, text: str, line_shift: int) -> FeedFormat:
    """The format of a feedparser result, or :class:`FeedError` when it read no feed."""
    feed_format = _format_of(str(result.get("version") or ""))
    titled = bool(dict(result.feed).get("title"))
    if result.entries and feed_format is not None:
        return feed_format
    problem = result.get("bozo_exception")
    if not titled and isinstance(problem, SAXParseException):
        line = (problem.getLineNumber() or 0) - line_shift
        raise FeedError(f"not a feed: XML not well-formed ({problem.getMessage()} at line {line})")
    if feed_format is None:
        root = xml_root_name(text)
        found = f"the root element is <{root}>" if root else "no XML element found"
        raise FeedError(f"not a feed: {found}, not <rss>, <feed> or <rdf:RDF>")
    return feed_format


def _format_of(version: str) -> FeedFormat | None:
    """feedparser's ``version`` as our format: rss09x/rss20 -> rss, rss10 -> rdf, atom*."""
    if version == "rss10":
        return "rdf"
    if version.startswith("rss"):
        return "rss"
    if version.startswith("atom"):
        return "atom"
    return None


def _bozo_warning(result: Any, line_shift: int) -> str | None:
    problem = result.get("bozo_exception")
    if not result.get("bozo") or problem is None:
        return None
    if isinstance(problem, SAXParseException):
        line = (problem.getLineNumber() or 0) - line_shift
        return (
            f"not well-formed XML at line {line}: {problem.getMessage()}; "
            "read with the lenient parser"
        )
    return f"{type(problem).__name__}: {problem}"


def _feedparser_entry(raw: dict[str, Any], feed_url: str, feed_format: FeedFormat) -> FeedEntry:
    guid = _clean(raw.get("id"))
    return FeedEntry(
        url=_entry_url(raw, feed_url, feed_format),
        title=_plain_detail(raw.get("title_detail")),
        # feedparser copies Atom content into ``summary``; only ``summary_detail`` is given.
        description=_clean(dict(raw.get("summary_detail") or {}).get("value")) or "",
        content=_feedparser_content(raw.get("content")),
        published=_utc(raw.get("published_parsed")),
        updated=_utc(raw.get("updated_parsed")),
        authors=_authors(raw.get("authors")),
        tags=_tags(raw.get("tags")),
        guid=guid,
    )


def _entry_url(raw: dict[str, Any], feed_url: str, feed_format: FeedFormat) -> str | None:
    """The alternate link, else ``link``, else the guid/id when it is a permalink."""
    links = [dict(link) for link in raw.get("links") or ()]
    alternates = [link.get("href") for link in links if link.get("rel") == "alternate"]
    candidates = [*alternates, raw.get("link")]
    found = next((url for url in (_absolute_link(c, feed_url) for c in candidates) if url), None)
    # An RSS guid is a permalink unless it says isPermaLink="false" (feedparser then already
    # made it the link); an Atom id is one when it is a web address. Only an id that is
    # already absolute counts: resolving "post-1" against the feed would invent an address.
    if found is None and (feed_format != "rss" or raw.get("guidislink")):
        return _absolute_link(raw.get("id"), "")
    return found


def _feedparser_content(details: Any) -> str | None:
    values = [_clean(dict(detail).get("value")) for detail in details or ()]
    return next((value for value in values if value), None)


def _inherit_authors(
    entries: tuple[FeedEntry, ...], authors: tuple[str, ...]
) -> tuple[FeedEntry, ...]:
    """Atom and JSON Feed: an entry without authors has the feed's authors."""
    if not authors:
        return entries
    return tuple(entry if entry.authors else replace(entry, authors=authors) for entry in entries)


def _link_warnings(entries: tuple[FeedEntry, ...], feed_url: str) -> list[str]:
    warnings = []
    missing = sum(1 for entry in entries if entry.url is None)
    if missing:
        warnings.append(f"{missing} of {len(entries)} entries have no absolute http(s) link")
    local = sum(1 for entry in entries if entry.url and _host(entry.url) in LOCAL_HOSTS)
    if local and _host(feed_url) not in LOCAL_HOSTS:
        warnings.append(
            f"{local} of {len(entries)} entry links point to a local host "
            "(the feed was built on a developer's machine)"
        )
    return warnings


# --- JSON Feed -------------------------------------------------------------------------------


def _is_json(body: bytes, content_type: str | None) -> bool:
    first = body.removeprefix(codecs.BOM_UTF8).lstrip()[:1]
    media_type = (content_type or "").split(";")[0].strip().lower()
    return first in (b"{", b"[") or (media_type in JSON_MEDIA_TYPES and first != b"<")


def _parse_json_feed(body: bytes, url: str) -> ParsedFeed:
    document = _load_json_feed(body)
    raw_items = document.get("items")
    items = raw_items if isinstance(raw_items, list) else []
    feed_authors = _json_authors(document)
    entries = tuple(
        _json_entry(item, url, feed_authors) for item in items if isinstance(item, dict)
    )
    title = _json_text(document.get("title")) or None
    if not entries and title is None:
        raise FeedError("not a feed: a JSON Feed with neither items nor a title")
    return ParsedFeed(
        url=url,
        format="json",
        title=title,
        site_url=_absolute_link(document.get("home_page_url"), url),
        entries=entries,
        warnings=(*_json_warnings(raw_items, len(entries)), *_link_warnings(entries, url)),
    )


def _json_warnings(raw_items: Any, kept: int) -> list[str]:
    if not isinstance(raw_items, list):
        return ["JSON Feed: no items list"]
    skipped = len(raw_items) - kept
    if skipped:
        return [f"JSON Feed: {skipped} of {len(raw_items)} items are not objects; skipped"]
    return []


def _load_json_feed(body: bytes) -> dict[str, Any]:
    try:
        document = json.loads(body)
    except json.JSONDecodeError as error:
        raise FeedError(
            f"not a feed: JSON not valid ({error.msg} at line {error.lineno})"
        ) from error
    except ValueError as error:  # undecodable bytes
        raise FeedError(f"not a feed: JSON not decodable ({error})") from error
    except RecursionError as error:  # json's decoder recurses once per array or object level
        raise FeedError("not a feed: JSON nested too deeply to read") from error
    if not isinstance(document, dict):
        raise FeedError("not a feed: JSON whose top level is not an object")
    version = document.get("version")
    if not isinstance(version, str) or not version.startswith(JSON_FEED_VERSION_PREFIX):
        raise FeedError(f"not a feed: JSON without a {JSON_FEED_VERSION_PREFIX} version")
    return document


def _json_entry(item: dict[str, Any], feed_url: str, feed_authors: tuple[str, ...]) -> FeedEntry:
    item_id = item.get("id")
    guid = _clean(str(item_id)) if isinstance(item_id, str | int) else None
    url = _absolute_link(item.get("url"), feed_url) or _absolute_link(guid, "")
    content_html = _clean(_string(item.get("content_html")))
    content = _safe_html(content_html, url or feed_url) if content_html else None
    return FeedEntry(
        url=url,
        title=_json_text(item.get("title")),
        description=_clean(_string(item.get("summary"))) or "",
        content=content or _clean(_string(item.get("content_text"))),
        published=_iso_date(item.get("date_published")),
        updated=_iso_date(item.get("date_modified")),
        authors=_json_authors(item) or feed_authors,
        tags=_unique(_string(tag) for tag in item.get("tags") or () if isinstance(tag, str)),
        guid=guid,
    )


def _safe_html(markup: str, base: str) -> str | None:
    """HTML treated as feedparser treats it in XML feeds: sanitised, URIs made absolute."""
    # feedparser's own sanitiser (private, pinned with feedparser), so that JSON Feed content
    # is exactly as safe as RSS and Atom content.
    clean = feedparser.sanitizer._sanitize_html(markup, "utf-8", "text/html")
    return _clean(feedparser.urls.resolve_relative_uris(clean, base, "utf-8", "text/html"))


def _json_text(value: Any) -> str:
    """A JSON Feed title: plain text by the spec, yet often written HTML-escaped."""
    return _plain_text(html.unescape(_string(value)), is_html=False)


def _json_authors(holder: Mapping[str, Any]) -> tuple[str, ...]:
    """JSON Feed 1.1 ``authors`` (a list), or 1.0 ``author`` (one object)."""
    listed = holder.get("authors")
    people = listed if isinstance(listed, list) else [holder.get("author")]
    return _unique(_string(person.get("name")) for person in people if isinstance(person, dict))


def _iso_date(value: Any) -> datetime | None:
    """An RFC 3339 date as aware UTC; a value without offset is taken as UTC; junk -> None."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return _plausible((parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC))


# --- values ----------------------------------------------------------------------------------


def _utc(value: Any) -> datetime | None:
    """feedparser's UTC ``struct_time`` as an aware datetime; impossible or placeholder -> None."""
    if not isinstance(value, time.struct_time):
        return None
    try:
        return _plausible(datetime(*value[:6], tzinfo=UTC))
    except (ValueError, OverflowError):
        return None


def _plausible(moment: datetime) -> datetime | None:
    return moment if moment.year >= MIN_YEAR else None


def _plain_detail(detail: Any) -> str:
    """A feedparser text construct (``title_detail``) as plain text."""
    fields = dict(detail or {})
    is_html = "html" in str(fields.get("type") or "")
    return _plain_text(_string(fields.get("value")), is_html=is_html)


def _plain_text(value: str, *, is_html: bool) -> str:
    """Markup dropped (when HTML), entities decoded, whitespace runs made single spaces."""
    if is_html and value.strip():
        with contextlib.suppress(etree.ParserError, ValueError):
            value = lxml_html.fragment_fromstring(value, create_parent="div").text_content()
    return " ".join(value.split())


def _authors(people: Any) -> tuple[str, ...]:
    return _unique(
        _string(dict(person).get("name") or dict(person).get("email")) for person in people or ()
    )


def _tags(tags: Any) -> tuple[str, ...]:
    return _unique(_string(dict(tag).get("label") or dict(tag).get("term")) for tag in tags or ())


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    """Stripped, non-empty, first occurrence kept, in order."""
    return tuple(dict.fromkeys(text for value in values if (text := " ".join(value.split()))))


def _absolute_link(value: Any, base: str) -> str | None:
    """``value`` resolved against ``base`` when that gives an http(s) URL with a host."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        url = urljoin(base, value.strip())
        parts = urlsplit(url)
    except ValueError:
        return None
    return url if parts.scheme in LINK_SCHEMES and parts.hostname else None


def _host(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _clean(value: Any) -> str | None:
    text = value.strip() if isinstance(value, str) else ""
    return text or None


def _string(value: Any) -> str:
    """A JSON string with lone UTF-16 surrogates (``"\\ud800"``) as U+FFFD: no text can
    hold them, and feedparser's sanitiser raises on them."""
    return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else ""
