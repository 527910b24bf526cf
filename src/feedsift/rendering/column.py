"""The main column of a rendered page, from geometry alone.

Every visible block lays its characters over each pixel its box spans (the caller passes
the owner elements' boxes): a pixel column's *coverage* is the number of characters of all
the blocks above and below it. The *main column* is the band around the most covered
pixel column where the coverage stays at least :data:`BAND_SHARE` of that peak; a block is
in the main column when at least :data:`INSIDE_SHARE` of its width lies inside the band.

Coverage, not density: spreading a block's characters over its width (characters per
pixel) let the narrow gutters of line numbers beside code (8-16 px wide, dozens of digits)
outweigh an article 1000 px wide (measured on a Chirpy blog post); a narrow box adds to
few pixel columns only, and a full-width header or footer adds the same to all of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["BAND_SHARE", "BIN_PX", "INSIDE_SHARE", "main_column", "main_column_band"]

#: Width of one bin of the text profile, in CSS px (finer than any gutter between columns).
BIN_PX = 8.0
#: The band spans the bins with at least this share of the peak coverage: a sidebar with
#: less than half the article's characters stays outside it.
BAND_SHARE = 0.5
#: Share of a block's width that must lie in the band: a full-width header, menu or footer
#: reaches well beyond the column and is not in it.
INSIDE_SHARE = 0.8


def main_column_band(
    x: Sequence[float], width: Sequence[float], chars: Sequence[int], visible: Sequence[bool],
) -> tuple[float, float] | None:  # fmt: skip
    """The main column as ``(left, right)`` in px, or ``None`` when no text is shown."""
    left = np.asarray(x, dtype=np.float64)
    right = left + np.asarray(width, dtype=np.float64)
    weight = np.asarray(chars, dtype=np.float64) * np.asarray(visible, dtype=bool)
    keep = (weight > 0) & (right > left)
    if not keep.any():
        return None
    left, right, weight = left[keep], right[keep], weight[keep]
    origin = float(min(0.0, left.min()))
    edges = origin + BIN_PX * np.arange(int(np.ceil((right.max() - origin) / BIN_PX)) + 1)
    density = np.zeros(len(edges) - 1)
    for lo, hi, w in zip(left, right, weight, strict=True):
        overlap = np.clip(np.minimum(edges[1:], hi) - np.maximum(edges[:-1], lo), 0.0, None)
        density += w * overlap / BIN_PX
    peak = int(np.argmax(density))
    dense = density >= BAND_SHARE * density[peak]
    start, stop = peak, peak
    while start > 0 and dense[start - 1]:
        start -= 1
    while stop + 1 < len(dense) and dense[stop + 1]:
        stop += 1
    return float(edges[start]), float(edges[stop + 1])


def main_column(
    x: Sequence[float], width: Sequence[float], chars: Sequence[int], visible: Sequence[bool],
) -> np.ndarray:  # fmt: skip
    """Per block, whether it is shown and lies in the main column (a bool array)."""
    band = main_column_band(x, width, chars, visible)
    shown = np.asarray(visible, dtype=bool)
    if band is None:
        return np.zeros(len(shown), dtype=bool)
    left = np.asarray(x, dtype=np.float64)
    right = left + np.asarray(width, dtype=np.float64)
    inside = np.clip(np.minimum(right, band[1]) - np.maximum(left, band[0]), 0.0, None)
    share = inside / np.maximum(right - left, 1e-9)
    found: np.ndarray = shown & (right > left) & (share >= INSIDE_SHARE)
    return found
