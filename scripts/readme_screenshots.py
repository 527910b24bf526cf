"""Take the README's screenshots of ``feedsift serve`` after ``feedsift demo``.

    feedsift demo --db /tmp/shots/demo.db
    python scripts/readme_screenshots.py /tmp/shots/demo.db docs/img

Serves the database on a free loopback port (in this process), opens the articles page
searched for a word, then the inspector of the first article found, in Debian's Chromium
driven by Playwright (``pip install -e '.[serve,browser]'``), and saves ``articles.png``
and ``inspector.png`` (1280 px wide: the articles page's first screen; the inspection
from its top to the end of the marked page beside the extracted text).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from feedsift.server import ServerOptions
from feedsift.server.app import build_app

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
VIEWPORT = {"width": 1280, "height": 860}
QUERY = "bus"


def serve(db: Path) -> tuple[uvicorn.Server, str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(build_app(ServerOptions(db=db)), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{sock.getsockname()[1]}"


def shoot(page: Page, base: str, out: Path) -> None:
    page.goto(f"{base}/articles?q={QUERY}")
    page.screenshot(path=str(out / "articles.png"))
    page.click("main tbody a >> nth=0")
    page.click("main a[href$='/inspect']")
    page.wait_for_selector("text=Extracted text")
    bottom = page.locator("div.sides").bounding_box()  # the marked page beside the text
    height = VIEWPORT["height"] if bottom is None else bottom["y"] + bottom["height"]
    page.screenshot(path=str(out / "inspector.png"), full_page=True,
                    clip={"x": 0, "y": 0, "width": VIEWPORT["width"], "height": height})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    server, base = serve(args.db)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                             args=CHROMIUM_ARGS)  # fmt: skip
        shoot(browser.new_page(viewport=VIEWPORT), base, args.out)
        browser.close()
    server.should_exit = True
    print(f"saved {args.out / 'articles.png'} and {args.out / 'inspector.png'}")


if __name__ == "__main__":
    main()
