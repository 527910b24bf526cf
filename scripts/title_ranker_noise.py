"""How much the title ranker's accuracy moves when its training data barely moves.

Refits only the title ranker (the last title stage, ``extractors/title_ranker.py``) the way
``feedsift train`` does, then scores the page's chosen title string on three sets: 5-fold CV
on the train split, the test split of ``../shared/bench`` (Fundus and Readability, the
sets with gold titles) and the 1,373 blog posts of ``../shared/sites/ssg`` (never trained
on). Two experiments:

* ``--drop N --repeats R``: the shipped settings, trained R times on all train pages but
  N random ones (seeded);
* ``--grid``: a small grid of iterations, depth and learning rate, each also as a bag of 8
  models on 80% subsamples (log-odds averaged), ranked by CV.

Needs ``../shared`` and the ``train`` extra. Takes about two minutes (``--grid`` about
five)::

    .venv/bin/python scripts/title_ranker_noise.py --drop 7 --repeats 6 --grid
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import urljoin

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.evaluation.bench import same_title
from feedsift.evaluation.datasets import iter_pages, read_page_html
from feedsift.extractors.title_ranker import option_features, title_options
from feedsift.metadata.read import read_metadata
from feedsift.parsing.page import parse_page
from feedsift.text.tokens import normalize_space
from feedsift.training.learners import LearnerSpec, fit_classifier
from feedsift.training.stagefit import crossfit, fit_title, page_titles
from feedsift.training.train import RANKER_SPEC, TITLE_SPEC, load_examples

BENCH = Path("../shared/bench")
BLOGS = Path("../shared/sites/ssg")
#: One page: its options' feature rows and which options are the gold title.
Page = tuple[np.ndarray, np.ndarray]
Scorer = Callable[[np.ndarray], np.ndarray]


def train_pages() -> list[Page]:
    """Ranker rows of the train split, title blocks cross-fitted as ``feedsift train`` does."""
    examples = load_examples(BENCH, "train", jobs=2)
    titles = crossfit(examples, 4, lambda idx: fit_title([examples[i] for i in idx], TITLE_SPEC),
                      lambda idx, m: page_titles([examples[i] for i in idx], m))  # fmt: skip
    pages = []
    for ex, choice in zip(examples, titles, strict=True):
        block = ex.block_texts[choice.block] if choice.block >= 0 else None
        options = title_options(ex.meta, block) if ex.gold_title else []
        if options:
            gold = normalize_space(ex.gold_title or "")
            x = option_features(options, ex.meta, choice.score, ex.url)
            pages.append((x, np.array([o.text == gold for o in options])))
    return pages


def held_out_page(html: bytes, url: str | None, gold: str) -> Page:
    """Ranker rows of one unseen page, title block from the shipped model."""
    page = parse_page(html, url)
    decision = bundled_extractor().decide(page)
    meta = read_metadata(page, date_search=False)
    block = page.view.blocks[decision.title_block].text if decision.title_block >= 0 else None
    options = title_options(meta, block)
    x = option_features(options, meta, decision.title_score, url)
    return x, np.array([same_title(o.text, gold) for o in options], dtype=bool)


def test_pages() -> list[Page]:
    return [held_out_page(read_page_html(p.path), p.url, p.title)
            for name in ("fundus", "readability") for p in iter_pages(BENCH / name, "test")
            if p.title]  # fmt: skip


def blog_pages() -> list[Page]:
    """Every blog post with a gold title (gold URLs are paths: put on one made-up host)."""
    return [held_out_page(read_page_html(p.path), urljoin("https://example.org/", p.url or ""),
                          p.title)
            for gold in sorted(BLOGS.glob("*/gold.jsonl"))
            for p in iter_pages(gold.parent, "all") if p.title]  # fmt: skip


def fit(pages: Sequence[Page], spec: LearnerSpec, bag: int = 1, seed: int = 0) -> Scorer:
    """The ranker on ``pages``; with ``bag`` > 1, log-odds averaged over 80% subsamples."""
    rng = np.random.default_rng(seed)
    subsets = [np.arange(len(pages))] if bag == 1 else [
        np.sort(rng.choice(len(pages), int(0.8 * len(pages)), replace=False)) for _ in range(bag)
    ]  # fmt: skip
    models = []
    for subset in subsets:
        x = np.vstack([pages[i][0] for i in subset])
        y = np.concatenate([pages[i][1] for i in subset]).astype(np.int64)
        models.append(fit_classifier(x, y, None, spec))
    return lambda x: np.mean([m.decision(x) for m in models], axis=0)


def hits(score: Scorer, pages: Sequence[Page]) -> int:
    return sum(bool(len(y)) and bool(y[int(np.argmax(score(x)))]) for x, y in pages)


def cv_hits(pages: Sequence[Page], spec: LearnerSpec, bag: int, folds: int = 5) -> int:
    total = 0
    for fold in range(folds):
        learn = [p for i, p in enumerate(pages) if i % folds != fold]
        total += hits(fit(learn, spec, bag), [p for i, p in enumerate(pages) if i % folds == fold])
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drop", type=int, default=7, help="train pages left out per repeat")
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--grid", action="store_true", help="also run the settings grid")
    args = parser.parse_args(argv)
    if not BENCH.is_dir() or not BLOGS.is_dir():
        print("needs ../shared/bench and ../shared/sites/ssg (run from the repository)")
        return 2
    train, test, blogs = train_pages(), test_pages(), blog_pages()
    sizes = f"train {len(train)}, test {len(test)}, blog posts {len(blogs)}"
    print(f"pages with a gold title: {sizes}")
    print(f"{'run':28s} | CV5 | test | blogs")
    shipped = fit(train, RANKER_SPEC)
    cv = cv_hits(train, RANKER_SPEC, 1)
    print(f"{'shipped settings':28s} | {cv} | {hits(shipped, test)} | {hits(shipped, blogs)}")
    rng = np.random.default_rng(0)
    for repeat in range(args.repeats):
        keep = np.sort(rng.choice(len(train), len(train) - args.drop, replace=False))
        model = fit([train[i] for i in keep], RANKER_SPEC)
        label = f"drop {args.drop} (repeat {repeat})"
        print(f"{label:28s} |  -  | {hits(model, test)} | {hits(model, blogs)}")
    if args.grid:
        for it, depth, rate, bag in itertools.product((120, 300), (2, 3), (0.05, 0.1), (1, 8)):
            spec = LearnerSpec("gbm", max_iter=it, max_depth=depth, learning_rate=rate, l2=1.0)
            model = fit(train, spec, bag)
            label = f"{it} it, depth {depth}, lr {rate}, bag {bag}"
            print(f"{label:28s} | {cv_hits(train, spec, bag)} | {hits(model, test)} | "
                  f"{hits(model, blogs)}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
