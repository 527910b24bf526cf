"""Request bodies read within a size limit, counted while they arrive.

A declared ``Content-Length`` over the limit is refused before a byte is read; a body sent
without one (chunked) is refused as soon as what arrived passes the limit, so no request
makes the server hold more than the limit in memory.
"""

from __future__ import annotations

import json

from starlette.requests import Request

from feedsift.server.errors import ApiError

__all__ = ["MAX_JSON_BYTES", "media_type", "read_body", "read_json"]

#: Largest JSON body read (``{"url": ...}``): a URL is < 8 kB, browsers stop at 2 MB.
MAX_JSON_BYTES = 64 * 1024


def media_type(request: Request) -> str:
    """The request's media type without parameters, in lower case ("" when not given)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


async def read_body(request: Request, limit: int) -> bytes:
    """The whole body; :class:`ApiError` 413 as soon as it passes ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limit: int = MAX_JSON_BYTES) -> dict[str, object]:
    """The body as a JSON object; :class:`ApiError` 415 unless it says it is JSON, 400
    unless it is an object."""
    if media_type(request) != "application/json":
        raise ApiError(415, "send a JSON object with Content-Type: application/json")
    body = await read_body(request, limit)
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"the body is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ApiError(400, "the body must be a JSON object, such as {\"url\": \"https://...\"}")
    return value


def _too_large(limit: int) -> ApiError:
    return ApiError(413, f"the request body is larger than the limit of {limit} bytes")
