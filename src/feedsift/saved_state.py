"""The saved-state envelope of feedsift's learners: their name, schema version and state.

Every learner that keeps state between runs (the site-level learners, the URL-key parameter
learner) saves it the same way: gzip-compressed JSON ``{"learner": name, "schema": version,
"state": {...}}``. Reading refuses another learner's state or another schema version with a
:class:`~feedsift.errors.ModelError`, so an old or foreign state is never misread.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from feedsift.errors import ModelError

__all__ = ["pack_state", "unpack_state"]


def pack_state(learner: str, schema: int, state: dict[str, Any]) -> bytes:
    """``state`` (JSON-safe) compressed, with the learner's name and schema version."""
    payload = json.dumps({"learner": learner, "schema": schema, "state": state},
                         separators=(",", ":"))  # fmt: skip
    # mtime=0: gzip's header would carry the second of writing, so the same state saved
    # a second apart would differ by four bytes (and the learner's stored state with it)
    return gzip.compress(payload.encode("utf-8"), compresslevel=6, mtime=0)


def unpack_state(learner: str, schema: int, data: bytes) -> dict[str, Any]:
    """The state :func:`pack_state` wrote; ModelError for another learner or version."""
    try:
        saved = json.loads(gzip.decompress(data))
    except (OSError, EOFError, ValueError) as exc:
        raise ModelError(f"not a saved {learner} state: {exc}") from exc
    if not isinstance(saved, dict):
        raise ModelError(f"not a saved {learner} state: not a JSON object")
    if saved.get("learner") != learner or saved.get("schema") != schema:
        raise ModelError(
            f"saved state is {saved.get('learner')} schema {saved.get('schema')}; "
            f"this feedsift reads {learner} schema {schema}"
        )
    state = saved.get("state")
    if not isinstance(state, dict):
        raise ModelError(f"not a saved {learner} state: it holds no state")
    return state
