"""Probe: SimHash distance after a one-word edit, and between unrelated texts, by length."""
# Run from the repository root: .venv/bin/python scripts/simhash_probe.py (reads ../shared/bench)
import glob, json, random, itertools
from feedsift.dedup import simhash, hamming
from feedsift.text.tokens import tokenize_lower
random.seed(1)
texts = [json.loads(l).get("text") or "" for f in glob.glob("../shared/bench/*/gold.jsonl") for l in open(f)]
texts = [t for t in texts if len(t.split()) >= 20]
random.shuffle(texts); texts = texts[:600]
for sh in (1, 2, 3):
    near = {}
    fps = []
    for t in texts:
        w = t.split(); w[random.randrange(len(w))] = "zzzqx"
        n = len(tokenize_lower(t)); b = "<100" if n < 100 else "<300" if n < 300 else "<1000" if n < 1000 else ">=1000"
        near.setdefault(b, []).append(hamming(simhash(t, shingle=sh), simhash(" ".join(w), shingle=sh)) <= 3)
        fps.append(simhash(t, shingle=sh))
    pairs = list(itertools.combinations(fps, 2))
    fp = sum(hamming(a, b) <= 3 for a, b in pairs) / len(pairs)
    print(f"shingle={sh}", {b: round(sum(v) / len(v), 2) for b, v in sorted(near.items())}, "unrelated<=3:", f"{fp:.5f}")
