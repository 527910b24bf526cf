"""Key-paths (feed-template paper III-B/C/E): notation, path_of, merge, find (with properties)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from feedsift.errors import InputError
from feedsift.templates.paths import (
    GAP,
    MIN_PREFIX,
    AttrTest,
    KeyPath,
    PathNode,
    find,
    matches,
    merge,
    parse_path,
    path_of,
    shared_prefix,
)

#: The paper's Listing 1 (the PDF's letter spacing removed).
LISTING_1 = (
    "|html|body|div[@id=post-*]|div[@class=post-header]|h1",
    "div[@id=post-*]|*|div[@class=post-content, @id=post-*]",
)
#: The paper's Listing 4, tests printed in name order.
LISTING_4 = (
    "|html|body|div[@class=post, @id=post-*]|div",
    "|html|body|div[@class=news, @id=*]|div[@class=content]",
    "|html|body|div[@class=*]|div[@class=*]",
    "|html|body|div[@class=post, @id=post-*]|div[@class=head]",
    "|html|body|div[@class=post, @id=post-*]|div[@class=body]",
)
#: The paper's Listing 3 page (the ``body`` div closed around its paragraphs).
LISTING_3 = """<html><head><title>A blog post</title></head><body>
<div class="advertisement"><div class="flash-container">[...]</div></div>
<div id="post-1337" class="post">
  <div class="header"><h1>A blog post</h1><h2>Subtitle</h2></div>
  <div class="body"><p>Some Sample content</p><p>Another Paragraph</p></div>
</div>
</body></html>"""


def _page(html: str) -> etree._Element:
    return etree.fromstring(html, etree.HTMLParser())


def _tags(elements: Sequence[etree._Element]) -> list[str]:
    return [str(element.tag) for element in elements]


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", LISTING_1 + LISTING_4)
def test_paper_listings_round_trip(text: str) -> None:
    path = parse_path(text)
    assert str(path) == text
    assert parse_path(str(path)) == path


def test_listing_1_structure() -> None:
    absolute, relative = (parse_path(text) for text in LISTING_1)
    assert absolute.absolute and not relative.absolute
    assert [node.tag for node in absolute.nodes] == ["html", "body", "div", "div", "h1"]
    assert absolute.nodes[2].attrs == (AttrTest("id", "post-", wildcard=True),)
    assert absolute.nodes[3].attrs == (AttrTest("class", "post-header"),)
    assert relative.nodes[1] == PathNode(GAP)
    assert relative.nodes[2].attrs == (
        AttrTest("class", "post-content"),
        AttrTest("id", "post-", wildcard=True),
    )


def test_presence_test_and_lenient_reading() -> None:
    path = parse_path(" | HTML | body | div [ @ID = * , @Class = news ] ")
    assert path.nodes[0].tag == "html"
    assert path.nodes[2].attrs == (AttrTest("class", "news"), AttrTest("id", "", wildcard=True))
    assert str(path) == "|html|body|div[@class=news, @id=*]"


def test_printing_sorts_and_quotes() -> None:
    node = PathNode(
        "div",
        (
            AttrTest("title", 'say "hi" \\ o/'),
            AttrTest("id", ""),
            AttrTest("class", "a b", wildcard=True),
            AttrTest("data-x", "a|b"),
            AttrTest("lang", " en"),
            AttrTest("rel", "x*"),
        ),
    )
    text = str(KeyPath((node,), absolute=False))
    assert text == (
        'div[@class="a b"*, @data-x="a|b", @id="", @lang=" en", @rel="x*", '
        '@title="say \\"hi\\" \\\\ o/"]'
    )
    assert parse_path(text) == KeyPath((node,), absolute=False)


def test_bare_values_keep_other_characters() -> None:
    path = parse_path("p[@id=a=b@c\\d, @class=x  y*]")
    assert path.nodes[0].attrs == (
        AttrTest("class", "x  y", wildcard=True),
        AttrTest("id", "a=b@c\\d"),
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty element name"),
        ("|", "empty element name"),
        ("|html||body", "empty element name"),
        ("|html|", "empty element name"),
        ("|html|body|div[@id=x", "unclosed '['"),
        ("div[@id=x|span", "unclosed '['"),
        ("div[@id]", "expected '='"),
        ("div[@id, @class=x]", "expected '='"),
        ("div[id=x]", "expected '@'"),
        ("div[]", "expected '@'"),
        ("div[@=x]", "empty attribute name"),
        ("div[@id=]", "empty value"),
        ('div[@id="x]', "unterminated"),
        ('div[@id="a\\qb"]', "unterminated"),
        ("div[@id=x]y", "unexpected 'y'"),
        ('div[@id="x"y]', "expected ',' or ']'"),
        ("*[@id=x]", "gap"),
        ("div[@id=x, @ID=y]", "tested twice"),
        ("di v", "bad element name"),
        ("div[@i d=x]", "bad attribute name"),
    ],
)
def test_bad_syntax_is_a_clear_input_error(text: str, reason: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_path(text)
    message = str(caught.value)
    assert message.startswith("bad key-path ")
    assert reason in message
    assert "\n" not in message


def test_constructors_keep_the_invariants() -> None:
    with pytest.raises(InputError):
        KeyPath(())
    with pytest.raises(InputError):
        PathNode(GAP, (AttrTest("id", "x"),))
    with pytest.raises(InputError):
        PathNode("div", (AttrTest("id", "x"), AttrTest("ID", "y")))
    with pytest.raises(InputError):
        PathNode("a|b")
    node = PathNode("DIV", (AttrTest("id", "x"), AttrTest("Class", "y")))
    assert node.tag == "div"
    assert [test.name for test in node.attrs] == ["class", "id"]


def test_prefix_parent_and_len() -> None:
    path = parse_path(LISTING_1[0])
    assert len(path) == 5
    assert str(path.prefix(3)) == "|html|body|div[@id=post-*]"
    assert path.parent() == path.prefix(4)
    assert parse_path("|html").parent() is None
    assert not parse_path("div|p").prefix(1).absolute
    with pytest.raises(ValueError):
        path.prefix(0)
    with pytest.raises(ValueError):
        path.prefix(6)


def test_attribute_tests() -> None:
    assert AttrTest("id", "post-", wildcard=True).accepts("post-12")
    assert not AttrTest("id", "post-", wildcard=True).accepts("xpost-12")
    assert AttrTest("class", "", wildcard=True).accepts("")
    assert not AttrTest("class", "", wildcard=True).accepts(None)
    assert AttrTest("id", "post").accepts("post")
    assert not AttrTest("id", "post").accepts("post-1")
    assert AttrTest("id", "").accepts("")


# -- path_of ------------------------------------------------------------------------------


def test_path_of_records_literal_normalised_values() -> None:
    page = _page(
        '<html><body><div id="post-7" class="post  odd\n x" title="t">'
        "<!-- note --><p class='intro'>Hi</p></div></body></html>"
    )
    paragraph = page.find(".//p")
    assert paragraph is not None
    path = path_of(paragraph)
    assert str(path) == '|html|body|div[@class="post odd x", @id=post-7]|p[@class=intro]'
    assert find(page, path) == [paragraph]
    assert str(path_of(paragraph, ("TITLE",))) == "|html|body|div[@title=t]|p"
    comment = page.find(".//div")[0]  # type: ignore[index]
    with pytest.raises(InputError):
        path_of(comment)


# -- merge --------------------------------------------------------------------------------


def test_merge_paper_example() -> None:
    p1 = parse_path("|html|body|div[@id=post-2]|div[@class=post-header]|h1")
    p2 = parse_path("|html|body|div[@id=post-1]|div[@class=post-header]|b")
    p3 = parse_path("|html|body|span[@id=post-3]|h1")
    assert str(merge(p1, p2)) == "|html|body|div[@id=post-*]|div[@class=post-header]"
    assert merge(p1, p3) is None
    assert shared_prefix(p1, p3) == 2
    assert shared_prefix(p1, p2) == 4


def test_merge_attribute_rules() -> None:
    a = parse_path('|html|body|div[@class=post, @id=post-12, @lang=en]|p[@class="x y"]')
    b = parse_path("|html|body|div[@class=post, @id=post-13]|p[@class=z]")
    assert str(merge(a, b)) == "|html|body|div[@class=post, @id=post-1*]|p[@class=*]"
    wild = parse_path("|html|body|div[@id=post-*]")
    assert str(merge(parse_path("|html|body|div[@id=post-9]"), wild)) == str(wild)
    literal = parse_path("|html|body|div[@id=post-]")
    assert merge(literal, wild) == wild
    assert merge(a, b, min_prefix=5) is None
    assert merge(a, b, min_prefix=4) is not None


def test_merge_needs_same_kind_and_gaps_equal_only_gaps() -> None:
    absolute = parse_path("|div|p|span")
    relative = parse_path("div|p|span")
    assert merge(absolute, relative) is None
    assert shared_prefix(absolute, relative) == 0
    gapped = parse_path("div|*|p|a")
    assert str(merge(gapped, parse_path("div|*|p|b"))) == "div|*|p"
    assert merge(gapped, parse_path("div|p|p|a")) is None
    assert merge(gapped, gapped, min_prefix=0) == gapped
    assert merge(parse_path("|a|b"), parse_path("|c|b"), min_prefix=0) is None


# -- matching -----------------------------------------------------------------------------


def test_listing_4_paths_on_listing_3_page() -> None:
    page = _page(LISTING_3)
    one, two, three, _, five = (parse_path(text) for text in LISTING_4)
    assert [node.get("class") for node in find(page, one)] == ["header", "body"]
    assert find(page, two) == []
    too_general = find(page, three)
    assert [node.get("class") for node in too_general] == ["flash-container", "header", "body"]
    body = find(page, five)
    assert len(body) == 1 and body[0].get("class") == "body"
    header = parse_path("|html|body|div[@class=post, @id=post-*]|div[@class=header]")
    assert _tags(find(page, header)[0]) == ["h1", "h2"]
    assert find(etree.ElementTree(page), five) == body
    assert matches(body[0], five) and not matches(body[0], two)


def test_tested_attributes_must_be_present() -> None:
    page = _page(
        '<html><body><div class="a  b" id="c"><p>x</p></div><div><p>y</p></div></body></html>'
    )
    assert len(find(page, parse_path("|html|body|div|p"))) == 2
    assert len(find(page, parse_path("|html|body|div[@class=*]|p"))) == 1
    assert len(find(page, parse_path('|html|body|div[@class="a b"]|p'))) == 1
    assert find(page, parse_path("|html|body|div[@title=*]|p")) == []
    assert find(page, parse_path("|body|div")) == []  # absolute: node 0 is the root


def test_gaps_and_relative_paths() -> None:
    page = _page(
        "<html><body><div id='post-1'><h1>a</h1><div><section><h1>b</h1></section></div></div>"
        "<!-- c --><h1>c</h1><?pi x?></body></html>"
    )

    def texts(text: str) -> list[str | None]:
        path = parse_path(text)
        found = find(page, path)
        assert [each for each in page.iter() if matches(each, path)] == found
        return [node.text for node in found]

    assert texts("|html|*|h1") == ["a", "b", "c"]
    assert texts("|html|body|*|h1") == ["a", "b", "c"]  # the gap may be zero levels
    assert texts("|html|body|*|*|h1") == ["a", "b", "c"]
    assert texts("|html|body|div|*|h1") == ["a", "b"]
    assert texts("|html|body|div|*|section|h1") == ["b"]
    assert texts("|*|h1") == ["a", "b", "c"]
    assert texts("div[@id=post-*]|*|h1") == ["a", "b"]
    assert texts("section|h1") == ["b"]
    assert texts("h1") == ["a", "b", "c"]
    assert _tags(find(page, parse_path("|html|body|div|*"))) == ["h1", "div", "section", "h1"]
    assert _tags(find(page, parse_path("div"))) == ["div", "div"]
    comment = page.find(".//body")[1]  # type: ignore[index]
    assert not matches(comment, parse_path("*"))


# -- properties ---------------------------------------------------------------------------

_NAMES = st.from_regex(r"[a-zA-Z][a-zA-Z0-9:_.-]{0,5}", fullmatch=True)
_VALUES = st.text(max_size=12) | st.sampled_from(
    ["", " ", "*", '"', "\\", "a b", "post-*", "|", "[x]", ", ", '\\"', "x\n", "é ü"]
)
_TESTS = st.builds(AttrTest, _NAMES, _VALUES, st.booleans())
_NODES = st.just(PathNode(GAP)) | st.builds(
    PathNode, _NAMES, st.lists(_TESTS, max_size=3, unique_by=lambda test: test.name).map(tuple)
)
_PATHS = st.builds(KeyPath, st.lists(_NODES, min_size=1, max_size=6).map(tuple), st.booleans())


@settings(max_examples=300, deadline=None)
@given(_PATHS)
def test_notation_round_trips(path: KeyPath) -> None:
    assert parse_path(str(path)) == path


_SMALL_TESTS = st.builds(
    AttrTest,
    st.sampled_from(("id", "class", "rel")),
    st.sampled_from(("", "post", "post-", "post-1", "post-12", "x y", "x")),
    st.booleans(),
)
_SMALL_NODES = st.just(PathNode(GAP)) | st.builds(
    PathNode,
    st.sampled_from(("div", "p")),
    st.lists(_SMALL_TESTS, max_size=3, unique_by=lambda test: test.name).map(tuple),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_SMALL_NODES, _SMALL_NODES), min_size=1, max_size=5), st.booleans())
def test_merge_of_any_paths(pairs: list[tuple[PathNode, PathNode]], absolute: bool) -> None:
    a = KeyPath(tuple(mine for mine, _ in pairs), absolute)
    b = KeyPath(tuple(theirs for _, theirs in pairs), absolute)
    merged = merge(a, b, min_prefix=1)
    assert merged == merge(b, a, min_prefix=1)
    assert merge(a, a, min_prefix=1) == a
    if merged is None:
        assert a.nodes[0].tag != b.nodes[0].tag
        return
    assert merge(merged, merged, min_prefix=1) == merged
    values = (None, "", "post", "post-1", "post-12", "post-2", "x y", "x", "y")
    for mine, theirs, both in zip(a.nodes, b.nodes, merged.nodes, strict=False):
        tests = {test.name: test for test in both.attrs}
        assert set(tests) == {t.name for t in mine.attrs} & {t.name for t in theirs.attrs}
        for test in (*mine.attrs, *theirs.attrs):
            for value in values:
                if test.name in tests and test.accepts(value):
                    assert tests[test.name].accepts(value)


_TAGS = ("div", "section", "p", "span", "h1")
_ATTR_VALUES = (None, None, "post-1", "post-2", "post-12", "post", "body", "x y", "x  y")
_Spec = tuple[str, str | None, str | None, tuple["_Spec", ...]]
_LEAF = st.tuples(
    st.sampled_from(_TAGS),
    st.sampled_from(_ATTR_VALUES),
    st.sampled_from(_ATTR_VALUES),
    st.just(()),
)
_SPECS = st.recursive(
    _LEAF,
    lambda kids: st.tuples(
        st.sampled_from(_TAGS),
        st.sampled_from(_ATTR_VALUES),
        st.sampled_from(_ATTR_VALUES),
        st.lists(kids, max_size=4).map(tuple),
    ),
    max_leaves=30,
)


def _build(parent: etree._Element, spec: _Spec) -> None:
    tag, ident, klass, children = spec
    element = etree.SubElement(parent, tag)
    for name, value in (("id", ident), ("class", klass)):
        if value is not None:
            element.set(name, value)
    for child in children:
        _build(element, child)


@st.composite
def _trees(draw: st.DrawFn) -> etree._Element:
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    for spec in draw(st.lists(_SPECS, min_size=1, max_size=3)):
        _build(body, spec)
    body.insert(draw(st.integers(0, len(body))), etree.Comment("a comment"))
    return root


def _elements(root: etree._Element) -> list[etree._Element]:
    return [element for element in root.iter() if isinstance(element.tag, str)]


def _chain(element: etree._Element) -> list[etree._Element]:
    return [*reversed(list(element.iterancestors())), element]


def _fits(nodes: Sequence[PathNode], chain: Sequence[etree._Element]) -> bool:
    """Brute force: do the nodes consume exactly this chain of elements?"""
    if not nodes:
        return not chain
    head, rest = nodes[0], nodes[1:]
    if head.is_gap:
        if not rest:  # a trailing gap stands for one element or more
            return len(chain) >= 1
        return any(_fits(rest, chain[skip:]) for skip in range(len(chain) + 1))
    return bool(chain) and head.accepts(chain[0]) and _fits(rest, chain[1:])


def _oracle(root: etree._Element, path: KeyPath) -> list[etree._Element]:
    found = []
    for element in _elements(root):
        chain = _chain(element)
        starts = [0] if path.absolute else range(len(chain))
        if any(_fits(path.nodes, chain[start:]) for start in starts):
            found.append(element)
    return found


@settings(max_examples=100, deadline=None)
@given(_trees(), st.data())
def test_path_of_matches_its_element(root: etree._Element, data: st.DataObject) -> None:
    element = data.draw(st.sampled_from(_elements(root)))
    path = path_of(element)
    found = find(root, path)
    assert element in found
    assert matches(element, path)
    assert len(set(found)) == len(found)
    assert found == [each for each in _elements(root) if each in set(found)]  # document order
    assert len(path) == len(_chain(element))


@settings(max_examples=100, deadline=None)
@given(_trees(), st.data(), st.integers(0, 5))
def test_merge_is_commutative_idempotent_and_general(
    root: etree._Element, data: st.DataObject, min_prefix: int
) -> None:
    elements = _elements(root)
    a, b, c = (path_of(data.draw(st.sampled_from(elements))) for _ in range(3))
    merged = merge(a, b, min_prefix)
    assert merged == merge(b, a, min_prefix)
    assert (merged is None) == (shared_prefix(a, b) < max(min_prefix, 1))
    if len(a) >= min_prefix:
        assert merge(a, a, min_prefix) == a
    if merged is None:
        return
    assert merge(merged, merged, min_prefix) == merged
    assert parse_path(str(merged)) == merged
    wider = merge(merged, c, min_prefix)
    assert wider == merge(c, merged, min_prefix)
    wider = wider or merged
    for path in (merged, wider):
        found = set(find(root, path))
        for source in (a, b):
            for element in find(root, source):
                assert _chain(element)[len(path) - 1] in found


@st.composite
def _derived_paths(draw: st.DrawFn, root: etree._Element) -> KeyPath:
    """A path of some element, nodes turned into gaps, bare names or prefix tests, or dropped."""
    nodes = []
    for node in path_of(draw(st.sampled_from(_elements(root)))).nodes:
        how = draw(st.sampled_from(("keep", "keep", "gap", "bare", "prefix", "drop")))
        if how == "drop":
            continue
        if how == "gap":
            nodes.append(PathNode(GAP))
        elif how == "bare":
            nodes.append(PathNode(node.tag))
        elif how == "prefix":
            tests = tuple(
                AttrTest(test.name, test.value[: draw(st.integers(0, 5))], wildcard=True)
                for test in node.attrs
            )
            nodes.append(PathNode(node.tag, tests))
        else:
            nodes.append(node)
    if not nodes:
        nodes.append(PathNode(GAP))
    start = draw(st.integers(0, len(nodes) - 1))
    end = draw(st.integers(start + 1, len(nodes)))
    return KeyPath(tuple(nodes[start:end]), absolute=start == 0 and draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(_trees(), st.data())
def test_find_agrees_with_brute_force(root: etree._Element, data: st.DataObject) -> None:
    path = data.draw(_derived_paths(root))
    found = find(root, path)
    assert found == _oracle(root, path)
    for element in root.iter():
        assert matches(element, path) == (element in found)


def test_min_prefix_default_is_three() -> None:
    assert MIN_PREFIX == 3
    assert merge(parse_path("|html|body|div"), parse_path("|html|body|p")) is None
