"""The learners' saved-state envelope: name, schema, state; the same state, the same bytes."""

from __future__ import annotations

import gzip

import pytest

from feedsift.errors import ModelError
from feedsift.saved_state import pack_state, unpack_state

STATE = {"window": 3, "paths": ["/html/body/article"]}


def test_a_state_comes_back_as_it_was_saved() -> None:
    assert unpack_state("combiner", 2, pack_state("combiner", 2, STATE)) == STATE


def test_the_bytes_do_not_carry_the_time_of_writing(monkeypatch: pytest.MonkeyPatch) -> None:
    """gzip's header holds a modification time; a state saved a minute later must be the
    same bytes (a template job compares states learned twice)."""
    import time

    first = pack_state("combiner", 2, STATE)
    monkeypatch.setattr(time, "time", lambda: 2_000_000_000.0)
    assert pack_state("combiner", 2, STATE) == first
    assert first[4:8] == b"\0\0\0\0"  # the header's mtime field
    assert gzip.decompress(first)


def test_another_learner_or_schema_is_refused() -> None:
    data = pack_state("combiner", 2, STATE)
    with pytest.raises(ModelError):
        unpack_state("urltree", 2, data)
    with pytest.raises(ModelError):
        unpack_state("combiner", 3, data)
