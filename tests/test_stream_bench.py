"""The stream evaluation on a small generated site: ordering, methods, outputs."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from feedsift.api import bundled_extractor
from feedsift.cli.main import main
from feedsift.evaluation.stream import find_streams, replay_site
from feedsift.evaluation.stream_report import render_stream, stream_json, write_plots

NAV = "<nav><a href='/'>Home</a> <a href='/world'>World</a> <a href='/sport'>Sport</a></nav>"
PROMO = "<aside><p>Sign up to our daily newsletter and never miss the morning briefing.</p></aside>"
FOOT = "<footer><p>Copyright 2026 The Example Gazette. All rights reserved worldwide.</p></footer>"
WORDS = ("river harbour council ferry bridge market school garden library station museum "
         "village forest coast island valley meadow orchard quarry mill").split()  # fmt: skip


def _story(n: int) -> str:
    words = WORDS[n % len(WORDS)], WORDS[(3 * n + 1) % len(WORDS)]
    return " ".join(
        f"The {words[0]} plan number {n} was discussed again by the {words[1]} committee "
        f"on day {n + k}, and residents said the proposal needed more study before any vote."
        for k in range(6)
    )


def _site(root: Path, pages: int = 8) -> Path:
    folder = root / "news" / "gazette.example"
    (folder / "pages").mkdir(parents=True)
    rows = []
    for n in range(pages):
        body = f"<article><h1>Story {n}</h1><p>{_story(n)}</p><p>{_story(n + 50)}</p></article>"
        head = f"<head><title>Story {n}</title></head>"
        html = f"<html>{head}<body>{NAV}{body}{PROMO}{FOOT}</body></html>"
        (folder / "pages" / f"p{n}.html.gz").write_bytes(gzip.compress(html.encode()))
        rows.append({"id": f"p{n}", "url": None, "date": f"2026-01-{n + 1:02d}",
                     "text": f"{_story(n)}\n\n{_story(n + 50)}"})  # fmt: skip
    rows.reverse()  # the stream must come back in date order
    (folder / "gold.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return root


def test_streams_are_found_and_ordered(tmp_path: Path) -> None:
    (stream,) = find_streams(_site(tmp_path))
    assert (stream.group, stream.name) == ("news", "gazette.example")
    assert [p.id for p in stream.pages] == [f"p{n}" for n in range(8)]
    assert stream.pages[0].url == "http://gazette.example/p0"


def test_replay_scores_every_method_and_site_level_learns(tmp_path: Path) -> None:
    (stream,) = find_streams(_site(tmp_path))
    result = replay_site(stream, bundled_extractor())
    assert set(result.f1) >= {"page", "diffpost", "hybrid-urltree", "hybrid-diffpost"}
    assert all(len(values) == 8 for values in result.f1.values())
    assert result.f1["urltree-strict"][-1] > 0.9  # the template is known by then
    assert result.cumulative("page")[-1] == pytest.approx(sum(result.f1["page"]) / 8)
    table = render_stream([result])
    assert "news/gazette.example" in table and "pooled, all pages" in table
    data = stream_json([result])
    assert data["sites"][0]["pages"] == 8 and "urltree-strict" in data["pooled_all"]
    (png,) = write_plots([result], tmp_path / "plots")
    assert png.read_bytes().startswith(b"\x89PNG")


def test_bench_stream_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _site(tmp_path)
    out_json = tmp_path / "stream.json"
    status = main(["bench", "--stream", str(root), "--json", str(out_json), "--quiet",
                   "--plots", str(tmp_path / "plots")])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0 and "pooled, all pages" in out
    assert json.loads(out_json.read_text())["sites"][0]["site"] == "gazette.example"
    assert (tmp_path / "plots" / "news__gazette.example.png").exists()
