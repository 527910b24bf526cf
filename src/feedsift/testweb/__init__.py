"""A loopback web of realistic sites with feeds, faults and a truth API.

Used by the test-suite and by ``feedsift demo``: three generated sites with distinct
templates (a WordPress blog, a Ghost blog, a news site), a faults site whose URLs fail on
purpose, optionally the real blogs of ``../shared/sites/ssg``, and a control server.
Posts appear in rounds (:meth:`TestWeb.advance`, or ``POST /_testweb/advance``), and
:meth:`TestWeb.truth` (``GET /_testweb/truth``) says what is published where, with every
URL variant of every post and the expected outcome of every fault.

>>> from feedsift.testweb import TestWeb
>>> with TestWeb(seed=7) as web:                       # doctest: +SKIP
...     web.feed_urls("good")[:1]
['http://127.0.0.1:40123/feed/']
"""

from __future__ import annotations

from feedsift.testweb.faults import DEFAULT_SLOW_SECONDS, FAULTS, Fault
from feedsift.testweb.payloads import BOMB_SIZE, OVERSIZED_BYTES
from feedsift.testweb.server import RequestRecord
from feedsift.testweb.sites import FEED_ITEMS
from feedsift.testweb.truth import (
    FeedFormat,
    FeedKind,
    Truth,
    TruthFault,
    TruthFeed,
    TruthPost,
    TruthSite,
)
from feedsift.testweb.web import GENERATED_SITES, TestWeb

__all__ = [
    "BOMB_SIZE",
    "DEFAULT_SLOW_SECONDS",
    "FAULTS",
    "FEED_ITEMS",
    "GENERATED_SITES",
    "OVERSIZED_BYTES",
    "Fault",
    "FeedFormat",
    "FeedKind",
    "RequestRecord",
    "TestWeb",
    "Truth",
    "TruthFault",
    "TruthFeed",
    "TruthPost",
    "TruthSite",
]
