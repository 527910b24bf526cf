"""Query parameters read strictly: a value that does not parse, or a parameter the endpoint
does not know (a typo such as ``?comment=1``), is a 400 with the reason, never ignored."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from starlette.datastructures import QueryParams
from starlette.requests import Request

from feedsift.errors import InputError
from feedsift.server.errors import ApiError
from feedsift.storage.since import since_moment

__all__ = [
    "MAX_DIGITS",
    "TRUE_WORDS",
    "check_known",
    "choice",
    "flag",
    "moment",
    "path_id",
    "text",
    "whole",
]

#: How a true flag may be written (``?comments``, bare, is true too).
TRUE_WORDS = frozenset({"", "1", "true", "yes", "on"})
#: How a false flag may be written.
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
#: Most digits of a whole number read: ids are 64-bit integers (19 digits), which 18
#: digits never pass; longer ones are refused before Python or the database is asked.
MAX_DIGITS = 18


def check_known(params: QueryParams, known: Collection[str]) -> None:
    """400 for a parameter not in ``known``, naming the ones that are."""
    unknown = sorted(set(params) - set(known))
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise ApiError(400, f"unknown query parameter(s): {', '.join(unknown)} (known: {allowed})")


def text(params: QueryParams, name: str) -> str | None:
    """The parameter's value with surrounding spaces removed; None when absent or blank."""
    value = params.get(name, "").strip()
    return value or None


def flag(params: QueryParams, name: str, default: bool) -> bool:
    """A yes/no parameter: 1, true, yes, on (or bare) against 0, false, no, off."""
    if name not in params:
        return default
    value = params[name].strip().lower()
    if value in TRUE_WORDS or value in FALSE_WORDS:
        return value in TRUE_WORDS
    raise ApiError(400, f"{name}={params[name]!r} is not a yes/no value (use 1 or 0)")


def whole(params: QueryParams, name: str, default: int, bounds: tuple[int, int]) -> int:
    """A whole number within ``bounds`` (both included)."""
    raw = params.get(name)
    if raw is None:
        return default
    low, high = bounds
    value = _whole(raw)
    if value is None or not low <= value <= high:
        raise ApiError(400, f"{name}={raw!r} is not a whole number from {low} to {high}")
    return value


def path_id(request: Request, what: str) -> int:
    """The ``{id}`` of the request's path; 404 naming ``what`` when it is no id."""
    raw = str(request.path_params["id"])
    value = _whole(raw)
    if value is None:
        raise ApiError(404, f"no {what} has the id {raw!r}")
    return value


def _whole(raw: str) -> int | None:
    """``raw`` as a whole number of at most :data:`MAX_DIGITS` ASCII digits, else None."""
    value = raw.strip()
    if not (value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS):
        return None
    return int(value)


def choice(params: QueryParams, name: str, choices: Collection[str], default: str) -> str:
    """One of ``choices``."""
    value = params.get(name, default).strip().lower()
    if value not in choices:
        raise ApiError(400, f"{name}={value!r} is not one of {', '.join(sorted(choices))}")
    return value


def moment(params: QueryParams, name: str) -> datetime | None:
    """A date, an ISO time (UTC unless it says) or an age such as 24h, as ``--since``."""
    raw = text(params, name)
    if raw is None:
        return None
    try:
        return since_moment(raw)
    except InputError as exc:
        raise ApiError(400, f"{name}: {exc}") from exc
