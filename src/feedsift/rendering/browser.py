"""The renderer: one headless Chromium, driven by Playwright, shared by every page.

:class:`Renderer` launches Debian's Chromium (or any Chromium named by
:attr:`RenderOptions.executable_path`, ``$FEEDSIFT_CHROMIUM`` or ``chromium`` on the
``PATH``) once and renders pages in a small pool of browser contexts
(:mod:`feedsift.rendering.pool`). Each page gets its HTML from memory and nothing from
the network but what :mod:`feedsift.rendering.network` allows. Limits:

- time: a page that has not loaded and answered its script within
  :attr:`RenderOptions.page_timeout_ms` raises :class:`~feedsift.errors.RenderError`; its
  context is closed (which ends a script looping forever) and the next page gets a new one;
- memory: after every page the anonymous resident memory of the browser's whole process tree is
  read from ``/proc`` (:mod:`feedsift.rendering.memory`); above
  :attr:`RenderOptions.memory_limit_mb` the browser is restarted as soon as no page is
  being rendered. The process tree rather than the JavaScript heap (CDP
  ``Runtime.getHeapUsage``) is measured because the heap is a part only: DOM, layout,
  decoded images and the browser process itself live outside it, and a leak there is
  what makes a long crawl run out of memory.

Playwright's async API runs on a thread of the renderer's own (an event loop per
renderer, no global state); :meth:`Renderer.render` may be called from any thread, and
up to :attr:`RenderOptions.pool_size` pages render at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import shutil
import signal
import threading
import time
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from feedsift.errors import RenderError
from feedsift.rendering.memory import find_process, tree_memory_mb
from feedsift.rendering.network import ResourceResolver, browser_url
from feedsift.rendering.pool import PageJob, PagePool, Slot, site_of

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

__all__ = [
    "CHROMIUM_ARGS",
    "CHROMIUM_ENV",
    "LOOPBACK_ARGS",
    "MEMORY_FEATURES_OFF",
    "NO_URL",
    "RenderOptions",
    "RenderedPage",
    "Renderer",
    "check_renderer",
    "chromium_path",
    "launch_args",
]

#: Environment variable naming the Chromium executable.
CHROMIUM_ENV = "FEEDSIFT_CHROMIUM"
#: Launch switches: headless without a sandbox or GPU (containers), and none of
#: Chromium's own traffic (updates, sync, field trials, QUIC probes), which on a machine
#: without internet would keep retrying.
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
#: With loopback allowed: Chromium's Local Network Access checks would otherwise refuse a
#: page at a public address (the page's own URL) the loopback resources it is let reach.
LOOPBACK_ARGS = ("--disable-features=LocalNetworkAccessChecks",)
#: Chromium features turned off to save memory (part 5, measured per process):
MEMORY_FEATURES_OFF = (
    #: each context's window preloads its omnibox popups (chrome://omnibox-popup.top-chrome)
    #: in a WebUI renderer process of its own: 35-75 MB PSS a context, never used headless
    "WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup",
    #: a spare renderer process kept warm for the next navigation: 14-20 MB; our contexts
    #: navigate one page at a time and a new context costs its process anyway
    "SpareRendererForSitePerProcess",
)  # fmt: skip
#: Playwright's own ``--disable-features`` list (1.65): Chromium reads only the *last*
#: ``--disable-features`` switch, so the one we add must carry these too (without
#: ``HttpsUpgrades`` an ``http:`` page is fetched as ``https:`` first, and so on).
PLAYWRIGHT_FEATURES_OFF = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch",
)  # fmt: skip
#: The switch whose value lists features to turn off (comma-separated).
FEATURES_OFF_SWITCH = "--disable-features="
#: Document URL of a page rendered without one (``.invalid`` never resolves).
NO_URL = "http://feedsift.invalid/"
#: Switch that marks our browser process so /proc can find it (Chromium ignores it).
MARKER_SWITCH = "--feedsift-renderer"
#: Seconds beyond the page timeout before the calling thread stops waiting for the loop.
GRACE_S = 10.0
#: Seconds the browser may take to close.
STOP_TIMEOUT_S = 10.0

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """How the renderer runs (defaults suit a crawl on a small machine)."""

    executable_path: str | None = None  #: else ``$FEEDSIFT_CHROMIUM``, else ``chromium``
    pool_size: int = 2  #: contexts (and pages rendering at once)
    page_timeout_ms: int = 15_000  #: load and measure one page
    #: restart the browser above this anonymous RSS (0: never check); the tree's PSS ran
    #: 150-200 MB above it over the ssg blogs (peak 333 MB), so 400 keeps about 600 of PSS
    memory_limit_mb: float = 400.0
    context_pages: int = 10  #: close a context after this many pages (0: never)
    #: close an idle context of another site once this many pages have been rendered
    #: since its last one (0: only when the pool needs its room): a caller that moved on
    #: to another site frees it; 2, not 1, so two threads taking turns keep theirs
    idle_pages: int = 2
    allow_loopback: bool = False  #: let requests to 127.0.0.1/::1/localhost through
    javascript: bool = True  #: run the pages' scripts
    viewport: tuple[int, int] = (1280, 800)  #: CSS pixels (the layout's units)
    launch_timeout_ms: int = 30_000
    extra_args: tuple[str, ...] = ()  #: more Chromium switches


@dataclass(frozen=True, slots=True)
class RenderedPage:
    """What one render gave: the page script's value and what the network rule did."""

    url: str
    value: Any  #: the JSON value the page script returned
    blocked: tuple[str, ...]  #: requests aborted, in order
    served: int  #: requests answered (document, resolver, loopback)
    elapsed_ms: float
    memory_mb: float | None  #: the browser tree's anonymous RSS (None: unchecked)


def chromium_path(option: str | None = None) -> str:
    """The Chromium to launch: ``option``, ``$FEEDSIFT_CHROMIUM`` or ``chromium`` on the
    ``PATH``; :class:`RenderError` when none is an executable file."""
    named = option or os.environ.get(CHROMIUM_ENV)
    found = named if named else shutil.which("chromium")
    if not found:
        raise RenderError(
            f"no Chromium found: install Debian's chromium or set {CHROMIUM_ENV}"
        )
    if not (os.path.isfile(found) and os.access(found, os.X_OK)):
        raise RenderError(f"Chromium {found!r} is not an executable file")
    return found


def check_renderer(executable_path: str | None = None) -> str:
    """The Chromium a :class:`Renderer` would launch, once Playwright is known to be
    installed too; :class:`RenderError` with a one-line reason otherwise. Starts nothing
    (a caller that renders in other processes checks here first)."""
    found = chromium_path(executable_path)
    if importlib.util.find_spec("playwright") is None:
        raise RenderError("playwright is not installed (pip install playwright)")
    return found


def launch_args(options: RenderOptions, marker: str) -> list[str]:
    """The Chromium switches for ``options``: ours, then the caller's, with every
    ``--disable-features`` (Playwright's, ours, the caller's) merged into one last switch."""
    loopback = LOOPBACK_ARGS if options.allow_loopback else ()
    args, off = [], [*PLAYWRIGHT_FEATURES_OFF, *MEMORY_FEATURES_OFF]
    for arg in (*CHROMIUM_ARGS, *loopback, *options.extra_args, marker):
        if arg.startswith(FEATURES_OFF_SWITCH):
            off += [f for f in arg[len(FEATURES_OFF_SWITCH) :].split(",") if f]
        else:
            args.append(arg)
    return [*args, FEATURES_OFF_SWITCH + ",".join(dict.fromkeys(off))]


class Renderer:
    """One browser and its page pool (a context manager; :meth:`close` ends it)."""

    def __init__(self, options: RenderOptions | None = None) -> None:
        self.options = options or RenderOptions()
        self._executable = chromium_path(self.options.executable_path)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="feedsift-renderer", daemon=True
        )
        self._thread.start()
        self._session = _Session(self.options, self._executable)
        self._closed = False
        try:
            self._call(self._session.start(), self.options.launch_timeout_ms / 1000 + GRACE_S)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Renderer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:  # fmt: skip
        self.close()

    @property
    def restarts(self) -> int:
        """How often the browser was restarted (memory limit, crash, stuck context)."""
        return self._session.restarts

    @property
    def browser_pid(self) -> int | None:
        """The browser process now (its children are the renderers, GPU and utility
        processes); ``None`` while it is being restarted."""
        return self._session.pid

    def memory_mb(self, proportional: bool = False) -> float:
        """The browser process tree's memory now in MB (anonymous RSS; PSS if
        ``proportional``)."""
        return self._session.memory_mb(proportional)

    def render(
        self, html: str, script: str, arg: object = None, url: str | None = None,
        resources: ResourceResolver | None = None,
    ) -> RenderedPage:  # fmt: skip
        """Load ``html`` as the document at ``url``, then return what the page function
        ``script`` (JavaScript, called with ``arg``) returns. Raises :class:`RenderError`
        when the page fails, the script throws or the time runs out."""
        if self._closed:
            raise RenderError("the renderer is closed")
        job = PageJob(browser_url(url or NO_URL), html, resources, self.options.allow_loopback)
        limit = self.options.page_timeout_ms / 1000 + GRACE_S
        return self._call(self._session.render(job, script, arg), limit)

    def close(self) -> None:
        """Close the browser and stop the renderer's thread (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._call(self._session.stop(), STOP_TIMEOUT_S + GRACE_S)
        except RenderError:
            pass
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(STOP_TIMEOUT_S)
            if not self._thread.is_alive():
                self._loop.close()

    def _call(self, work: Coroutine[Any, Any, _T], timeout: float) -> _T:
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        try:
            return future.result(timeout)
        except TimeoutError as exc:
            future.cancel()
            raise RenderError(f"the browser did not answer within {timeout:.0f} s") from exc


class _Session:
    """The browser, its pool and its limits, on the renderer's event loop."""

    def __init__(self, options: RenderOptions, executable: str) -> None:
        self._options = options
        self._executable = executable
        self._marker = f"{MARKER_SWITCH}={uuid.uuid4().hex}"
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._pool: PagePool | None = None
        self._pid: int | None = None
        self._restart_due = False
        self._lifecycle = asyncio.Lock()  # one launch or restart at a time
        self.restarts = 0

    async def start(self) -> None:
        try:
            from playwright.async_api import async_playwright
        except ImportError as exc:
            raise RenderError("playwright is not installed (pip install playwright)") from exc
        self._playwright = await async_playwright().start()
        await self._launch()

    async def stop(self) -> None:
        await self._close_browser()
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None

    @property
    def pid(self) -> int | None:
        return self._pid

    def memory_mb(self, proportional: bool) -> float:
        return tree_memory_mb(self._pid, proportional) if self._pid is not None else 0.0

    async def render(self, job: PageJob, script: str, arg: object) -> RenderedPage:
        pool = await self._ready_pool()
        started = time.perf_counter()
        slot = await pool.acquire(site_of(job.url))
        slot.job = job
        reusable = False
        try:
            value = await self._run(slot, job, script, arg)
            reusable = True
        finally:
            if not await pool.release(slot, reusable):
                self._restart_due = True
        elapsed = (time.perf_counter() - started) * 1000
        memory = self._check_memory()
        return RenderedPage(job.url, value, tuple(job.blocked), job.served, elapsed, memory)

    async def _run(self, slot: Slot, job: PageJob, script: str, arg: object) -> Any:
        from playwright.async_api import Error as PlaywrightError

        limit = self._options.page_timeout_ms
        try:
            async with asyncio.timeout(limit / 1000):
                await slot.page.goto(job.url, wait_until="load", timeout=limit)
                return await slot.page.evaluate(script, arg)
        except (TimeoutError, PlaywrightError) as exc:
            if isinstance(exc, TimeoutError) or "Timeout" in str(exc).split("\n", 1)[0]:
                raise RenderError(f"{job.url}: not rendered within {limit} ms") from exc
            raise RenderError(f"{job.url}: {str(exc).splitlines()[0]}") from exc

    async def _ready_pool(self) -> PagePool:
        """The pool, after a restart when one is due and no page is being rendered."""
        async with self._lifecycle:
            browser_gone = self._browser is None or not self._browser.is_connected()
            idle = self._pool is None or self._pool.busy == 0
            if browser_gone or (self._restart_due and idle):
                await self._close_browser()
                await self._launch()
                self.restarts += 1
            assert self._pool is not None
            return self._pool

    def _check_memory(self) -> float | None:
        limit = self._options.memory_limit_mb
        if limit <= 0 or self._pid is None:
            return None
        used = tree_memory_mb(self._pid)
        if used > limit:
            self._restart_due = True
        return used

    async def _launch(self) -> None:
        assert self._playwright is not None
        options = self._options
        try:
            self._browser = await self._playwright.chromium.launch(
                executable_path=self._executable, headless=True,
                args=launch_args(options, self._marker),
                timeout=options.launch_timeout_ms,
            )  # fmt: skip
        except Exception as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise RenderError(f"Chromium {self._executable!r} did not start: {first}") from exc
        self._pid = find_process(self._marker)
        width, height = options.viewport
        context_options: dict[str, object] = {
            "viewport": {"width": width, "height": height}, "device_scale_factor": 1,
            "java_script_enabled": options.javascript, "service_workers": "block",
            "accept_downloads": False,
        }  # fmt: skip
        self._pool = PagePool(self._browser, options.pool_size, context_options,
                              options.context_pages, options.idle_pages)  # fmt: skip
        self._restart_due = False

    async def _close_browser(self) -> None:
        browser, pool, pid = self._browser, self._pool, self._pid
        self._browser, self._pool, self._pid = None, None, None
        if pool is not None:
            await pool.clear()
        if browser is None:
            return
        try:
            await asyncio.wait_for(browser.close(), STOP_TIMEOUT_S)
        except Exception:  # a browser that will not close is killed
            if pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
