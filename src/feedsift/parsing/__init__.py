"""Parsing: bytes to text, text to a cleaned lxml DOM, DOM to text blocks and layout."""
