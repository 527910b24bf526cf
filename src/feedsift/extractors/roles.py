"""Role masks: what each subtree's class, id and tag say it is for.

One pass over the subtrees (parents come before children in
:attr:`~feedsift.parsing.blocks.BlockView.subtrees`) gives each subtree its own role bits
and the bits inherited from all its ancestors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.vocabulary import (
    CLASS_VOCABULARY,
    COMMENT_HEADING,
    COMMENT_HEADING_NAMES,
    COMMENT_HEADING_TAGS,
    TAG_ROLES,
    Role,
)
from feedsift.parsing.blocks import BlockView, Subtree

__all__ = [
    "ClassRoleCache",
    "RoleMasks",
    "class_roles",
    "class_words",
    "opens_comments",
    "role_bits",
    "role_masks",
]

#: Between a lower-case and an upper-case letter (a camelCase word boundary): matched empty,
#: so ``sub`` inserts a literal space instead of expanding a group template per match.
_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
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


def class_words(attributes: str) -> list[str]:
    """The lower-case words of a ``class``/``id`` string, camelCase split
    (``"post-content sidebarWidget"``: post, content, sidebar, widget)."""
    return _TOKEN_RE.findall(_CAMEL_RE.sub(" ", attributes).lower())


def class_roles(attributes: str) -> int:
    """Role bits of a ``class``/``id`` string (``"post-content sidebarWidget"``)."""
    words = class_words(attributes)
    mask = 0
    for word in words:
        mask |= _TOKEN_ROLES.get(word, 0)
    if len(words) > 1:  # the words run together ("postcontent" for "post-content")
        mask |= _TOKEN_ROLES.get("".join(words), 0)
    return mask


class _Masks(dict[tuple[str | None, str | None], int]):
    """Role bits by ``(class, id)`` that compute a missing pair on lookup: a page's pairs are
    looked up with one C-level ``map``, and only an unseen pair costs a Python call."""

    def __missing__(self, key: tuple[str | None, str | None]) -> int:
        classes, ident = key
        mask = self[key] = class_roles(f"{classes or ''} {ident or ''}") if classes or ident else 0
        return mask


class ClassRoleCache:
    """Role bits of ``class``/``id`` pairs already seen.

    Pages of one site (and of one CMS) repeat the same class names, so an extractor keeps
    one cache for all the pages it reads. It is bounded: when full it starts over.
    """

    def __init__(self, max_entries: int = 50_000) -> None:
        self.max_entries = max_entries
        self._known = _Masks()

    def roles(self, classes: str | None, ident: str | None) -> int:
        """The role bits of one ``(class, id)`` pair."""
        return self.masks([(classes, ident)])[0]

    def masks(self, keys: list[tuple[str | None, str | None]]) -> list[int]:
        """The role bits of every ``(class, id)`` pair, in order. A cache that could
        overflow while they are added is replaced, not cleared (as TokenClassCache does)."""
        known = self._known
        if len(known) + len(keys) > self.max_entries:
            known = self._known = _Masks()
        return list(map(known.__getitem__, keys))


def role_masks(view: BlockView, cache: ClassRoleCache | None = None) -> RoleMasks:
    """Own, inherited and near role masks of every subtree of ``view``.

    The own masks come from one C-level lookup of the page's ``(class, id)`` pairs in the
    cache (:meth:`ClassRoleCache.masks`), the inherited ones from a walk over plain
    ints (parents come first) and the near ones from numpy lookups of parent and
    grandparent, rather than one loop appending to three lists.
    """
    subtrees = view.subtrees
    keys = [(sub.element.get("class"), sub.element.get("id")) for sub in subtrees]
    tag_bits = _TAG_BITS.get
    masks = (cache or ClassRoleCache()).masks(keys)
    own = [bits | tag_bits(sub.tag, 0) for bits, sub in zip(masks, subtrees, strict=True)]
    parents = [sub.parent for sub in subtrees]
    for heading in [sub for sub in subtrees if sub.tag in COMMENT_HEADING_TAGS]:
        if opens_comments(view, heading):
            _mark_following(subtrees, heading, own)
    inherited = own.copy()
    for child, parent in enumerate(parents):
        if parent >= 0:
            inherited[child] |= inherited[parent]
    own_masks = np.array(own, dtype=np.int64)
    return RoleMasks(own_masks, np.array(inherited, dtype=np.int64),
                     _near(own_masks, np.array(parents, dtype=np.int64)))  # fmt: skip


def opens_comments(view: BlockView, heading: Subtree) -> bool:
    """Whether a heading opens the page's comments: by its text (:data:`COMMENT_HEADING`)
    or its id or class words (:data:`COMMENT_HEADING_NAMES`)."""
    element = heading.element
    names = {element.get("id") or "", *(element.get("class") or "").split()}
    if names & COMMENT_HEADING_NAMES:
        return True
    text = " ".join(b.text for b in view.blocks[heading.first_block : heading.last_block + 1])
    return COMMENT_HEADING.match(text) is not None


def _mark_following(subtrees: tuple[Subtree, ...], heading: Subtree, own: list[int]) -> None:
    """Give the comment role to the subtrees after ``heading`` under the same parent: themes
    that write ``<h2 id="comments">Comments</h2>`` and then each comment as a bare sibling
    (Movable Type, TypePad, older Blogger) mark no element around the comments."""
    bit = 1 << Role.COMMENT
    for sub in subtrees[heading.index + 1 :]:
        if sub.first_block <= heading.last_block:
            continue  # inside the heading
        if sub.parent < heading.parent:
            break  # past the heading's parent (subtrees are in document order)
        if sub.parent == heading.parent:
            own[sub.index] |= bit


def _near(own: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """Each subtree's own bits with its parent's and grandparent's (none above the root)."""
    has_parent = parent >= 0
    up = np.where(has_parent, parent, 0)  # a stand-in index where there is no parent
    grand = np.where(has_parent, parent[up], -1) if len(parent) else parent
    has_grand = grand >= 0
    near: np.ndarray = (
        own
        | np.where(has_parent, own[up], 0)
        | np.where(has_grand, own[np.where(has_grand, grand, 0)], 0)
    )
    return near


def role_bits(masks: np.ndarray) -> np.ndarray:
    """Unpack masks into a (n, len(Role)) 0/1 float matrix."""
    shifts = np.arange(len(Role), dtype=np.int64)
    return ((masks[:, None] >> shifts[None, :]) & 1).astype(np.float32)
