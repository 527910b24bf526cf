"""The control server: the test web's truth, round and access log over HTTP, as JSON.

* ``GET /_testweb/truth``: :class:`~feedsift.testweb.truth.Truth` as JSON;
* ``POST /_testweb/advance``: publish the next round, answers ``{"round": n}``;
* ``GET /_testweb/round``: ``{"round": n, "rounds": N}``;
* ``GET /_testweb/requests?site=NAME``: the access log (all sites without ``site``);
* ``GET /``: what the port file holds (sites, feeds, control URLs).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from feedsift.testweb.responses import Request, Response, Router
from feedsift.testweb.server import RequestRecord
from feedsift.testweb.truth import Truth

__all__ = ["ControlSite", "WebControls"]

JSON_TYPE = "application/json"


class WebControls(Protocol):
    """What the control server needs from the web (:class:`~feedsift.testweb.TestWeb`)."""

    @property
    def round(self) -> int: ...

    @property
    def rounds(self) -> int: ...

    def advance(self) -> int: ...

    def truth(self) -> Truth: ...

    def requests(self, site: str | None = None) -> list[RequestRecord]: ...

    def describe(self) -> dict[str, Any]: ...


def _json(data: object, status: int = 200) -> Response:
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    return Response(
        status=status, body=body, content_type=JSON_TYPE, headers=(("Cache-Control", "no-store"),)
    )


class ControlSite:
    """Answers the control URLs of one web."""

    def __init__(self, web: WebControls) -> None:
        self.web = web
        self.router = Router.of(
            (r"/", lambda r, m: _json(web.describe())),
            (r"/_testweb/truth", lambda r, m: _json(web.truth().to_dict())),
            (r"/_testweb/round", lambda r, m: self._round()),
            (r"/_testweb/advance", lambda r, m: self._advance(r)),
            (r"/_testweb/requests", lambda r, m: self._requests(r)),
        )

    def respond(self, request: Request) -> Response:
        return self.router.dispatch(request)

    def _round(self) -> Response:
        return _json({"round": self.web.round, "rounds": self.web.rounds})

    def _advance(self, request: Request) -> Response:
        if request.method != "POST":
            return _json({"error": "use POST to advance the round"}, 405)
        return _json({"round": self.web.advance()})

    def _requests(self, request: Request) -> Response:
        records = self.web.requests(request.param("site"))
        return _json(
            [
                {
                    "site": r.site,
                    "method": r.method,
                    "target": r.target,
                    "at": r.at,
                    "headers": dict(r.headers),
                }
                for r in records
            ]
        )
