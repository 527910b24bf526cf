"""The HTML forms the pages post back: their body read within the size cap, and the rule
that a form which changes something comes from this server's own pages.

A browser sends a cross-site form post as readily as a same-site one, so a page elsewhere
could make the user's browser subscribe feeds here. Browsers name the page a post comes
from in ``Origin`` (and in ``Sec-Fetch-Site``): :func:`require_same_origin` refuses a
write whose origin is another site's, or unknown.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

from feedsift.server.errors import ApiError
from feedsift.server.limits import media_type, read_body
from feedsift.server.services import services_of

__all__ = [
    "FORM_TYPE",
    "MAX_FORM_FIELDS",
    "MULTIPART_TYPE",
    "OPAQUE_ORIGIN",
    "SAME_SITE_FETCHES",
    "PostedForm",
    "Upload",
    "read_form",
    "read_upload_form",
    "require_same_origin",
]

#: The media type of the pages' forms (parsed here: no python-multipart needed).
FORM_TYPE = "application/x-www-form-urlencoded"
#: The media type of a form with a file in it (parsed by python-multipart, within the cap).
MULTIPART_TYPE = "multipart/form-data"
#: Files one form may carry: the inspector's takes one page.
MAX_FILES = 1
#: More fields than any of the pages' forms has: a bigger form is not one of ours.
MAX_FORM_FIELDS = 16
#: The ``Origin`` of a post whose page's origin is withheld (a privacy setting): unknown.
OPAQUE_ORIGIN = "null"
#: ``Sec-Fetch-Site`` values of a request the user made here ("none": typed or bookmarked).
SAME_SITE_FETCHES = frozenset({"same-origin", "none"})


@dataclass(frozen=True, slots=True)
class Upload:
    """A file sent with a form: its name, the type the browser gave it, its bytes."""

    filename: str
    content_type: str | None
    data: bytes


@dataclass(frozen=True, slots=True)
class PostedForm:
    """A posted form's text fields (the first value of each) and its files."""

    fields: Mapping[str, str]
    files: Mapping[str, Upload]


async def read_form(request: Request) -> dict[str, str]:
    """The posted form's fields (the first value of each): 415 for another body type, 413
    above the server's body limit, 400 for a body that is no form."""
    if media_type(request) != FORM_TYPE:
        raise ApiError(415, f"post the form as {FORM_TYPE}")
    body = await read_body(request, services_of(request).options.max_body_bytes)
    try:
        parsed = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True,
                          max_num_fields=MAX_FORM_FIELDS)  # fmt: skip
    except ValueError as exc:  # too many fields
        raise ApiError(400, f"the form cannot be read: {exc}") from exc
    return {name: values[0] for name, values in parsed.items()}


async def read_upload_form(request: Request) -> PostedForm:
    """A form posted url-encoded or as ``multipart/form-data`` (with at most one file);
    the whole body within the server's limit (413), 400 for a body that is no such form,
    415 for another type."""
    if media_type(request) == FORM_TYPE:
        return PostedForm(await read_form(request), {})
    if media_type(request) != MULTIPART_TYPE:
        raise ApiError(415, f"post the form as {FORM_TYPE} or {MULTIPART_TYPE}")
    limit = services_of(request).options.max_body_bytes
    body = await read_body(request, limit)
    parser = MultiPartParser(request.headers, _once(body), max_files=MAX_FILES,
                             max_fields=MAX_FORM_FIELDS, max_part_size=limit)  # fmt: skip
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise ApiError(400, f"the form cannot be read: {exc.message}") from exc
    fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    files = {k: await _upload(v) for k, v in form.multi_items() if isinstance(v, UploadFile)}
    return PostedForm(fields, files)


async def _once(body: bytes) -> AsyncGenerator[bytes, None]:
    yield body


async def _upload(file: UploadFile) -> Upload:
    try:
        return Upload(file.filename or "", file.content_type, await file.read())
    finally:
        await file.close()


def require_same_origin(request: Request) -> None:
    """403 unless the post comes from one of this server's pages: its ``Origin`` names the
    host and port the request was sent to (else, when the browser withholds it, its
    ``Sec-Fetch-Site`` says same-origin); a client that sends neither uses the JSON API."""
    origin = request.headers.get("origin")
    if origin is not None and origin != OPAQUE_ORIGIN:
        if _origin_host(origin) == request.headers.get("host", "").lower() != "":
            return
        raise ApiError(403, f"this form must be posted from this server's own pages, not {origin}")
    if request.headers.get("sec-fetch-site", "").lower() in SAME_SITE_FETCHES:
        return
    raise ApiError(403, "a form post that changes something must come from this server's own "
                   "pages (no Origin header was sent): use the JSON API instead")  # fmt: skip


def _origin_host(origin: str) -> str | None:
    """The host and port of an ``Origin`` (the scheme is left out: behind a TLS proxy the
    page is https and the request it sends here is http); None when it is no URL."""
    try:
        return urlsplit(origin).netloc.lower()
    except ValueError:
        return None
