"""Role masks: what each subtree's class, id and tag say it is for.

One pass over the subtrees (parents come before children in
:attr:`~feedsift.parsing.blocks.BlockView.subtrees`) gives each subtree its own role bits
and the bits inherited from all its ancestors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.vocabulary import CLASS_VOCABULARY, TAG_ROLES, Role
from feedsift.parsing.blocks import BlockView

__all__ = ["ClassRoleCache", "RoleMasks", "class_roles", "role_bits", "role_masks"]

_CAMEL_RE = re.compile(r"([a-z])([A-Z])")
_TOKEN_RE = re.compile(r"[a-z]+")

_TOKEN_ROLES: dict[str, int] = {}
for _role, _words in CLASS_VOCABULARY.items():
    for _word in _words:
        _TOKEN_ROLES[_word.replace("-", "")] = _TOKEN_ROLES.get(_word.replace("-", ""), 0) | (
            1 << _role
        )


_TAG_BITS = {tag: 1 << role for tag, role in TAG_ROLES.items()}


@dataclass(frozen=True, slots=True)
class RoleMasks:
    """Per-subtree role bit masks (see :class:`~feedsift.extractors.vocabulary.Role`)."""

    own: np.ndarray  #: bits of the element itself
    inherited: np.ndarray  #: bits of the element and all its ancestors
    near: np.ndarray  #: bits of the element, its parent and its grandparent


def class_roles(attributes: str) -> int:
    """Role bits of a ``class``/``id`` string (``"post-content sidebarWidget"``)."""
    words = _TOKEN_RE.findall(_CAMEL_RE.sub(r"\1 \2", attributes).lower())
    mask = 0
    for word in words:
        mask |= _TOKEN_ROLES.get(word, 0)
    joined = "".join(words)
    if joined != (words[0] if words else ""):
        mask |= _TOKEN_ROLES.get(joined, 0)
    return mask


class ClassRoleCache:
    """Role bits of ``class``/``id`` pairs already seen.

    Pages of one site (and of one CMS) repeat the same class names, so an extractor keeps
    one cache for all the pages it reads. It is bounded: when full it starts over.
    """

    def __init__(self, max_entries: int = 50_000) -> None:
        self.max_entries = max_entries
        self._known: dict[tuple[str | None, str | None], int] = {}

    def roles(self, classes: str | None, ident: str | None) -> int:
        key = (classes, ident)
        mask = self._known.get(key)
        if mask is None:
            mask = class_roles(f"{classes or ''} {ident or ''}") if classes or ident else 0
            if len(self._known) >= self.max_entries:
                self._known.clear()
            self._known[key] = mask
        return mask


def role_masks(view: BlockView, cache: ClassRoleCache | None = None) -> RoleMasks:
    """Own, inherited and near role masks of every subtree of ``view``."""
    own: list[int] = []
    inherited: list[int] = []
    near: list[int] = []
    known = cache or ClassRoleCache()
    for sub in view.subtrees:
        element = sub.element
        mask = known.roles(element.get("class"), element.get("id"))
        mask |= _TAG_BITS.get(sub.tag, 0)
        parent = sub.parent
        own.append(mask)
        if parent < 0:
            inherited.append(mask)
            near.append(mask)
            continue
        inherited.append(mask | inherited[parent])
        grand = view.subtrees[parent].parent
        near.append(mask | own[parent] | (own[grand] if grand >= 0 else 0))
    as_array = np.array
    return RoleMasks(as_array(own, dtype=np.int64), as_array(inherited, dtype=np.int64),
                     as_array(near, dtype=np.int64))


def role_bits(masks: np.ndarray) -> np.ndarray:
    """Unpack masks into a (n, len(Role)) 0/1 float matrix."""
    shifts = np.arange(len(Role), dtype=np.int64)
    return ((masks[:, None] >> shifts[None, :]) & 1).astype(np.float32)
