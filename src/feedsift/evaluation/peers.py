"""The extractors feedsift is measured against, behind one small interface.

Each peer wraps one library of the optional ``compare`` extra (``pip install
feedsift[compare]``) plus htmldate, and feedsift itself through its public API. Imports are
lazy: a peer whose library is missing reports ``available() == False`` and the benchmark
lists it as not installed. ``run`` is the call that is timed; ``complete`` may add metadata
the timed call does not return (trafilatura's ``extract`` gives text only) without
distorting the timing.

Settings, chosen to match how each tool is used and evaluated by its authors:

* feedsift: ``feedsift.extract(raw_bytes, url)`` with its defaults (text, listings and
  metadata). ``feedsift-text`` is the same call with ``with_metadata=False``.
* trafilatura: ``extract(html, url=url, include_comments=False)``. ``include_comments`` is
  the only change from the defaults: the gold of every dataset excludes comments, and
  trafilatura's own evaluation runs with comments off. Metadata comes, untimed, from
  ``extract_metadata``. ``trafilatura-defaults`` is the same call with every default, comments
  included, as a user who installs it gets it. ``trafilatura-metadata`` times ``extract`` and
  ``extract_metadata`` together: text and metadata, like feedsift's default call.
* readability-lxml: ``Document(html).summary()`` turned into text with a line break after
  every block element; the title is ``short_title()``.
* jusText: ``justext.justext(html, stoplist)`` with the library's default thresholds; the
  stoplist is the one of the page's ``<html lang>`` when jusText has it, else the union of
  all its stoplists (the language-independent choice of trafilatura's evaluation).
* boilerpy3: ``ArticleExtractor().get_doc(html)``: content and ``<title>``.
* resiliparse: ``extract_plain_text(html, main_content=True)``.
* goose3: ``Goose().extract(raw_html=html)``: cleaned text, title, authors, publish date
  (no URL is passed, so goose3 never tries the network).
* htmldate: ``find_date(html, url=url)`` with its defaults: the date-only reference.
"""

from __future__ import annotations

import importlib
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any, ClassVar, Literal

from lxml import etree
from lxml import html as lxml_html

import feedsift
from feedsift.extractors.base import PageExtractor

__all__ = [
    "BoilerpipePeer",
    "FeedsiftPeer",
    "FeedsiftTextPeer",
    "GoosePeer",
    "HtmldatePeer",
    "JustextPeer",
    "Peer",
    "PeerField",
    "PeerInput",
    "PeerResult",
    "ReadabilityPeer",
    "ResiliparsePeer",
    "TrafilaturaDefaultsPeer",
    "TrafilaturaMetadataPeer",
    "TrafilaturaPeer",
    "all_peers",
    "parse_peer_date",
    "select_peers",
]

PeerField = Literal["text", "title", "authors", "date"]

#: A page every peer can digest, run once before timing starts so that lazy imports and
#: one-time set-up (models, stoplists, parsers) are not charged to the first page.
WARM_UP_HTML = (
    "<html lang='en'><head><title>Warm up</title></head><body><article><h1>Warm up</h1>"
    "<p>This paragraph is long enough to be kept by every extractor that looks for "
    "sentences, stop words and text density in the body of a page.</p></article></body></html>"
)

#: How far into a page ``<html lang>`` is looked for (it is in the first tag).
LANG_SNIFF_CHARS = 4096

#: Block-level tags after which readability's summary gets a line break, so that words of
#: adjacent paragraphs do not run together in the text.
BLOCK_TAGS = (
    "p", "div", "section", "article", "header", "footer", "aside", "blockquote", "pre",
    "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr",
    "figure", "figcaption", "br", "hr",
)  # fmt: skip

#: ISO 639-1 codes of ``<html lang>`` to jusText stoplist names (the languages of the
#: datasets and the most common others on the web).
JUSTEXT_LANGUAGES = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
    "pt": "Portuguese", "nl": "Dutch", "ru": "Russian", "pl": "Polish", "cs": "Czech",
    "sk": "Slovak", "sv": "Swedish", "da": "Danish", "fi": "Finnish", "no": "Norwegian_Bokmal",
    "nb": "Norwegian_Bokmal", "nn": "Norwegian_Nynorsk", "hu": "Hungarian", "ro": "Romanian",
    "tr": "Turkish", "el": "Greek", "uk": "Ukrainian", "bg": "Bulgarian", "hr": "Croatian",
    "sl": "Slovenian", "sr": "Serbian", "ca": "Catalan", "eu": "Basque", "gl": "Galician",
    "ko": "Korean", "ar": "Arabic", "he": "Hebrew", "fa": "Persian", "hi": "Hindi",
    "id": "Indonesian", "ms": "Malay", "vi": "Vietnamese", "et": "Estonian", "lv": "Latvian",
    "lt": "Lithuanian",
}  # fmt: skip

_LANG_RE = re.compile(r"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z]{2,3})", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PeerInput:
    """One page as the peers receive it."""

    data: bytes  #: the raw bytes (feedsift decodes them itself)
    html: str  #: the same page decoded once, for every peer that takes text
    url: str | None = None


@dataclass(frozen=True, slots=True)
class PeerResult:
    """What one peer extracted from one page (empty fields when it found nothing)."""

    text: str = ""
    title: str | None = None
    authors: tuple[str, ...] = ()
    date: date | None = None


class Peer(ABC):
    """One extractor under comparison. Subclasses set the class attributes and ``run``."""

    name: str  #: unique, used in --peers and the reports
    module: ClassVar[str]  #: module imported by ``available``
    distribution: ClassVar[str]  #: package whose version is reported
    fields: ClassVar[frozenset[PeerField]]  #: what the peer extracts (and is scored on)

    def available(self) -> bool:
        """Whether the peer's library can be imported."""
        try:
            importlib.import_module(self.module)
        except ImportError:
            return False
        return True

    def version(self) -> str | None:
        """The installed version of the peer's package, if known."""
        try:
            return version(self.distribution)
        except PackageNotFoundError:
            return None

    @abstractmethod
    def run(self, page: PeerInput) -> PeerResult:
        """Extract one page: this is the call the benchmark times."""

    def complete(self, page: PeerInput, result: PeerResult) -> PeerResult:
        """Add what the timed call does not return (untimed); the default adds nothing."""
        return result

    def warm_up(self) -> None:
        """Run once on a tiny page so that one-time costs are not timed; errors are ignored."""
        page = PeerInput(WARM_UP_HTML.encode("utf-8"), WARM_UP_HTML, None)
        try:
            self.complete(page, self.run(page))
        except Exception:  # a failing peer is reported per page later
            return


def parse_peer_date(value: Any) -> date | None:
    """The calendar day of a peer's date output (``YYYY-MM-DD...`` text, date or datetime)."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None


def _split_authors(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(a.strip() for a in value.split(";") if a.strip())
    if isinstance(value, list | tuple):
        return tuple(str(a).strip() for a in value if str(a).strip())
    return ()


def _optional_text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


class FeedsiftPeer(Peer):
    """feedsift through its public API, on the raw bytes."""

    name = "feedsift"
    module = "feedsift"
    distribution = "feedsift"
    fields = frozenset({"text", "title", "authors", "date"})

    def __init__(self, extractor: PageExtractor | None = None) -> None:
        self.extractor = extractor  #: another model than the bundled one (``--model``)

    def run(self, page: PeerInput) -> PeerResult:
        article = feedsift.extract(page.data, page.url, extractor=self.extractor)
        published = article.published.date() if article.published else None
        return PeerResult(article.text, article.title, article.authors, published)


class FeedsiftTextPeer(FeedsiftPeer):
    """feedsift without its metadata stage: the text-only call, to set against trafilatura's
    ``extract`` (which returns text only)."""

    name = "feedsift-text"
    fields = frozenset({"text"})

    def run(self, page: PeerInput) -> PeerResult:
        article = feedsift.extract(page.data, page.url, extractor=self.extractor,
                                   with_metadata=False)  # fmt: skip
        return PeerResult(article.text)


class TrafilaturaPeer(Peer):
    """trafilatura's ``extract`` (timed) plus ``extract_metadata`` (untimed)."""

    name = "trafilatura"
    module = "trafilatura"
    distribution = "trafilatura"
    fields = frozenset({"text", "title", "authors", "date"})

    def run(self, page: PeerInput) -> PeerResult:
        trafilatura = importlib.import_module("trafilatura")
        text = trafilatura.extract(page.html, url=page.url, include_comments=False)
        return PeerResult(text=text or "")

    def complete(self, page: PeerInput, result: PeerResult) -> PeerResult:
        trafilatura = importlib.import_module("trafilatura")
        meta = trafilatura.extract_metadata(page.html, default_url=page.url)
        if meta is None:
            return result
        return replace(
            result,
            title=_optional_text(meta.title),
            authors=_split_authors(meta.author),
            date=parse_peer_date(meta.date),
        )


class TrafilaturaMetadataPeer(TrafilaturaPeer):
    """trafilatura's text *and* metadata, both timed: the like-for-like match of feedsift's
    default call, which returns both."""

    name = "trafilatura-metadata"

    def run(self, page: PeerInput) -> PeerResult:
        return self.complete(page, super().run(page))

    def complete(self, page: PeerInput, result: PeerResult) -> PeerResult:
        if result.title is not None or result.date is not None or result.authors:
            return result  # already completed inside the timed call
        return super().complete(page, result)


class TrafilaturaDefaultsPeer(TrafilaturaPeer):
    """trafilatura exactly as shipped: ``extract(html, url=url)`` (comments included)."""

    name = "trafilatura-defaults"

    def run(self, page: PeerInput) -> PeerResult:
        trafilatura = importlib.import_module("trafilatura")
        return PeerResult(text=trafilatura.extract(page.html, url=page.url) or "")


def summary_to_text(fragment: str) -> str:
    """Plain text of an HTML fragment, one line per block element."""
    if not fragment.strip():
        return ""
    root = lxml_html.fromstring(fragment)
    for element in root.iter(*BLOCK_TAGS):
        element.tail = "\n" + (element.tail or "")
    text = etree.tostring(root, method="text", encoding="unicode")
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


class ReadabilityPeer(Peer):
    """readability-lxml (the Python port of Arc90's Readability)."""

    name = "readability"
    module = "readability"
    distribution = "readability-lxml"
    fields = frozenset({"text", "title"})

    def run(self, page: PeerInput) -> PeerResult:
        readability = importlib.import_module("readability")
        document = readability.Document(page.html)
        text = summary_to_text(document.summary())
        return PeerResult(text=text, title=_optional_text(document.short_title()))


def html_language(html: str) -> str | None:
    """The primary language subtag of ``<html lang>``, lower-cased, if declared."""
    match = _LANG_RE.search(html[:LANG_SNIFF_CHARS])
    return match.group(1).lower() if match else None


class JustextPeer(Peer):
    """jusText with the page language's stoplist (or all of them)."""

    name = "justext"
    module = "justext"
    distribution = "jusText"
    fields = frozenset({"text"})

    def __init__(self) -> None:
        self._stoplists: dict[str, frozenset[str]] = {}

    def _stoplist(self, language: str | None) -> frozenset[str]:
        justext = importlib.import_module("justext")
        name = JUSTEXT_LANGUAGES.get(language or "", "*")
        if name not in self._stoplists:
            if name == "*":
                words: set[str] = set()
                for each in justext.get_stoplists():
                    words |= justext.get_stoplist(each)
                self._stoplists[name] = frozenset(words)
            else:
                self._stoplists[name] = frozenset(justext.get_stoplist(name))
        return self._stoplists[name]

    def run(self, page: PeerInput) -> PeerResult:
        justext = importlib.import_module("justext")
        stoplist = self._stoplist(html_language(page.html))
        paragraphs = justext.justext(page.html, stoplist)
        return PeerResult(text="\n".join(p.text for p in paragraphs if not p.is_boilerplate))


class BoilerpipePeer(Peer):
    """boilerpy3's ``ArticleExtractor`` (the Python port of boilerpipe)."""

    name = "boilerpy3"
    module = "boilerpy3"
    distribution = "boilerpy3"
    fields = frozenset({"text", "title"})

    def __init__(self) -> None:
        self._extractor: Any = None

    def run(self, page: PeerInput) -> PeerResult:
        if self._extractor is None:
            self._extractor = importlib.import_module("boilerpy3.extractors").ArticleExtractor()
        document = self._extractor.get_doc(page.html)
        return PeerResult(text=document.content or "", title=_optional_text(document.title))


class ResiliparsePeer(Peer):
    """Resiliparse's main-content plain-text extraction."""

    name = "resiliparse"
    module = "resiliparse.extract.html2text"
    distribution = "Resiliparse"
    fields = frozenset({"text"})

    def run(self, page: PeerInput) -> PeerResult:
        html2text = importlib.import_module("resiliparse.extract.html2text")
        return PeerResult(text=html2text.extract_plain_text(page.html, main_content=True))


class GoosePeer(Peer):
    """goose3: text, title, authors and publish date."""

    name = "goose3"
    module = "goose3"
    distribution = "goose3"
    fields = frozenset({"text", "title", "authors", "date"})

    def __init__(self) -> None:
        self._goose: Any = None

    def run(self, page: PeerInput) -> PeerResult:
        if self._goose is None:
            self._goose = importlib.import_module("goose3").Goose()
        article = self._goose.extract(raw_html=page.html)
        return PeerResult(
            text=article.cleaned_text or "",
            title=_optional_text(article.title),
            authors=_split_authors(article.authors),
            date=parse_peer_date(article.publish_date),
        )


class HtmldatePeer(Peer):
    """htmldate alone: the reference for publication dates."""

    name = "htmldate"
    module = "htmldate"
    distribution = "htmldate"
    fields = frozenset({"date"})

    def run(self, page: PeerInput) -> PeerResult:
        htmldate = importlib.import_module("htmldate")
        return PeerResult(date=parse_peer_date(htmldate.find_date(page.html, url=page.url)))


def all_peers(extractor: PageExtractor | None = None) -> list[Peer]:
    """A fresh instance of every known peer, feedsift first (with ``extractor``, the
    bundled model when ``None``), installed or not."""
    return [
        FeedsiftPeer(extractor),
        FeedsiftTextPeer(extractor),
        TrafilaturaPeer(),
        TrafilaturaMetadataPeer(),
        TrafilaturaDefaultsPeer(),
        ReadabilityPeer(),
        JustextPeer(),
        BoilerpipePeer(),
        ResiliparsePeer(),
        GoosePeer(),
        HtmldatePeer(),
    ]


def select_peers(
    names: Sequence[str] = (), extractor: PageExtractor | None = None
) -> tuple[list[Peer], list[str]]:
    """The installed peers among ``names`` (all when empty) and the names not installed.

    Raises ``ValueError`` for a name that is no known peer.
    """
    known = {peer.name: peer for peer in all_peers(extractor)}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown peer {', '.join(unknown)}; known: {', '.join(known)}")
    wanted = [known[n] for n in dict.fromkeys(names)] if names else list(known.values())
    installed = [peer for peer in wanted if peer.available()]
    missing = [peer.name for peer in wanted if peer not in installed]
    return installed, missing
