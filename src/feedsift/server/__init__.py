"""``feedsift serve``: extraction and the store as a JSON API over HTTP (Starlette, uvicorn).

:func:`feedsift.server.app.build_app` makes the ASGI app from a :class:`ServerOptions`;
:func:`feedsift.server.runner.serve` runs it. Those need the ``serve`` extra
(``pip install 'feedsift[serve]'``); this package's root imports neither Starlette nor
uvicorn, so the options can be read and checked without them.
"""

from feedsift.server.options import (
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PORT,
    DEFAULT_RENDER_TIMEOUT_MS,
    TOKEN_ENV,
    ServerOptions,
    check_options,
    is_loopback,
)

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_PORT",
    "DEFAULT_RENDER_TIMEOUT_MS",
    "SERVE_EXTRA",
    "TOKEN_ENV",
    "ServerOptions",
    "check_options",
    "is_loopback",
]

#: What to install when Starlette or uvicorn is missing.
SERVE_EXTRA = "pip install 'feedsift[serve]'"
