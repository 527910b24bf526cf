"""Probe: SimHash distance after a one-word edit, and between unrelated texts, by length.

Run from the repository root (reads ../shared/bench):

    .venv/bin/python scripts/simhash_probe.py
"""

from __future__ import annotations

import glob
import itertools
import json
import random

from feedsift.dedup import hamming, simhash
from feedsift.text.tokens import tokenize_lower

#: Texts probed, and the one-word edit that replaces a random word.
SAMPLE, EDIT = 600, "zzzqx"


def gold_texts() -> list[str]:
    """Every bench gold text of 20 words or more."""
    texts = []
    for path in glob.glob("../shared/bench/*/gold.jsonl"):
        with open(path, encoding="utf-8") as lines:
            texts += [json.loads(line).get("text") or "" for line in lines]
    return [t for t in texts if len(t.split()) >= 20]


#: Upper bounds of the length bins, in tokens.
BINS = (100, 300, 1000)


def length_bin(text: str) -> str:
    count = len(tokenize_lower(text))
    return next((f"<{b}" for b in BINS if count < b), f">={BINS[-1]}")


def probe(texts: list[str], shingle: int) -> None:
    near: dict[str, list[bool]] = {}
    prints = []
    for text in texts:
        words = text.split()
        words[random.randrange(len(words))] = EDIT
        edited = hamming(simhash(text, shingle=shingle), simhash(" ".join(words), shingle=shingle))
        near.setdefault(length_bin(text), []).append(edited <= 3)
        prints.append(simhash(text, shingle=shingle))
    pairs = list(itertools.combinations(prints, 2))
    unrelated = sum(hamming(a, b) <= 3 for a, b in pairs) / len(pairs)
    shares = {b: round(sum(v) / len(v), 2) for b, v in sorted(near.items())}
    print(f"shingle={shingle}", shares, "unrelated<=3:", f"{unrelated:.5f}")


def main() -> None:
    random.seed(1)
    texts = gold_texts()
    random.shuffle(texts)
    for shingle in (1, 2, 3):
        probe(texts[:SAMPLE], shingle)


if __name__ == "__main__":
    main()
