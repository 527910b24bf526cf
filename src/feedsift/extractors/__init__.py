"""Extractors: page-level (learned from gold pages) and, later, site-level learners.

Every extractor reads a :class:`~feedsift.parsing.page.ParsedPage` and returns an
:class:`~feedsift.records.Article`; the combiner treats them all the same way.
"""
