"""Content fingerprints: exact duplicates by hash, near duplicates by SimHash.

``content_hash`` catches the same article text served again (other markup, other spacing,
other case); ``simhash`` and ``NearDuplicateIndex`` catch the same article with small edits
(a corrected typo, an added byline), following Charikar's SimHash and the "banding" search of
Manku, Jain and Das Sarma, "Detecting near-duplicates for web crawling" (WWW 2007).
"""

from __future__ import annotations

import hashlib

import numpy as np

from feedsift.text.tokens import tokenize_lower

__all__ = [
    "DEFAULT_SHINGLE",
    "NEAR_DUPLICATE_DISTANCE",
    "SIMHASH_BITS",
    "NearDuplicateIndex",
    "content_hash",
    "hamming",
    "simhash",
]

#: Fingerprint width: the width Manku et al. evaluated on 8 billion pages.
SIMHASH_BITS = 64
#: Near duplicates differ in at most this many of the 64 bits: Manku et al. (2007) found 3
#: the best precision/recall trade-off for 64-bit SimHash of web pages.
NEAR_DUPLICATE_DISTANCE = 3
#: Words per shingle: pairs. ``scripts/simhash_probe.py`` (600 gold texts of ../shared/bench,
#: one word changed) keeps within 3 bits: 1-word 62%/98%/100%, 2-word 24%/76%/95%, 3-word
#: 10%/59%/83% of texts under 100, 100-300, 300-1000 tokens; but single words put unrelated
#: texts of one template close (their stop words dominate: the test web's posts came out 1-2
#: bits apart), while 2-word shingles kept them 11+ bits apart.
DEFAULT_SHINGLE = 2

_BIT_SHIFTS = np.arange(SIMHASH_BITS, dtype=np.uint64)


def content_hash(text: str) -> str:
    """SHA-1 hex of the lower-cased word tokens joined by spaces.

    Whitespace, case and punctuation do not count: only the sequence of words does.
    """
    words = " ".join(tokenize_lower(text))
    return hashlib.sha1(words.encode("utf-8"), usedforsecurity=False).hexdigest()


def simhash(text: str, *, shingle: int = DEFAULT_SHINGLE) -> int:
    """The 64-bit SimHash of the text's word shingles (0 for a text without words).

    Each shingle of ``shingle`` consecutive lower-cased tokens (the whole text when it is
    shorter) is hashed with an 8-byte BLAKE2b digest, which is stable across processes unlike
    ``hash()``. Bit ``i`` of the result is set when most shingle hashes have bit ``i`` set.
    """
    if shingle < 1:
        raise ValueError(f"shingle must be at least 1, not {shingle}")
    tokens = tokenize_lower(text)
    if not tokens:
        return 0
    count = max(len(tokens) - shingle + 1, 1)
    digests = b"".join(_digest(" ".join(tokens[i : i + shingle])) for i in range(count))
    hashes = np.frombuffer(digests, dtype=">u8").astype(np.uint64)
    ones = ((hashes[:, None] >> _BIT_SHIFTS) & np.uint64(1)).sum(axis=0)
    bits = (2 * ones > count).astype(np.uint64) << _BIT_SHIFTS
    return int(np.bitwise_or.reduce(bits))


def _digest(shingle: str) -> bytes:
    return hashlib.blake2b(shingle.encode("utf-8"), digest_size=SIMHASH_BITS // 8).digest()


def hamming(a: int, b: int) -> int:
    """The number of bits in which two fingerprints differ."""
    return (a ^ b).bit_count()


class NearDuplicateIndex:
    """Fingerprints of earlier documents, searchable for one within ``max_distance`` bits.

    The 64 bits are cut into ``max_distance + 1`` bands: two fingerprints that differ in at
    most ``max_distance`` bits agree exactly on at least one band (pigeonhole), so only the
    documents sharing a band with the query are compared bit by bit.
    """

    def __init__(self, max_distance: int = NEAR_DUPLICATE_DISTANCE) -> None:
        if not 0 <= max_distance < SIMHASH_BITS:
            raise ValueError(f"max_distance must be in 0..{SIMHASH_BITS - 1}, not {max_distance}")
        self.max_distance = max_distance
        self._bands = _band_masks(max_distance + 1)
        self._tables: list[dict[int, list[int]]] = [{} for _ in self._bands]
        self._fingerprints: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._fingerprints)

    def add(self, doc_id: int, fingerprint: int) -> None:
        """Index the document ``doc_id``; an id already indexed raises ``ValueError``."""
        _check_fingerprint(fingerprint)
        if doc_id in self._fingerprints:
            raise ValueError(f"document {doc_id} is already in the index")
        self._fingerprints[doc_id] = fingerprint
        for (shift, mask), table in zip(self._bands, self._tables, strict=True):
            table.setdefault((fingerprint >> shift) & mask, []).append(doc_id)

    def find(self, fingerprint: int) -> int | None:
        """The closest indexed document within ``max_distance`` (ties: smallest id), or None."""
        _check_fingerprint(fingerprint)
        candidates: set[int] = set()
        for (shift, mask), table in zip(self._bands, self._tables, strict=True):
            candidates.update(table.get((fingerprint >> shift) & mask, ()))
        scored = (
            (hamming(self._fingerprints[doc_id], fingerprint), doc_id) for doc_id in candidates
        )
        best = min(scored, default=None)
        if best is None or best[0] > self.max_distance:
            return None
        return best[1]


def _band_masks(bands: int) -> list[tuple[int, int]]:
    """``(shift, mask)`` of each band; the 64 bits are shared out as evenly as possible."""
    size, extra = divmod(SIMHASH_BITS, bands)
    masks: list[tuple[int, int]] = []
    shift = 0
    for band in range(bands):
        width = size + (1 if band < extra else 0)
        masks.append((shift, (1 << width) - 1))
        shift += width
    return masks


def _check_fingerprint(fingerprint: int) -> None:
    if not 0 <= fingerprint < 1 << SIMHASH_BITS:
        raise ValueError(f"a fingerprint is an unsigned {SIMHASH_BITS}-bit integer: {fingerprint}")
