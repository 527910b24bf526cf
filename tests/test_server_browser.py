"""``feedsift serve``'s pages in a real browser: Debian's Chromium driven by Playwright for
Python (through ``executable_path``; the README's test command installs Chromium where it
is missing). The server is the one of ``test_server_api.py`` on loopback, on a database of
its own. A screenshot of the inspector is saved as a test artifact (``test-artifacts/``,
or ``$FEEDSIFT_TEST_ARTIFACTS``).

Skipped, with the reason, only where Playwright or Chromium is missing."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from feedsift.server import ServerOptions
from feedsift.storage import Store
from live_app import serve_app
from test_server_api import BODY_LIMIT, COAST, PAGE, SENTENCE, _fill
from test_server_pages import LOG_URL, _store_log

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

#: Where the browser is: $FEEDSIFT_CHROMIUM, else Debian's chromium on the PATH.
CHROMIUM = os.environ.get("FEEDSIFT_CHROMIUM") or shutil.which("chromium")
#: Flags for a headless Chromium as root on a machine without internet: no sandbox (root),
#: and none of the background connections that would fail and retry.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync")  # fmt: skip
#: Where the screenshots go.
ARTIFACTS = Path(os.environ.get("FEEDSIFT_TEST_ARTIFACTS")
                 or Path(__file__).resolve().parent.parent / "test-artifacts")  # fmt: skip
#: Milliseconds a page may take to load or an element to appear.
WAIT_MS = 15_000

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium: apt-get install chromium (or set FEEDSIFT_CHROMIUM)"
)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = tmp_path_factory.mktemp("browser") / "feedsift.db"
    with Store(path) as store:
        _fill(store)
        with store.transaction():
            _store_log(store)
    for client in serve_app(ServerOptions(db=path, max_body_bytes=BODY_LIMIT)):
        yield str(client.base_url).rstrip("/")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that fails the test on any script dialog (the pages send no script)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield opened
    context.close()
    assert dialogs == [], f"a script ran in the page: {dialogs}"


def _row(page: Any, text: str) -> Any:
    """The inspector's table row of the block whose text holds ``text``."""
    rows = page.locator("tbody tr").filter(has=page.locator("td.text", has_text=text))
    assert rows.count() == 1, f"{rows.count()} rows hold {text!r}"
    return rows.first


def test_the_inspector_marks_each_block(base_url: str, page: Any) -> None:
    page.goto(f"{base_url}/inspect")
    page.fill("input[name=url]", LOG_URL)
    page.fill("textarea[name=html]", PAGE.decode())
    page.click("button[type=submit]")
    page.wait_for_selector("text=Extracted text")
    share = _row(page, "Share this post")
    assert share.get_attribute("class") == "removed"
    assert share.locator("td.decision").inner_text() == "removed"
    assert "removed: content score" in share.inner_text()
    title = _row(page, "The keepers' log")
    assert title.get_attribute("class") == "title"
    assert "the title is a field of its own" in title.inner_text()
    body = _row(page, SENTENCE)
    assert body.get_attribute("class") == "kept" and "kept: content score" in body.inner_text()
    colours = {row: _background(page, row) for row in ("kept", "title", "removed")}
    assert len(set(colours.values())) == 3, colours  # the three decisions look different
    assert SENTENCE in page.locator("main").inner_text()
    frame = page.frame_locator("iframe.page")  # the page itself, marked, sandboxed
    assert frame.locator("[data-fs=kept]").count() == 3
    marked_title = frame.locator("[data-fs=title]")
    assert marked_title.inner_text() == "The keepers' log"
    assert "the title is a field of its own" in str(marked_title.get_attribute("title"))
    share = frame.locator("p[data-fs=removed]", has_text="Share this post")
    assert "removed: content score" in str(share.get_attribute("title"))
    assert page.locator("iframe.page").get_attribute("sandbox") == ""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "inspector.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_the_inspector_of_an_uploaded_file(base_url: str, page: Any, tmp_path: Path) -> None:
    saved = tmp_path / "log.html"
    saved.write_bytes(PAGE)
    page.goto(f"{base_url}/inspect")
    page.set_input_files("input[name=file]", str(saved))
    page.click("button[type=submit]")
    page.wait_for_selector("text=Extracted text")
    assert _row(page, SENTENCE[:40]).get_attribute("class") == "kept"


def _background(page: Any, row_class: str) -> str:
    cell = page.locator(f"tr.{row_class} td").first
    return str(cell.evaluate("cell => getComputedStyle(cell).backgroundColor"))


def test_search_open_and_inspect_a_stored_article(base_url: str, page: Any) -> None:
    page.goto(f"{base_url}/articles")
    page.fill("input[name=q]", "lamps")
    page.click("button[type=submit]")
    page.wait_for_url("**/articles?*q=lamps*")
    main = page.locator("main").inner_text()
    assert "How the lamps were trimmed" in main and "Elections" not in main
    page.fill("input[name=q]", "keepers log book")
    page.click("button[type=submit]")
    page.click("text=The keepers' log")
    assert page.locator("h1").inner_text() == "The keepers' log"
    assert "<script>alert(1)</script>" in page.locator("main").inner_text()  # as text
    assert page.locator("main script").count() == 0
    page.click("main a[href$='/inspect']")
    page.wait_for_selector("text=Extracted text")
    assert SENTENCE in _row(page, SENTENCE[:40]).inner_text()
    assert _row(page, "Privacy").get_attribute("class") == "removed"


def test_subscribe_and_unsubscribe_with_the_forms(base_url: str, page: Any) -> None:
    page.goto(f"{base_url}/feeds")
    page.fill("input[name=url]", "http://elsewhere.example/rss")
    page.check("input[name=as_is]")
    page.click("form[action='/feeds'] button")
    notice = page.locator("p.notice").inner_text()
    assert notice.startswith("Subscribed to http://elsewhere.example/rss"), notice
    row = page.locator("tbody tr", has_text="elsewhere.example")
    row.locator("button", has_text="remove").click()
    assert page.locator("p.notice").inner_text().startswith("Unsubscribed from")
    feeds = httpx.get(f"{base_url}/api/feeds", trust_env=False).json()["feeds"]
    assert [feed["url"] for feed in feeds] == [f"http://{COAST}/feed.xml"]


def test_a_site_shows_its_template_and_choices(base_url: str, page: Any) -> None:
    page.goto(f"{base_url}/sites")
    page.click(f"text={COAST}")
    main = page.locator("main").inner_text()
    assert "|html|body|div[@class=post]|h1" in main and "template" in main
    assert "1.00 against the page level's 0.00 on the same 6 items" in main
    page.goto(f"{base_url}/sites/nowhere.example")
    assert page.locator("h1").inner_text() == "Error 404"
