"""One exception hierarchy for feedsift.

Library code raises these; the CLI and the batch runners decide what to do with them
(report one line on stderr, go on with the next input, set the exit status).
"""

from __future__ import annotations

__all__ = [
    "DatasetError",
    "FeedsiftError",
    "FetchError",
    "InputError",
    "ModelError",
    "NotFittedError",
]


class FeedsiftError(Exception):
    """Base class of every error feedsift raises on purpose."""


class InputError(FeedsiftError):
    """The input cannot be turned into a page: empty, binary, undecodable or unparsable."""


class FetchError(FeedsiftError):
    """A URL could not be fetched (network, status, size or redirect limits)."""


class ModelError(FeedsiftError):
    """A model file is missing, corrupt or written with an incompatible schema version."""


class NotFittedError(ModelError):
    """A learner was asked to extract before it was fitted."""


class DatasetError(FeedsiftError):
    """A benchmark or training dataset folder is missing or malformed."""
