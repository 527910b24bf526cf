"""Key-paths: the feed-template paper's lightweight XPath (section III-B, C and E).

A key-path is a list of nodes from an element down to another: each node names an element
and may test some of its attributes. The three operations the paper needs are here:
:func:`path_of` (the path from the document root to an element), :func:`merge` (the common
characteristics of two paths) and :func:`find` / :func:`matches` (the elements a path
designates in a page).

Notation (what ``str`` prints and :func:`parse_path` reads; they round-trip exactly)::

    path    := ["|"] node ("|" node)*      leading "|": absolute (node 0 is the root element)
    node    := "*" | tag ["[" test ("," test)* "]"]
    tag     := name                        an element name, compared case-insensitively
    test    := "@" name "=" value
    value   := (quoted | bare) ["*"]       a trailing "*" outside quotes: prefix wildcard
    quoted  := '"' (any char but '"' and '\\' | '\\"' | '\\\\')* '"'
    bare    := one or more chars but  | [ ] , "   (surrounding whitespace is dropped)
    name    := one or more chars but whitespace and  | [ ] @ , = " * \\

``*`` as a node is a *gap*: any number (zero or more) of elements between its neighbours; at
the end of a path it stands for every element below the previous node's matches (one level
or more). ``@class=*`` tests only that the attribute is present; ``@id=post-*`` that its
value starts with ``post-``. Whitespace around tags, ``|``, ``,``, ``=`` and ``]`` is
allowed when parsing; printing writes none, sorts the tests by name and quotes a value when
it is empty, starts or ends with whitespace, or holds one of ``| [ ] , " *`` or a space::

    |html|body|div[@class=post, @id=post-*]|div[@class=body]
    div[@id=post-*]|*|div[@class=post-content, @id=post-*]
    |html|body|div[@class="entry content"*]

Attribute values of elements are compared whitespace-normalised (``class="a  b"`` is
``a b``), as :func:`path_of` records them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from lxml import etree

from feedsift.errors import InputError
from feedsift.text.tokens import normalize_space

__all__ = [
    "DEFAULT_ATTRIBUTES",
    "GAP",
    "MIN_PREFIX",
    "AttrTest",
    "KeyPath",
    "PathNode",
    "find",
    "matches",
    "merge",
    "parse_path",
    "path_of",
    "shared_prefix",
]

#: Attributes a path records: the ones templates use to mark containers (``post-123``,
#: ``entry-content``); others (style, data-*, href) vary per page and only add noise.
DEFAULT_ATTRIBUTES: tuple[str, ...] = ("id", "class")
#: Shortest common node prefix a merge keeps: ``|html|body`` alone fits every page of every
#: site, so two paths must agree at least on the element below ``body``.
MIN_PREFIX = 3
#: The gap node's tag: any number (zero or more) of elements.
GAP = "*"

#: Element and attribute names: no whitespace and none of the notation's own characters.
_NAME_RE = re.compile(r'[^\s|\[\]@,="*\\]+')
#: Characters that force a value into quotes when printed.
_QUOTE_CHARS = frozenset('|[]," *')
#: Characters that end a bare (unquoted) value when parsing.
_BARE_STOP = '|[],"'
#: A quoted value: only ``\"`` and ``\\`` are escapes.
_QUOTED_RE = re.compile(r'"((?:[^"\\]|\\["\\])*)"')
#: Longest excerpt of a bad path quoted in an error message.
_SHOW_CHARS = 80


@dataclass(frozen=True, slots=True)
class AttrTest:
    """One attribute test of a node: a literal value, a value prefix, or mere presence."""

    name: str  #: attribute name, lower-case (``id``, ``class``)
    value: str  #: the literal value, or the prefix when ``wildcard``
    wildcard: bool = False  #: ``value`` is a prefix; ``""`` with a wildcard: presence only

    def __post_init__(self) -> None:
        name = self.name.lower()
        if not _NAME_RE.fullmatch(name):
            raise InputError(f"bad attribute name {self.name!r} in a key-path")
        object.__setattr__(self, "name", name)

    def accepts(self, actual: str | None) -> bool:
        """Whether an attribute value (``None``: absent) passes this test."""
        if actual is None:
            return False
        return actual.startswith(self.value) if self.wildcard else actual == self.value

    def __str__(self) -> str:
        if self.wildcard and not self.value:
            return f"@{self.name}=*"
        text = _quote(self.value) if _needs_quotes(self.value) else self.value
        return f"@{self.name}={text}{'*' if self.wildcard else ''}"


@dataclass(frozen=True, slots=True)
class PathNode:
    """One step of a path: an element name and attribute tests, or the gap ``*``."""

    tag: str  #: element name, lower-case; :data:`GAP` for any number of elements
    attrs: tuple[AttrTest, ...] = ()  #: sorted by name, at most one test per name

    def __post_init__(self) -> None:
        tag = self.tag.lower()
        if tag != GAP and not _NAME_RE.fullmatch(tag):
            raise InputError(f"bad element name {self.tag!r} in a key-path")
        attrs = tuple(sorted(self.attrs, key=lambda test: test.name))
        if tag == GAP and attrs:
            raise InputError("a gap '*' takes no attribute tests")
        for first, second in itertools.pairwise(attrs):  # sorted: twins are adjacent
            if first.name == second.name:
                raise InputError(f"attribute {first.name!r} tested twice in one key-path node")
        object.__setattr__(self, "tag", tag)
        object.__setattr__(self, "attrs", attrs)

    @property
    def is_gap(self) -> bool:
        """Whether this node is the gap ``*``."""
        return self.tag == GAP

    def accepts(self, element: etree._Element) -> bool:
        """Whether ``element`` fits: same name (a gap fits any) and every test passes."""
        tag = element.tag
        if not isinstance(tag, str):  # comment or processing instruction
            return False
        if self.tag != GAP and tag.lower() != self.tag:
            return False
        for test in self.attrs:
            actual = element.get(test.name)
            if not test.accepts(None if actual is None else normalize_space(actual)):
                return False
        return True

    def __str__(self) -> str:
        if not self.attrs:
            return self.tag
        return f"{self.tag}[{', '.join(str(test) for test in self.attrs)}]"


@dataclass(frozen=True, slots=True)
class KeyPath:
    """A path of nodes; absolute paths start at the document's root element."""

    nodes: tuple[PathNode, ...]
    absolute: bool = True  #: node 0 is the root element; else node 0 may be anywhere

    def __post_init__(self) -> None:
        if not self.nodes:
            raise InputError("a key-path needs at least one node")
        object.__setattr__(self, "nodes", tuple(self.nodes))

    def __str__(self) -> str:
        return ("|" if self.absolute else "") + "|".join(str(node) for node in self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def prefix(self, n: int) -> KeyPath:
        """The path of the first ``n`` nodes (``1 <= n <= len(self)``)."""
        if not 1 <= n <= len(self.nodes):
            raise ValueError(f"prefix length {n} outside 1..{len(self.nodes)}")
        return KeyPath(self.nodes[:n], self.absolute)

    def parent(self) -> KeyPath | None:
        """The path without its last node; ``None`` when that would be empty."""
        return KeyPath(self.nodes[:-1], self.absolute) if len(self.nodes) > 1 else None


# -- printing -----------------------------------------------------------------------------


def _needs_quotes(value: str) -> bool:
    return not value or value != value.strip() or any(ch in _QUOTE_CHARS for ch in value)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- parsing ------------------------------------------------------------------------------


class _Scanner:
    """A cursor over the text of a path, with the error message that names the column."""

    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, reason: str) -> NoReturn:
        shown = self.text if len(self.text) <= _SHOW_CHARS else self.text[:_SHOW_CHARS] + "..."
        raise InputError(f"bad key-path {shown!r}: {reason} at column {self.pos + 1}")

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        """The next character after whitespace, ``""`` at the end."""
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self, char: str) -> bool:
        """Consume ``char`` (after whitespace) if it comes next."""
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def read_until(self, stops: str) -> str:
        """The raw text up to the next of ``stops`` (or the end), consumed."""
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in stops:
            self.pos += 1
        return self.text[start : self.pos]


def parse_path(text: str) -> KeyPath:
    """Read a path in the notation of the module docstring; :class:`InputError` if bad."""
    scan = _Scanner(text)
    absolute = scan.take("|")
    nodes = [_parse_node(scan)]
    while scan.take("|"):
        nodes.append(_parse_node(scan))
    if scan.peek():
        scan.fail(f"unexpected {scan.peek()!r}")
    return KeyPath(tuple(nodes), absolute)


def _parse_node(scan: _Scanner) -> PathNode:
    scan.skip_space()
    tag = scan.read_until("|[").strip()
    if not tag:
        scan.fail("empty element name")
    tests = _parse_tests(scan) if scan.take("[") else ()
    try:
        return PathNode(tag, tests)
    except InputError as error:
        scan.fail(str(error))


def _parse_tests(scan: _Scanner) -> tuple[AttrTest, ...]:
    tests = [_parse_test(scan)]
    while not scan.take("]"):
        if not scan.take(","):
            scan.fail("expected ',' or ']' (unclosed '['?)")
        tests.append(_parse_test(scan))
    return tuple(tests)


def _parse_test(scan: _Scanner) -> AttrTest:
    if not scan.take("@"):
        scan.fail("expected '@' and an attribute name")
    name = scan.read_until('=,]|["').strip()
    if not name:
        scan.fail("empty attribute name")
    if not scan.take("="):
        scan.fail(f"expected '=' after attribute name {name!r}")
    value, wildcard = _parse_value(scan)
    try:
        return AttrTest(name, value, wildcard)
    except InputError as error:
        scan.fail(str(error))


def _parse_value(scan: _Scanner) -> tuple[str, bool]:
    """The value and whether it is a prefix wildcard."""
    if scan.peek() == '"':
        found = _QUOTED_RE.match(scan.text, scan.pos)
        if found is None:
            scan.fail('unterminated quoted value (escapes are only \\" and \\\\)')
        scan.pos = found.end()
        return re.sub(r"\\(.)", r"\1", found.group(1)), scan.take("*")
    raw = scan.read_until(_BARE_STOP).strip()
    if not raw:
        scan.fail('empty value (write "" for an empty one, * for any)')
    return (raw[:-1], True) if raw.endswith("*") else (raw, False)


# -- the path of an element ---------------------------------------------------------------


def path_of(element: etree._Element, attributes: Sequence[str] = DEFAULT_ATTRIBUTES) -> KeyPath:
    """The absolute path from the root element of ``element``'s tree down to ``element``.

    Each node tests those of ``attributes`` its element has, with the literal value
    (whitespace-normalised).
    """
    if not isinstance(element.tag, str):
        raise InputError("a comment or processing instruction has no key-path")
    names = tuple(dict.fromkeys(name.lower() for name in attributes))
    chain = [*reversed(list(element.iterancestors())), element]
    return KeyPath(tuple(_node_of(each, names) for each in chain))


def _node_of(element: etree._Element, names: tuple[str, ...]) -> PathNode:
    tests = []
    for name in names:
        value = element.get(name)
        if value is not None:
            tests.append(AttrTest(name, normalize_space(value)))
    return PathNode(str(element.tag).lower(), tuple(tests))


# -- merging ------------------------------------------------------------------------------


def shared_prefix(a: KeyPath, b: KeyPath) -> int:
    """How many leading nodes ``a`` and ``b`` share by name (0 if one is relative only)."""
    if a.absolute != b.absolute:
        return 0
    count = 0
    for mine, theirs in zip(a.nodes, b.nodes, strict=False):
        if mine.tag != theirs.tag:
            break
        count += 1
    return count


def merge(a: KeyPath, b: KeyPath, min_prefix: int = MIN_PREFIX) -> KeyPath | None:
    """The common characteristics of two paths (paper III-C), ``None`` when too few.

    The nodes are the common prefix by element name; each keeps the attributes both
    paths test, with the value if it is the same, else the values' common prefix as a
    wildcard. Commutative, idempotent, and the result matches whatever either path matched
    (or its ancestor at the result's depth, when the merge cut the paths).
    """
    size = shared_prefix(a, b)
    if size == 0 or size < min_prefix:
        return None
    pairs = zip(a.nodes[:size], b.nodes[:size], strict=True)
    return KeyPath(tuple(_merge_nodes(mine, theirs) for mine, theirs in pairs), a.absolute)


def _merge_nodes(mine: PathNode, theirs: PathNode) -> PathNode:
    other = {test.name: test for test in theirs.attrs}
    tests = (_merge_tests(test, other[test.name]) for test in mine.attrs if test.name in other)
    return PathNode(mine.tag, tuple(tests))


def _merge_tests(mine: AttrTest, theirs: AttrTest) -> AttrTest:
    if mine == theirs:
        return mine
    return AttrTest(mine.name, _common_prefix(mine.value, theirs.value), wildcard=True)


def _common_prefix(first: str, second: str) -> str:
    size = 0
    for left, right in zip(first, second, strict=False):
        if left != right:
            break
        size += 1
    return first[:size]


# -- matching -----------------------------------------------------------------------------


def find(root: etree._Element | etree._ElementTree, path: KeyPath) -> list[etree._Element]:
    """The elements ``path`` designates under ``root``, in document order, each once.

    The match sets are computed level by level (paper III-E), so a gap costs one pass over
    the subtrees it spans, never a search per way of filling it.
    """
    top = root.getroot() if isinstance(root, etree._ElementTree) else root
    # An absolute path without gaps matches elements of one depth only, which never nest:
    # their children come out in document order. Otherwise the lists are sorted.
    rank: dict[etree._Element, int] | None = None
    if not path.absolute or any(node.is_gap for node in path.nodes):
        rank = {element: index for index, element in enumerate(_elements([top]))}
    candidates = [top] if path.absolute else _elements([top])
    matched: list[etree._Element] = []
    for node in path.nodes:
        if node.is_gap:
            candidates = matched = _elements(candidates)
            continue
        matched = [element for element in candidates if node.accepts(element)]
        candidates = [child for element in matched for child in element if _is_element(child)]
        if rank is not None:
            candidates.sort(key=rank.__getitem__)
    return matched


def _is_element(node: etree._Element) -> bool:
    return isinstance(node.tag, str)


def _elements(tops: Iterable[etree._Element]) -> list[etree._Element]:
    """The elements of the subtrees of ``tops`` (in document order), each once."""
    seen: set[etree._Element] = set()
    found: list[etree._Element] = []
    for top in tops:
        if top in seen:  # inside a subtree already taken whole
            continue
        for element in top.iter():
            if _is_element(element):
                seen.add(element)
                found.append(element)
    return found


def matches(element: etree._Element, path: KeyPath) -> bool:
    """Whether ``element`` is one of ``find(its tree's root, path)``.

    Checks only the chain of ``element``'s ancestors: the set of chain positions each node
    can end at, step by step, like :func:`find` but along one branch.
    """
    if not _is_element(element):
        return False
    chain = [*reversed(list(element.iterancestors())), element]
    end = len(chain)
    # A state is how many chain elements the nodes so far consumed.
    states = {0} if path.absolute else set(range(end))
    before = states
    for node in path.nodes:
        before = states
        if not states:
            return False
        if node.is_gap:
            states = set(range(min(states), end + 1))
        else:
            states = {pos + 1 for pos in states if pos < end and node.accepts(chain[pos])}
    if path.nodes[-1].is_gap:  # a trailing gap stands for one element or more
        return min(before) < end
    return end in states
