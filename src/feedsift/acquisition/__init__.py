"""Acquisition: getting pages from the web (for now a single polite GET)."""

from feedsift.acquisition.http import FetchedPage, fetch_page

__all__ = ["FetchedPage", "fetch_page"]
