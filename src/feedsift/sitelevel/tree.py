"""The URL Tree: block counts per URL-path prefix, for many domains, in bounded memory.

One branch per document (URL Tree paper, section 4): the domain node, one node per path
segment of the document's URL key, and the document itself as the leaf. Every node ``v``
holds ``n_s`` (the documents below it) and, logically, a counter ``c_v(b)`` per block hash:
how many documents below ``v`` hold block ``b``. :class:`UrlTreeIndex` stores that in far less
memory than one counter per block per node (the paper's tree took 6.5 MB per 1,000
documents), from four facts:

* **Most blocks are in one document only** (the article's own paragraphs). A block new to
  its domain is a *single*: stored once per domain, in a compact hash -> node map, with the
  deepest path node of its document; its count is 1 along that branch and 0 elsewhere. When
  a second document brings it, it gets counters, along both branches; it keeps them until
  no retained document holds it (back to one holder, it stays counted: finding that holder
  again would cost a search, and a counter of 1 reads the same).
* **A path node with one document needs no counters**: its counts are that document's
  blocks (date folders ``/2024/05/17/`` and per-post folders are mostly such nodes). Its
  counters are made from the document when a second one comes, and dropped when it is back
  to one.
* **Leaves hold one document** (URL keys are unique after de-duplication), so leaves are
  not nodes: a document records its URL key's hash, and the leaf's ``n_s`` and counts are
  computed from the few retained documents with that key.
* **Counters are sorted numpy arrays** (``int64`` hash, ``int32`` count: 12 bytes an entry;
  a CPython ``dict`` entry with its int objects takes about 100), and a document's block set
  is 8 bytes a block, its blocks shared with others at arrival (mostly the template) in one
  ``bytes`` object interned per domain.

Every document is kept (its time, key hash, deepest path node and block set) so it can be
removed exactly: removal undoes every count its insertion added and drops the nodes left
empty. :class:`Eviction` bounds a domain (most documents, oldest age, newest always kept);
:meth:`UrlTreeIndex.insert` does not evict, :meth:`UrlTreeIndex.evict` does, so a caller can
insert a document for a moment (:meth:`UrlTreeIndex.temporarily`) and leave the counts as
they were.

Measured by ``.venv/bin/python scripts/urltree_memory.py`` (100,000 generated documents of
50 domains over 60 days, about 62 distinct blocks each; default eviction: 23,388 retained):
0.575 MB per 1,000 retained documents by ``tracemalloc`` (0.553 by deep ``sys.getsizeof``),
0.47 with 10,000 documents in each of 5 domains (``--domains 5 --days 5``). One learner
that took every page of the real site streams (``--eval``: 1,485 of 1,783 pages retained,
about 100 distinct blocks a page, 44 of them its own) holds 1.95 MB per 1,000:
bigger pages, small domains, and sidebars that differ from post to post, so fewer shared
block sets to intern.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from feedsift.sitelevel.blockhash import HashArray

__all__ = [
    "KEEP_RECENT",
    "MAX_AGE_DAYS",
    "MAX_DOCS",
    "Eviction",
    "TreeDocument",
    "UrlTreeIndex",
]

#: Documents kept per domain at most: the paper's production bound (section 6).
MAX_DOCS = 10_000
#: Documents older than this (behind the domain's newest) are dropped: the paper's bound;
#: a template is learned from its last two weeks, so a redesign is forgotten in two.
MAX_AGE_DAYS = 14.0
#: The newest documents of a domain are kept whatever their age (paper): a quiet site keeps
#: its template.
KEEP_RECENT = 100

_SECONDS_PER_DAY = 86_400.0
#: The single map merges its pending entries into its sorted arrays when they exceed this ...
_MERGE_MIN = 64
#: ... or this share of the sorted part (1/8: amortised cost of 8 copies an entry, and at
#: most 1/8 of the map in the ~100-byte ``dict`` entries of the pending part).
_MERGE_SHARE = 8

Counts = npt.NDArray[np.int32]
#: Shared by every node without counters (never written to: ``add`` replaces them).
_EMPTY_HASHES: HashArray = np.empty(0, dtype=np.int64)
_EMPTY_COUNTS: Counts = np.empty(0, dtype=np.int32)


@dataclass(frozen=True, slots=True)
class Eviction:
    """How much of a domain the tree keeps (``max_docs`` wins over ``keep_recent``)."""

    max_docs: int = MAX_DOCS
    max_age_days: float = MAX_AGE_DAYS
    keep_recent: int = KEEP_RECENT

    def __post_init__(self) -> None:
        if self.max_docs < 1 or self.keep_recent < 0 or self.max_age_days < 0:
            raise ValueError("eviction needs max_docs >= 1, keep_recent >= 0 and max_age_days >= 0")


@dataclass(frozen=True, slots=True, eq=False)
class TreeDocument:
    """A document as the tree sees it: its branch, its block set and when it was seen.

    ``path`` is the URL key's path segments above the document (the leaf is the document:
    ``key``, the 64-bit hash of the whole key); ``hashes`` the sorted distinct block hashes
    (:func:`~feedsift.sitelevel.blockhash.hash_set`); ``seen`` POSIX seconds, ``None`` for
    "as new as the newest document of the domain".
    """

    domain: str
    path: tuple[str, ...]
    key: int
    hashes: HashArray
    seen: float | None = None


class _Node:
    """A path node: documents below it and the counters of its counted blocks.

    A node other than the domain node with one document below it (``lazy``) has no
    counters: ``sole`` is the insertion number of that document.
    """

    __slots__ = ("children", "counts", "index", "keys", "n_s", "parent", "segment", "sole")

    def __init__(self, index: int, segment: str, parent: _Node | None) -> None:
        self.index, self.segment, self.parent = index, segment, parent
        self.children: dict[str, _Node] = {}
        self.n_s = 0
        self.sole: int | None = None
        self.keys: HashArray = _EMPTY_HASHES
        self.counts: Counts = _EMPTY_COUNTS

    @property
    def lazy(self) -> bool:
        return self.n_s == 1 and self.parent is not None

    def branch(self) -> list[_Node]:
        """The nodes from the domain node down to this one."""
        nodes: list[_Node] = []
        node: _Node | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def path(self) -> tuple[str, ...]:
        return tuple(node.segment for node in self.branch()[1:])

    def lookup(self, hashes: HashArray) -> Counts:
        """The counter of each hash (0 where there is none)."""
        pos, hit = _find(self.keys, hashes)
        return np.where(hit, self.counts[pos], 0) if len(self.keys) else pos.astype(np.int32)

    def add(self, hashes: HashArray, delta: int) -> None:
        """Counters of ``hashes`` (sorted, distinct) plus ``delta`` (+1 or -1); 0 drops."""
        if not len(hashes):
            return
        pos, hit = _find(self.keys, hashes)
        if delta < 0:
            if not hit.all():
                raise AssertionError("URL tree: removing a block that was never counted")
            self.counts[pos] -= 1
            if not self.counts[pos].all():
                keep = self.counts != 0
                self.keys, self.counts = self.keys[keep], self.counts[keep]
            return
        self.counts[pos[hit]] += 1
        if not hit.all():
            new = ~hit
            at = np.searchsorted(self.keys, hashes[new])  # insertion points (may be the end)
            self.keys = np.insert(self.keys, at, hashes[new])
            self.counts = np.insert(self.counts, at, np.int32(1))


def _find(keys: HashArray, hashes: HashArray) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """Where each hash is in the sorted ``keys`` (clipped to the last), and whether it is."""
    if not len(keys):
        return np.zeros(len(hashes), dtype=np.intp), np.zeros(len(hashes), dtype=np.bool_)
    pos = keys.searchsorted(hashes)
    np.minimum(pos, len(keys) - 1, out=pos)
    return pos, keys[pos] == hashes


@dataclass(slots=True)
class _SingleMap:
    """Hash -> node index of the blocks held by one document: sorted arrays plus a few
    pending entries in a ``dict``; removed entries are marked -1 until the next merge."""

    keys: HashArray = field(default_factory=lambda: _EMPTY_HASHES)
    owners: npt.NDArray[np.int32] = field(default_factory=lambda: np.empty(0, dtype=np.int32))
    pending: dict[int, int] = field(default_factory=dict)
    dead: int = 0

    def __len__(self) -> int:
        return len(self.keys) - self.dead + len(self.pending)

    def get(self, hashes: HashArray) -> npt.NDArray[np.int32]:
        """The owner node index of each hash, -1 where it is not a single."""
        pos, hit = _find(self.keys, hashes)
        owners = np.where(hit, self.owners[pos] if len(self.owners) else -1, -1).astype(np.int32)
        if self.pending:
            for i in np.flatnonzero(owners < 0).tolist():
                owners[i] = self.pending.get(int(hashes[i]), -1)
        return owners

    def put(self, hashes: HashArray, owner: int) -> None:
        """Record ``hashes`` (none of them a single now) as singles of node ``owner``."""
        pos, hit = _find(self.keys, hashes)
        if len(self.owners):
            hit &= self.owners[pos] < 0
        if hit.any():  # a dead entry of the sorted part comes back to life
            self.owners[pos[hit]] = owner
            self.dead -= int(hit.sum())
        for value in hashes[~hit].tolist():
            self.pending[value] = owner
        self._maybe_merge()

    def drop(self, hashes: HashArray) -> None:
        """Forget ``hashes`` (all of them singles now)."""
        pos, hit = _find(self.keys, hashes)
        hit &= self.owners[pos] >= 0 if len(self.owners) else hit
        self.owners[pos[hit]] = -1
        self.dead += int(hit.sum())
        for value in hashes[~hit].tolist():
            del self.pending[value]
        self._maybe_merge()

    def _maybe_merge(self) -> None:
        if len(self.pending) + self.dead <= max(_MERGE_MIN, len(self.keys) // _MERGE_SHARE):
            return
        alive = self.owners >= 0
        keys = np.concatenate([self.keys[alive], np.fromiter(self.pending, dtype=np.int64)])
        owners = np.concatenate(
            [self.owners[alive], np.fromiter(self.pending.values(), dtype=np.int32)]
        )
        order = np.argsort(keys, kind="stable")
        self.keys, self.owners = keys[order], owners[order]
        self.pending, self.dead = {}, 0

    def items(self) -> Iterator[tuple[int, int]]:
        alive = self.owners >= 0
        yield from zip(self.keys[alive].tolist(), self.owners[alive].tolist(), strict=True)
        yield from self.pending.items()


class _Common:
    """The blocks a document shared with others when it came, stored once for all the
    documents that shared the same ones (a section's template: 45 blocks are 360 bytes)."""

    __slots__ = ("data", "users")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.users = 0


def _pack(hashes: HashArray) -> bytes:
    return hashes.astype("<i8").tobytes()


def _unpack(data: bytes) -> HashArray:
    return np.frombuffer(data, dtype="<i8").astype(np.int64)


class _Domain:
    """The tree of one domain and its retained documents, oldest first."""

    def __init__(self, name: str) -> None:
        self.root = _Node(0, name, None)
        self.nodes: list[_Node | None] = [self.root]
        self.free: list[int] = []
        self.singles = _SingleMap()
        # the retained documents, sorted by time (then arrival): parallel columns
        self.seen = array("d")
        self.seqs = array("q")
        self.keys = array("q")
        self.parents: list[_Node] = []
        self.own: list[bytes] = []  #: the blocks that were singles when it came
        self.common: list[_Common] = []  #: the others, interned (see _Common)
        self.commons: dict[bytes, _Common] = {}

    def __len__(self) -> int:
        return len(self.seqs)

    @property
    def newest(self) -> float:
        """The time of the newest retained document (0 before any: the epoch)."""
        return self.seen[-1] if self.seen else 0.0

    # -- nodes --------------------------------------------------------------------------

    def find(self, path: tuple[str, ...]) -> list[_Node]:
        """The existing nodes of ``path``, from the domain node down (may stop early)."""
        nodes = [self.root]
        for segment in path:
            child = nodes[-1].children.get(segment)
            if child is None:
                break
            nodes.append(child)
        return nodes

    def _make(self, path: tuple[str, ...]) -> _Node:
        node = self.root
        for segment in path:
            child = node.children.get(segment)
            if child is None:
                index = self.free.pop() if self.free else len(self.nodes)
                child = _Node(index, segment, node)
                if index == len(self.nodes):
                    self.nodes.append(child)
                else:
                    self.nodes[index] = child
                node.children[segment] = child
            node = child
        return node

    def _prune(self, node: _Node) -> None:
        """Drop ``node`` and its ancestors while they hold no document (never the root)."""
        while node.parent is not None and node.n_s == 0 and not node.children:
            del node.parent.children[node.segment]
            self.nodes[node.index] = None
            self.free.append(node.index)
            node = node.parent

    # -- documents ----------------------------------------------------------------------

    def insert(self, doc: TreeDocument, seen: float, seq: int) -> None:
        parent = self._make(doc.path)
        hashes = doc.hashes
        is_counted = self.root.lookup(hashes) > 0
        rest = hashes[~is_counted]
        owners = self.singles.get(rest)
        repeated = owners >= 0
        self._share(rest[repeated], owners[repeated])
        self.singles.put(rest[~repeated], parent.index)
        counted = hashes[is_counted]
        if repeated.any():
            counted = np.sort(np.concatenate([counted, rest[repeated]]))
        for node in parent.branch():
            node.n_s += 1
            self._count(node, counted, seq)
        at = bisect.bisect_right(self.seen, seen)
        self.seen.insert(at, seen)
        self.seqs.insert(at, seq)
        self.keys.insert(at, doc.key)
        self.parents.insert(at, parent)
        self.own.insert(at, _pack(rest[~repeated]))
        self.common.insert(at, self._intern(_pack(counted)))

    def _count(self, node: _Node, counted: HashArray, seq: int) -> None:
        """A document more below ``node`` (``n_s`` already counts it)."""
        if node.n_s == 1 and node.parent is not None:
            node.sole = seq  # lazy: the document is the node's counts
            return
        if node.n_s == 2 and node.parent is not None:  # counters from the first document
            first = self.hashes_at(self.sole_row(node))
            node.keys = first[self.root.lookup(first) > 0]
            node.counts = np.ones(len(node.keys), dtype=np.int32)
            node.sole = None
        node.add(counted, +1)

    def _share(self, hashes: HashArray, owners: npt.NDArray[np.int32]) -> None:
        """Singles seen a second time: counters (of 1) along their holder's branch."""
        if not len(hashes):
            return
        self.singles.drop(hashes)
        for owner in np.unique(owners).tolist():
            node = self.nodes[owner]
            assert node is not None, "URL tree: a single points to a removed node"
            for up in node.branch():
                if not up.lazy:
                    up.add(hashes[owners == owner], +1)

    def remove_at(self, at: int) -> None:
        """Remove the ``at``-th retained document, undoing every count it added."""
        hashes = self.hashes_at(at)
        parent = self.parents[at]
        is_counted = self.root.lookup(hashes) > 0
        self.singles.drop(hashes[~is_counted])
        counted = hashes[is_counted]
        for node in reversed(parent.branch()):  # children first: _uncount reads them
            node.n_s -= 1
            self._uncount(node, counted, at)
        self._release(self.common[at])
        for column in (self.seen, self.seqs, self.keys, self.parents, self.own, self.common):
            del column[at]
        self._prune(parent)

    def _uncount(self, node: _Node, counted: HashArray, at: int) -> None:
        """The document at row ``at`` leaves ``node`` (``n_s`` already without it)."""
        if node.parent is None or node.n_s >= 2:
            node.add(counted, -1)
        elif node.n_s == 1:  # lazy again: drop the counters, find the one document left
            node.keys, node.counts = _EMPTY_HASHES, _EMPTY_COUNTS
            node.sole = self._sole(node, at)
        else:
            node.sole = None

    def sole_row(self, node: _Node) -> int:
        """The row of the one document below a node without counters."""
        assert node.sole is not None, "URL tree: a node without counters lost its document"
        return self.seqs.index(node.sole)

    def _sole(self, node: _Node, leaving: int) -> int:
        """The insertion number of the one document below ``node`` but row ``leaving``."""
        below = next((c.sole for c in node.children.values() if c.n_s == 1), None)
        if below is not None:
            return below
        row = self.parents.index(node)  # the document sits at the node itself
        if row == leaving:
            row = self.parents.index(node, leaving + 1)
        return self.seqs[row]

    def evict(self, policy: Eviction) -> int:
        """Remove the oldest documents beyond the policy's bounds; how many went."""
        removed = 0
        while len(self) > policy.max_docs:
            self.remove_at(0)
            removed += 1
        cutoff = self.newest - policy.max_age_days * _SECONDS_PER_DAY
        while len(self) > policy.keep_recent and self.seen[0] < cutoff:
            self.remove_at(0)
            removed += 1
        return removed

    # -- reading ------------------------------------------------------------------------

    def key_rows(self, key: int) -> list[int]:
        """Positions of the retained documents with URL-key hash ``key``."""
        keys = np.frombuffer(self.keys, dtype=np.int64)
        rows = np.flatnonzero(keys == key).tolist()
        del keys  # release the buffer so the column can grow again
        return rows

    def hashes_at(self, at: int) -> HashArray:
        """The block set of the ``at``-th retained document."""
        own, common = _unpack(self.own[at]), _unpack(self.common[at].data)
        return (
            np.sort(np.concatenate([own, common]))
            if len(own) and len(common)
            else (own if len(own) else common)
        )

    def _intern(self, data: bytes) -> _Common:
        common = self.commons.get(data)
        if common is None:
            common = self.commons[data] = _Common(data)
        common.users += 1
        return common

    def _release(self, common: _Common) -> None:
        common.users -= 1
        if not common.users:
            del self.commons[common.data]


class UrlTreeIndex:
    """URL Trees of many domains (one per domain), bounded by an :class:`Eviction` policy."""

    def __init__(self, eviction: Eviction | None = None) -> None:
        self.eviction = eviction or Eviction()
        self._domains: dict[str, _Domain] = {}
        self._seq = 0

    # -- changing -----------------------------------------------------------------------

    def insert(self, doc: TreeDocument) -> float:
        """Add ``doc`` to its domain's tree (no eviction); the time it was filed under."""
        domain = self._domains.get(doc.domain)
        if domain is None:
            domain = self._domains[doc.domain] = _Domain(doc.domain)
        seen = doc.seen if doc.seen is not None else domain.newest
        domain.insert(doc, seen, self._seq)
        self._seq += 1
        return seen

    def evict(self, domain: str) -> int:
        """Apply the eviction policy to ``domain``; the number of documents removed."""
        tree = self._domains.get(domain)
        return tree.evict(self.eviction) if tree is not None else 0

    def remove(self, domain: str, seq: int) -> None:
        """Remove the document inserted as number ``seq`` (see :meth:`documents`)."""
        tree = self._domains[domain]
        tree.remove_at(tree.seqs.index(seq))
        if not len(tree):
            del self._domains[domain]

    @contextmanager
    def temporarily(self, doc: TreeDocument) -> Iterator[None]:
        """``doc`` inserted (as the domain's newest) for the ``with`` block, then removed."""
        tree = self._domains[doc.domain]
        tree.insert(doc, tree.newest if doc.seen is None else doc.seen, -1)
        try:
            yield
        finally:
            tree.remove_at(tree.seqs.index(-1))

    def clear(self) -> None:
        self._domains.clear()
        self._seq = 0

    # -- reading ------------------------------------------------------------------------

    def __contains__(self, domain: str) -> bool:
        return domain in self._domains

    @property
    def n_documents(self) -> int:
        return sum(len(tree) for tree in self._domains.values())

    def holds(self, doc: TreeDocument) -> bool:
        """Whether a retained document has ``doc``'s URL key and the same block set."""
        tree = self._domains.get(doc.domain)
        if tree is None:
            return False
        return any(np.array_equal(tree.hashes_at(at), doc.hashes) for at in tree.key_rows(doc.key))

    def has_key(self, doc: TreeDocument) -> bool:
        """Whether a retained document has ``doc``'s URL key (whatever its blocks)."""
        tree = self._domains.get(doc.domain)
        return tree is not None and bool(tree.key_rows(doc.key))

    def supports(self, doc: TreeDocument) -> list[int]:
        """``n_s`` of ``doc``'s branch: domain node, path nodes, leaf (``doc`` inserted)."""
        tree = self._domains[doc.domain]
        nodes = tree.find(doc.path)
        if len(nodes) <= len(doc.path):
            raise KeyError(f"URL tree: {doc.domain} has no branch {'/'.join(doc.path)}")
        return [node.n_s for node in nodes] + [len(tree.key_rows(doc.key))]

    def counts(self, doc: TreeDocument, depth: int) -> Counts:
        """``c(b)`` of ``doc``'s blocks at its branch's node ``depth`` (0: domain node,
        ``len(doc.path) + 1``: the leaf); ``doc`` must be inserted."""
        tree = self._domains[doc.domain]
        if depth > len(doc.path):
            total = np.zeros(len(doc.hashes), dtype=np.int32)
            for at in tree.key_rows(doc.key):
                total += np.isin(doc.hashes, tree.hashes_at(at))
            return total
        node = tree.find(doc.path)[depth]
        if node.lazy:  # the document is the only one below
            return np.ones(len(doc.hashes), dtype=np.int32)
        return np.maximum(node.lookup(doc.hashes), 1)  # no counter: a single, this one's

    def documents(self) -> Iterator[tuple[int, TreeDocument]]:
        """Every retained document with its insertion number, per domain oldest first."""
        for name, tree in self._domains.items():
            for at in range(len(tree)):
                doc = TreeDocument(name, tree.parents[at].path(), tree.keys[at],
                                   tree.hashes_at(at), tree.seen[at])  # fmt: skip
                yield tree.seqs[at], doc

    def logical_counts(self, domain: str) -> dict[tuple[str, ...], tuple[int, dict[int, int]]]:
        """Per path node, ``n_s`` and every nonzero ``c(b)``, as if every node counted
        every block (singles and nodes without counters spelled out)."""
        tree = self._domains[domain]
        result: dict[tuple[str, ...], tuple[int, dict[int, int]]] = {}
        for node in (n for n in tree.nodes if n is not None):
            if node.lazy:
                counters = dict.fromkeys(tree.hashes_at(tree.sole_row(node)).tolist(), 1)
            else:
                counters = dict(zip(node.keys.tolist(), node.counts.tolist(), strict=True))
            result[node.path()] = (node.n_s, counters)
        for value, owner in tree.singles.items():
            holder = tree.nodes[owner]
            assert holder is not None, "URL tree: a single points to a removed node"
            for node in holder.branch():
                result[node.path()][1][value] = 1
        return result
