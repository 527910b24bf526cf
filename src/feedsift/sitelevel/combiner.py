"""One site's choice of method per field, checked against the site's own feed (issue 17).

A site's feed states the true title, date, authors and tags of its items, and often their
whole content: free validation data. :class:`FieldCombiner` sits above the page-level
extractor and the site-level methods fitted for the site (a
:class:`~feedsift.templates.FeedTemplate`, a URL Tree, DiffPost: any
:class:`~feedsift.extractors.base.PageExtractor`). :meth:`FieldCombiner.fit` extracts the
pages of feed items with every method and scores each field against the item:

* **title**: 1 when it is the feed's title up to case, quotes and dashes
  (:func:`~feedsift.text.tokens.same_title_lenient`), else 0;
* **published**: 1 when it is the feed's calendar day (in either's own time zone or in UTC);
* **authors** and **tags**: bag-of-tokens F1 against the feed's names and set F1 against the
  feed's categories;
* **body**: word-LCS F1 (:func:`~feedsift.text.overlap.lcs_length`) against the feed's
  content where the feed carries full content; of a long post only its two ends are
  compared (:data:`END_WORDS` words each, :func:`ends_score`), which is where methods differ
  (a header line or sidebar before the post, boxes after it) and bounds the check's cost
  (full content: :data:`MIN_BODY_WORDS` words or more; an RSS description of
  :data:`MIN_FULL_DESCRIPTION_WORDS` that is not cut short counts as full content); where it
  carries an excerpt of :data:`MIN_EXCERPT_WORDS` or more, LCS F1 of the excerpt against the
  body's first as many words (:func:`head_score`): an excerpt is the start of the post, so a
  body that opens in the header or a sidebar, or misses the post's first lines, scores low
  (what the body does after its start is not checked there).

A method is checked only on items it did not learn from (``learned``: the URLs each method
was fitted on), so a template is never graded on the pages that taught it. Per method and
field the combiner keeps the last :data:`WINDOW` scores and their mean (``scores_``); a later
:meth:`FieldCombiner.partial_fit` with new feed items re-checks, so a site's redesign that
breaks a method moves the choice back (drift). :meth:`FieldCombiner.extract` takes each field
from the method with the best mean, when it has :data:`MIN_CHECKS` checks and beats the page
level's mean on the same items (the pairs are kept together; a tie goes to the page level,
which needs no site state, except a perfect one on a field of :data:`TIE_WINNERS`); every
other field, and any field the chosen method finds nothing for on the page, is the page
level's. A page the page level
takes for a listing, a thread or anything but an article is left to it whole: the feed's
items are posts, so no check said anything about such pages. The article's
``sources`` say, per field, which method made it and why (its score against the page
level's), and its provenance names the combiner.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any, Self

from feedsift.errors import FeedsiftError, ModelError, NotFittedError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.records import (
    Article,
    FeedItem,
    FeedSample,
    FieldSource,
    PageKind,
    SourceKind,
)
from feedsift.saved_state import pack_state, unpack_state
from feedsift.templates.feedvalues import ItemValues, has_values, item_values
from feedsift.text.overlap import PRF, lcs_length, lcs_prf
from feedsift.text.tokens import (
    lower_visible,
    same_title_lenient,
    token_f1,
    tokenize,
    tokenize_lower,
)

__all__ = [
    "END_WORDS",
    "FIELDS",
    "FOLDS",
    "HEAD_CHARS",
    "MIN_BODY_WORDS",
    "MIN_CHECKS",
    "MIN_EXCERPT_WORDS",
    "MIN_FULL_DESCRIPTION_WORDS",
    "RECHECK_EVERY",
    "TIE_WINNERS",
    "WINDOW",
    "FieldChoice",
    "FieldCombiner",
    "FieldScore",
    "MethodFitter",
    "checked_values",
    "cross_fit",
    "ends_score",
    "field_scores",
    "head_score",
    "maker",
    "saved_choices",
]

#: The fields chosen per site, named as :class:`~feedsift.records.Article` names them.
FIELDS = ("title", "body", "published", "authors", "tags")
#: Checks a method needs on a field before it may be chosen for it: one or two agreements
#: may be luck (a title that is also the site's name, a lone author).
MIN_CHECKS = 3
#: Recent checks kept per method and field: a 10-item feed refreshes half of them in one
#: poll after a redesign, so the choice follows the site, and old verdicts are forgotten.
WINDOW = 12
#: Per field, the methods that win a perfect tie with the page level (both right on every
#: checked item): a feed template's title path that found each held-out item's title is
#: the site's title element, while the page level's pick on the site's other pages can be
#: swayed by a tagline or a logo heading the feed never showed (ssg: Authing's "官方博客",
#: 4rkal). Other ties go to the page level, which needs no site state.
TIE_WINNERS: dict[str, tuple[str, ...]] = {"title": ("template",)}
#: Once every field a method was checked on holds a full :data:`WINDOW` of checks, the
#: method is checked on one feed item in this many (the same items for every method, beside
#: the page level), until a check goes against the window's verdict (a redesign): then on
#: every item again. A made verdict needs no check of every item, and the checks cost a
#: third of the page level's time when every page is a feed item.
RECHECK_EVERY = 4
#: Feed content shorter than this (in words) is an excerpt or a teaser: no body check.
MIN_BODY_WORDS = 50
#: Folds of a feed's items when a method learns from the very items it is checked on
#: (:func:`cross_fit`): two halves of a 10-item feed, each checked by a method fitted on
#: the other; more folds fit a method on more items but check it as often.
FOLDS = 2
#: A description this long (in words) that does not end in an ellipsis is the whole post:
#: RSS feeds without ``content:encoded`` often carry it there; a summary is a paragraph.
MIN_FULL_DESCRIPTION_WORDS = 150
#: An excerpt this long (in words; CJK characters count one each) is checked against the
#: body's start: ten words are a sentence, while a shorter one is a subtitle or a teaser
#: line ("Meine zentrale Methodenkompetenz.") that need not open the post.
MIN_EXCERPT_WORDS = 10
#: Words compared at each end of a long post's body and feed content: the methods agree on
#: a post's middle and differ at its ends, and the LCS costs the product of the lengths
#: (a whole 3,000-word post took 5 ms a method; two 300-word ends take 0.4 ms).
END_WORDS = 300
#: Characters a word takes, at first guess, when only a body's first words are wanted (the
#: head check): English words and their spaces take about 6; a short guess only doubles.
HEAD_CHARS = 8


@dataclass(frozen=True, slots=True)
class FieldScore:
    """One method's agreement with the feed on one field: the mean of its recent checks,
    and the page level's mean on the same items (what the method has to beat)."""

    score: float
    checks: int
    page_score: float


@dataclass(frozen=True, slots=True)
class FieldChoice:
    """The method that makes one field on this site, with its score and the page level's
    (``None``: never checked) and the reason in words."""

    field: str
    method: str
    score: float | None
    page_score: float | None
    checks: int
    reason: str


class FieldCombiner:
    """Per site: the best checked method for each field, the page level otherwise."""

    name = "combiner"
    schema_version = 1

    # learned state (absent before fit)
    #: method -> field -> recent (score, the page level's score on the same item)
    checks_: dict[str, dict[str, list[tuple[float, float]]]]
    scores_: dict[str, dict[str, FieldScore]]  #: method -> field -> mean of those
    choices_: dict[str, FieldChoice]  #: field -> the choice the scores make
    items_checked_: int  #: feed items checked so far

    def __init__(
        self,
        page_level: PageExtractor,
        methods: Sequence[PageExtractor] = (),
        min_checks: int = MIN_CHECKS,
        window: int = WINDOW,
        recheck_every: int = RECHECK_EVERY,
    ) -> None:
        self.page_level = page_level
        self.methods = methods
        self.min_checks = min_checks
        self.window = window
        self.recheck_every = recheck_every

    # -- learning -----------------------------------------------------------------------

    def fit(
        self,
        items: Iterable[FeedItem],
        pages: Mapping[str, ParsedPage],
        learned: Mapping[str, Collection[str]] | None = None,
    ) -> Self:
        """Forget the checks, then check every method on ``items`` and their ``pages``
        (keyed by item link); ``learned`` maps a method's name to the item URLs it was
        fitted on, which it is not checked on."""
        self.reset()
        return self.partial_fit(items, pages, learned)

    def partial_fit(
        self,
        items: Iterable[FeedItem],
        pages: Mapping[str, ParsedPage],
        learned: Mapping[str, Collection[str]] | None = None,
    ) -> Self:
        """Check every method on more feed items (a new poll): their scores join the recent
        ones and the choices are made again."""
        names = [m.name for m in self._extractors()]
        if len(set(names)) < len(names):
            raise ValueError(f"the combiner's methods need different names, not {names}")
        if self.recheck_every < 1:
            raise ValueError(f"recheck_every must be at least 1, not {self.recheck_every}")
        if not hasattr(self, "checks_"):
            self.checks_, self.items_checked_ = {}, 0
        for item in items:
            page = pages.get(item.url) if item.url else None
            if page is None:
                continue  # no page to check
            rivals = self._rivals(item.url or "", learned or {})
            if self.methods and not rivals:  # no method due: the item is only counted, and
                self.items_checked_ += int(has_values(item))  # its content is not cleaned
                continue
            values = checked_values(item)
            if values is None:
                continue  # nothing to check against
            self._check(values, page, rivals)
            self.items_checked_ += 1
        self._rescore()
        return self

    def reset(self) -> None:
        """Forget every check (parameters stay)."""
        for name in [n for n in vars(self) if n.endswith("_")]:
            delattr(self, name)

    def _rivals(self, url: str, learned: Mapping[str, Any]) -> list[PageExtractor]:
        """The methods checked on the item at ``url``: those that did not learn from it and
        are due a check."""
        return [m for m in self.methods
                if url not in learned.get(m.name, ()) and self._due(m.name)]  # fmt: skip

    def _check(self, values: ItemValues, page: ParsedPage, rivals: list[PageExtractor]) -> None:
        """Score each of the ``rivals`` on each field it gives, next to the page level's
        score on the same item (the pair the choice compares)."""
        scorer = _ItemScorer(values)
        own = _checked(self.page_level, scorer, page) or {}
        self._record(self.page_level.name, own, own)
        for method in rivals:
            scores = _checked(method, scorer, page)
            if scores is not None:  # None: a method that has learned nothing yet
                self._record(method.name, scores, own)

    def _due(self, method: str) -> bool:
        """Whether ``method`` is checked on the current item: always until each of its
        checked fields holds a full window, and again as soon as a check went against the
        window's verdict (a redesign, or a verdict in doubt); else one item in
        :attr:`recheck_every`."""
        fields = self.checks_.get(method)
        if not fields or any(len(r) < self.window or _surprise(r) for r in fields.values()):
            return True
        return self.items_checked_ % self.recheck_every == 0

    def _record(self, method: str, scores: Mapping[str, float], own: Mapping[str, float]) -> None:
        fields = self.checks_.setdefault(method, {})
        for field, score in scores.items():
            recent = fields.setdefault(field, [])
            recent.append((score, own.get(field, 0.0)))
            del recent[: max(0, len(recent) - self.window)]

    def _rescore(self) -> None:
        self.scores_ = {method: {field: _mean(recent) for field, recent in fields.items()
                                 if recent}
                        for method, fields in self.checks_.items()}  # fmt: skip
        self.choices_ = {field: self._choose(field) for field in FIELDS}

    def _extractors(self) -> list[PageExtractor]:
        return [self.page_level, *self.methods]

    # -- choosing -----------------------------------------------------------------------

    @property
    def is_fitted(self) -> bool:
        return hasattr(self, "choices_")

    def check_fitted(self) -> None:
        if not self.is_fitted:
            raise NotFittedError(
                "the combiner has checked no method on this site: call fit() with feed items"
            )

    def choice(self, field: str) -> FieldChoice:
        """The method that makes ``field`` (one of :data:`FIELDS`) on this site, and why."""
        self.check_fitted()
        return self.choices_[field]

    def _choose(self, field: str) -> FieldChoice:
        """The best-scoring method with enough checks that beats the page level on the same
        items; else the page level."""
        page = self.page_level.name
        own = self.scores_.get(page, {}).get(field)
        rivals = [(m.name, s) for m in self.methods
                  if (s := self.scores_.get(m.name, {}).get(field)) is not None
                  and s.checks >= self.min_checks]  # fmt: skip
        if own is None or not rivals:
            reason = "no feed item could check it" if own is None else (
                f"no other method has {self.min_checks} checks")  # fmt: skip
            score = own.score if own is not None else None
            return FieldChoice(field, page, score, score, own.checks if own else 0, reason)
        ties = TIE_WINNERS.get(field, ())
        winners = [(name, s) for name, s in rivals if s.score > s.page_score
                   or (name in ties and s.score == s.page_score == 1.0)]  # fmt: skip
        name, best = max(winners or rivals, key=lambda rival: rival[1].score)
        versus = f"on the same {best.checks} items"
        if winners:
            reason = f"{best.score:.2f} against the page level's {best.page_score:.2f} {versus}"
            return FieldChoice(field, name, best.score, best.page_score, best.checks, reason)
        reason = f"{best.page_score:.2f} against {name}'s {best.score:.2f} {versus}"
        return FieldChoice(field, page, own.score, own.score, own.checks, reason)

    # -- extracting ---------------------------------------------------------------------

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """The page level's article, each field taken from the method chosen for it."""
        self.check_fitted()
        base = self.page_level.extract(page, options)
        if base.kind not in (PageKind.ARTICLE, PageKind.EMPTY):
            return base  # a listing, a thread...: the feed's items, all posts, checked none
        return self._with_choices(page, base, options)

    def extract_post(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """:meth:`extract` for a page already known to be a post (a template accepted it
        and no veto held): combined even where the page level alone takes it for a
        listing (a short post above a grid of other posts' cards)."""
        self.check_fitted()
        base = self.page_level.extract(page, options)
        if base.kind.lists_items:
            base = replace(base, kind=PageKind.ARTICLE, posts=())
        return self._with_choices(page, base, options)

    def _with_choices(
        self, page: ParsedPage, base: Article, options: ExtractOptions | None
    ) -> Article:
        """``base`` with each field from the method chosen for it."""
        wanted = {c.method for c in self.choices_.values()} - {self.page_level.name}
        others = {m.name: _extract_or_none(m, page, options) for m in self.methods
                  if m.name in wanted}  # fmt: skip
        return self._combine(base, others)

    def _combine(self, base: Article, others: Mapping[str, Article | None]) -> Article:
        values: dict[str, Any] = {}
        sources: list[FieldSource] = []
        for field in FIELDS:
            choice = self.choices_[field]
            made = others.get(choice.method)
            if made is not None and _has(made, field):
                values[field] = getattr(made, field)
                sources.append(_source(field, made, choice, _kind(made)))
                continue
            note = _fallback(choice, made, self.page_level.name)
            sources.append(_source(field, base, note, "model", self.page_level.name))
        if values.get("body") and base.kind is PageKind.EMPTY:
            values["kind"] = PageKind.ARTICLE
        rest = tuple(s for s in base.sources if s.field not in FIELDS)
        provenance = replace(base.provenance, method=self.name)
        return replace(base, **values, sources=(*sources, *rest), provenance=provenance)

    # -- state --------------------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """Parameters and checks as JSON-safe data (the methods themselves are not saved)."""
        self.check_fitted()
        return {"min_checks": self.min_checks, "window": self.window,
                "recheck_every": self.recheck_every, "items": self.items_checked_,
                "checks": self.checks_, "page_level": self.page_level.name}  # fmt: skip

    def to_bytes(self) -> bytes:
        """The state in the learners' envelope (:mod:`feedsift.saved_state`)."""
        return pack_state(self.name, self.schema_version, self.get_state())

    def set_state(self, state: Mapping[str, Any]) -> Self:
        """Take the checks :meth:`get_state` returned; ModelError for a malformed state.
        Checks of a method this combiner does not have are kept (and saved again), not
        used: a site's feed template joins its combiner when the crawl hands it over."""
        try:
            self.min_checks, self.window = int(state["min_checks"]), int(state["window"])
            self.recheck_every = int(state.get("recheck_every", RECHECK_EVERY))
            self.checks_ = {method: {str(f): [(float(s), float(p)) for s, p in recent]
                                     for f, recent in fields.items()}
                            for method, fields in state["checks"].items()}  # fmt: skip
            self.items_checked_ = int(state["items"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelError(f"not a saved combiner state: {exc}") from exc
        self._rescore()
        return self

    @classmethod
    def from_bytes(
        cls, data: bytes, page_level: PageExtractor, methods: Sequence[PageExtractor] = ()
    ) -> FieldCombiner:
        """A combiner over ``page_level`` and ``methods`` with the checks :meth:`to_bytes`
        saved; ModelError for another learner, schema version or a malformed state."""
        state = unpack_state(cls.name, cls.schema_version, data)
        return cls(page_level, methods).set_state(state)


def maker(article: Article, field: str) -> str | None:
    """The method a combined article's ``field`` came from (its source names it first;
    ``None`` for an article the combiner did not make, or a field without a source)."""
    if article.provenance.method != FieldCombiner.name:
        return None
    source = article.source_of(field)
    return source.detail.split(":", 1)[0] if source is not None else None


def saved_choices(data: bytes) -> tuple[str, dict[str, FieldChoice]]:
    """The page level's name and, per field, the choice a saved combiner state makes, with
    the scores: for reports, which need no extractor to read it (ModelError when ``data``
    is not a combiner's state; a state saved without the page level's name: ``page``)."""
    state = unpack_state(FieldCombiner.name, FieldCombiner.schema_version, data)
    try:
        page = str(state.get("page_level") or "page")
        methods = [_Named(str(name)) for name in state["checks"] if name != page]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ModelError(f"not a saved combiner state: {exc}") from exc
    return page, dict(FieldCombiner.from_bytes(data, _Named(page), methods).choices_)


class _Named:
    """A method known by its name only: its saved scores can be read, it extracts nothing."""

    def __init__(self, name: str) -> None:
        self.name = name

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        raise NotFittedError(f"{self.name}: only its saved checks are at hand here")


#: Fits a site method (a feed template) on a feed sample and the pages its items link.
MethodFitter = Callable[[FeedSample, Mapping[str, ParsedPage]], PageExtractor]


def cross_fit(
    page_level: PageExtractor,
    fit_method: MethodFitter,
    sample: FeedSample,
    pages: Mapping[str, ParsedPage],
    folds: int = FOLDS,
) -> FieldCombiner:
    """A combiner over ``page_level`` and the method ``fit_method`` fits on the whole
    ``sample``, checked on the same items without ever grading it on what it learned: each
    of ``folds`` folds of the items is checked by the method fitted on the other folds.

    For a method that learns from the feed itself (a feed template learns all the items
    it is given), when no later items are at hand yet; later polls go to
    :meth:`FieldCombiner.partial_fit` with ``learned`` as usual.
    """
    usable = tuple(item for item in sample.items if item.url in pages)
    checks: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for fold in range(folds):
        held = usable[fold::folds]
        rest = replace(sample, items=tuple(i for i in usable if i not in held))
        method = fit_method(rest, pages)
        checked = FieldCombiner(page_level, [method]).fit(held, pages)
        for name, fields in checked.checks_.items():
            for field, recent in fields.items():
                checks.setdefault(name, {}).setdefault(field, []).extend(recent)
    combiner = FieldCombiner(page_level, [fit_method(replace(sample, items=usable), pages)])
    combiner.checks_ = {name: {field: recent[-combiner.window :] for field, recent in f.items()}
                        for name, f in checks.items()}  # fmt: skip
    combiner.items_checked_ = len(usable)
    combiner._rescore()
    return combiner


# -- the checks -----------------------------------------------------------------------------


def checked_values(item: FeedItem) -> ItemValues | None:
    """The item's values to check against; a long description that is not cut short
    counts as full content (:data:`MIN_FULL_DESCRIPTION_WORDS`)."""
    values = item_values(item)
    if values is None or not values.truncated or item.content:
        return values
    if values.ellipsis:  # the description (the content checked) is cut short
        return values
    if len(tokenize(values.content)) < MIN_FULL_DESCRIPTION_WORDS:
        return values
    return replace(values, truncated=False)


def field_scores(values: ItemValues, article: Article | None) -> dict[str, float]:
    """Each field the feed item can check, scored 0..1 against ``article`` (``None``: the
    method gave nothing, so every checkable field scores 0)."""
    return _ItemScorer(values).scores(article)


class _ItemScorer:
    """One feed item's checks: its content tokenised once, and the scores of each distinct
    article remembered (the mask methods often give the page level's very fields, and a
    body's LCS against a whole post is the checks' main cost)."""

    def __init__(self, values: ItemValues) -> None:
        self.values = values
        self._content: list[str] | None = None
        self._excerpt_words: int | None = None
        self._seen: dict[tuple[Any, ...], dict[str, float]] = {}

    def content_tokens(self) -> list[str]:
        """The feed content's lower-cased word tokens (what the LCS compares)."""
        if self._content is None:
            self._content = tokenize_lower(self.values.content)
        return self._content

    def excerpt_words(self) -> int:
        """Words of the feed's excerpt (as :func:`head_score` counts them)."""
        if self._excerpt_words is None:
            self._excerpt_words = len(tokenize(self.values.content))
        return self._excerpt_words

    def scores(self, article: Article | None) -> dict[str, float]:
        key = None if article is None else (article.title, article.published, article.authors,
                                            article.tags, article.body)  # fmt: skip
        known = self._seen.get(key) if key is not None else None
        if known is not None:
            return dict(known)
        scores: dict[str, float] = {}
        for field, check in _CHECKS.items():
            score = check(self, article)
            if score is not None:
                scores[field] = score
        if key is not None:
            self._seen[key] = dict(scores)
        return scores


def _title(scorer: _ItemScorer, article: Article | None) -> float | None:
    values = scorer.values
    if not values.title:
        return None
    return float(article is not None and same_title_lenient(article.title, values.title))


def _published(scorer: _ItemScorer, article: Article | None) -> float | None:
    values = scorer.values
    if values.published is None:
        return None
    found = article.published if article is not None else None
    return float(found is not None and bool(_days(found) & _days(values.published)))


def _days(moment: datetime) -> set[date]:
    """The calendar days ``moment`` may be written as: its own zone's, and UTC's."""
    days = {moment.date()}
    if moment.tzinfo is not None:
        days.add(moment.astimezone(UTC).date())
    return days


def _authors(scorer: _ItemScorer, article: Article | None) -> float | None:
    values = scorer.values
    if not values.authors:
        return None
    found = " ".join(article.authors) if article is not None else ""
    return token_f1(tokenize_lower(found), tokenize_lower(" ".join(values.authors)))


def _tags(scorer: _ItemScorer, article: Article | None) -> float | None:
    values = scorer.values
    feed = {" ".join(tokenize_lower(tag)) for tag in values.tags} - {""}
    if not feed:
        return None
    found = {" ".join(tokenize_lower(t)) for t in (article.tags if article else ())} - {""}
    both = len(feed & found)
    return 2 * both / (len(feed) + len(found))


def _body(scorer: _ItemScorer, article: Article | None) -> float | None:
    values = scorer.values
    if values.truncated:
        words = scorer.excerpt_words()
        if words < MIN_EXCERPT_WORDS:
            return None
        return _head_f1(values.content, words, article.text) if article is not None else 0.0
    reference = scorer.content_tokens()
    if len(reference) < MIN_BODY_WORDS:
        return None
    if article is None:
        return 0.0
    if len(reference) > 2 * END_WORDS:  # two ends are compared, however long the body is
        return _ends_f1(*_end_tokens(article.text, END_WORDS), reference, END_WORDS)
    return ends_score(tokenize_lower(article.text), reference)


def ends_score(found: Sequence[str], reference: Sequence[str], end: int = END_WORDS) -> float:
    """Word-LCS F1 of a body's tokens against the feed content's; when either is longer than
    two ends of ``end`` words, the mean F1 of the first ``end`` words against the first
    ``end`` and of the last against the last."""
    if not found:
        return 0.0
    if max(len(found), len(reference)) <= 2 * end:
        return _lcs_f1(found, reference)
    return _ends_f1(found[:end], found[-end:], reference, end)


def _ends_f1(
    head: Sequence[str], tail: Sequence[str], reference: Sequence[str], end: int
) -> float:
    """:func:`ends_score` of a body whose first and last ``end`` tokens are ``head`` and
    ``tail``, against a reference longer than two ends."""
    if not head:
        return 0.0
    return (_lcs_f1(head, reference[:end]) + _lcs_f1(tail, reference[-end:])) / 2


def _end_tokens(text: str, count: int) -> tuple[list[str], list[str]]:
    """The first and the last ``count`` tokens of ``tokenize_lower(text)``, tokenizing only
    the two ends of a long text (a post's middle is most of its words)."""
    lowered = lower_visible(text)  # what tokenize_lower tokenizes
    if len(lowered) <= 2 * HEAD_CHARS * (count + 1):
        tokens = tokenize(lowered)
        return tokens[:count], tokens[-count:]
    return _first_tokens(lowered, count), _last_tokens(lowered, count)


def _lcs_f1(found: Sequence[str], reference: Sequence[str]) -> float:
    common = lcs_length(found, reference)
    return PRF.of(common / len(found), common / len(reference)).f1 if found else 0.0


def head_score(excerpt: str, body: str) -> float:
    """LCS F1 of a feed's ``excerpt`` against the first as many words of ``body``: 1 when
    the body opens with the excerpt; a header line or sidebar before the post, or its
    first lines missing, take their words' share off."""
    return _head_f1(excerpt, len(tokenize(excerpt)), body)


def _head_f1(excerpt: str, words: int, body: str) -> float:
    """:func:`head_score` of an excerpt of ``words`` words."""
    return lcs_prf(" ".join(_first_tokens(body, words)), excerpt).f1


def _first_tokens(text: str, count: int) -> list[str]:
    """``tokenize(text)[:count]``, tokenizing only as much of the text as it takes: every
    token of a prefix but its last (which the cut may shorten) is a token of the text."""
    size = HEAD_CHARS * (count + 1)
    while size < len(text):
        tokens = tokenize(text[:size])
        if len(tokens) > count:
            return tokens[:count]
        size *= 2
    return tokenize(text)[:count]


def _last_tokens(text: str, count: int) -> list[str]:
    """``tokenize(text)[-count:]``, tokenizing only as much of the text's end as it takes:
    every token of a suffix but its first (which the cut may shorten) is a token of the
    text."""
    size = HEAD_CHARS * (count + 1)
    while size < len(text):
        tokens = tokenize(text[-size:])
        if len(tokens) > count:
            return tokens[-count:]
        size *= 2
    return tokenize(text)[-count:]


_CHECKS: dict[str, Callable[[_ItemScorer, Article | None], float | None]] = {
    "title": _title, "body": _body, "published": _published, "authors": _authors,
    "tags": _tags,
}  # fmt: skip


# -- helpers ------------------------------------------------------------------------------


def _checked(
    method: PageExtractor, scorer: _ItemScorer, page: ParsedPage
) -> dict[str, float] | None:
    """``method``'s field scores on the item's page (``None``: it has learned nothing)."""
    try:
        article: Article | None = method.extract(page)
    except NotFittedError:
        return None
    except FeedsiftError:
        article = None  # it fails on a page of the site: no field is right
    return scorer.scores(article)


def _surprise(recent: list[tuple[float, float]]) -> bool:
    """Whether the last check went against the window's verdict: the method beat the page
    level on the item while it does not on the window's mean, or the reverse."""
    score, page = recent[-1]
    mean = _mean(recent)
    return score != page and (score > page) != (mean.score > mean.page_score)


def _mean(recent: list[tuple[float, float]]) -> FieldScore:
    count = len(recent)
    return FieldScore(sum(s for s, _ in recent) / count, count, sum(p for _, p in recent) / count)


def _extract_or_none(
    method: PageExtractor, page: ParsedPage, options: ExtractOptions | None
) -> Article | None:
    """``method``'s article, or ``None`` when it fails on the page (the page level stays)."""
    try:
        return method.extract(page, options)
    except FeedsiftError:
        return None


def _fallback(choice: FieldChoice, made: Article | None, page: str) -> FieldChoice:
    """The page level's field: chosen, or in place of a method that gave nothing here."""
    if choice.method == page:
        return choice
    failed = "failed" if made is None else "found none"
    return replace(choice, reason=f"{choice.method} {failed} on this page ({choice.reason})")


def _has(article: Article, field: str) -> bool:
    value = getattr(article, field)
    return value is not None and value not in ((), "")


def _kind(article: Article) -> SourceKind:
    """The mechanism behind a site method's field: a template's path, else the DOM."""
    return "template" if article.provenance.model_version == "template" else "dom"


def _source(
    field: str, article: Article, choice: FieldChoice, kind: SourceKind, method: str = ""
) -> FieldSource:
    """Where ``field`` came from: the method's own source, with the choice and its reason."""
    own = article.source_of(field)
    detail = f"{method or choice.method}: {choice.reason}"
    if own is not None and own.detail:
        detail = f"{detail}; {own.detail}"
    return FieldSource(field, own.source if own is not None else kind, detail)
