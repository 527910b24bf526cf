"""``feedsift bench --render`` on a two-post fixture blog whose stylesheet hides a sidebar.

Skipped when Playwright cannot be imported or no Chromium is found, as
tests/test_rendering.py is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("playwright.async_api", reason="playwright is not installed")

from browser_support import require_browser
from feedsift.cli.main import main
from feedsift.evaluation.render_bench import RenderBenchOptions, run_render_bench, site_resources
from feedsift.evaluation.render_report import pooled_summary, render_markdown, render_text
from feedsift.evaluation.templates_bench import find_sites
from feedsift.rendering.browser import RenderOptions

require_browser()

SITE = Path(__file__).parent / "fixtures" / "render" / "styled-blog"
#: Blocks of the sidebar that assets/css/site.css hides, per page.
SIDEBAR_BLOCKS = 3


def test_the_site_assets_answer_its_own_host_only() -> None:
    resources = site_resources(SITE, find_sites(SITE)[0].posts)
    assert resources is not None
    assert resources.resolve("https://styled.test/css/site.css") is not None
    assert resources.resolve("https://cdn.example.net/css/site.css") is None


def test_static_against_rendered_on_a_styled_blog(tmp_path: Path) -> None:
    options = RenderBenchOptions(render=RenderOptions(page_timeout_ms=5000, pool_size=1))
    result = run_render_bench(SITE, options)
    (site,) = result.sites
    assert (site.name, site.css_files, site.external_css) == ("styled-blog", 1, 1)
    assert len(site.pages) == 2
    for page in site.pages:
        assert page.fallback is None and page.error is None
        assert page.static is not None and page.rendered is not None
        assert page.render_ms is not None and page.render_ms > 0
        assert page.hidden == SIDEBAR_BLOCKS  # the stylesheet was served and applied
        assert page.static.title and page.rendered.title
        assert page.static.f1 is not None and page.rendered.f1 is not None
        assert page.visual_end is not None and page.visual_end.f1 is not None
    pooled = pooled_summary(result)
    assert pooled.posts == 2 and pooled.fallbacks == 0 and pooled.f1_rendered.count == 2
    assert result.peak_pss_mb > 0 and result.peak_anon_mb > 0 and result.restarts == 0
    text = render_text(result)
    assert "styled-blog" in text and "pooled (1 sites)" in text and "peak PSS" in text
    assert "F1 visual end" in text and pooled.f1_visual_end.count == 2
    assert "| styled-blog | 2 |" in render_markdown(result, "feedsift bench --render x")


def test_the_command_writes_json_and_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    status = main(["bench", "--render", str(SITE), "--limit", "1", "--quiet",
                   "--json", str(out_json), "--markdown", str(out_md)])  # fmt: skip
    assert status == 0
    assert "pooled (1 sites)" in capsys.readouterr().out
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["command"] == f"feedsift bench --render {SITE} --limit 1"
    assert data["pooled"]["posts"] == 1 and data["sites"][0]["hidden_share"]["value"] > 0
    assert data["pooled"]["f1_visual_end"]["count"] == 1
    assert set(data["timing_ms"]) >= {"render_median", "static_median", "rendered_median"}
    assert data["browser"]["peak_pss_mb"] > 0
    assert len(data["pages"]["styled-blog"]) == 1
    assert out_md.read_text(encoding="utf-8").startswith("# feedsift bench --render")
