"""URL keys: a nearly unique identifier of a document, built from its response URL.

The procedure of the URL Tree paper (Section 3), for a document reached from a feed item:

1. start from the *response* URL (the request URL after redirections);
2. append the 128-bit hash of the item's title, as given in the feed, as query parameter
   ``_cid_`` and sort the query parameters by name;
3. apply the query rules (:mod:`feedsift.dedup.rules`): the first rule whose trigger matches
   keeps only its parameters; when none matches, the paper drops the query completely.

feedsift departs from the paper where no rule applies: dropping the whole query (and with it
``_cid_``) gave ``/story?id=12`` and ``/story?id=13`` one key, so the second story was stored
as a duplicate of the first and lost. A false merge loses a document for good, while a false
split is still caught by the content fingerprints, so a key only drops what is known not to
name the document:

* a rule applies only when its trigger matches *and* the URL has one of the parameters it
  keeps: a rule that would keep nothing (the WordPress rule on ``/?sku=A1``) is not about
  this URL;
* when no rule applies, the known tracking parameters (:mod:`feedsift.dedup.tracking`) and
  ``_cid_`` are dropped and every other parameter is kept. So two URLs whose queries differ
  in anything but tracking parameters, or parameters an applying rule drops, never share a
  key.

A site's learned query parameters (:mod:`feedsift.dedup.params`) may drop more, after the
rules' fast path: when no rule applies and a title is given, the parameters the site's
learner knows not to name a page (session ids, sort orders) are dropped too; once a site
drops any, its keys keep ``_cid_``, so a learned drop only ever joins items with the same
title. Without learned state (``learned=None``) the key is exactly the one described above.

Decisions beyond the paper, all needed for a key that is stable and idempotent:

* The URL is normalised before step 2: scheme and host lowercased (an internationalised host
  is left as given, not converted to punycode), the default port (80 for http, 443 for https),
  user name and password (never part of a document's identity, and no secret belongs in a
  key) and the fragment dropped, an empty path becomes ``/``. Path case is kept. Characters
  that must be escaped (spaces, non-ASCII) are percent-encoded as UTF-8, escapes of unreserved
  characters (``%7E``) are decoded, the other escapes written in upper case (``%2f`` ->
  ``%2F``) and a stray ``%`` that starts no escape is written ``%25``; existing escapes are
  otherwise kept as they are.
* The query is split on ``&`` only; blank values (``a=``), bare names (``a``) and repeated
  parameters are kept, and sorted stably by name then value. Empty pieces (``a=1&&b=2``) are
  dropped.
* A ``_cid_`` already in the URL is replaced, not repeated: it can only come from an earlier
  key, so the key of a key is the key itself.
* An empty or missing title (after whitespace normalisation) adds no ``_cid_``.
* Table 1 prints "cid" for the Al Jazeera, Daily Mail and Fox News rules; since step 2 adds
  ``_cid_`` and those triggers are pages whose URL stays the same for different documents,
  we read it as ``_cid_`` (the shipped rules keep ``_cid_`` there).
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, quote, unquote, urlsplit

from feedsift.dedup.rules import QueryRule
from feedsift.dedup.tracking import is_tracking
from feedsift.errors import InputError
from feedsift.text.tokens import normalize_space

if TYPE_CHECKING:
    from feedsift.dedup.params import QueryParamLearner

__all__ = [
    "CID_PARAMETER",
    "DEFAULT_PORTS",
    "UrlKey",
    "explain_url_key",
    "identity_params",
    "param_name",
    "title_hash",
    "url_key",
]

#: The query parameter step 2 adds; the name the paper uses.
CID_PARAMETER = "_cid_"
#: Ports that are implied by the scheme, so writing them makes no other URL.
DEFAULT_PORTS = {"http": 80, "https": 443}
#: Characters left as they are in paths and queries (RFC 3986 reserved and unreserved, and
#: ``%`` so existing escapes survive); everything else is percent-encoded as UTF-8.
_SAFE_CHARACTERS = "!$&'()*+,/:;=?@[]~-._%"
#: Escapes of these characters mean the characters themselves (RFC 3986, section 2.3).
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})?")


@dataclass(frozen=True, slots=True)
class UrlKey:
    """The steps of one URL key, for ``feedsift show URL``."""

    response_url: str  #: step 1, as given
    with_cid: str  #: step 2: normalised, ``_cid_`` added, query sorted
    key: str  #: step 3: the URL key
    rule: QueryRule | None  #: the rule that filtered the query (``None``: tracking dropped)
    dropped: tuple[str, ...] = ()  #: the query parameters (``name=value``) step 3 dropped
    learned: tuple[str, ...] = ()  #: of those, the ones the site's learned state dropped


@dataclass(frozen=True, slots=True)
class _Parts:
    """A normalised URL: ``origin`` is ``scheme://host[:port]``, params are ``name=value``."""

    origin: str
    path: str
    params: tuple[str, ...]

    def unparse(self) -> str:
        query = "&".join(self.params)
        return f"{self.origin}{self.path}?{query}" if query else f"{self.origin}{self.path}"


def title_hash(title: str) -> str:
    """The 128-bit title hash of step 2: MD5 hex (32 characters) of the title.

    The title is taken as given in the feed except for whitespace: every run of whitespace
    becomes one space and the ends are stripped, so re-indented feed XML gives the same hash.
    """
    data = normalize_space(title).encode("utf-8")
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def url_key(
    response_url: str,
    title: str | None,
    rules: Sequence[QueryRule],
    learned: QueryParamLearner | None = None,
) -> str:
    """The URL key of the document at ``response_url`` whose feed title is ``title``
    (``learned``: the site's fitted parameter learner, if any)."""
    return explain_url_key(response_url, title, rules, learned).key


def explain_url_key(
    response_url: str,
    title: str | None,
    rules: Sequence[QueryRule],
    learned: QueryParamLearner | None = None,
) -> UrlKey:
    """The URL key with its intermediate steps and the rule that applied.

    Raises ``InputError`` when ``response_url`` is not an absolute http(s) URL, and
    ``NotFittedError`` when ``learned`` is given but not fitted.
    """
    parts = _add_cid(_normalise(response_url), title)
    with_cid = parts.unparse()
    names = {_name(p) for p in parts.params}
    rule = next((rule for rule in rules if _applies(rule, with_cid, names)), None)
    kept = tuple(p for p in parts.params if _keeps(rule, _name(p)))
    learned_drops: tuple[str, ...] = ()
    if learned is not None:
        learned.check_fitted()
    if rule is None and learned is not None:
        kept, learned_drops = _learned_drop(parts.params, kept, learned)
    dropped = tuple(p for p in parts.params if p not in kept)
    key = _Parts(parts.origin, parts.path, kept).unparse()
    return UrlKey(response_url, with_cid, key, rule, dropped, learned_drops)


def _learned_drop(
    params: tuple[str, ...], kept: tuple[str, ...], learned: QueryParamLearner
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``kept`` without what ``learned`` drops, and those dropped. Once the site drops any
    parameter, its keys keep ``_cid_``: the title then tells items apart, and a story keeps
    one key whether a dropped parameter is in its URL or not. Without a title nothing is
    dropped."""
    cid = tuple(p for p in params if _name(p) == CID_PARAMETER)
    if not cid or not learned.dropped_names():
        return kept, ()
    drops = tuple(p for p in kept if learned.drops(_name(p)))
    rest = [p for p in kept if p not in drops] + list(cid)
    return tuple(sorted(rest, key=_sort_key)), drops


def identity_params(url: str) -> tuple[str, tuple[str, ...]]:
    """The normalised ``scheme://host[:port]/path`` of ``url`` and the query pieces
    (``name=value``, sorted) that may name its document: all but tracking and ``_cid_``.

    What the parameter learner compares items by; InputError for a URL with no key."""
    parts = _add_cid(_normalise(url), None)
    kept = tuple(p for p in parts.params if _keeps(None, _name(p)))
    return parts.origin + parts.path, kept


def param_name(param: str) -> str:
    """The decoded name of a ``name=value`` query piece."""
    return _name(param)


def _applies(rule: QueryRule, with_cid: str, names: set[str]) -> bool:
    """The rule's trigger matches and the URL has a parameter the rule keeps."""
    return any(rule.keeps(name) for name in names) and rule.applies(with_cid)


def _keeps(rule: QueryRule | None, name: str) -> bool:
    """Whether parameter ``name`` stays in the key: the rule's, or all but tracking and cid."""
    if rule is not None:
        return rule.keeps(name)
    return name != CID_PARAMETER and not is_tracking(name)


def _normalise(url: str) -> _Parts:
    try:
        split = urlsplit(url.strip())
        origin = _origin(split)
    except ValueError as err:
        raise InputError(f"not a valid URL {url!r}: {err}") from None
    path = _normalise_escapes(split.path) or "/"
    params = (_normalise_escapes(p) for p in split.query.split("&"))
    return _Parts(origin, path, tuple(p for p in params if p))


def _origin(split: SplitResult) -> str:
    """``scheme://host[:port]`` lowercased, without the default port and the user info."""
    scheme = split.scheme.lower()
    host = split.hostname  # lowercased, IPv6 brackets removed
    if scheme not in DEFAULT_PORTS or not host:
        raise ValueError("an absolute http or https URL is expected")
    if not host.isprintable() or any(char.isspace() for char in host):
        raise ValueError("the host name holds spaces or control characters")
    port = split.port  # raises ValueError when out of range or not a number
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    return f"{scheme}://{host}"


def _normalise_escapes(text: str) -> str:
    """Escape what must be escaped, decode unreserved escapes, upper-case the others."""
    return _ESCAPE.sub(_normalise_escape, quote(text, safe=_SAFE_CHARACTERS))


def _normalise_escape(match: re.Match[str]) -> str:
    if match.group(1) is None:  # a stray "%": escape it, or it could pair with what follows
        return "%25"
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else match.group(0).upper()


def _add_cid(parts: _Parts, title: str | None) -> _Parts:
    """Step 2: replace any ``_cid_`` by the title hash, then sort by name and value."""
    params = [p for p in parts.params if _name(p) != CID_PARAMETER]
    if title is not None and normalize_space(title):
        params.append(f"{CID_PARAMETER}={title_hash(title)}")
    return _Parts(parts.origin, parts.path, tuple(sorted(params, key=_sort_key)))


def _name(param: str) -> str:
    """The decoded name of a ``name=value`` query piece."""
    return unquote(param.partition("=")[0])


def _sort_key(param: str) -> tuple[str, str, bool]:
    name, equals, value = param.partition("=")
    return (name, value, bool(equals))
