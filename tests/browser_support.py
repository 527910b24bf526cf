"""What the tests that drive a real Chromium share: why none can run here, as a reason,
a skip mark and a module-level skip (Playwright missing, or no Chromium to launch); and the
article their fixture pages are built around."""

from __future__ import annotations

import importlib.util

import pytest

from feedsift.errors import RenderError
from feedsift.rendering.browser import chromium_path

__all__ = ["RIVER_STORY", "needs_browser", "no_browser", "require_browser"]


def no_browser() -> str | None:
    """Why no browser test can run here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed"
    try:
        chromium_path()
    except RenderError as exc:
        return f"no Chromium to render with: {exc}"
    return None


#: Marks a test that launches Chromium: skipped, with the reason, where it cannot.
needs_browser = pytest.mark.skipif(no_browser() is not None, reason=str(no_browser()))


def require_browser() -> None:
    """Skip the calling test module, with the reason, where no browser can run."""
    reason = no_browser()
    if reason is not None:
        pytest.skip(reason, allow_module_level=True)


#: A blog post's ``<article>`` opening (its closing tag left to the page), to be formatted
#: with ``title`` and ``promo``: three paragraphs of prose and a promo box between them that
#: a stylesheet may hide.
RIVER_STORY = """<article><h1>{title}</h1>
<p>{title} begins with a paragraph long enough to be the article: the river rose in the
night, the meadows went under, and by morning the lane to the mill was a brown stream.</p>
<div class="promo"><p>{promo}</p></div>
<p>The second paragraph goes on about the flood, the sandbags, the neighbours who came to
help and the tea that was drunk in the kitchen while the water slowly went down again.</p>
<p>A third paragraph closes the post with the clearing up, which took a week of mud.</p>
"""
