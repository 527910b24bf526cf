"""Layout of text blocks: where a block would be shown and how large its font is.

The papers read layout from a rendered page (bounding boxes, font size and weight). Until a
renderer is plugged in, :class:`StaticLayout` estimates the same quantities from the markup
alone: tag default font sizes, inline ``font-size``/``width`` styles and the position of the
block in document order. Anything that can fill a :class:`Layout` (one row per block; a
headless browser, say) implements :class:`LayoutProvider` and every feature downstream uses
it unchanged.

Units: ``x``, ``y``, ``width`` and ``height`` are fractions of the viewport's width and
height (``y < 1`` means "in the first screen"); ``font_size`` is in CSS pixels.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Protocol

import numpy as np
from lxml import etree

from feedsift.parsing.blocks import BlockView, TextBlock

if TYPE_CHECKING:
    from feedsift.parsing.page import ParsedPage

__all__ = [
    "TAG_FONT_SIZE",
    "VIEWPORT",
    "Box",
    "Layout",
    "LayoutProvider",
    "StaticLayout",
]

#: Viewport the estimates assume, in CSS pixels (a common desktop size).
VIEWPORT = (1280.0, 800.0)
#: Browser default font sizes in px (user-agent stylesheet); others inherit 16px.
TAG_FONT_SIZE = {
    "h1": 32.0, "h2": 24.0, "h3": 18.72, "h4": 16.0, "h5": 13.28, "h6": 10.72,
    "small": 13.33, "big": 19.2, "sub": 13.33, "sup": 13.33,
}  # fmt: skip
#: Tags rendered bold by default.
BOLD_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "b", "strong", "th", "dt"})
#: Average glyph width as a share of the font size (Latin text in a proportional font).
GLYPH_WIDTH = 0.5
#: Line height as a multiple of the font size.
LINE_HEIGHT = 1.4
#: Vertical gap between two blocks, in lines.
BLOCK_GAP_LINES = 0.5

#: A block's owner subtree and text, read in C (``map``) rather than by a generator.
_SUBTREE, _TEXT = attrgetter("subtree"), attrgetter("text")

_FONT_SIZE_RE = re.compile(r"font-size\s*:\s*([\d.]+)\s*(px|pt|em|rem|%)", re.IGNORECASE)
_WIDTH_RE = re.compile(r"(?:^|;)\s*width\s*:\s*([\d.]+)\s*(px|%)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Box:
    """Where a block is drawn: viewport-relative geometry plus font size and weight."""

    x: float
    y: float
    width: float
    height: float
    font_size: float
    bold: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """The boxes of all blocks of a page as parallel arrays (one entry per block).

    A renderer may also give, per block, whether it is shown (``visible``, bool), its
    text's WCAG contrast ratio (``contrast``, NaN where unknown), whether it lies in the
    page's main column (``main_column``, bool) and the number of the visual segment holding
    it (``segment``, int, from 0 in document order: :mod:`feedsift.rendering.segments`); a
    static estimate leaves them ``None``.
    """

    x: np.ndarray
    y: np.ndarray
    width: np.ndarray
    height: np.ndarray
    font_size: np.ndarray
    bold: np.ndarray  #: bool
    visible: np.ndarray | None = None
    contrast: np.ndarray | None = None
    main_column: np.ndarray | None = None
    segment: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.y)

    def box(self, index: int) -> Box:
        """Block ``index``'s box as one record."""
        return Box(float(self.x[index]), float(self.y[index]), float(self.width[index]),
                   float(self.height[index]), float(self.font_size[index]),
                   bool(self.bold[index]))  # fmt: skip

    @classmethod
    def from_boxes(cls, boxes: Sequence[Box]) -> Layout:
        """A layout from per-block records (what a renderer may find easier to give)."""
        rows = np.array([(b.x, b.y, b.width, b.height, b.font_size, b.bold) for b in boxes],
                        dtype=np.float64).reshape(len(boxes), 6)  # fmt: skip
        return cls(x=rows[:, 0], y=rows[:, 1], width=rows[:, 2], height=rows[:, 3],
                   font_size=rows[:, 4], bold=rows[:, 5].astype(bool))  # fmt: skip


class LayoutProvider(Protocol):
    """Anything that gives the layout of every text block of a page.

    ``page`` is the parsed page ``view`` belongs to, when the caller has it (the
    extraction pipeline always passes it): a provider that renders needs its source text
    and URL; one that reads the view alone (:class:`StaticLayout`) ignores it.
    """

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout: ...


def _style_font_size(style: str | None, inherited: float) -> float | None:
    if not style:
        return None
    match = _FONT_SIZE_RE.search(style)
    if not match:
        return None
    value, unit = float(match.group(1)), match.group(2).lower()
    factor = {"px": 1.0, "pt": 4.0 / 3.0, "em": inherited, "rem": 16.0, "%": inherited / 100}
    return value * factor[unit]


def _style_width(style: str | None) -> float | None:
    """Width as a share of the viewport width, from an inline style or ``width`` attribute."""
    if not style:
        return None
    match = _WIDTH_RE.search(style)
    if not match:
        return None
    value = float(match.group(1))
    share = value / 100.0 if match.group(2) == "%" else value / VIEWPORT[0]
    return min(1.0, max(0.05, share))


class StaticLayout:
    """Layout estimated from markup alone (no rendering)."""

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        """The estimate for ``view`` (``page`` is not needed: the view's tree says all)."""
        blocks = view.blocks
        styles = np.array(self._subtree_styles(view), dtype=np.float64).reshape(-1, 3)
        owner = np.fromiter(map(_SUBTREE, blocks), dtype=np.intp, count=len(blocks))
        font, width = styles[owner, 0], styles[owner, 1]
        inline_bold = np.fromiter(map(self._inline_bold, blocks), dtype=bool, count=len(blocks))
        bold = (styles[owner, 2] > 0) | inline_bold
        chars = np.fromiter(map(len, map(_TEXT, blocks)), dtype=np.float64, count=len(blocks))
        per_line = np.maximum(1.0, width * VIEWPORT[0] / (GLYPH_WIDTH * font))
        lines = np.maximum(1.0, -np.floor_divide(-chars, per_line))
        height = lines * font * LINE_HEIGHT / VIEWPORT[1]
        step = height + BLOCK_GAP_LINES * font * LINE_HEIGHT / VIEWPORT[1]
        y = np.concatenate([[0.0], np.cumsum(step)[:-1]]) if len(blocks) else np.zeros(0)
        return Layout(0.5 - width / 2, y, width, height, font, bold)

    def boxes(self, view: BlockView) -> list[Box]:
        """The same layout as one :class:`Box` per block."""
        found = self.layout(view)
        return [found.box(i) for i in range(len(found))]

    @staticmethod
    def _subtree_styles(view: BlockView) -> list[tuple[float, float, bool]]:
        """(font size px, width share, bold) of every subtree, inherited from its parent.

        Subtrees come parents first, so one pass suffices; the walk's root inherits from
        the elements above it (``<html>``).
        """
        styles: list[tuple[float, float, bool]] = []
        for sub in view.subtrees:
            element = sub.element
            if sub.parent >= 0:
                inherited = styles[sub.parent]
            else:
                inherited = _ROOT_STYLE
                for above in reversed(list(element.iterancestors())):
                    inherited = _style_of(above, inherited)
            # _style_of's test inline (most subtrees change nothing): a call less each
            if (
                sub.tag in _STYLED_TAGS
                or element.get("style") is not None
                or element.get("width") is not None
            ):
                inherited = _own_style(element, sub.tag, inherited)
            styles.append(inherited)
        return styles

    @staticmethod
    def _inline_bold(block: TextBlock) -> bool:
        """Whole-block emphasis: the owner's only child is a ``b``/``strong`` with the text."""
        element = block.element
        return (
            len(element) == 1
            and element[0].tag in ("b", "strong")
            and not (element.text or "").strip()
        )


_ROOT_STYLE = (16.0, 1.0, False)


def _style_of(
    element: etree._Element, inherited: tuple[float, float, bool]
) -> tuple[float, float, bool]:
    """An element's style given its parent's: most elements change nothing."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag not in _STYLED_TAGS and element.get("style") is None and element.get("width") is None:
        return inherited
    return _own_style(element, tag, inherited)
#: Tags that change font size, width or weight by themselves.
_STYLED_TAGS = frozenset(TAG_FONT_SIZE) | BOLD_TAGS | {"td", "th"}


def _own_style(
    element: etree._Element, tag: str, inherited: tuple[float, float, bool]
) -> tuple[float, float, bool]:
    font, width, bold = inherited
    style = element.get("style")
    font = _style_font_size(style, font) or TAG_FONT_SIZE.get(tag, font)
    own_width = _style_width(style) or _style_width(_attr_width(element))
    parent = element.getparent()
    if own_width is not None:
        width = min(width, own_width)
    elif tag in ("td", "th") and parent is not None:
        width = width / max(1, len(parent))
    bold = bold or tag in BOLD_TAGS or "bold" in (style or "")
    return font, width, bold


def _attr_width(element: etree._Element) -> str | None:
    value = element.get("width")
    if value is None:
        return None
    value = value.strip()
    return f"width:{value}" if value.endswith("%") else f"width:{value}px"
