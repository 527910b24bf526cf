"""Running the app: uvicorn on the options' address until Ctrl-C (or SIGTERM)."""

from __future__ import annotations

import socket
import sys

import uvicorn

from feedsift.errors import ConfigError
from feedsift.server.app import OPENAPI_PATH, build_app
from feedsift.server.options import ServerOptions, is_loopback
from feedsift.storage import Store
from feedsift.storage.location import describe_target

__all__ = ["banner", "base_url", "listen", "serve"]


def base_url(options: ServerOptions) -> str:
    """The address to open: ``http://host:port/`` (IPv6 addresses in brackets)."""
    host = options.host.strip("[]")
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{options.port}/"


def serve(options: ServerOptions) -> None:
    """Serve the API until stopped. Options the server must not run with, a database that
    cannot be opened and an address that cannot be listened on raise one line (a
    :class:`~feedsift.errors.FeedsiftError`) before anything is served."""
    app = build_app(options)
    Store(options.db).close()  # said now in one line, not as a traceback from the lifespan
    sock = listen(options)
    try:
        print(banner(options), file=sys.stderr)
        config = uvicorn.Config(app, host=options.host, port=options.port, lifespan="on",
                                server_header=False, log_level="info")  # fmt: skip
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def listen(options: ServerOptions) -> socket.socket:
    """A socket listening on the options' address; :class:`ConfigError` when it cannot."""
    family = socket.AF_INET6 if ":" in options.host else socket.AF_INET
    try:
        return socket.create_server((options.host.strip("[]"), options.port), family=family)
    except OSError as exc:
        where = base_url(options).removeprefix("http://").rstrip("/")
        reason = (exc.strerror or str(exc)).split(" (while attempting", 1)[0]  # says where
        raise ConfigError(f"cannot listen on {where}: {reason}") from exc


def banner(options: ServerOptions) -> str:
    """The line said on start: what is served where, and who may write."""
    url = base_url(options)
    if not options.token:
        writes = "writes open to this machine"
    elif is_loopback(options.host):
        writes = "writes need the token"
    else:
        writes = "writes need the token, reads are open to all who reach it"
    return (f"feedsift: serving {describe_target(options.db)} at {url} (the API under "
            f"{url}api/, described at {url}{OPENAPI_PATH.lstrip('/')}); {writes}; Ctrl-C stops")
