"""Word overlap of two texts: the LCS measure of the URL Tree paper.

P = LCS / len(extracted), R = LCS / len(reference), on lower-cased word tokens. The
evaluation scores extractors with it, and the site-level combiner checks each method's body
against the feed's content with it, so it lives beside the tokeniser rather than in the
evaluation package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from feedsift.text.tokens import tokenize_lower

__all__ = ["PRF", "lcs_length", "lcs_prf"]


@dataclass(frozen=True, slots=True)
class PRF:
    """Precision, recall and their harmonic mean."""

    precision: float
    recall: float
    f1: float

    @classmethod
    def of(cls, precision: float, recall: float) -> PRF:
        total = precision + recall
        return cls(precision, recall, 2 * precision * recall / total if total else 0.0)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token sequences.

    Bit-parallel algorithm (Allison-Dix / Hyyro): one big-integer step per token of ``b``,
    so whole articles are compared in milliseconds.
    """
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for i, token in enumerate(a):
        masks[token] = masks.get(token, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for token in b:
        u = v & masks.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def lcs_prf(extracted: str, gold: str) -> PRF:
    """LCS-based precision, recall and F1 of ``extracted`` against ``gold``."""
    ext, ref = tokenize_lower(extracted), tokenize_lower(gold)
    if not ext or not ref:
        return PRF(0.0, 0.0, 0.0)
    common = lcs_length(ext, ref)
    return PRF.of(common / len(ext), common / len(ref))
