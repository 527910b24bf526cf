"""De-duplication: URL keys, feed-item history keys and content fingerprints.

Three layers, as in the URL Tree paper's acquisition pipeline: the feed reader skips items it
has seen (``history_key``), the URL key catches the same document reached through another
feed or an aggregator (``url_key``), and content fingerprints catch the same text served
under different URLs (``content_hash``, ``simhash`` with ``NearDuplicateIndex``).
"""

from __future__ import annotations

from feedsift.dedup.fingerprint import (
    NEAR_DUPLICATE_DISTANCE,
    SIMHASH_BITS,
    NearDuplicateIndex,
    content_hash,
    hamming,
    simhash,
)
from feedsift.dedup.history import history_key
from feedsift.dedup.rules import DEFAULT_USER_RULES, QueryRule, load_rules, parse_rules
from feedsift.dedup.site import site_of
from feedsift.dedup.tracking import is_tracking
from feedsift.dedup.urlkeys import CID_PARAMETER, UrlKey, explain_url_key, title_hash, url_key

__all__ = [
    "CID_PARAMETER",
    "DEFAULT_USER_RULES",
    "NEAR_DUPLICATE_DISTANCE",
    "SIMHASH_BITS",
    "NearDuplicateIndex",
    "QueryRule",
    "UrlKey",
    "content_hash",
    "explain_url_key",
    "hamming",
    "history_key",
    "is_tracking",
    "load_rules",
    "parse_rules",
    "simhash",
    "site_of",
    "title_hash",
    "url_key",
]
