"""The site of a web page, as the Spark job groups records: its registered domain.

A registered domain is the public suffix of a host plus one label (``news.bbc.co.uk`` ->
``bbc.co.uk``), read from the Public Suffix List that the pinned ``tld`` package ships
(its copy, never fetched: the job runs offline and gives the same sites on every machine).
The list's private section counts too, so each ``NAME.github.io`` or ``NAME.blogspot.com``
blog is a site of its own, not one site of millions of blogs.

The learners themselves stay per host (:func:`feedsift.dedup.site.site_of`, as in the
crawl): a domain's hosts (``www.``, ``blog.``, ``shop.``) often run different templates.
"""

from __future__ import annotations

from tld import get_fld

__all__ = ["registered_domain"]

#: The scheme put before a host so that ``tld`` reads it as a URL.
_SCHEME = "http://"


def registered_domain(host: str) -> str:
    """``host``'s registered domain (lower case); the host itself when the list knows no
    suffix of it (an IP address, ``localhost``, reserved names such as ``.example``) or the
    host is itself a public suffix. A ``:port`` is dropped for the look-up and kept with a
    host returned as it is."""
    name = host.lower()
    bare = name.rsplit(":", 1)[0] if not name.endswith("]") else name
    found = get_fld(_SCHEME + bare, fail_silently=True)
    return found if isinstance(found, str) and found else name
