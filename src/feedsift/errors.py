"""One exception hierarchy for feedsift.

Library code raises these; the CLI and the batch runners decide what to do with them
(report one line on stderr, go on with the next input, set the exit status). The message
of every error is the one-line reason shown to the user.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "DatasetError",
    "FeedError",
    "FeedsiftError",
    "FetchError",
    "HttpStatusError",
    "InputError",
    "ModelError",
    "NotFittedError",
    "RenderError",
    "RobotsDisallowedError",
    "SparkJobError",
    "StorageError",
    "UnsafeAddressError",
]


class FeedsiftError(Exception):
    """Base class of every error feedsift raises on purpose."""


class InputError(FeedsiftError):
    """The input cannot be turned into a page: empty, binary, undecodable or unparsable."""


class FetchError(FeedsiftError):
    """A URL could not be fetched (network, status, size or redirect limits)."""


class HttpStatusError(FetchError):
    """The server answered with an error status; ``retry_after`` is its wish in seconds."""

    def __init__(self, message: str, status: int, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class RobotsDisallowedError(FetchError):
    """The site's ``robots.txt`` does not allow us this URL."""


class UnsafeAddressError(FetchError):
    """The URL (or a redirect, or a DNS answer) leads to a private, loopback or local address."""


class FeedError(FeedsiftError):
    """A feed (RSS, Atom, JSON Feed) or a subscription list cannot be read."""


class StorageError(FeedsiftError):
    """The database cannot be opened, is of an unknown schema version, or a write failed."""


class ConfigError(FeedsiftError):
    """A user-supplied configuration file (such as URL-key rules) is malformed."""


class ModelError(FeedsiftError):
    """A model file is missing, corrupt or written with an incompatible schema version."""


class NotFittedError(ModelError):
    """A learner was asked to extract before it was fitted."""


class SparkJobError(FeedsiftError):
    """``feedsift spark`` cannot run: PySpark or Java missing, inputs Spark cannot list, an
    output that exists, or the Spark job itself failed."""


class DatasetError(FeedsiftError):
    """A benchmark or training dataset folder is missing or malformed."""


class RenderError(FeedsiftError):
    """A page cannot be rendered: no browser, a browser that failed, or a page that did not
    load and lay out within its time limit."""
