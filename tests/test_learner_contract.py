"""The contract every learner of feedsift follows (issue 17), checked on each one alike:
the site-level learners, the feed template, the URL-key parameter learner, the combiner.

scikit-learn's, adapted: ``__init__`` stores parameters and learns nothing; ``fit`` and
``partial_fit`` return ``self``; judging before fitting raises NotFittedError; learned state
lives in attributes ending in ``_``; the state saved with ``to_bytes`` gives a learner that
judges the same; another learner's state, or another schema version, is refused.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from feedsift.api import bundled_extractor
from feedsift.dedup.params import ItemSample, QueryParamLearner
from feedsift.errors import ModelError, NotFittedError
from feedsift.saved_state import pack_state, unpack_state
from feedsift.sitelevel.combiner import FieldCombiner
from feedsift.sitelevel.diffpost import DiffPost
from feedsift.sitelevel.urltree import UrlTree
from feedsift.templates.learner import FeedTemplate
from feedsite import Post, feed_sample, pages_of, post_page

POSTS = [Post(n) for n in range(1, 7)]
PAGES = pages_of(POSTS)
OTHER = post_page(Post(9))


@dataclass(frozen=True)
class Case:
    """One learner: how to make it, fit it, feed it more, and what it says of a page."""

    make: Callable[[], Any]
    fit: Callable[[Any], Any]
    more: Callable[[Any], Any]
    judge: Callable[[Any], object]
    #: how a saved state is read back (a combiner is given its methods again)
    load: Callable[[Any, bytes], Any] = lambda learner, data: type(learner).from_bytes(data)


def _polls(sid: str) -> list[ItemSample]:
    return [ItemSample(f"https://news.example/story?id={n}&sid={sid}", f"Story {n}")
            for n in range(1, 5)]  # fmt: skip


def _combiner() -> FieldCombiner:
    template = FeedTemplate().fit(feed_sample(POSTS[:3]), PAGES)
    return FieldCombiner(bundled_extractor(), [template])


def _combiner_fit(combiner: FieldCombiner) -> FieldCombiner:
    learned = {"template": {post.url for post in POSTS[:3]}}
    return combiner.fit(feed_sample(POSTS).items, PAGES, learned)


def _query_judge(learner: QueryParamLearner) -> object:
    return learner.status("sid"), learner.status("id"), learner.dropped_names()


CASES = {
    "urltree": Case(
        lambda: UrlTree(n_min=1), lambda x: x.fit(PAGES.values()),
        lambda x: x.partial_fit(OTHER), lambda x: x.extract(OTHER),
    ),
    "diffpost": Case(
        DiffPost, lambda x: x.fit(PAGES.values()),
        lambda x: x.partial_fit(OTHER), lambda x: x.extract(OTHER),
    ),
    "template": Case(
        FeedTemplate, lambda x: x.fit(feed_sample(POSTS), PAGES),
        lambda x: x.partial_fit(feed_sample([Post(9)]), {OTHER.url: OTHER}),
        lambda x: (x.extract(OTHER), x.is_post(OTHER)),
    ),
    "query-params": Case(
        QueryParamLearner, lambda x: x.fit(_polls("a1")),
        lambda x: x.partial_fit(_polls("b2")), _query_judge,
    ),
    "combiner": Case(
        _combiner, _combiner_fit,
        lambda x: x.partial_fit(feed_sample([Post(9)]).items, {OTHER.url: OTHER}),
        lambda x: (x.extract(OTHER), x.choices_),
        lambda x, data: FieldCombiner.from_bytes(data, x.page_level, x.methods),
    ),
}  # fmt: skip


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> Case:
    return CASES[request.param]


def test_init_stores_parameters_and_learns_nothing(case: Case) -> None:
    learner = case.make()
    parameters = set(inspect.signature(type(learner).__init__).parameters) - {"self"}
    public = {name for name in vars(learner) if not name.startswith("_")}
    assert {name for name in public if not name.endswith("_")} <= parameters
    assert all(getattr(learner, name) is None for name in public if name.endswith("_"))


def test_judging_before_fit_raises_not_fitted(case: Case) -> None:
    with pytest.raises(NotFittedError):
        case.judge(case.make())


def test_fit_and_partial_fit_return_self(case: Case) -> None:
    learner = case.make()
    assert case.fit(learner) is learner
    assert case.more(learner) is learner
    case.judge(learner)  # fitted: judges without raising


def test_learned_state_ends_in_underscore(case: Case) -> None:
    learner = case.make()
    before = {name: id(value) for name, value in vars(learner).items()}
    case.fit(learner)
    changed = {name for name, value in vars(learner).items()
               if not name.startswith("_") and before.get(name) != id(value)}  # fmt: skip
    assert changed
    assert all(name.endswith("_") for name in changed)


def test_saved_state_round_trips_to_the_same_judgement(case: Case) -> None:
    learner = case.fit(case.make())
    again = case.load(learner, learner.to_bytes())
    assert case.judge(again) == case.judge(learner)


@pytest.mark.parametrize("change", ["learner", "schema"])
def test_another_learner_or_schema_is_refused(case: Case, change: str) -> None:
    learner = case.fit(case.make())
    state = unpack_state(learner.name, learner.schema_version, learner.to_bytes())
    name, schema = learner.name, learner.schema_version
    data = pack_state("someone-else", schema, state) if change == "learner" else (
        pack_state(name, schema + 1, state))  # fmt: skip
    with pytest.raises(ModelError):
        case.load(learner, data)
