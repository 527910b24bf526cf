"""The ``feedsift`` command line: :func:`feedsift.cli.main.main`, one module per command.

Every command module exposes ``register(subparsers)``, which adds its sub-parser and sets
``func``; ``main`` calls ``args.func(args)`` and turns what escapes into an exit status.
Shared here: the exit statuses and the one-line report every command writes to stderr.
"""

from __future__ import annotations

import argparse
import sys

from tqdm import tqdm

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Subparsers",
    "error_line",
    "report",
]

#: Everything asked for was done.
EXIT_OK = 0
#: Some inputs failed (each reported on stderr), or the command could not do its job.
EXIT_FAILED = 1
#: The command line is wrong (argparse's own status).
EXIT_USAGE = 2
#: Stopped by Ctrl-C: 128 + SIGINT, what shells report.
EXIT_INTERRUPTED = 130
#: The reader of stdout went away (``feedsift ... | head``): 128 + SIGPIPE, as shells report.
EXIT_BROKEN_PIPE = 141

#: The type of the object ``register`` functions add their sub-parser to.
Subparsers = argparse._SubParsersAction  # argparse has no public name for it


def error_line(subject: str | None, reason: str) -> str:
    """``feedsift: <subject>: <reason>`` squeezed onto one line."""
    text = " ".join(reason.split()) or "unknown error"
    if subject is not None:
        text = f"{' '.join(subject.split())}: {text}"
    return f"feedsift: {text}"


def report(subject: str | None, reason: str) -> None:
    """Write one error line to stderr without breaking a progress bar that is drawn there."""
    tqdm.write(error_line(subject, reason), file=sys.stderr)
