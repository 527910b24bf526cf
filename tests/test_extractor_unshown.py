"""The rendered-mode rule ``drop_unshown``: blocks a rendered layout calls not shown leave
the body; a layout that does not say (the static estimate) changes nothing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.extractors.explain import explain_page
from feedsift.extractors.page import DROP_UNSHOWN
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout, StaticLayout
from feedsift.parsing.page import ParsedPage, parse_page

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "feedsift" / "examples"


class _Hiding:
    """The static estimate, with ``visible`` saying every block is shown but ``hidden``."""

    def __init__(self, hidden: frozenset[int]) -> None:
        self.hidden = hidden

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        found = StaticLayout().layout(view, page)
        visible = np.array([i not in self.hidden for i in range(len(found))])
        return dataclasses.replace(found, visible=visible)


def _page() -> ParsedPage:
    return parse_page((EXAMPLES / "blog-post.html").read_bytes(), url="http://blog.test/post")


def test_unshown_body_blocks_leave_the_body_only_with_the_rule() -> None:
    page = _page()
    base = bundled_extractor()
    kept = np.flatnonzero(base.decide(page).content)
    assert len(kept) > 2 and not DROP_UNSHOWN
    hiding = _Hiding(frozenset({int(kept[1])}))
    text = page.view.blocks[int(kept[1])].text
    off = base.with_layout(hiding)
    on = off.with_drop_unshown(True)
    assert text in off.extract(page).text
    assert text not in on.extract(page).text
    decision = on.decide(page)
    assert decision.trace is not None and decision.trace.shown is not None
    assert not decision.content[int(kept[1])]
    assert sum(decision.content) == len(kept) - 1
    stages = {b.index: b.stage for b in explain_page(on, page).blocks}
    assert stages[int(kept[1])] == "not shown"


def test_the_rule_changes_nothing_without_visibility() -> None:
    page = _page()
    base = bundled_extractor()
    on = base.with_drop_unshown(True)
    assert on.extract(page) == base.extract(page)
    assert on.decide(page).trace.shown is None  # type: ignore[union-attr]
