"""Gold-standard datasets on disk.

Layout of one dataset folder (``../shared/bench/<name>/``)::

    gold.jsonl           one JSON object per page: id, split, and the gold fields
    pages/<id>.html.gz   the page (gzip of UTF-8 text); a plain <id>.html works too
    README.txt           source and licence

A datasets folder holds several such folders. ``iter_pages`` yields frozen records.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Literal

from feedsift.errors import DatasetError

__all__ = [
    "DEFAULT_BENCH_DIR",
    "GoldPage",
    "Split",
    "dataset_dirs",
    "find_page_file",
    "iter_pages",
    "marked_dirs",
    "read_page_html",
]

Split = Literal["train", "test", "all"]

#: Where the shared gold sets live relative to the working directory (the project's layout).
DEFAULT_BENCH_DIR = Path("../shared/bench")


@dataclass(frozen=True, slots=True)
class GoldPage:
    """One gold page: its HTML path and what the extractor should return."""

    dataset: str
    id: str
    split: str
    path: Path
    url: str | None
    text: str | None
    title: str | None
    authors: tuple[str, ...]
    date: date | None
    with_snippets: tuple[str, ...]
    without_snippets: tuple[str, ...]
    comments: str | None
    page_type: str | None = None  #: the gold set's kind of page (wceb2026: forum, listing ...)
    site: str | None = None  #: the site the page belongs to, where the gold set says it


def marked_dirs(root: Path, marker: str, what: str) -> list[Path]:
    """The folders under ``root`` that hold the file ``marker`` (or ``root`` itself when it
    holds it); ``what`` names one such folder in the errors."""
    if not root.is_dir():
        raise DatasetError(f"{what}s folder not found: {root}")
    if (root / marker).is_file():
        return [root]
    found = sorted(p for p in root.iterdir() if (p / marker).is_file())
    if not found:
        raise DatasetError(f"no {what} (a folder with {marker}) under {root}")
    return found


def dataset_dirs(root: Path) -> list[Path]:
    """The dataset folders under ``root`` (or ``root`` itself when it is one dataset)."""
    return marked_dirs(root, "gold.jsonl", "dataset")


def find_page_file(folder: Path, page_id: str, subdir: str = "pages") -> Path | None:
    """``folder/subdir/<page_id>.html.gz`` or, failing that, ``.html``; None if neither."""
    for name in (f"{page_id}.html.gz", f"{page_id}.html"):
        candidate = folder / subdir / name
        if candidate.is_file():
            return candidate
    return None


def _authors(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,) if value.strip() else ()
    if isinstance(value, list):
        return tuple(str(v) for v in value if str(v).strip())
    return ()


def _gold_date(value: Any) -> date | None:
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _record(dataset: str, folder: Path, row: dict[str, Any]) -> GoldPage | None:
    path = find_page_file(folder, str(row["id"]))
    if path is None:
        return None
    return GoldPage(
        dataset=dataset,
        id=str(row["id"]),
        split=str(row.get("split", "test")),
        path=path,
        url=row.get("url") or None,
        text=row.get("text") or None,
        title=row.get("title") or None,
        authors=_authors(row.get("author")),
        date=_gold_date(row.get("date")),
        with_snippets=tuple(row.get("with") or ()),
        without_snippets=tuple(row.get("without") or ()),
        comments=row.get("comments") or None,
        page_type=row.get("page_type") or None,
        site=row.get("site") or None,
    )


def iter_pages(folder: Path, split: Split = "test") -> Iterator[GoldPage]:
    """Yield the gold pages of one dataset folder for ``split`` (``all`` for every split)."""
    gold = folder / "gold.jsonl"
    if not gold.is_file():
        raise DatasetError(f"{folder}: no gold.jsonl")
    with gold.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{gold}:{number}: {exc.msg}") from exc
            if split != "all" and row.get("split", "test") != split:
                continue
            record = _record(folder.name, folder, row)
            if record is not None:
                yield record


def read_page_html(path: Path) -> bytes:
    """The page's bytes, gunzipped when the file is ``.gz``."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data
