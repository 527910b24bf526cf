"""``feedsift train``: rebuild the bundled page-level model from gold datasets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feedsift.cli import EXIT_OK, Subparsers
from feedsift.evaluation.datasets import DEFAULT_BENCH_DIR
from feedsift.evaluation.listings import DEFAULT_SITES_DIR
from feedsift.extractors.page import DEFAULT_MODEL_PATH

__all__ = ["register", "run"]

DESCRIPTION = f"""\
Train the page-level extractor on the `train` split of gold datasets and write the
model bundle feedsift extracts with.

Each dataset folder holds pages/<id>.html.gz, gold.jsonl (with a `split` field) and
README.txt; DATASETS_DIR is one such folder or a folder of them (default:
{DEFAULT_BENCH_DIR}). Gold text is aligned to each page's text blocks to label them;
snippet gold (with/without lists) labels only the blocks the snippets fall in.

Three stages are fitted in turn, each on cross-fitted outputs of the one before: the
title block classifier, the body subtree scorer and the block classifier, whose second
look reads the first look's scores around each block. The result is deterministic: the
same data and package versions give the same bundle. Training needs the `train` extra:
pip install 'feedsift[train]'."""

EXAMPLES = f"""\
examples:
  feedsift train                              rebuild {DEFAULT_MODEL_PATH.name} in the package
  feedsift train --evaluate                   also cross-validate the block stage (slower)
  feedsift train --compare                    also score an RBF SVM against the trees
  feedsift train data/ -o my-model.npz        train on your own gold folders
  feedsift train --limit 20 -o /tmp/quick.npz a quick smoke run: 20 pages per dataset
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "train", help="rebuild the page-level model from gold datasets",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("datasets", nargs="?", type=Path, default=DEFAULT_BENCH_DIR,
                        metavar="DATASETS_DIR", help="gold datasets (default: %(default)s)")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_MODEL_PATH,
                        help="where to write the bundle (default: the packaged model)")
    parser.add_argument("--folds", type=int, default=4,
                        help="folds of the cross-fitting between stages (default: 4)")
    parser.add_argument("-j", "--jobs", type=int, default=2,
                        help="processes that parse and label pages (default: 2)")
    parser.add_argument("--limit", type=int, default=None,
                        help="use at most N pages per dataset (quick runs)")
    parser.add_argument("--sites", type=Path, default=DEFAULT_SITES_DIR, metavar="SITES_DIR",
                        help="real blogs whose home, tag and archive pages teach the page-kind "
                             "classifier what a listing is (default: ../shared/sites/ssg; "
                             "skipped when missing)")
    parser.add_argument("--evaluate", action="store_true",
                        help="cross-validate the block stage and report its text F1, then "
                             "refit without each dataset in turn and bench it on that "
                             "dataset's test split beside trafilatura (leave one dataset "
                             "out; about 7 refits, slow)")
    parser.add_argument("--compare", action="store_true",
                        help="also score the papers' RBF SVM against the trees (slow)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from feedsift.training.holdout import describe
    from feedsift.training.train import TrainConfig, train

    config = TrainConfig(
        bench_dir=args.datasets, output=args.output, folds=args.folds, jobs=args.jobs,
        limit=args.limit, evaluate=args.evaluate, compare=args.compare, sites_dir=args.sites,
    )  # fmt: skip
    report = train(config, progress=lambda message: print(f"train: {message}", file=sys.stderr))
    print(f"wrote {config.output} (model {report.version})")
    print(f"pages {report.pages} from {', '.join(report.datasets)}; blocks {report.blocks}")
    print(f"title block accuracy (cross-fitted): {report.title_accuracy_cv:.3f}")
    for name, value in report.block_f1_cv.items():
        print(f"block stage, cross-validated, {name}: F1 {value:.4f}")
    for name, value in report.kind_accuracy_cv.items():
        print(f"page kind, sites held out, {name}: accuracy {value:.3f}")
    for row in report.holdout:
        print(describe(row))
    for item in report.comparison:
        print(f"{item.stage} stage, {item.learner}: held-out score {item.score:.4f}, "
              f"{item.ms_per_page:.2f} ms per page")
    print(f"took {report.seconds:.0f} s")
    return EXIT_OK
