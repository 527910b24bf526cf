"""``feedsift serve`` on the command line: its help, and what it refuses before listening."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from feedsift.cli.main import main


def test_serve_help_teaches_the_endpoints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for endpoint in ("POST   /api/extract", "GET    /api/articles", "/api/articles/ID",
                     "POST   /api/feeds", "DELETE /api/feeds/ID", "/api/sites/SITE",
                     "/openapi.json", "curl", "--token", "127.0.0.1"):  # fmt: skip
        assert endpoint in out


def test_serve_is_listed_among_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "serve" in capsys.readouterr().out


def test_another_host_without_a_token_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("FEEDSIFT_TOKEN", raising=False)
    db = tmp_path / "served.db"
    assert main(["serve", "--host", "0.0.0.0", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("feedsift: refusing to listen on 0.0.0.0 without a token")
    assert err.count("\n") == 1 and "--token" in err and "FEEDSIFT_TOKEN" in err
    assert not db.exists()


def test_without_the_serve_extra_it_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # an import of it fails as if missing
    monkeypatch.delitem(sys.modules, "feedsift.server.runner", raising=False)
    assert main(["serve", "--port", "1"]) == 1
    err = capsys.readouterr().err
    assert err == "feedsift: feedsift serve needs Starlette and uvicorn: " \
        "pip install 'feedsift[serve]'\n"


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "s.db")]) == 1
    err = capsys.readouterr().err
    assert err == f"feedsift: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_runs_until_interrupted(tmp_path: Path) -> None:
    """The command itself: it says where it serves, answers, and stops on Ctrl-C."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "feedsift", "serve", "--port", str(port),
               "--db", str(tmp_path / "served.db")]  # fmt: skip
    server = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              text=True)  # fmt: skip
    try:
        assert server.stderr is not None
        banner = server.stderr.readline()
        assert banner.startswith(f"feedsift: serving {tmp_path / 'served.db'} at "
                                 f"http://127.0.0.1:{port}/")  # fmt: skip
        answer = _get_when_up(f"http://127.0.0.1:{port}/api/articles")
        assert answer.json() == {"limit": 20, "offset": 0, "total": 0, "articles": []}
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=20) == 130
    finally:
        server.kill()
        server.wait()


def _get_when_up(url: str) -> httpx.Response:
    """GET ``url`` once the server answers (it loads the model first: about a second)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(url, trust_env=False)
        except httpx.ConnectError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
