"""What one Spark run met: pages, feeds, skipped records, sites and the methods used.

Each task counts into its own :class:`JobTally` and adds it to a Spark accumulator once,
when its partition is done; the driver reads the sum. (Spark applies the updates of a task
that runs twice, after a failure, twice: the counts are a report, not the output.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from feedsift.acquisition.warc import SkipReason, WarcSkip, skip_detail

__all__ = ["LEARNED", "MAX_DETAILS", "OTHER_DETAILS", "PAGE_LEVEL", "TEMPLATE", "JobTally"]

#: Distinct details kept per kind of skipped record: the report names the commonest three,
#: and a file of broken records must not send one detail per record to the driver.
MAX_DETAILS = 50
#: What details past :data:`MAX_DETAILS` are counted as.
OTHER_DETAILS = "others"

#: How a host's pages were extracted: with its own learned methods, or the page level alone.
LEARNED = "learned"
PAGE_LEVEL = "page level"
#: Learned hosts that also learned a feed template from their item pages.
TEMPLATE = "template"


@dataclass(slots=True)
class JobTally:
    """Counts of one task, or of the whole run once added up."""

    files: int = 0  #: WARC files read to their end (or to where they broke)
    pages: int = 0  #: HTML response records read
    feeds: int = 0  #: feed records whose items checked the site-level methods
    items: int = 0  #: those feeds' items (keyed to the hosts they link)
    skipped: Counter[SkipReason] = field(default_factory=Counter)
    details: dict[SkipReason, Counter[str]] = field(default_factory=dict)
    unreadable: Counter[str] = field(default_factory=Counter)  #: "file: reason"
    methods: Counter[str] = field(default_factory=Counter)  #: articles by body method
    hosts: Counter[str] = field(default_factory=Counter)  #: LEARNED / PAGE_LEVEL / TEMPLATE

    def skip(self, name: str, skip: WarcSkip) -> None:
        """Count a record of the file ``name`` that gave no article."""
        self.skipped[skip.reason] += 1
        details = self.details.setdefault(skip.reason, Counter())
        detail = skip_detail(name, skip)
        if detail not in details and len(details) >= MAX_DETAILS:
            detail = OTHER_DETAILS
        details[detail] += 1

    def merge(self, other: JobTally) -> JobTally:
        """Add ``other``'s counts to these; return self."""
        self.files += other.files
        self.pages += other.pages
        self.feeds += other.feeds
        self.items += other.items
        self.skipped.update(other.skipped)
        for reason, details in other.details.items():
            self.details.setdefault(reason, Counter()).update(details)
        self.unreadable.update(other.unreadable)
        self.methods.update(other.methods)
        self.hosts.update(other.hosts)
        return self

    @property
    def articles(self) -> int:
        """Articles written."""
        return sum(self.methods.values())
