"""What ``feedsift bench`` and its modes (stream, templates, render) share: where reports
go, the exit statuses, and the one-line reason when the shared data is missing. Kept apart
so the modes' modules and the command that dispatches to them do not import each other."""

from __future__ import annotations

from pathlib import Path

__all__ = ["EXIT_DATA", "EXIT_OK", "EXIT_USAGE", "RESULTS_DIR", "missing_default"]

#: Where the reports go by default (a folder of the working directory).
RESULTS_DIR = Path("bench-results")
#: Exit statuses: done; the data could not be read; the command line was wrong.
EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2


def missing_default(kind: str, path: Path, usage: str) -> str:
    """The one-line reason a bench gives when the shared data it defaults to is missing."""
    return (
        f"the shared {kind} data is not there ({path} from {Path.cwd()}); "
        f"run from the project folder next to ../shared, or pass a folder: {usage}"
    )
