"""Errors as HTTP answers: every failure is ``{"error": "<one-line reason>"}`` with a status,
or, for a browser asking for one of the HTML pages (not ``/api/``), a page that says the
same reason.

Handlers raise :class:`ApiError` for what the request got wrong (a bad parameter, an
unknown id, a body too large); feedsift's own exceptions keep their one-line reason and
get the status their class stands for (:data:`STATUSES`). Anything else is a bug: logged
with its traceback on the server, answered 500 with the exception's type only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ExceptionHandler

from feedsift.errors import (
    FeedError,
    FeedsiftError,
    FetchError,
    InputError,
    RobotsDisallowedError,
    StorageError,
    UnsafeAddressError,
)
from feedsift.server.html import esc, html_page, link, wants_html

__all__ = [
    "STATUSES",
    "ApiError",
    "error_answer",
    "error_response",
    "exception_handlers",
    "status_of",
]

logger = logging.getLogger(__name__)

#: The status of each feedsift error, the first matching class winning (subclasses first).
STATUSES: tuple[tuple[type[FeedsiftError], int], ...] = (
    (UnsafeAddressError, 400),  # the URL asked for leads into a private network
    (RobotsDisallowedError, 403),  # the site's robots.txt does not allow us the page
    (FetchError, 502),  # the site could not be fetched: its failure, not the request's
    (FeedError, 422),  # the URL given to subscribe is no feed and leads to none
    (InputError, 400),  # a body, parameter or query that cannot be read
    (StorageError, 503),  # the database cannot be reached or read
)
#: Paths whose errors are always JSON, whatever the client accepts: the API's.
API_PATHS = ("/api/", "/openapi.json")
#: The status of any other feedsift error (a model file, a configuration): the server's fault.
DEFAULT_STATUS = 500


class ApiError(FeedsiftError):
    """A request the server refuses: its status and the one-line reason (in feedsift's one
    exception hierarchy; its handler is looked up before :class:`FeedsiftError`'s)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def status_of(error: FeedsiftError) -> int:
    """The HTTP status that stands for ``error``."""
    return next((status for kind, status in STATUSES if isinstance(error, kind)), DEFAULT_STATUS)


def error_response(
    status: int, reason: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """``{"error": reason}`` squeezed onto one line, with ``status``."""
    return JSONResponse({"error": " ".join(reason.split()) or "error"}, status, headers)


def error_answer(
    request: Request, status: int, reason: str, headers: Mapping[str, str] | None = None
) -> Response:
    """The error as a page for a browser on one of the HTML pages, as JSON otherwise."""
    path = request.url.path
    if not wants_html(request.headers.get("accept", "")) or path.startswith(API_PATHS):
        return error_response(status, reason, headers)
    markup = (f'<p class="error">{esc(" ".join(reason.split()))}</p>'
              f"<p>{link('/', 'Back to the start')}.</p>")  # fmt: skip
    page = html_page(f"Error {status}", markup, status)
    page.headers.update(headers or {})
    return page


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_answer(request, exc.status, exc.reason)


async def _feedsift_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, FeedsiftError)
    return error_answer(request, status_of(exc), str(exc) or type(exc).__name__)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, method not allowed) in our shape."""
    assert isinstance(exc, HTTPException)
    reason = exc.detail
    if exc.status_code == 404:
        reason = f"no such endpoint: {request.url.path} (GET / lists them)"
    elif exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        reason = f"{request.method} is not allowed on {request.url.path} (only {allowed})"
    return error_answer(request, exc.status_code, reason, exc.headers)


async def _unexpected(request: Request, exc: Exception) -> Response:
    logger.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_answer(request, 500, f"internal error: {type(exc).__name__} (see the server's "
                        "log)")  # fmt: skip


def exception_handlers() -> dict[type[Exception], ExceptionHandler]:
    """The app's exception handlers, most specific first."""
    return {
        ApiError: _api_error,
        FeedsiftError: _feedsift_error,
        HTTPException: _http_error,
        Exception: _unexpected,
    }
