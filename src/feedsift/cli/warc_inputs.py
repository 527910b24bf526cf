"""WARC files on ``feedsift extract``'s command line: their pages in, their other records counted.

:func:`expand_warcs` replaces each WARC file among the inputs by its HTML pages (one
``record`` source each, read in the main process, in file order) and tells a
:class:`WarcTally` about every response record that gave no page. At the end of the run the
tally writes one line per kind of skipped record on stderr, and says which of them count as
failures for the exit status:

* not HTML, another HTTP status than 200, truncated by the crawler: a WARC's ordinary
  contents (images, redirects, errors, cut downloads), reported but not failures;
* broken records, records over ``--max-size``, and WARC files that cannot be read: input
  feedsift should have been able to read, so failures, as a broken page file is.

With ``-v`` each skipped record is also named on its own line as it is met.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from feedsift.acquisition.warc import SkipReason, WarcSkip, skip_detail
from feedsift.cli import report
from feedsift.cli.inputs import InputSource, warc_sources
from feedsift.errors import InputError

__all__ = ["FAILING_REASONS", "SKIP_LABELS", "WarcTally", "expand_warcs"]

logger = logging.getLogger(__name__)

#: How each kind of skipped record is named on stderr, in the order the lines come.
SKIP_LABELS: dict[SkipReason, str] = {
    "not-html": "not HTML",
    "status": "with an HTTP status other than 200",
    "truncated": "truncated by the crawler (WARC-Truncated)",
    "too-large": "larger than --max-size",
    "broken": "broken",
    "failed": "that did not extract",  # only ``feedsift spark`` counts these (extract names each)
}
#: Kinds that make the exit status 1: the record should have been readable.
FAILING_REASONS: frozenset[SkipReason] = frozenset({"too-large", "broken", "failed"})
#: Most frequent details named on a kind's line ("image/png 7, text/css 2, ...").
SHOWN_DETAILS = 3


@dataclass(slots=True)
class WarcTally:
    """What the WARC files of one run held besides their pages (mutable, one per run)."""

    pages: int = 0
    files: int = 0
    unreadable: int = 0
    skipped: Counter[SkipReason] = field(default_factory=Counter)
    details: dict[SkipReason, Counter[str]] = field(default_factory=dict)

    def skip(self, source: InputSource, skip: WarcSkip) -> None:
        self.skipped[skip.reason] += 1
        self.details.setdefault(skip.reason, Counter())[skip_detail(source.name, skip)] += 1
        where = skip.url or skip.record_id or f"byte {skip.offset}"
        logger.info("%s: %s: skipped, %s: %s", source.name, where, SKIP_LABELS[skip.reason],
                    skip.detail)  # fmt: skip

    @property
    def failures(self) -> int:
        """Files that could not be read, and records that count as failed inputs."""
        return self.unreadable + sum(self.skipped[reason] for reason in FAILING_REASONS)

    def lines(self) -> list[str]:
        """One line per kind of skipped record: how many, and the commonest details."""
        lines = []
        for reason, label in SKIP_LABELS.items():
            count = self.skipped[reason]
            if count:
                noun = "record" if count == 1 else "records"
                lines.append(f"{count} {noun} {label}, skipped ({self._examples(reason)})")
        return lines

    def _examples(self, reason: SkipReason) -> str:
        common = self.details[reason].most_common(SHOWN_DETAILS)
        return ", ".join(f"{detail} ×{n}" if n > 1 else detail for detail, n in common)

    def report(self) -> None:
        """Write :meth:`lines` on stderr, each as ``feedsift: WARC: ...`` (and with ``-v``
        how many pages the files held)."""
        if self.files:
            logger.info("WARC: %d HTML pages in %d files", self.pages, self.files)
        for line in self.lines():
            report("WARC", line)


def expand_warcs(
    sources: Iterable[InputSource], max_bytes: int, tally: WarcTally
) -> Iterator[InputSource]:
    """``sources`` with every WARC file replaced by its pages; skips and unreadable files
    go to ``tally`` (an unreadable file is also reported at once, as a failed input is; the
    pages read before a file broke are kept)."""
    for source in sources:
        if source.kind != "warc":
            yield source
            continue
        tally.files += 1
        try:
            for item in warc_sources(source, max_bytes):
                if isinstance(item, WarcSkip):
                    tally.skip(source, item)
                else:
                    tally.pages += 1
                    yield item
        except InputError as exc:
            tally.unreadable += 1
            report(source.name, str(exc))
        except Exception as exc:  # a bug on one file must not stop the others
            tally.unreadable += 1
            report(source.name, f"internal error: {type(exc).__name__}: {exc}")
            logger.debug("reading %s failed", source.name, exc_info=True)
