""":class:`TestWeb`: every site of the test web on loopback, one origin each, plus control."""

from __future__ import annotations

import threading
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Protocol

from feedsift.testweb.control import ControlSite
from feedsift.testweb.fault_site import FaultsSite
from feedsift.testweb.faults import DEFAULT_SLOW_SECONDS
from feedsift.testweb.fieldnotes import FieldNotes
from feedsift.testweb.gazette import Gazette
from feedsift.testweb.marginalia import Marginalia
from feedsift.testweb.posts import Schedule
from feedsift.testweb.server import AccessLog, RequestRecord, SiteServer
from feedsift.testweb.sites import GeneratedSite, SiteContext
from feedsift.testweb.ssg import SsgSite, ssg_folders
from feedsift.testweb.truth import FeedKind, Truth, TruthSite

__all__ = ["GENERATED_SITES", "TestWeb"]

#: The generated sites, in the order they are started and listed.
GENERATED_SITES: tuple[type[GeneratedSite], ...] = (Marginalia, FieldNotes, Gazette)
#: Name of the control server in the access log.
CONTROL = "control"


class _Site(Protocol):
    def truth(self) -> TruthSite: ...


class TestWeb:
    """A web of realistic sites with feeds, faults and a truth API, on 127.0.0.1.

    >>> with TestWeb(seed=7) as web:                  # doctest: +SKIP
    ...     feeds = web.feed_urls("good")
    ...     web.advance()

    ``rounds`` is how many rounds of posts exist (round 1 is published at start);
    ``ssg_root`` adds one origin per real blog of ``../shared/sites/ssg``;
    ``slow_seconds`` is how long the slow fault URLs wait before answering.
    """

    __test__ = False  # not a pytest test class, despite its name

    def __init__(
        self,
        seed: int = 7,
        *,
        rounds: int = 4,
        ssg_root: Path | None = None,
        slow_seconds: float = DEFAULT_SLOW_SECONDS,
    ) -> None:
        self.seed = seed
        self.ssg_root = ssg_root
        self.slow_seconds = slow_seconds
        self.schedule = Schedule(rounds)
        self.log = AccessLog()
        self._closing = threading.Event()
        self._servers: dict[str, SiteServer] = {}
        self._sites: dict[str, _Site] = {}
        self._ssg: list[str] = []
        self._started = False

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> TestWeb:
        """Bind every server and start serving; idempotent. Returns ``self``."""
        if self._started:
            return self
        if self._closing.is_set():
            raise RuntimeError("this TestWeb was closed; make a new one")
        self._started = True
        try:
            self._start_sites()
        except BaseException:
            self.close()
            raise
        return self

    def _start_sites(self) -> None:
        for site_class in GENERATED_SITES:
            server = self._bind(site_class.name)
            context = SiteContext(server.base_url, self.seed, self.schedule)
            self._attach(server, site_class(context))
        faults = self._bind(FaultsSite.name)
        self._attach(faults, FaultsSite(faults.base_url, self.seed, self.slow_seconds))
        for folder in self._ssg_folders():
            server = self._bind(folder.name)
            self._attach(server, SsgSite(folder, server.base_url))
            self._ssg.append(folder.name)
        control = self._bind(CONTROL)
        control.responder = ControlSite(self)
        for server in self._servers.values():
            server.start()

    def _ssg_folders(self) -> list[Path]:
        if self.ssg_root is None:
            return []
        if not self.ssg_root.is_dir():
            raise FileNotFoundError(f"ssg_root {self.ssg_root} is not a folder")
        return ssg_folders(self.ssg_root)

    def _bind(self, name: str) -> SiteServer:
        server = SiteServer(name, self.log, self._closing)
        self._servers[name] = server
        return server

    def _attach(self, server: SiteServer, site: Any) -> None:
        server.responder = site
        self._sites[server.name] = site

    def close(self) -> None:
        """Stop every server, cut open connections and wake waiting handlers; idempotent."""
        self._closing.set()
        closers = [threading.Thread(target=s.close) for s in self._servers.values()]
        for closer in closers:  # in parallel: each waits up to one poll interval
            closer.start()
        for closer in closers:
            closer.join()

    def __enter__(self) -> TestWeb:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def serve_forever(self, stop: threading.Event | None = None) -> None:
        """Serve until ``stop`` is set (the CLI sets it on SIGTERM/SIGINT) or Ctrl-C."""
        self.start()
        try:
            (stop or threading.Event()).wait()
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    # -- rounds -----------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The current round (1 at start)."""
        return self.schedule.round

    @property
    def rounds(self) -> int:
        return self.schedule.rounds

    def advance(self) -> int:
        """Publish the next round's posts; past the last round nothing changes."""
        return self.schedule.advance()

    # -- what is where ----------------------------------------------------------------

    def _server(self, name: str) -> SiteServer:
        if not self._started:
            raise RuntimeError("the TestWeb is not started: use start() or a with block")
        if name not in self._servers:
            raise KeyError(f"no site {name!r}; sites: {', '.join(self._sites)}")
        return self._servers[name]

    @property
    def control_url(self) -> str:
        return self._server(CONTROL).base_url

    def site_urls(self) -> dict[str, str]:
        """Base URL of every site, by name (generated sites, faults, then real blogs)."""
        return {name: self._server(name).base_url for name in self._sites}

    def ssg_sites(self) -> list[str]:
        """Names of the real blogs served (empty without ``ssg_root``)."""
        return list(self._ssg)

    def feed_urls(self, kind: FeedKind | Literal["all"] = "good") -> list[str]:
        """Feed URLs of every site: the good ones, the faulty ones or all."""
        return [url for site in self.truth().sites for url in site.feed_urls(kind)]

    def truth(self) -> Truth:
        """What is published now: sites, feeds, posts with their URL variants, faults."""
        self._server(CONTROL)
        sites = tuple(site.truth() for site in self._sites.values())
        return Truth(self.round, self.control_url, sites)

    def requests(self, site: str | None = None) -> list[RequestRecord]:
        """The access log of one site (by name), or of every server."""
        if site is not None:
            self._server(site)
        return self.log.records(site)

    def describe(self) -> dict[str, Any]:
        """Sites, feeds and control URLs as JSON-ready data (the CLI's port file)."""
        control = self.control_url
        return {
            "control": control,
            "truth": f"{control}/_testweb/truth",
            "advance": f"{control}/_testweb/advance",
            "round": self.round,
            "rounds": self.rounds,
            "sites": self.site_urls(),
            "feeds": {kind: self.feed_urls(kind) for kind in ("good", "faulty")},
        }
