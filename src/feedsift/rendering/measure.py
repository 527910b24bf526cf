"""What a rendered page says about each text block, as Python records.

:func:`measure_page` loads a marked page (:mod:`feedsift.rendering.marking`) in a
:class:`~feedsift.rendering.browser.Renderer`, runs the page script
(:mod:`feedsift.rendering.page_script`) and turns its rows into one
:class:`BlockMeasure` per block plus the page's totals (:class:`PageMeasure`).

Choices where the issue is silent:

- **Box.** A block that is all of its owner's text gets the owner element's border box
  (what the layout papers read); a block that is part of it (text cut by ``<br>`` or by a
  nested block, a tail) gets the box of its own text nodes (a DOM Range), when the
  browser's text of the owner matches the block's; otherwise the owner's box.
- **Visibility**, measured once animations and transitions have been finished (the page
  as a reader sees it after they ran, not their first frame). Hidden when most of the
  block's characters sit in elements that ``checkVisibility`` calls hidden
  (``display:none``, ``visibility:hidden``, ``opacity:0`` on it or an ancestor), when its
  text box is under :data:`MIN_SIZE_PX`, lies wholly outside the document (beyond its
  right or bottom edge only counts outside scrolling ancestors: a ``main`` that scrolls
  inside a viewport-high body holds the whole post below the fold), is clipped
  away by an ancestor's ``overflow`` (each axis on its own: ``overflow-x:hidden`` does
  not cut a scroller's content below the fold) or ``clip``, or its text colour is
  transparent.
- **Opacity left by a script that did not run.** Themes keep the post at ``opacity:0``
  until a script fades it in (NexT's motion classes); scripts from other hosts, and any
  the resolver does not serve, are blocked, so the page stays faded. A page does not
  hide most of its own text on purpose: when blocks hidden by opacity alone hold more
  than :data:`MAX_FADED_SHARE` of the page's characters, opacity is not counted on that
  page (those blocks are shown); below it, ``opacity:0`` hides as the rest does.
- **Contrast.** WCAG 2 contrast ratio of the text colour (its alpha composited) against
  the nearest background colour of its ancestors, composited over white; background images
  are not looked at.
- **Main column.** :mod:`feedsift.rendering.column`, over the blocks' *owner* boxes: the
  column is a property of the element that holds the text, not of a ragged last line
  (the text box of a short line cut by ``<br>`` would make a narrow, dense band).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from feedsift.errors import RenderError
from feedsift.parsing.blocks import INLINE_TAGS, BlockView
from feedsift.parsing.dom import DROPPED_TAGS
from feedsift.rendering.browser import Renderer
from feedsift.rendering.column import main_column
from feedsift.rendering.marking import MARK_ATTR
from feedsift.rendering.network import ResourceResolver
from feedsift.rendering.page_script import MEASURE_SCRIPT

__all__ = [
    "BOLD_WEIGHT",
    "MAX_FADED_SHARE",
    "MIN_SIZE_PX",
    "BlockMeasure",
    "PageMeasure",
    "contrast_ratio",
    "measure_argument",
    "measure_page",
    "unfaded",
]

#: Computed ``font-weight`` from which text counts as bold (600 is "semi-bold").
BOLD_WEIGHT = 600
#: A text box narrower or lower than this many CSS px shows no readable glyph (the
#: screen-reader-only pattern is a 1x1 px box).
MIN_SIZE_PX = 2.0
#: Share of a block's characters that must be in shown elements for the block to be shown.
MIN_SHOWN_SHARE = 0.5
#: Milliseconds the script waits for web fonts before measuring (they change text boxes).
FONT_WAIT_MS = 500
#: Rounds of finishing animations: ending one may start the next (a chain of fade-ins).
SETTLE_ROUNDS = 3
#: Milliseconds a settling round waits for the next frame at most (headless Chromium may
#: not schedule one for a page it thinks is hidden).
FRAME_WAIT_MS = 50
#: Share of a page's characters above which ``opacity:0`` alone is a reveal that a blocked
#: script did not run, not a hiding: more than half of a page is never hidden on purpose.
MAX_FADED_SHARE = 0.5
#: Thinnest border (CSS px) that draws a separator line between two blocks.
MIN_BORDER_PX = 1.0
#: A border separates two blocks when its box is at least this share of the wider block's
#: width: a rule across the text, not a bordered link, badge or ``<code>`` in a sentence.
SEPARATOR_MIN_SHARE = 0.5
#: Most nodes the separator walk visits between two blocks: the walks pass over the page
#: once, except after a block matched out of order, which this bounds.
MAX_WALK_STEPS = 20000
#: Tags whose content the page walk skips without cutting the text (cleaning drops them
#: and keeps their tails in place).
SKIPPED_TAGS = frozenset(DROPPED_TAGS)
#: Kinds of box, indexed by the script's ``kind`` (see :mod:`~.page_script`).
BOX_KINDS = ("owner", "text", "owner-unmatched")
#: Kind of a block whose owner the rendered DOM no longer had.
MISSING = "missing"


@dataclass(frozen=True, slots=True)
class BlockMeasure:
    """One block as rendered (lengths in CSS px, page coordinates, top left origin)."""

    x: float
    y: float
    width: float
    height: float
    font_size: float
    bold: bool
    visible: bool
    contrast: float | None  #: WCAG ratio 1-21; None when the block was not found
    main_column: bool
    box: str  #: "owner", "text", "owner-unmatched" or "missing"
    #: the colour behind the text (nearest ancestor background, composited over white)
    background: tuple[float, float, float] = (255.0, 255.0, 255.0)
    #: a separator (``<hr>``, a border) lies between the block before this one and it
    separator_above: bool = False


@dataclass(frozen=True, slots=True)
class PageMeasure:
    """Every block of a rendered page and the page's totals."""

    blocks: tuple[BlockMeasure, ...]
    document_width: float  #: CSS px
    document_height: float  #: CSS px
    elapsed_ms: float  #: load and measure, as the renderer timed it
    script_ms: float  #: the page script alone
    blocked: tuple[str, ...]  #: requests the network rule aborted
    served: int
    memory_mb: float | None  #: the browser's memory after the page
    separator_ms: float = 0.0  #: the part of ``script_ms`` spent finding separators

    @property
    def missing(self) -> int:
        """Blocks whose owner element the rendered DOM no longer had."""
        return sum(b.box == MISSING for b in self.blocks)


def measure_argument(view: BlockView) -> dict[str, Any]:
    """The page script's argument for a view: block texts and the thresholds above."""
    return {
        "texts": [b.text for b in view.blocks],
        "markAttr": MARK_ATTR,
        "inlineTags": sorted(INLINE_TAGS),
        "skipTags": sorted(SKIPPED_TAGS),
        "boldWeight": BOLD_WEIGHT,
        "minSizePx": MIN_SIZE_PX,
        "minShownShare": MIN_SHOWN_SHARE,
        "fontWaitMs": FONT_WAIT_MS,
        "settleRounds": SETTLE_ROUNDS,
        "frameWaitMs": FRAME_WAIT_MS,
        "minBorderPx": MIN_BORDER_PX,
        "separatorMinShare": SEPARATOR_MIN_SHARE,
        "maxWalkSteps": MAX_WALK_STEPS,
    }


def measure_page(
    renderer: Renderer, view: BlockView, html: str, url: str | None = None,
    resources: ResourceResolver | None = None,
) -> PageMeasure:  # fmt: skip
    """Render ``html`` (the view's page with its owners marked) and measure every block."""
    page = renderer.render(html, MEASURE_SCRIPT, measure_argument(view), url, resources)
    value = page.value
    if not isinstance(value, dict) or len(value.get("rows") or ()) != len(view.blocks):
        raise RenderError(f"{page.url}: the page script gave no row per block")
    chars = [len(b.text) for b in view.blocks]
    separators = value.get("separators") or [0] * len(chars)
    blocks = _blocks(value["rows"], chars, separators)
    return PageMeasure(
        blocks, float(value["width"]), float(value["height"]), page.elapsed_ms,
        float(value["ms"]), page.blocked, page.served, page.memory_mb,
        float(value.get("separatorMs") or 0.0),
    )  # fmt: skip


def _blocks(
    rows: Sequence[Sequence[float] | None], chars: Sequence[int], separators: Sequence[float]
) -> tuple[BlockMeasure, ...]:
    found = [_MISSING_ROW if row is None else tuple(map(float, row)) for row in rows]
    found = unfaded(found, chars)
    column = main_column(
        [r[15] for r in found], [r[16] for r in found], chars, [r[6] > 0 for r in found]
    )
    return tuple(map(_block, found, column, separators))


#: The script's ``visible`` column: shown, or shown but for ``opacity:0`` (faded).
SHOWN, FADED = 1.0, 2.0


def unfaded(rows: Sequence[tuple[float, ...]], chars: Sequence[int]) -> list[tuple[float, ...]]:
    """Rows with the ``visible`` column decided: a faded block is shown when faded blocks
    hold more than :data:`MAX_FADED_SHARE` of the page's characters, hidden otherwise."""
    total = sum(chars)
    faded = sum(n for row, n in zip(rows, chars, strict=True) if row[6] == FADED)
    verdict = SHOWN if total and faded / total > MAX_FADED_SHARE else 0.0
    return [(*row[:6], verdict, *row[7:]) if row[6] == FADED else row for row in rows]


#: A block the rendered DOM lost: nowhere, not shown, default font, kind -1.
_MISSING_ROW: tuple[float, ...] = (
    0.0, 0.0, 0.0, 0.0, 16.0, 0, 0, 0, 0, 0, 1, 255, 255, 255, -1, 0.0, 0.0
)


def _block(row: tuple[float, ...], in_column: bool, separator: float) -> BlockMeasure:
    """One script row (see :mod:`~.page_script`) and its separator flag as a record."""
    kind = int(row[14])
    contrast = None if kind < 0 else contrast_ratio(row[7:11], row[11:14])
    return BlockMeasure(
        x=row[0], y=row[1], width=row[2], height=row[3], font_size=row[4],
        bold=row[5] > 0, visible=row[6] > 0, contrast=contrast, main_column=bool(in_column),
        box=MISSING if kind < 0 else BOX_KINDS[kind], background=(row[11], row[12], row[13]),
        separator_above=bool(separator),
    )  # fmt: skip


def contrast_ratio(text: Sequence[float], background: Sequence[float]) -> float:
    """WCAG 2 contrast ratio of ``text`` (r, g, b, alpha 0-1) over an opaque ``background``
    (r, g, b), channels 0-255: from 1 (invisible) to 21 (black on white)."""
    alpha = min(1.0, max(0.0, text[3]))
    shown = [text[i] * alpha + background[i] * (1 - alpha) for i in range(3)]
    lighter, darker = sorted((_luminance(shown), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(rgb: Sequence[float]) -> float:
    """Relative luminance of an sRGB colour (WCAG 2 definition)."""
    channels = [c / 255 for c in rgb[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
