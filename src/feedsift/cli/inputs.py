"""What ``feedsift extract`` reads: arguments resolved into inputs, and each input's bytes.

``resolve_inputs`` turns the command line into an ordered list of :class:`InputSource`
(files, folders walked recursively, glob patterns expanded by us for shells that do not,
http(s) URLs, ``-`` for stdin, WARC files) plus the arguments that named nothing usable.
A WARC file stands for its HTML records: :func:`warc_sources` reads it (in the main
process) into one ``record`` source per page, each carrying its :class:`WarcPage`.
``load_input`` then reads one source: a file (gunzipped when it is gzip data), a URL (one
polite GET), the stdin bytes read up front or a WARC record's body. They raise or report,
never print.
"""

from __future__ import annotations

import glob
import os
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal
from urllib.parse import urlsplit

from feedsift.acquisition.http import DEFAULT_TIMEOUT, fetch_page
from feedsift.acquisition.warc import WARC_SUFFIXES, WarcPage, WarcSkip, read_warc
from feedsift.errors import InputError

__all__ = [
    "HTML_SUFFIXES",
    "MAX_INPUT_BYTES",
    "STDIN_NAME",
    "WARC_SUFFIXES",
    "InputProblem",
    "InputSource",
    "LoadOptions",
    "LoadedInput",
    "ResolvedInputs",
    "gunzip_capped",
    "load_input",
    "read_capped",
    "resolve_inputs",
    "warc_sources",
]

#: File names picked up when walking a folder (a page saved by a browser or a crawler).
HTML_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz", ".xhtml")
#: Largest input read, after decompression: pages are < 5 MB, more is a data dump, not a page.
MAX_INPUT_BYTES = 50 * 1024 * 1024
#: How stdin is named in messages and in ``input`` fields.
STDIN_NAME = "<stdin>"
#: What starts a gzip stream (RFC 1952); such inputs are decompressed whatever their name.
GZIP_MAGIC = b"\x1f\x8b"
#: Bytes decompressed per step, so a gzip bomb is stopped within one step of the cap.
GUNZIP_STEP = 1024 * 1024
#: What starts a WARC file (after decompression): such a file under another name is refused
#: with a hint, not read as a page.
WARC_MAGIC = b"WARC/"

_GLOB_CHARS = re.compile(r"[*?\[]")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://")
_UNSAFE_NAME_CHARS = re.compile(r"[^\w.-]+")

#: ``warc`` is a WARC file (expanded by :func:`warc_sources`), ``record`` one page of it.
InputKind = Literal["file", "url", "stdin", "warc", "record"]


@dataclass(frozen=True, slots=True)
class InputSource:
    """One input to extract.

    ``name`` is what messages and the ``input`` field show; ``location`` is the path or URL;
    ``stem`` is a safe relative name (no extension) for a per-input output file; ``data``
    holds stdin's bytes, read by the main process before any worker starts. A ``record``
    source is one page of a WARC file: ``name`` is the file, ``location`` the page's URL,
    ``page`` the record (its body read by the main process too).
    """

    kind: InputKind
    name: str
    location: str
    stem: str
    data: bytes | None = None
    page: WarcPage | None = None


@dataclass(frozen=True, slots=True)
class InputProblem:
    """An argument that named nothing usable, and why."""

    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class ResolvedInputs:
    """The inputs found, the arguments that failed, and whether the user asked for several."""

    sources: tuple[InputSource, ...]
    problems: tuple[InputProblem, ...]
    many: bool


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """Limits for reading one input."""

    max_bytes: int = MAX_INPUT_BYTES
    timeout: float = DEFAULT_TIMEOUT
    check_robots: bool = True
    allow_private: bool = False  #: fetch private and loopback addresses (SSRF guard off)


@dataclass(frozen=True, slots=True)
class LoadedInput:
    """One input's raw bytes with the URL and ``Content-Type`` it came with, if any."""

    source: InputSource
    data: bytes
    url: str | None
    content_type: str | None


def resolve_inputs(
    args: Sequence[str], stdin: BinaryIO | None = None, max_bytes: int = MAX_INPUT_BYTES
) -> ResolvedInputs:
    """Resolve command-line inputs in order; no argument at all means stdin.

    Folders and glob matches are sorted; a path met twice is kept once.
    """
    names = list(args) or ["-"]
    sources: list[InputSource] = []
    problems: list[InputProblem] = []
    for arg in names:
        found, problem = _resolve_one(arg, stdin, max_bytes)
        sources.extend(found)
        if problem is not None:
            problems.append(problem)
    many = len(names) > 1 or any(_expands(arg) for arg in names)
    return ResolvedInputs(_unique(sources), tuple(problems), many)


def _resolve_one(
    arg: str, stdin: BinaryIO | None, max_bytes: int
) -> tuple[list[InputSource], InputProblem | None]:
    if arg == "-":
        return _stdin_source(stdin, max_bytes)
    scheme = _SCHEME.match(arg)
    if scheme:
        return _url_source(arg, scheme.group(1))
    path = Path(arg)
    if path.is_dir():
        found = _walk_folder(arg)
        return found, None if found else InputProblem(arg, _NO_HTML_IN_FOLDER)
    if path.exists() or path.is_symlink():
        return [_file_source(arg)], None
    if _GLOB_CHARS.search(arg):
        found = _expand_glob(arg)
        return found, None if found else InputProblem(arg, "no file matches this pattern")
    return [], InputProblem(arg, "no such file or directory")


def _url_source(arg: str, scheme: str) -> tuple[list[InputSource], InputProblem | None]:
    if scheme.lower() in ("http", "https"):
        return [InputSource("url", arg, arg, _url_stem(arg))], None
    return [], InputProblem(arg, f"unsupported URL scheme {scheme!r}: only http(s)")


_NO_HTML_IN_FOLDER = (
    "folder holds no HTML or WARC files (" + ", ".join(HTML_SUFFIXES + WARC_SUFFIXES) + ")"
)


def _expands(arg: str) -> bool:
    """Whether an argument may stand for several inputs (a folder, a glob pattern or a
    WARC file)."""
    if arg == "-" or _SCHEME.match(arg):
        return False
    path = Path(arg)
    if path.is_dir() or arg.lower().endswith(WARC_SUFFIXES):
        return True
    return not path.exists() and bool(_GLOB_CHARS.search(arg))


def _stdin_source(
    stdin: BinaryIO | None, max_bytes: int
) -> tuple[list[InputSource], InputProblem | None]:
    if stdin is None:
        return [], InputProblem(STDIN_NAME, "stdin is not available")
    try:
        data = read_capped(stdin, max_bytes)
    except InputError as exc:
        return [], InputProblem(STDIN_NAME, str(exc))
    return [InputSource("stdin", STDIN_NAME, "-", "stdin", data)], None


def _walk_folder(folder: str) -> list[InputSource]:
    """HTML files under ``folder`` (symlinked folders are not followed: no loops)."""
    found: list[InputSource] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for filename in sorted(filenames):
            if filename.lower().endswith(HTML_SUFFIXES + WARC_SUFFIXES):
                path = os.path.join(dirpath, filename)
                relative = os.path.relpath(path, folder)
                found.append(InputSource(_file_kind(path), path, path, _path_stem(relative)))
    return found


def _expand_glob(pattern: str) -> list[InputSource]:
    found: list[InputSource] = []
    for match in sorted(glob.glob(pattern, recursive=True)):
        found.extend(_walk_folder(match) if os.path.isdir(match) else [_file_source(match)])
    return found


def _file_source(path: str) -> InputSource:
    return InputSource(_file_kind(path), path, path, _path_stem(os.path.basename(path)))


def _file_kind(path: str) -> InputKind:
    return "warc" if path.lower().endswith(WARC_SUFFIXES) else "file"


def _unique(sources: list[InputSource]) -> tuple[InputSource, ...]:
    seen: set[str] = set()
    kept: list[InputSource] = []
    for source in sources:
        local = source.kind in ("file", "warc")
        key = os.path.realpath(source.location) if local else source.location
        if key not in seen:
            seen.add(key)
            kept.append(source)
    return tuple(kept)


def _path_stem(relative: str) -> str:
    """``a/b/page.html.gz`` -> ``a/b/page``, every part made safe for a file name."""
    parts = [_safe_part(part) for part in PurePosixPath(relative.replace(os.sep, "/")).parts]
    last = parts[-1] if parts else "page"
    for suffix in sorted(HTML_SUFFIXES + WARC_SUFFIXES, key=len, reverse=True):
        if last.lower().endswith(suffix) and len(last) > len(suffix):
            last = last[: -len(suffix)]
            break
    return "/".join([*parts[:-1], last])


def _url_stem(url: str) -> str:
    """``https://example.org/2024/post.html`` -> ``example.org_2024_post`` (one flat name)."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    for suffix in HTML_SUFFIXES:
        path = path.removesuffix(suffix)
    return _safe_part("_".join(p for p in (parts.netloc, *path.split("/")) if p))


def _safe_part(part: str) -> str:
    safe = _UNSAFE_NAME_CHARS.sub("_", part).strip("._")
    return safe or "page"


def warc_sources(source: InputSource, max_bytes: int) -> Iterator[InputSource | WarcSkip]:
    """A WARC file's pages as ``record`` sources, in file order, and its skipped records.

    Raises :class:`InputError` when the file cannot be read as a WARC file at all.
    """
    for item in read_warc(source.location, max_bytes):
        if isinstance(item, WarcSkip):
            yield item
        else:
            stem = f"{source.stem}/{_url_stem(item.url)}"
            yield InputSource("record", source.name, item.url, stem, page=item)


def load_input(source: InputSource, options: LoadOptions = LoadOptions()) -> LoadedInput:
    """Read one input's bytes; raise :class:`InputError` or :class:`FetchError` with the reason."""
    if source.kind == "record" and source.page is not None:
        record = source.page
        return LoadedInput(source, record.body, record.url, record.content_type)
    if source.kind == "warc":
        raise InputError("a WARC file is read record by record (warc_sources), not as a page")
    if source.kind == "url":
        page = fetch_page(
            source.location,
            timeout=options.timeout,
            max_bytes=options.max_bytes,
            check_robots=options.check_robots,
            allow_private=options.allow_private,
        )
        return LoadedInput(source, page.body, page.final_url, page.content_type)
    if source.kind == "stdin":
        data = source.data or b""
    else:
        data = _read_file(source.location, options.max_bytes)
    if data.startswith(GZIP_MAGIC):
        data = gunzip_capped(data, options.max_bytes)
    if data.startswith(WARC_MAGIC):
        raise InputError(
            "this is a WARC file: give it a name ending in .warc or .warc.gz to read its pages"
        )
    return LoadedInput(source, data, None, None)


def _read_file(path: str, max_bytes: int) -> bytes:
    try:
        size = os.path.getsize(path)
        if size > max_bytes:
            raise InputError(f"file too large: {size} bytes, the limit is {max_bytes}")
        with open(path, "rb") as handle:
            return read_capped(handle, max_bytes)
    except IsADirectoryError as exc:
        raise InputError("is a directory") from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from exc


def read_capped(stream: BinaryIO, max_bytes: int) -> bytes:
    """Read a whole stream, refusing it once it passes ``max_bytes``."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(f"input larger than the limit of {max_bytes} bytes")
    return data


def gunzip_capped(data: bytes, max_bytes: int) -> bytes:
    """Decompress (possibly multi-member) gzip data, refusing output beyond ``max_bytes``."""
    out = bytearray()
    pending = data
    try:
        while pending.startswith(GZIP_MAGIC):
            pending = _inflate_member(pending, out, max_bytes)
    except zlib.error as exc:
        raise InputError(f"corrupt gzip data: {exc}") from exc
    return bytes(out)


def _inflate_member(data: bytes, out: bytearray, max_bytes: int) -> bytes:
    """Inflate one gzip member into ``out`` step by step; return the bytes after it."""
    inflater = zlib.decompressobj(wbits=31)
    chunk = data
    while not inflater.eof:
        piece = inflater.decompress(chunk, GUNZIP_STEP)
        out += piece
        if len(out) > max_bytes:
            raise InputError(f"decompressed input larger than the limit of {max_bytes} bytes")
        chunk = inflater.unconsumed_tail
        if not chunk and not piece:
            raise InputError("truncated gzip data")
    return inflater.unused_data
