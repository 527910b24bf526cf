"""The server's app served by uvicorn on a free loopback port, for the HTTP tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import uvicorn

from feedsift.server import ServerOptions
from feedsift.server.app import build_app

__all__ = ["START_SECONDS", "serve_app"]

#: Seconds a server may take to start (it loads the extraction model: about a second).
START_SECONDS = 30.0


def serve_app(options: ServerOptions, client_timeout: float = 30.0) -> Iterator[httpx.Client]:
    """The app of ``options`` served on a free loopback port, and a client of it (a
    generator: ``yield from`` it in a fixture); the server stops when it resumes."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(build_app(options), lifespan="on", log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False,
                          timeout=client_timeout) as client:  # fmt: skip
            yield client
    finally:
        server.should_exit = True
        thread.join(timeout=2 * client_timeout)
        sock.close()
