"""Typed results of compiled XPath expressions (lxml returns a wide union)."""

from __future__ import annotations

from lxml import etree

__all__ = ["select_elements", "select_strings"]


def select_elements(xpath: etree.XPath, node: etree._Element) -> list[etree._Element]:
    """The elements an element-selecting compiled XPath finds under ``node``."""
    found = xpath(node)
    if not isinstance(found, list):
        return []
    return [e for e in found if isinstance(e, etree._Element)]


def select_strings(xpath: etree.XPath, node: etree._Element) -> list[str]:
    """The strings (text nodes, attribute values) a compiled XPath finds under ``node``."""
    found = xpath(node)
    if not isinstance(found, list):
        return [str(found)] if isinstance(found, str) else []
    return [str(v) for v in found if isinstance(v, str | bytes) and not isinstance(v, bytes)]
