"""`feedsift train` end to end on synthetic gold pages: it learns, and it is deterministic."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import feedsift
from feedsift.extractors.model import ModelBundle, load_bundle
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import parse_page
from feedsift.training.train import TrainConfig, train
from synthetic import page, write_dataset

pytest.importorskip("sklearn")

#: A tiny blog with its home and tag pages: the page kinds' listings and articles.
SITES = Path(__file__).parent / "fixtures" / "bench" / "sites"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("gold")
    write_dataset(root / "gazette", pages=24, split="train")
    first, second = root / "first.npz", root / "second.npz"
    for output in (first, second):
        train(TrainConfig(bench_dir=root, output=output, folds=2, jobs=1, sites_dir=SITES))
    return first, second


def test_training_is_deterministic(trained: tuple[Path, Path]) -> None:
    first, second = (load_bundle(path) for path in trained)
    assert first.version == second.version
    # the page kinds come from the fixture blog alone: its posts and its listing pages
    assert sorted(first.models) == ["block", "kind_article", "kind_listing", "ranker",
                                    "refine", "subtree", "title"]  # fmt: skip
    assert first.info["pages"] == 24


def test_the_trained_model_extracts_a_new_page(trained: tuple[Path, Path]) -> None:
    html, gold = page(random.Random(99), "Lantern festival draws record crowd")
    extractor = LearnedPageExtractor(load_bundle(trained[0]))
    article = feedsift.extract(html, extractor=extractor)
    assert article.title == "Lantern festival draws record crowd"
    assert article.text.split("\n\n")[0] == gold.split("\n\n")[0]
    for boilerplate in ("About us", "Copyright 2024", "Related"):
        assert boilerplate not in article.text


def test_a_bundle_without_the_second_look_answers_with_the_first(
    trained: tuple[Path, Path],
) -> None:
    """Bundles built before the second look keep working: the first look's scores are
    the answer (on these easy pages both looks are sure, so only the bits differ)."""
    bundle = load_bundle(trained[0])
    older = ModelBundle(bundle.version, {k: m for k, m in bundle.models.items()
                                         if k != "refine"}, bundle.info)  # fmt: skip
    html, _ = page(random.Random(7), "Harbour crane restored after storm")
    parsed = parse_page(html, None)
    both = LearnedPageExtractor(bundle).decide(parsed).scores
    first = LearnedPageExtractor(older).decide(parsed).scores
    assert both.shape == first.shape
    assert not np.array_equal(both, first)  # another model answered
    assert feedsift.extract(html, extractor=LearnedPageExtractor(older)).text


def test_the_cli_trains_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from feedsift.cli.main import main

    write_dataset(tmp_path / "data" / "mini", pages=16, split="train", seed=3)
    output = tmp_path / "model.npz"
    status = main(["train", str(tmp_path / "data"), "-o", str(output), "--folds", "2",
                   "-j", "1", "--sites", str(SITES)])  # fmt: skip
    assert status == 0 and output.is_file()
    out = capsys.readouterr().out
    assert "pages 16 from mini" in out
    assert "page kind, sites held out, listing: accuracy" in out


def _two_split_dataset(folder: Path, seed: int) -> None:
    """A synthetic dataset with 12 train and 4 test pages."""
    import gzip
    import json

    rng = random.Random(seed)
    (folder / "pages").mkdir(parents=True)
    rows = []
    for number in range(16):
        title = f"Story {seed} number {number} on the harbour"
        html, text = page(rng, title)
        (folder / "pages" / f"p{number}.html.gz").write_bytes(gzip.compress(html.encode()))
        rows.append({"id": f"p{number}", "url": f"https://gazette.example/{number}/",
                     "split": "test" if number >= 12 else "train", "title": title,
                     "text": text})  # fmt: skip
    (folder / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_leave_one_dataset_out_benches_each_set_with_a_model_that_never_saw_it(
    tmp_path: Path,
) -> None:
    from feedsift.training.holdout import leave_one_dataset_out
    from feedsift.training.train import _refit, load_examples

    for name, seed in (("north", 1), ("south", 2)):
        _two_split_dataset(tmp_path / name, seed)
    examples = load_examples(tmp_path, "train", jobs=1)
    seen: list[set[str]] = []

    def fit(subset: list) -> object:  # type: ignore[type-arg]
        seen.append({e.dataset for e in subset})
        return _refit(subset, [], folds=2)

    rows = leave_one_dataset_out(examples, tmp_path, fit)  # type: ignore[arg-type]
    assert seen == [{"south"}, {"north"}]  # each fitted without the set it is scored on
    assert [(r.dataset, r.pages, r.measure) for r in rows] == [
        ("north", 4, "LCS F1"), ("south", 4, "LCS F1")]  # fmt: skip
    assert all(r.feedsift > 0.5 for r in rows)


def test_the_cross_validated_scores_are_the_ones_extraction_computes(
    trained: tuple[Path, Path], tmp_path: Path,
) -> None:
    """`--evaluate`'s block CV scores a page as extraction does: the two looks blended,
    not the second look alone."""
    from feedsift.extractors.features import block_features
    from feedsift.extractors.stages import block_looks, refine_rows
    from feedsift.training.stagefit import (
        page_block_scores,
        page_contexts,
        page_refined_scores,
        page_titles,
    )
    from feedsift.training.train import load_examples

    _two_split_dataset(tmp_path / "east", 3)
    examples = load_examples(tmp_path, "test", jobs=1)
    bundle = load_bundle(trained[0])
    block, refine = bundle.get("block"), bundle.get("refine")
    titles = page_titles(examples, bundle.get("title"))
    contexts = page_contexts(examples, [t.block for t in titles], bundle.get("subtree"))
    first = page_block_scores(examples, contexts, block)
    scored = page_refined_scores(examples, contexts, first, refine)
    assert len(scored) == len(examples) == 4
    for ex, context, scores in zip(examples, contexts, scored, strict=True):
        looks = block_looks(ex.signals, ex.table, context, block, refine)
        np.testing.assert_array_equal(scores, looks.final)
        features = block_features(ex.signals, ex.table, context)
        alone = refine.predict(refine_rows(ex.signals, ex.table, features, looks.first))
        assert not np.array_equal(scores, alone)
