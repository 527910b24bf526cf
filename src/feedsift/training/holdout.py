"""Leave-one-dataset-out: how the page-level model does on a kind of data it never saw.

For each gold set, the whole model is fitted on the train splits of all the *other* sets and
benchmarked on the held-out set's test split beside trafilatura, on the same pages in the
same run (``feedsift bench --model``). ``wceb2026`` is split by site, so its test split is
also leave-site-out; its page types are reported one by one. A change to features, labels or
learners is kept when these figures hold, not only the in-distribution ones.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from feedsift.evaluation.bench import BenchOptions, run_bench
from feedsift.evaluation.report import REFERENCE_PEER, SummaryRow, summarize
from feedsift.extractors.model import ModelBundle, save_bundle
from feedsift.training.examples import PageExample

__all__ = ["HOLDOUT_PEERS", "HoldoutRow", "describe", "leave_one_dataset_out"]

#: feedsift with the held-out model against the reference peer (trafilatura, comments off).
HOLDOUT_PEERS = ("feedsift", REFERENCE_PEER)

Fit = Callable[[list[PageExample]], ModelBundle]


@dataclass(frozen=True, slots=True)
class HoldoutRow:
    """One held-out dataset (or one page type of it): feedsift's and trafilatura's score."""

    dataset: str
    measure: str  #: "LCS F1" or, for snippet-only gold, "snippet F1"
    pages: int
    feedsift: float
    reference: float | None  #: trafilatura's, ``None`` when it is not installed

    @property
    def margin(self) -> float | None:
        return None if self.reference is None else self.feedsift - self.reference


def _score(row: SummaryRow) -> tuple[str, float] | None:
    if row.lcs is not None:
        return "LCS F1", row.lcs.f1
    if row.snippets is not None:
        return "snippet F1", row.snippets.f1
    return None


def _rows(rows: Sequence[SummaryRow], held_out: str) -> list[HoldoutRow]:
    """The held-out dataset's rows and those of its page types."""
    names = sorted({r.dataset for r in rows if r.dataset.split("/")[0] == held_out})
    out = []
    for name in names:
        mine = {r.peer: r for r in rows if r.dataset == name}
        ours = mine.get("feedsift")
        scored = _score(ours) if ours else None
        if ours is None or scored is None:
            continue
        theirs = _score(mine[REFERENCE_PEER]) if REFERENCE_PEER in mine else None
        out.append(HoldoutRow(name, scored[0], ours.pages, scored[1],
                              theirs[1] if theirs else None))  # fmt: skip
    return out


def leave_one_dataset_out(
    examples: Sequence[PageExample], bench_dir: Path, fit: Fit,
    say: Callable[[str], None] = lambda message: None,
) -> list[HoldoutRow]:  # fmt: skip
    """Fit without each dataset in turn and bench the result on that dataset's test split."""
    found: list[HoldoutRow] = []
    names = sorted({e.dataset for e in examples})
    with tempfile.TemporaryDirectory(prefix="feedsift-holdout-") as folder:
        for name in names:
            say(f"leave one dataset out: fitting without {name}")
            bundle = fit([e for e in examples if e.dataset != name])
            path = Path(folder) / f"without-{name}.npz"
            save_bundle(bundle, path)
            say(f"leave one dataset out: benchmarking on {name}")
            options = BenchOptions("test", (name,), HOLDOUT_PEERS, progress=False, model=path)
            rows = _rows(summarize(run_bench(bench_dir, options)).rows, name)
            for row in rows:  # said as they come: a run of an hour should not end unread
                say(f"leave one dataset out: {describe(row)}")
            found.extend(rows)
    return found


def describe(row: HoldoutRow) -> str:
    """One line: the held-out dataset, its measure, feedsift's and trafilatura's score."""
    theirs = "-" if row.reference is None else f"{row.reference:.4f}"
    margin = "" if row.margin is None else f" ({row.margin:+.4f})"
    return (f"left out {row.dataset} ({row.pages} test pages), {row.measure}: "
            f"feedsift {row.feedsift:.4f}, trafilatura {theirs}{margin}")
