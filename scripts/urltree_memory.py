"""URL Tree: memory and speed on a generated stream; heuristics on the real site streams.

Run from the repository root (``.venv/bin/python scripts/urltree_memory.py --help``):

* default: 100,000 generated documents over 50 domains go through one
  :class:`~feedsift.sitelevel.urltree.UrlTree` (strict heuristic, default eviction: 14
  days, 10,000 documents, 100 newest kept). Per domain a template of 30-60 boilerplate
  blocks (some of them per section), per document 5-30 unique content blocks, URL keys of
  1-3 path segments, times spread over ``--days``. Each document is hashed (URL key and
  blocks), inserted and judged; the script prints the documents inserted and retained, the
  tree's memory in MB per 1,000 retained documents, and the time per document (hashing,
  insert+evict, judge; HTML parsing is not in it: the documents are made as block texts).
  Memory is measured twice: ``sys.getsizeof`` over every object the live tree reaches, and
  ``tracemalloc`` over the tree rebuilt from its saved state (the stream itself runs
  untraced: ``tracemalloc`` makes it four times slower). Goal of the issue: at most 1 MB per
  1,000 documents (the paper's tree took 6.5).
* ``--eval``: streams every site of ``../shared/sites`` (``--sites``) through a fresh learner
  per site and heuristic (page inserted, then judged; pages in time order: ``date``, else
  ``subset`` then id, else file order; pages without URL get ``http://<site>/<id>``) and
  prints the mean word-LCS F1 of the kept blocks per group (the cumulative moving average
  at the stream's end, pooled over pages), all blocks kept as the baseline; then the memory
  of one learner that took every page of every stream.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import random
import string
import sys
import time
import tracemalloc
import types
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin

import numpy as np

from feedsift.errors import FeedsiftError
from feedsift.evaluation.metrics import lcs_prf
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel.tree import Eviction
from feedsift.sitelevel.urltree import UrlTree

SECONDS_PER_DAY = 86_400.0
WORDS = 3_000  #: vocabulary of the generated text
SENTENCES = 4_000  #: pool of content sentences (made unique per document by a letter code)

# -- the generated stream ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Site:
    host: str
    common: tuple[str, ...]  #: template blocks on every page
    sections: dict[str, tuple[str, ...]]  #: section -> its own template blocks
    subsections: tuple[str, ...]


def _words(rng: random.Random) -> list[str]:
    letters = string.ascii_lowercase
    return ["".join(rng.choices(letters, k=rng.randint(2, 10))) for _ in range(WORDS)]


def _sentence(rng: random.Random, words: list[str], low: int, high: int) -> str:
    return " ".join(rng.choices(words, k=rng.randint(low, high))).capitalize() + "."


def _site(rng: random.Random, words: list[str], number: int) -> Site:
    size = rng.randint(30, 60)
    per_section = rng.randint(3, 8)
    names = [rng.choice(words) for _ in range(rng.randint(3, 8))]
    sections = {
        name: tuple(_sentence(rng, words, 2, 12) for _ in range(per_section)) for name in names
    }
    common = tuple(_sentence(rng, words, 1, 15) for _ in range(size - per_section))
    subsections = tuple(rng.choice(words) for _ in range(4))
    host = f"www.site{number}.example" if number % 3 else f"news.site{number}.example"
    return Site(host, common, sections, subsections)


def _code(number: int) -> str:
    """A letter code unique per number (the tree drops digits, so ids must be letters)."""
    letters = []
    while True:
        number, digit = divmod(number, 26)
        letters.append(string.ascii_lowercase[digit])
        if not number:
            return "".join(letters)


def _url(rng: random.Random, site: Site, section: str, slug: str) -> str:
    depth = rng.randint(1, 3)
    if depth == 1:
        return f"https://{site.host}/{slug}.html"
    if depth == 2:
        return f"https://{site.host}/{section}/{slug}.html"
    return f"https://{site.host}/{section}/{rng.choice(site.subsections)}/{slug}"


def generate(
    n_docs: int, n_sites: int, days: float, seed: int
) -> Iterator[tuple[str, list[str], float]]:
    """``(url, block texts, seen)`` of each generated document, in time order."""
    rng = random.Random(seed)
    words = _words(rng)
    sites = [_site(rng, words, number) for number in range(n_sites)]
    pool = [_sentence(rng, words, 8, 40) for _ in range(SENTENCES)]
    step = days * SECONDS_PER_DAY / max(n_docs, 1)
    for number in range(n_docs):
        site = rng.choice(sites)
        section = rng.choice(list(site.sections))
        code = _code(number)
        content = [f"{rng.choice(pool)} {code} {_code(i)}" for i in range(rng.randint(5, 30))]
        blocks = [*site.common[:10], *content, *site.sections[section], *site.common[10:]]
        yield _url(rng, site, section, f"{rng.choice(words)}-{code}"), blocks, number * step


def run_memory(args: argparse.Namespace) -> None:
    learner = UrlTree("strict", eviction=Eviction())
    learner.hashed_blocks("https://example.com/", [], None)  # load the URL rules first
    times = [0.0, 0.0, 0.0]  # hashing, inserting (and evicting), judging
    for url, texts, seen in generate(args.docs, args.domains, args.days, args.seed):
        start = time.perf_counter()
        hashed = learner.hashed_blocks(url, texts, seen)
        hashed_at = time.perf_counter()
        learner.learn(hashed.doc)
        learned_at = time.perf_counter()
        learner.judge(hashed.doc)
        judged_at = time.perf_counter()
        times[0] += hashed_at - start
        times[1] += learned_at - hashed_at
        times[2] += judged_at - learned_at
    assert learner.tree_ is not None
    live = deep_size(learner.tree_)
    _report(learner, args, (live, traced_rebuild(learner)), times)


def deep_size(root: object) -> int:
    """``sys.getsizeof`` of every object reachable from ``root`` (classes and code aside)."""
    seen: set[int] = set()
    stack, total = [root], 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def traced_rebuild(learner: UrlTree) -> int:
    """Bytes ``tracemalloc`` sees held by the tree rebuilt from ``learner``'s saved state.

    The stream itself runs untraced (``tracemalloc`` makes it four times slower); the
    rebuilt tree holds the same documents and counters.
    """
    state = learner.get_state()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rebuilt = UrlTree.from_state(state)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del rebuilt
    return held


def _report(
    learner: UrlTree, args: argparse.Namespace, sizes: tuple[int, int], times: list[float]
) -> None:
    assert learner.tree_ is not None
    retained = learner.tree_.n_documents
    live, traced = sizes
    print(
        f"documents inserted    {args.docs:>12,}  over {args.domains} domains, {args.days:g} days"
    )
    print(f"documents retained    {retained:>12,}  ({learner.eviction})")
    for label, size in (("tree, tracemalloc", traced), ("tree, deep sizeof", live)):
        print(f"{label:21} {size:>12,} bytes = {size / retained * 1000 / 1e6:.3f} MB "
              "per 1,000 retained documents")  # fmt: skip
    per_doc = [t / args.docs * 1e6 for t in times]
    print(
        f"time per document     {sum(per_doc):>12.1f} us: hashing (URL key, blocks) "
        f"{per_doc[0]:.1f}, insert+evict {per_doc[1]:.1f}, judge {per_doc[2]:.1f}"
    )


# -- the real site streams ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StreamPage:
    page: ParsedPage
    gold: str
    seen: datetime | None


def _site_url(folder: Path) -> str:
    info = folder / "site.json"
    if info.is_file():
        url = json.loads(info.read_text(encoding="utf-8")).get("site_url")
        if isinstance(url, str) and url.startswith(("http://", "https://")):
            return url
    return f"http://{folder.name.split('__')[-1].lower().replace('_', '-')}/"


def _ordered(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    if rows and all(_seen(row) for row in rows):
        return sorted(rows, key=lambda row: _seen(row) or datetime.min.replace(tzinfo=UTC))
    if rows and all(row.get("subset") for row in rows):
        return sorted(rows, key=lambda row: (str(row["subset"]), str(row["id"])))
    return rows


def _seen(row: dict[str, object]) -> datetime | None:
    """The gold ``date`` (ISO 8601, or day.month.year as one blog writes it), UTC."""
    value = row.get("date")
    if not isinstance(value, str):
        return None
    for parse in (datetime.fromisoformat, lambda text: datetime.strptime(text, "%d.%m.%Y")):
        try:
            parsed = parse(value)
        except ValueError:
            continue
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def load_stream(folder: Path) -> list[StreamPage]:
    lines = (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    rows = _ordered([json.loads(line) for line in lines if line.strip()])
    base, pages = _site_url(folder), []
    for row in rows:
        path = folder / "pages" / f"{row['id']}.html.gz"
        if not row.get("text") or not path.is_file():
            continue
        url = urljoin(base, str(row.get("url") or row["id"]))
        try:
            page = parse_page(gzip.decompress(path.read_bytes()), url)
        except FeedsiftError:
            continue
        pages.append(StreamPage(page, str(row["text"]), _seen(row)))
    return pages


def _configs() -> list[UrlTree | None]:
    """The learners compared (``None``: every block kept, the baseline)."""
    learners: list[UrlTree | None] = [None, UrlTree("strict"), UrlTree("strict", n_min=2)]
    learners += [UrlTree("strict-support", n=n) for n in (5, 10, 20)]
    learners.append(UrlTree("strict-at-domain"))
    learners += [UrlTree("relaxed-at-domain", n=n) for n in (2, 3, 5, 10, 20, 500)]
    return learners


def _stream_f1(learner: UrlTree | None, stream: list[StreamPage]) -> list[float]:
    scores = []
    for item in stream:
        blocks = item.page.view.blocks
        if learner is None:
            kept = [b.text for b in blocks]
        else:
            mask = learner.partial_fit(item.page, item.seen).boilerplate(item.page)
            kept = [b.text for b, drop in zip(blocks, mask, strict=True) if not drop]
        scores.append(lcs_prf("\n".join(kept), item.gold).f1)
    return scores


def run_eval(args: argparse.Namespace) -> None:
    groups: dict[str, list[list[StreamPage]]] = {}
    for gold in sorted(Path(args.sites).glob("*/*/gold.jsonl")):
        stream = load_stream(gold.parent)
        if stream:
            groups.setdefault(gold.parent.parent.name, []).append(stream)
    if not groups:
        sys.exit(f"{args.sites}: no site streams (is ../shared/sites there?)")
    names = sorted(groups)
    header = "".join(f"{g:>16}" for g in names)
    print(f"{'method':34}{header}{'all pages':>12}{'after 10':>10}{'per site':>10}")
    for learner in _configs():
        label = learner.method if learner is not None else "all blocks kept"
        _eval_row(label, learner, groups, names)
    _eval_memory(groups)


def _eval_memory(groups: dict[str, list[list[StreamPage]]]) -> None:
    """Memory of one learner (default eviction) that took every page of every stream."""
    learner = UrlTree()
    for streams in groups.values():
        for stream in streams:
            for item in stream:
                learner.partial_fit(item.page, item.seen)
    assert learner.tree_ is not None
    retained = learner.tree_.n_documents
    traced, live = traced_rebuild(learner), deep_size(learner.tree_)
    print(
        f"\none learner, every page of every stream: {retained:,} documents retained, "
        f"{traced / retained * 1000 / 1e6:.3f} MB per 1,000 (tracemalloc; deep sizeof "
        f"{live / retained * 1000 / 1e6:.3f})"
    )


def _eval_row(
    label: str, learner: UrlTree | None, groups: dict[str, list[list[StreamPage]]],
    names: list[str],
) -> None:  # fmt: skip
    cells, every, late, sites = [], [], [], []
    for group in names:
        scores = []
        for stream in groups[group]:
            if learner is not None:
                learner.reset()
            f1 = _stream_f1(learner, stream)
            scores += f1
            late += f1[10:]
            sites.append(np.mean(f1))
        every += scores
        cells.append(f"{np.mean(scores):>10.3f} ({len(scores):>3})")
    print(
        f"{label:34}{''.join(cells)}{np.mean(every):>12.3f}{np.mean(late):>10.3f}"
        f"{np.mean(sites):>10.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=int, default=100_000, help="documents to generate")
    parser.add_argument("--domains", type=int, default=50, help="domains they come from")
    parser.add_argument("--days", type=float, default=60.0, help="time the stream spans")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--eval", action="store_true", help="evaluate the heuristics instead")
    parser.add_argument("--sites", default="../shared/sites", help="site streams for --eval")
    args = parser.parse_args()
    run_eval(args) if args.eval else run_memory(args)


if __name__ == "__main__":
    main()
