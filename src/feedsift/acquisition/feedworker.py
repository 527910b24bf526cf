"""Feed parsing bounded in time and memory: worker processes with a deadline.

feedparser is pure Python and reads broken XML with a lenient SGML parser; some inputs cost
it far more than their size suggests (100,000 nested elements: about 10 s; a real 1.4 MB
feed of escaped HTML: 3 s), and a crawl must neither stall on one feed nor run out of
memory for it. :class:`FeedParsers` parses each feed in a worker process (started once and
reused feed after feed) whose address space is limited (``RLIMIT_AS``), and waits for its
answer at most :attr:`ParseLimits.seconds`. A worker past its deadline is killed and the
feed refused with a one-line :class:`~feedsift.errors.FeedError`; so is a feed that needs
more memory than the limit or kills its worker. The next feed gets a fresh worker.

Why a process: a thread cannot be stopped, and its memory is the whole crawl's. Why
``spawn``: the crawl runs threads (the resolver, the extraction thread), and a child forked
while one of them holds a lock can hang; spawning costs about a second (importing
feedsift), once per crawl and after each kill, never per feed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
import resource
import signal
import sys
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.errors import FeedError

__all__ = [
    "PARSE_MEMORY",
    "PARSE_SECONDS",
    "START_SECONDS",
    "FeedParsers",
    "ParseLimits",
    "TimedFeed",
    "timed_parse",
]

#: Seconds one feed may take to parse. The slowest real feed we hold (1.4 MB, 130 entries
#: of escaped HTML) takes 3 s; repeated up to the 10 MiB size cap it takes 36 s.
PARSE_SECONDS = 60.0
#: Address space of a worker, in bytes: it starts at 0.2 GiB and the 10 MiB feed above
#: peaks at 0.3 GiB, so 2 GiB stops only a runaway, long before the machine's memory does.
PARSE_MEMORY = 2 * 1024**3
#: Seconds a new worker may take to start (it imports feedsift: about 1 s on a quiet machine).
START_SECONDS = 60.0

#: What a worker answers: ("ok", result), ("raised", exception) or ("memory", None).
_Answer = tuple[str, Any]


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """How feeds are parsed: the deadline per feed, the memory and the number of workers."""

    seconds: float = PARSE_SECONDS
    memory: int | None = PARSE_MEMORY  #: address space of a worker; None: no limit
    workers: int = 1  #: feeds parsed at once (each worker is a process, started when needed)


@dataclass(frozen=True, slots=True)
class TimedFeed:
    """A feed parsed in a worker, and the seconds the parsing itself took there."""

    feed: ParsedFeed
    seconds: float


#: The function a worker runs: module-level, so that a spawned process can import it.
ParseFunction = Callable[[bytes, str, str | None], TimedFeed]


def timed_parse(body: bytes, url: str, content_type: str | None) -> TimedFeed:
    """:func:`~feedsift.acquisition.feeds.parse_feed`, timed."""
    started = time.perf_counter()
    feed = parse_feed(body, url, content_type)
    return TimedFeed(feed, time.perf_counter() - started)


class FeedParsers:
    """Bounded feed parsing for one crawl: an explicit object owning its worker processes.

    ``parse`` raises what parsing raised (a :class:`FeedError`, or an unexpected exception
    for the caller's policy) and a :class:`FeedError` when the deadline or the memory limit
    was reached or the worker died. ``close`` stops the workers.
    """

    def __init__(self, limits: ParseLimits | None = None, function: ParseFunction = timed_parse):
        self.limits = limits or ParseLimits()
        self._function = function
        self._slots = asyncio.Semaphore(max(1, self.limits.workers))
        self._idle: list[_Worker] = []
        self._live: set[_Worker] = set()

    async def parse(self, body: bytes, url: str, content_type: str | None) -> TimedFeed:
        async with self._slots:
            worker = await self._take()
            try:
                kind, value = await worker.ask((body, url, content_type), self.limits.seconds)
            except BaseException:
                self._stop(worker)  # past its deadline, dead, or the crawl is cancelled
                raise
            if kind == "memory":
                self._stop(worker)
            else:
                self._idle.append(worker)
        return self._result(kind, value)

    def _result(self, kind: str, value: Any) -> TimedFeed:
        if kind == "ok":
            assert isinstance(value, TimedFeed)
            return value
        if kind == "memory":
            mib = (self.limits.memory or 0) // 1024**2
            raise FeedError(f"refused: reading the feed needed more than {mib} MiB of memory")
        assert isinstance(value, BaseException)
        raise value

    async def _take(self) -> _Worker:
        while self._idle:
            worker = self._idle.pop()
            if worker.process.is_alive():
                return worker
            self._stop(worker)
        worker = await _Worker.start(self._function, self.limits.memory)
        self._live.add(worker)
        return worker

    def _stop(self, worker: _Worker) -> None:
        worker.stop()
        self._live.discard(worker)

    def close(self) -> None:
        """Stop every worker (a parse still waiting gets a FeedError)."""
        for worker in list(self._live):
            self._stop(worker)
        self._idle = []


class _Worker:
    """One worker process and our end of the pipe to it; one request at a time."""

    def __init__(self, process: BaseProcess, connection: Connection) -> None:
        self.process = process
        self.connection = connection

    @classmethod
    async def start(cls, function: ParseFunction, memory: int | None) -> _Worker:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs, function, memory), name="feedsift-feeds", daemon=True
        )
        with _main_module_hidden(function):
            process.start()
        theirs.close()
        worker = cls(process, ours)
        try:
            await worker.answer(START_SECONDS)
        except TimeoutError:
            worker.stop()
            raise FeedError(f"the feed parser did not start in {START_SECONDS:g} s") from None
        except BaseException:
            worker.stop()
            raise
        return worker

    async def ask(self, request: tuple[bytes, str, str | None], seconds: float) -> _Answer:
        try:
            self.connection.send(request)
            return await self.answer(seconds)
        except TimeoutError:
            raise FeedError(f"refused: reading the feed took longer than {seconds:g} s") from None
        except OSError as exc:  # the worker is gone: a broken pipe
            raise FeedError(f"refused: the feed parser stopped ({exc})") from exc

    async def answer(self, seconds: float) -> _Answer:
        """The worker's next message; TimeoutError after ``seconds``."""
        loop = asyncio.get_running_loop()
        readable = asyncio.Event()
        descriptor = self.connection.fileno()
        loop.add_reader(descriptor, readable.set)
        try:
            async with asyncio.timeout(seconds):
                await readable.wait()
        finally:
            loop.remove_reader(descriptor)
        try:
            kind, value = self.connection.recv()
        except EOFError as exc:
            self.process.join(1.0)
            raise FeedError(f"refused: the feed parser stopped ({_death(self.process)})") from exc
        return str(kind), value

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.connection.close()


@contextmanager
def _main_module_hidden(function: ParseFunction) -> Iterator[None]:
    """A blank ``__main__`` while a worker is spawned, unless ``function`` lives there.

    ``spawn`` runs the caller's ``__main__`` again in the worker to find what it pickled; a
    script calling :func:`feedsift.fetch_feed` without ``if __name__ == "__main__"`` would
    then fetch again there and fail to start a worker of its own. The worker needs only
    feedsift's modules (and the parse function's, imported by name).
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(function, "__module__", None) == "__main__":
        yield
        return
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _death(process: BaseProcess) -> str:
    code = process.exitcode
    if code is None:
        return "it closed its pipe"
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


# --- the worker process ------------------------------------------------------------------


def _serve(connection: Connection, function: ParseFunction, memory: int | None) -> None:
    """A worker's life: limit its memory, say it is ready, answer requests until EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the crawl's to handle
    if memory is not None:
        _limit_address_space(memory)
    connection.send(("ready", None))
    while True:
        try:
            body, url, content_type = connection.recv()
        except EOFError:
            return
        _send(connection, _run(function, body, url, content_type))


def _limit_address_space(memory: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _run(function: ParseFunction, body: bytes, url: str, content_type: str | None) -> _Answer:
    try:
        return ("ok", function(body, url, content_type))
    except MemoryError:
        return ("memory", None)
    except Exception as exc:  # sent back as it is: the crawl decides what a bug costs
        return ("raised", exc)


def _send(connection: Connection, answer: _Answer) -> None:
    try:
        connection.send(answer)
    except MemoryError:
        connection.send(("memory", None))
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        kind, value = answer
        reason = f"{type(value).__name__}: {value}" if kind == "raised" else str(exc)
        connection.send(("raised", RuntimeError(f"unpicklable feed parser answer: {reason}")))
