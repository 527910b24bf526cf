"""The Spark job's feed templates: learned per host from the first half of its item pages."""

from __future__ import annotations

import pytest

from feedsift.parsing.page import parse_page
from feedsift.records import FeedItem
from feedsift.spark.templating import MIN_TEMPLATE_ITEMS, HostTemplate, learning_quota
from feedsift.templates.learner import MAX_ITEMS, FeedTemplate
from test_site_models import _html, _item, _page


@pytest.mark.parametrize(
    ("items", "quota"),
    [(0, None), (MIN_TEMPLATE_ITEMS - 1, None), (MIN_TEMPLATE_ITEMS, 2), (10, 5), (11, 5),
     (239, MAX_ITEMS)],
)  # fmt: skip
def test_a_template_learns_from_half_the_items_leaving_the_rest_to_check_it(
    items: int, quota: int | None
) -> None:
    assert learning_quota(items) == quota


def test_the_template_is_learned_once_when_the_quota_is_reached() -> None:
    host = HostTemplate(8)  # quota 4
    states = [host.add(_item(n), _page(n)) for n in range(8)]
    assert [s is not None for s in states] == [False, False, False, True] + [False] * 4
    state = states[3]
    assert state is not None and host.learned and not host.pages  # nothing kept after
    template = FeedTemplate.from_bytes(state)
    article = template.extract(parse_page(_html(9), "https://harbour.example/posts/9/"))
    assert article.title == "Story number 9"


def test_too_few_items_no_link_or_the_same_page_twice_teach_nothing() -> None:
    assert HostTemplate(MIN_TEMPLATE_ITEMS - 1).add(_item(0), _page(0)) is None
    host = HostTemplate(MIN_TEMPLATE_ITEMS)  # quota 2
    assert host.add(FeedItem(None, "No link"), _page(0)) is None
    assert host.add(_item(0), _page(0)) is None
    assert host.add(_item(0), _page(0)) is None  # the same link again does not count
    assert host.add(_item(1), _page(1)) is not None


def test_pages_without_a_template_in_common_learn_none() -> None:
    host = HostTemplate(MIN_TEMPLATE_ITEMS)
    empty = parse_page("<html><body></body></html>", "https://harbour.example/posts/0/")
    assert host.add(_item(0), empty) is None
    assert host.add(_item(1), empty) is None
    assert host.learned  # tried once, not again
