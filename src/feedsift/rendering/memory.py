"""Memory of a browser's process tree, read from ``/proc`` (Linux).

Chromium is a browser process with children (zygotes, renderers, utility processes); what
a page costs is spread over them. The renderer finds its browser process by a marker
switch on its command line and sums the memory of that process and all its descendants:

- anonymous resident memory (RSS less its file-backed and shared part, from ``statm``) by
  default: cheap (a few ms for the tree), so it is read after every page, and it is what
  grows with pages (JavaScript heaps, DOM, layout, decoded images). The plain RSS would
  count the Chromium binary and fonts mapped in every process once per process (930 MB
  against 365 MB of PSS for a browser with three pages, measured); anonymous pages shared
  since the zygote forked still count once per process, so the figure is a little high
  and a limit on it trips early, never late;
- proportional set size (PSS, from ``smaps_rollup``) on request: shared pages divided
  among their users, the tree's real footprint, but the kernel walks every mapping of
  Chromium's huge address spaces to give it (about 200 ms a read: measured).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["command_line", "find_process", "tree_memory_mb", "tree_pids"]

PROC = Path("/proc")
#: Bytes in a mebibyte.
MB = 1024 * 1024


def find_process(marker: str, exclude: str = "--type=") -> int | None:
    """The process whose command line holds ``marker`` and not ``exclude`` (Chromium's
    child processes carry ``--type=``), or ``None``."""
    for pid in _pids():
        args = _cmdline(pid)
        if any(marker in a for a in args) and not any(a.startswith(exclude) for a in args):
            return pid
    return None


def tree_memory_mb(root: int, proportional: bool = False) -> float:
    """Anonymous RSS (PSS if ``proportional``) in MB of ``root`` and its descendants; 0
    when ``root`` is gone."""
    return sum(_process_bytes(pid, proportional) for pid in tree_pids(root)) / MB


def tree_pids(root: int) -> list[int]:
    """``root`` and its descendants (``root`` alone when it has none or is gone)."""
    children: dict[int, list[int]] = {}
    for pid in _pids():
        parent = _parent(pid)
        if parent is not None:
            children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def command_line(pid: int) -> str:
    """A process's command line as one string ("" when gone): Chromium's child processes
    rewrite theirs into one space-separated argument, so it is not split."""
    return " ".join(a for a in _cmdline(pid) if a)


def _pids() -> Iterator[int]:
    try:
        names = os.listdir(PROC)
    except OSError:
        return
    yield from (int(name) for name in names if name.isdigit())


def _cmdline(pid: int) -> list[str]:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return []
    return raw.decode("utf-8", "replace").split("\0")


def _parent(pid: int) -> int | None:
    """The parent pid from ``stat`` (the fields after the last ``)``, the name may hold one)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return int(fields[1]) if len(fields) > 1 else None


def _process_bytes(pid: int, proportional: bool) -> int:
    """A process's PSS (if asked and readable) or anonymous RSS in bytes; 0 for a process
    gone."""
    if proportional:
        try:
            for line in (PROC / str(pid) / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
    try:
        fields = (PROC / str(pid) / "statm").read_text().split()
        pages = int(fields[1]) - int(fields[2])  # resident less file-backed and shared
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")
