"""``feedsift show``: two stories behind one script keep two keys, and the stored one is found."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from feedsift.cli.main import main
from feedsift.dedup import load_rules, url_key
from feedsift.storage import Store
from feedsift.storage.documents import NewDocument

FIRST = ("https://news.example.com/story?id=12", "Flood closes the bridge")
SECOND = ("https://news.example.com/story?id=13", "Council approves budget")


def _show(capsys: pytest.CaptureFixture[str], db: Path, url: str, title: str) -> dict[str, str]:
    assert main(["show", url, "--title", title, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    lines = [line.partition(":  ") for line in out.splitlines() if ":  " in line]
    return {name.strip(): value.strip() for name, _, value in lines} | {"out": out}


def test_two_stories_of_one_script_keep_two_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "none.db"
    first = _show(capsys, db, *FIRST)
    second = _show(capsys, db, *SECOND)
    assert first["URL key"] == "https://news.example.com/story?id=12"
    assert second["URL key"] == "https://news.example.com/story?id=13"
    assert first["rule"].startswith("none applies: tracking parameters and _cid_ dropped")
    assert first["dropped"].startswith("_cid_=")
    tracked = _show(capsys, db, FIRST[0] + "&utm_source=rss&fbclid=x", FIRST[1])
    assert tracked["URL key"] == first["URL key"]
    assert "fbclid=x" in tracked["dropped"] and "utm_source=rss" in tracked["dropped"]


def test_the_stored_first_story_is_not_shown_for_the_second(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    key = url_key(FIRST[0], FIRST[1], load_rules())
    document = NewDocument(key, "news.example.com", FIRST[0], FIRST[0], 200, (), b"<p>flood</p>",
                           datetime(2024, 5, 1, tzinfo=UTC), 0.1)  # fmt: skip
    with Store(db) as store, store.transaction():
        store.documents.add(document)
    assert "stored document 1" in _show(capsys, db, *FIRST)["out"]
    assert "stored document" not in _show(capsys, db, *SECOND)["out"]
