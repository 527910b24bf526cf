"""The URL-key parameter learner: which query parameters name a page, learned per site."""

from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feedsift.dedup import load_rules, title_hash, url_key
from feedsift.dedup.params import MIN_STORIES, ItemSample, QueryParamLearner
from feedsift.dedup.tracking import is_tracking
from feedsift.dedup.urlkeys import explain_url_key
from feedsift.errors import ModelError, NotFittedError

RULES = load_rules()
BASE = "https://news.example.com/story"
TITLES = ("Flood closes the bridge", "Council approves budget", "Storm warning for Friday")


def poll(sid: str, titles: tuple[str, ...] = TITLES, first_id: int = 12) -> list[ItemSample]:
    """One poll of a feed whose links carry a session id, the same for the whole poll."""
    return [ItemSample(f"{BASE}?id={first_id + n}&sid={sid}", t) for n, t in enumerate(titles)]


def learned_sid() -> QueryParamLearner:
    return QueryParamLearner().fit(poll("a")).partial_fit(poll("b"))


# --- learning ----------------------------------------------------------------------------


def test_a_session_id_is_learned_not_identifying_and_the_id_identifying() -> None:
    learner = learned_sid()
    assert learner.status("sid") == "not identifying" and learner.drops("sid")
    assert learner.status("id") == "identifying" and not learner.drops("id")
    assert learner.status("never_seen") == "unknown" and not learner.drops("never_seen")
    assert learner.dropped_names() == ["sid"]
    assert learner.polls_ == 2 and learner.items_seen_ == 6


def test_fit_and_partial_fit_return_self_and_fit_starts_over() -> None:
    learner = QueryParamLearner()
    assert learner.fit(poll("a")) is learner
    assert learner.partial_fit(poll("b")) is learner
    assert learner.fit(poll("c")) is learner
    assert learner.polls_ == 1 and learner.dropped_names() == []  # one poll: no evidence yet


def test_fewer_stories_than_the_threshold_keep_the_parameter() -> None:
    short = TITLES[: MIN_STORIES - 1]
    learner = QueryParamLearner().fit(poll("a", short)).partial_fit(poll("b", short))
    assert learner.status("sid") == "unknown" and learner.dropped_names() == []
    lenient = QueryParamLearner(min_stories=2).fit(poll("a", short)).partial_fit(poll("b", short))
    assert lenient.drops("sid")


def test_evidence_is_counted_once_per_story_however_often_it_is_polled() -> None:
    learner = QueryParamLearner()
    for sid in "abcdef":  # one story, six sessions
        learner.partial_fit(poll(sid, TITLES[:1]))
    assert learner.status("sid") == "unknown"  # one title is no habit of the site


def test_a_parameter_that_tells_two_titles_apart_is_identifying_for_good() -> None:
    learner = learned_sid()
    retitled = [ItemSample(f"{BASE}?id=12&sid=z", "Flood closes the bridge (updated)")]
    learner.partial_fit(retitled)
    assert learner.status("sid") == "identifying"  # a veto: the site keeps sid from now on
    learner.partial_fit(poll("y")).partial_fit(poll("x"))
    assert not learner.drops("sid")


def test_entries_of_one_poll_with_the_same_title_are_two_items() -> None:
    comic = [ItemSample(f"https://comic.example/?p={n}", "Daily comic") for n in range(5)]
    learner = QueryParamLearner().fit(comic)
    assert learner.status("p") == "identifying"


def test_parameters_that_change_together_stay_unknown() -> None:
    """A per-item session id: id and sid differ together, so neither says anything alone."""
    items = [ItemSample(f"{BASE}?id={12 + n}&sid=s{n}", t) for n, t in enumerate(TITLES)]
    learner = QueryParamLearner().fit(items)
    assert learner.status("id") == "unknown" and learner.status("sid") == "unknown"


def test_tracking_parameters_and_cid_are_not_learned() -> None:
    items = [ItemSample(f"{BASE}?id=1&utm_source={n}&_cid_=x{n}", "Same") for n in range(3)]
    learner = QueryParamLearner().fit(items)
    assert set(learner.varying_) | learner.identifying_ == set()


def test_items_without_a_title_or_a_usable_url_are_skipped() -> None:
    learner = QueryParamLearner().fit(
        [ItemSample(f"{BASE}?id=1", None), ItemSample(f"{BASE}?id=2", "  "),
         ItemSample("mailto:someone@example.com", "A title")]
    )  # fmt: skip
    assert learner.items_seen_ == 0 and not learner.remembered_


def test_memory_is_bounded_and_forgets_the_oldest() -> None:
    learner = QueryParamLearner(max_remembered=4)
    learner.partial_fit(poll("a")).partial_fit(poll("b"))
    assert len(learner.remembered_) == 4
    assert all("sid=b" in item.params for item in list(learner.remembered_)[-3:])


def test_parameters_are_checked() -> None:
    with pytest.raises(Exception, match="min_stories"):
        QueryParamLearner(min_stories=0)


# --- before fitting, state ---------------------------------------------------------------


def test_judging_before_fitting_raises_the_projects_error() -> None:
    learner = QueryParamLearner()
    judges = (lambda: learner.drops("sid"), learner.dropped_names, learner.get_state,
              learner.to_bytes, lambda: url_key(f"{BASE}?sid=1", "T", RULES, learner))  # fmt: skip
    for judge in judges:
        with pytest.raises(NotFittedError, match="fit"):
            judge()


def test_state_round_trips_through_the_learners_envelope() -> None:
    learner = learned_sid()
    data = learner.to_bytes()
    saved = json.loads(gzip.decompress(data))
    assert saved["learner"] == "query-params" and saved["schema"] == 1
    again = QueryParamLearner.from_bytes(data)
    assert again.get_state() == learner.get_state()
    assert again.dropped_names() == ["sid"] and again.status("id") == "identifying"
    again.partial_fit(poll("c"))  # goes on learning where it stopped
    assert again.remembered_ and again.polls_ == 3


def test_another_version_or_a_broken_state_is_refused() -> None:
    payload = {"learner": "query-params", "schema": 99, "state": {}}
    with pytest.raises(ModelError, match="schema 99"):
        QueryParamLearner.from_bytes(gzip.compress(json.dumps(payload).encode()))
    with pytest.raises(ModelError, match="not a saved query-params state"):
        QueryParamLearner.from_bytes(b"not gzip")
    broken = {"learner": "query-params", "schema": 1, "state": {"min_stories": 3}}
    with pytest.raises(ModelError, match="not a saved query-params state"):
        QueryParamLearner.from_bytes(gzip.compress(json.dumps(broken).encode()))


# --- keys --------------------------------------------------------------------------------


def test_without_learned_state_the_key_is_unchanged() -> None:
    url = f"{BASE}?id=12&sid=a&utm_source=rss"
    assert url_key(url, TITLES[0], RULES) == url_key(url, TITLES[0], RULES, None)
    assert url_key(url, TITLES[0], RULES) == f"{BASE}?id=12&sid=a"


def test_a_learned_drop_keeps_the_title_hash_in_its_place() -> None:
    learner = learned_sid()
    steps = explain_url_key(f"{BASE}?id=12&sid=zz&utm_source=x", TITLES[0], RULES, learner)
    assert steps.key == f"{BASE}?_cid_={title_hash(TITLES[0])}&id=12"
    assert steps.learned == ("sid=zz",) and set(steps.dropped) == {"sid=zz", "utm_source=x"}
    without_sid = url_key(f"{BASE}?id=12", TITLES[0], RULES, learner)
    assert without_sid == steps.key  # one story, with or without the session id
    assert url_key(f"{BASE}?id=12&sid=zz", TITLES[1], RULES, learner) != steps.key
    assert url_key(f"{BASE}?id=13&sid=zz", TITLES[0], RULES, learner) != steps.key
    assert url_key(steps.key, TITLES[0], RULES, learner) == steps.key  # idempotent


def test_no_learned_drop_without_a_title_or_when_a_rule_applies() -> None:
    learner = learned_sid()
    assert url_key(f"{BASE}?id=12&sid=zz", None, RULES, learner) == f"{BASE}?id=12&sid=zz"
    abc = "http://abcnews.go.com/kabc/story?section=news&id=8691010&sid=1"
    assert url_key(abc, "T", RULES, learner) == url_key(abc, "T", RULES)


# --- properties: no false merge, no split of one story -----------------------------------

NAMES = ("id", "sid", "p", "sort", "utm_source", "ref")
PATHS = ("/story", "/item")
PARAMS = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(("1", "2", "3")), max_size=4)
ITEM = st.tuples(st.sampled_from(PATHS), PARAMS, st.sampled_from(("A", "B", "C", "D", "E")))
RANDOM_POLLS = st.lists(st.lists(ITEM, max_size=8), min_size=1, max_size=6)


@st.composite
def session_polls(draw: st.DrawFn) -> list[list[tuple[str, dict[str, str], str]]]:
    """Stories listed again in each poll with a new value of one parameter, plus noise:
    learners that drop something."""
    stories = draw(st.lists(ITEM, min_size=2, max_size=5, unique_by=lambda item: item[2]))
    name = draw(st.sampled_from(NAMES[:4]))
    values = draw(st.lists(st.sampled_from(("1", "2", "3")), min_size=2, max_size=3, unique=True))
    polls = [[(f"{path}/{n}", params | {name: value}, title)
              for n, (path, params, title) in enumerate(stories)] for value in values]  # fmt: skip
    noise = draw(st.lists(st.lists(ITEM, max_size=3), max_size=2))
    return polls + noise


POLLS = st.one_of(session_polls(), RANDOM_POLLS)
ORIGIN = "https://site.example"


def _url(path: str, params: dict[str, str]) -> str:
    query = "&".join(f"{name}={value}" for name, value in params.items())
    return f"{ORIGIN}{path}?{query}" if query else f"{ORIGIN}{path}"


def _fitted(polls: list[list[tuple[str, dict[str, str], str]]]) -> QueryParamLearner:
    learner = QueryParamLearner(min_stories=2)  # a low threshold: more drops to check
    for items in polls:
        learner.partial_fit([ItemSample(_url(p, params), title) for p, params, title in items])
    return learner


def _differing(one: dict[str, str], two: dict[str, str]) -> set[str]:
    return {name for name in one.keys() | two.keys() if one.get(name) != two.get(name)}


@settings(max_examples=300, deadline=None)
@given(POLLS, ITEM, ITEM)
def test_property_a_identifying_or_unknown_parameters_never_share_a_key(
    polls: list[list[tuple[str, dict[str, str], str]]],
    one: tuple[str, dict[str, str], str],
    two: tuple[str, dict[str, str], str],
) -> None:
    learner = _fitted(polls)
    key_one = url_key(_url(one[0], one[1]), one[2], (), learner)
    key_two = url_key(_url(two[0], two[1]), two[2], (), learner)
    kept = {n for n in _differing(one[1], two[1]) if not is_tracking(n) and not learner.drops(n)}
    if kept or one[0] != two[0]:  # an identifying or unknown parameter (or the path) differs
        assert key_one != key_two
    if key_one == key_two and one[2] != two[2]:  # different titles: only what keys drop
        assert url_key(_url(one[0], one[1]), one[2], ()) == url_key(
            _url(two[0], two[1]), two[2], ()
        )


@settings(max_examples=300, deadline=None)
@given(POLLS, ITEM, PARAMS, st.sampled_from(("1", "2", "9")))
def test_property_b_tracking_and_learned_parameters_never_split_one_story(
    polls: list[list[tuple[str, dict[str, str], str]]],
    story: tuple[str, dict[str, str], str],
    variation: dict[str, str],
    tracking_value: str,
) -> None:
    learner = _fitted(polls)
    path, params, title = story

    def dropped(name: str) -> bool:
        return is_tracking(name) or learner.drops(name)

    # the same story: its droppable parameters changed, removed or added, the rest as is
    again = {n: v for n, v in params.items() if not dropped(n)}
    again |= {n: v for n, v in variation.items() if dropped(n)}
    again |= {"utm_campaign": tracking_value, "fbclid": tracking_value}
    for learned in (learner, None):
        if learned is None and not all(map(is_tracking, _differing(params, again))):
            continue  # without learned state only tracking parameters are dropped
        assert url_key(_url(path, params), title, (), learned) == url_key(
            _url(path, again), title, (), learned
        )
