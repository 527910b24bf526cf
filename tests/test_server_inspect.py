"""``POST /api/inspect``: the explanation of a page's block decisions over real HTTP (the
server of ``test_server_api.py``, on an empty database of its own)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from feedsift.api import bundled_extractor
from feedsift.extractors.explain import explain_page, explanation_to_dict
from feedsift.parsing.page import parse_page
from feedsift.server import ServerOptions
from live_app import serve_app
from test_server_api import BODY_LIMIT, PAGE, PNG, SENTENCE, _error

URL = "https://coast.example.org/log/"


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    options = ServerOptions(db=tmp_path_factory.mktemp("inspect") / "feedsift.db",
                            max_body_bytes=BODY_LIMIT)  # fmt: skip
    yield from serve_app(options)


def _inspect(client: httpx.Client, body: bytes, content_type: str, **params: str) -> httpx.Response:
    headers = {"Content-Type": content_type}
    return client.post("/api/inspect", params=params, content=body, headers=headers)


def test_the_blocks_of_an_html_body_with_their_decisions(api: httpx.Client) -> None:
    response = _inspect(api, PAGE, "text/html; charset=utf-8", url=URL)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    data = response.json()
    assert data["article"]["title"] == "The keepers' log" and data["article"]["url"] == URL
    assert data["kind"] == "article" and data["title_block"] >= 0
    blocks = data["blocks"]
    assert [b["index"] for b in blocks] == list(range(len(blocks)))
    kept = [b for b in blocks if b["kept"]]
    assert any(SENTENCE in b["text"] and b["stage"] == "block classifier" for b in kept)
    home = next(b for b in blocks if b["text"].startswith("Home"))
    assert not home["kept"] and home["reason"].startswith("removed:")
    local = explain_page(bundled_extractor(), parse_page(PAGE, URL))
    assert data == explanation_to_dict(local)  # what the library says, as JSON


def test_the_same_refusals_as_extract(api: httpx.Client) -> None:
    for kind in ("application/octet-stream", "text/html"):
        assert "PNG" in _error(_inspect(api, PNG, kind), 415)
        extracted = api.post("/api/extract", content=PNG, headers={"Content-Type": kind})
        assert extracted.status_code == 415
    assert "text/plain" in _error(_inspect(api, PAGE, "text/plain"), 415)
    assert "empty" in _error(_inspect(api, b"  ", "text/html"), 400)
    assert '"url"' in _error(api.post("/api/inspect", json={"link": "x"}), 400)
    assert "format" in _error(_inspect(api, PAGE, "text/html", format="txt"), 400)
    assert str(BODY_LIMIT) in _error(_inspect(api, PAGE + b"x" * BODY_LIMIT, "text/html"), 413)


def test_the_endpoint_is_listed_and_described(api: httpx.Client) -> None:
    assert "POST /api/inspect" in api.get("/").json()["endpoints"]
    operation = api.get("/openapi.json").json()["paths"]["/api/inspect"]["post"]
    assert operation["summary"].startswith("Explain")
    assert "text/html" in operation["requestBody"]["content"]
    assert {p["name"] for p in operation["parameters"]} == {"url", "comments", "metadata"}
