"""``feedsift serve --render``: the server's extractions laid out in a real Chromium.

The servers run for real on 127.0.0.1: uvicorn in a thread of the test process (one with
``render``, one without, each for the module) and, once, the ``feedsift serve --render``
command in a process of its own. The tests that launch a browser are skipped when
Playwright cannot be imported or no Chromium is found (``FEEDSIFT_CHROMIUM`` or
``chromium`` on the ``PATH``), as tests/test_rendering.py is; the one about a missing
Chromium runs everywhere.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from browser_support import RIVER_STORY, needs_browser, no_browser
from conftest import LoopbackServer
from feedsift.acquisition.fetcher import USER_AGENT
from feedsift.cli.main import main
from feedsift.rendering.browser import CHROMIUM_ENV
from feedsift.server import ServerOptions
from live_app import START_SECONDS, serve_app

#: The page limit of the test servers: a page here renders in well under a second.
RENDER_TIMEOUT_MS = 10_000
#: What an article laid out by the browser says in its sources.
BROWSER_SOURCE = {"field": "layout", "source": "browser",
                  "detail": "rendered in a headless Chromium"}  # fmt: skip
#: The switch by which a feedsift browser is told apart in ``/proc``.
RENDERER_SWITCH = b"--feedsift-renderer="
PROMO = "Subscribe to the promo newsletter today and save a fifth on every order"
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title} | The river blog</title>
<style>
.promo {{ display: none; }}
aside {{ float: right; width: 25%; font-size: 13px; }}
article {{ width: 70%; }}
</style>{link}</head><body>
<header><nav><a href="/">Home</a> <a href="/about/">About</a></nav></header>
<aside><h3>Elsewhere</h3><p>Other posts on the blog: the mill, the weir, the eel traps and
the old ferry crossing below the church.</p></aside>
""" + RIVER_STORY + """</article><footer><p>Copyright the river blog</p></footer></body></html>"""
THEME = b"body { font-family: serif; } .byline { color: #777; }"


def _page(title: str, link: str = "") -> bytes:
    return PAGE.format(title=title, promo=PROMO, link=link).encode()


@pytest.fixture(scope="module")
def rendering(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A server with ``--render`` that may fetch loopback pages and stylesheets."""
    if no_browser() is not None:
        pytest.skip(str(no_browser()))
    db = tmp_path_factory.mktemp("render") / "f.db"
    options = ServerOptions(db=db, render=True, render_timeout_ms=RENDER_TIMEOUT_MS,
                            allow_private_addresses=True)  # fmt: skip
    yield from serve_app(options, 60.0)


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A server without ``--render``."""
    yield from serve_app(ServerOptions(db=tmp_path_factory.mktemp("plain") / "f.db"), 60.0)


def _extract(client: httpx.Client, body: bytes, url: str) -> httpx.Response:
    return client.post("/api/extract", params={"url": url}, content=body,
                       headers={"Content-Type": "text/html"})  # fmt: skip


def _layout_sources(article: dict[str, object]) -> list[object]:
    sources = article["sources"]
    assert isinstance(sources, list)
    return [entry for entry in sources if isinstance(entry, dict) and entry["field"] == "layout"]


@needs_browser
def test_a_sent_page_is_laid_out_by_the_browser(rendering: httpx.Client) -> None:
    answer = _extract(rendering, _page("The night the river rose"), "https://river.example/one/")
    assert answer.status_code == 200, answer.text
    article = answer.json()
    assert _layout_sources(article) == [BROWSER_SOURCE]
    assert "the lane to the mill was a brown stream" in article["text"]


@needs_browser
def test_the_inspector_reads_the_rendered_layout(rendering: httpx.Client) -> None:
    answer = rendering.post("/api/inspect", params={"url": "https://river.example/two/"},
                            content=_page("Sandbags and tea"),
                            headers={"Content-Type": "text/html"})  # fmt: skip
    assert answer.status_code == 200, answer.text
    assert _layout_sources(answer.json()["article"]) == [BROWSER_SOURCE]
    page = rendering.post("/inspect", files={"file": ("p.html", _page("Sandbags and tea"))},
                          data={"url": "https://river.example/two/"})  # fmt: skip
    assert page.status_code == 200 and "rendered in a headless Chromium" in page.text


@needs_browser
def test_concurrent_requests_are_all_rendered(rendering: httpx.Client) -> None:
    """Four pages of four sites at once: more than the browser's two contexts."""
    pages = [(_page(f"Flood number {n}"), f"https://site{n}.example/post/") for n in range(4)]
    with ThreadPoolExecutor(len(pages)) as pool:
        answers = list(pool.map(lambda sent: _extract(rendering, *sent), pages))
    assert [answer.status_code for answer in answers] == [200] * len(pages)
    for n, answer in enumerate(answers):
        article = answer.json()
        assert _layout_sources(article) == [BROWSER_SOURCE]
        assert article["title"].startswith(f"Flood number {n}")


@needs_browser
def test_a_fetched_pages_stylesheet_is_fetched_under_the_servers_rules(
    rendering: httpx.Client, web: LoopbackServer
) -> None:
    web.route("/theme.css", THEME, content_type="text/css")
    link = '<link rel="stylesheet" href="/theme.css">'
    url = web.route("/posts/one/", _page("The night the river rose", link))
    answer = rendering.post("/api/extract", json={"url": url})
    assert answer.status_code == 200, answer.text
    assert _layout_sources(answer.json()) == [BROWSER_SOURCE]
    fetched = [(path, headers.get("User-Agent")) for path, headers in web.requests]
    assert ("/theme.css", USER_AGENT) in fetched  # by feedsift's fetcher, not the browser


def test_without_render_no_layout_source(plain: httpx.Client) -> None:
    answer = _extract(plain, _page("The night the river rose"), "https://river.example/one/")
    assert answer.status_code == 200, answer.text
    assert _layout_sources(answer.json()) == []


def test_serve_render_without_chromium_is_one_line_and_status_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    monkeypatch.setenv(CHROMIUM_ENV, str(tmp_path / "no-chromium"))
    assert main(["serve", "--render", "--port", "1", "--db", str(db)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"feedsift: --render: Chromium '{tmp_path / 'no-chromium'}' is not an " \
                  "executable file\n"  # fmt: skip
    monkeypatch.delenv(CHROMIUM_ENV)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["serve", "--render", "--port", "1", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("feedsift: --render: no Chromium found") and err.count("\n") == 1
    assert not db.exists()


def test_serve_help_tells_what_render_costs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for said in ("--render", "--render-timeout MS", "0.2-0.6 s a page",
                 "trained on the markup estimate", "headless Chromium"):  # fmt: skip
        assert said in out


@needs_browser
def test_the_command_renders_and_closes_its_browser_when_stopped(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "feedsift", "serve", "--render", "--port", str(port),
               "--db", str(tmp_path / "served.db")]  # fmt: skip
    server = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_until_up(base)
        with httpx.Client(base_url=base, trust_env=False, timeout=60.0) as client:
            answer = _extract(client, _page("The night the river rose"), "https://r.example/")
        assert _layout_sources(answer.json()) == [BROWSER_SOURCE]
        browsers = _browsers_under(server.pid)
        assert browsers, "no browser process under the server"
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 130
        assert _gone(browsers, seconds=10), f"browser processes left: {browsers}"
    finally:
        server.kill()
        server.wait()


def _wait_until_up(base: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            httpx.get(base + "/api/feeds", trust_env=False)
            return
        except httpx.ConnectError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)


def _browsers_under(root: int) -> set[int]:
    """Processes descended from ``root`` that carry the renderer's marker switch."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found = set()
    for pid in parents:
        ancestor = pid
        while ancestor in parents and ancestor not in (root, 0, 1):
            ancestor = parents[ancestor]
        if ancestor == root and RENDERER_SWITCH in _cmdline(pid):
            found.add(pid)
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _gone(pids: set[int], seconds: float) -> bool:
    """Whether every process of ``pids`` ended (or is a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(RENDERER_SWITCH in _cmdline(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False
