"""Content fingerprints: exact duplicates by hash, near duplicates by SimHash.

``content_hash`` catches the same article text served again (other markup, other spacing,
other case); ``simhash`` and ``NearDuplicateIndex`` catch the same article with small edits
(a corrected typo, an added byline), following Charikar's SimHash and the "banding" search of
Manku, Jain and Das Sarma, "Detecting near-duplicates for web crawling" (WWW 2007).
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt

from feedsift.text.tokens import tokenize_lower

__all__ = [
    "DEFAULT_SHINGLE",
    "NEAR_DUPLICATE_DISTANCE",
    "SIMHASH_BITS",
    "WORD_HASHES",
    "NearDuplicateIndex",
    "WordHashes",
    "content_hash",
    "content_hash_of_tokens",
    "hamming",
    "simhash",
    "simhash_of_tokens",
]

#: Fingerprint width: the width Manku et al. evaluated on 8 billion pages.
SIMHASH_BITS = 64
#: Near duplicates differ in at most this many of the 64 bits: Manku et al. (2007) found 3
#: the best precision/recall trade-off for 64-bit SimHash of web pages.
NEAR_DUPLICATE_DISTANCE = 3
#: Words per shingle: pairs. ``scripts/simhash_probe.py`` (600 gold texts of ../shared/bench,
#: one word changed) keeps within 3 bits: 1-word 62%/98%/100%, 2-word 48%/78%/96%, 3-word
#: 19%/54%/85% of texts under 100, 100-300, 300-1000 tokens, with 0.008%, 0.003% and 0.002%
#: of unrelated pairs within 3 bits; but single words put unrelated texts of one template
#: close (their stop words dominate: the test web's posts came out 1-2 bits apart).
DEFAULT_SHINGLE = 2

#: Words a :class:`WordHashes` keeps before it starts afresh: the 24 ssg blogs' 803 posts
#: hold 46,513 distinct words, and 131,072 words take about 15 MB.
WORD_HASHES = 1 << 17

#: SplitMix64 constants (Steele et al. 2014): the golden-ratio increment and the two
#: multipliers of its finaliser.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


def content_hash(text: str) -> str:
    """SHA-1 hex of the lower-cased word tokens joined by spaces.

    Whitespace, case and punctuation do not count: only the sequence of words does.
    """
    return content_hash_of_tokens(tokenize_lower(text))


def content_hash_of_tokens(tokens: list[str]) -> str:
    """:func:`content_hash` of a text already cut into lower-cased tokens."""
    words = " ".join(tokens)
    return hashlib.sha1(words.encode("utf-8"), usedforsecurity=False).hexdigest()


def simhash(text: str, *, shingle: int = DEFAULT_SHINGLE) -> int:
    """The 64-bit SimHash of the text's word shingles (0 for a text without words).

    Each distinct lower-cased token is hashed once with an 8-byte BLAKE2b digest (stable
    across processes, unlike ``hash()``); the hash of a shingle of ``shingle`` consecutive
    tokens (the whole text when it is shorter) mixes its tokens' hashes in order with a
    SplitMix64 finaliser, vectorised. Bit ``i`` of the result is set when most shingle
    hashes have bit ``i`` set.
    """
    return simhash_of_tokens(tokenize_lower(text), shingle=shingle)


def simhash_of_tokens(
    tokens: list[str], *, shingle: int = DEFAULT_SHINGLE, words: WordHashes | None = None
) -> int:
    """:func:`simhash` of a text already cut into lower-cased tokens (``words``: the
    worker's hashes of the words it met, used and added to; the result is the same)."""
    if shingle < 1:
        raise ValueError(f"shingle must be at least 1, not {shingle}")
    if not tokens:
        return 0
    token_hashes = _token_hashes(tokens) if words is None else words.hashes(tokens)
    hashes = _shingle_hashes(token_hashes, shingle)
    bits = np.unpackbits(hashes.astype(">u8").view(np.uint8).reshape(len(hashes), 8), axis=1)
    ones = bits.sum(axis=0, dtype=np.int64)
    return int.from_bytes(np.packbits(2 * ones > len(hashes)).tobytes(), "big")


def _token_hashes(tokens: list[str]) -> npt.NDArray[np.uint64]:
    """The hash of each token, each distinct token digested once."""
    index: dict[str, int] = {}
    positions = [index.setdefault(token, len(index)) for token in tokens]
    digests = b"".join(_digest(token) for token in index)
    unique = np.frombuffer(digests, dtype=">u8").astype(np.uint64)
    return unique[np.asarray(positions, dtype=np.intp)]


class WordHashes:
    """The SimHash hash of each word met, by word: a site's pages share most of their words,
    so a worker digests each once (an explicit cache: each worker owns one and hands it to
    :func:`simhash_of_tokens`). Holding ``capacity`` words, it forgets them all and starts
    again."""

    def __init__(self, capacity: int = WORD_HASHES) -> None:
        self.capacity = capacity
        self._known: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._known)

    def hashes(self, tokens: list[str]) -> npt.NDArray[np.uint64]:
        """The hash of each token, as :func:`simhash_of_tokens` mixes them."""
        known = self._known
        missing = set(tokens).difference(known)
        if len(known) + len(missing) > self.capacity:
            known.clear()
            missing = set(tokens)
        for word in missing:
            known[word] = int.from_bytes(_digest(word), "big")
        return np.fromiter(map(known.__getitem__, tokens), dtype=np.uint64, count=len(tokens))


def _shingle_hashes(token_hashes: npt.NDArray[np.uint64], shingle: int) -> npt.NDArray[np.uint64]:
    """One hash per run of ``shingle`` tokens: order-dependent mixing of their hashes."""
    count = max(len(token_hashes) - shingle + 1, 1)
    mixed = token_hashes[:count].copy()
    for offset in range(1, min(shingle, len(token_hashes))):
        mixed = _splitmix(mixed * _GOLDEN ^ token_hashes[offset : offset + count])
    return mixed


def _splitmix(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's finaliser: every input bit affects every output bit."""
    with np.errstate(over="ignore"):
        values = (values ^ (values >> np.uint64(30))) * _MIX_1
        values = (values ^ (values >> np.uint64(27))) * _MIX_2
    return values ^ (values >> np.uint64(31))


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
