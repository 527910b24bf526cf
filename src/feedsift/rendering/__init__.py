"""Rendering: a headless Chromium behind the layout interface (boxes, fonts, visibility)."""
