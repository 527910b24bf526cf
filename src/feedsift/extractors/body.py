"""Body assembly: selected text blocks back into paragraphs, headings, items, quotes, code
and tables.

Assembly only decides how the kept blocks are *shown*: every block's words come out once,
in document order, whatever part they land in. A code part keeps its ``<pre>`` text as
written (a block's verbatim text is used only when its collapsed whitespace is exactly the
block's text); a table part keeps rows and cells (each cell is its blocks' texts).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from lxml import etree

from feedsift.parsing.blocks import INLINE_TAGS, LINE_BREAK_TAGS, TextBlock
from feedsift.records import BodyPart, PartKind
from feedsift.text.tokens import normalize_space

__all__ = ["assemble_body", "part_kind"]

#: Owner tags and the body part they make.
TAG_KINDS: dict[str, PartKind] = {
    "li": "item", "dd": "item", "dt": "item",
    "pre": "code", "code": "code",
    "td": "cell", "th": "cell",
    "figcaption": "caption", "caption": "caption",
    "blockquote": "quote",
}  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
#: Ancestors that make any paragraph inside them a quotation.
QUOTE_ANCESTORS = frozenset({"blockquote", "q"})
#: How far up the tree a quotation ancestor is looked for.
QUOTE_SEARCH_DEPTH = 4
#: Elements whose whitespace is content (HTML's preformatted text, old and new).
VERBATIM_TAGS = frozenset({"pre", "xmp", "listing", "plaintext"})
#: How far up a ``<pre>`` is looked for: highlighters wrap each line in a ``div`` or two.
PRE_SEARCH_DEPTH = 3
#: Characters shown as plain spaces in code: highlighters indent with ``&nbsp;``.
CODE_SPACES = str.maketrans({"\xa0": " "})
#: Cell tags of a table row.
CELL_TAGS = frozenset({"td", "th"})
#: How far up from a block's owner its table cell is looked for (``td > div > p``).
CELL_SEARCH_DEPTH = 4
#: The table element, looked for from a cell.
TABLE_TAGS = frozenset({"table"})
#: Steps from a cell to its table: the cell, its row, a row group, the table.
TABLE_SEARCH_DEPTH = 4
#: ARIA roles that declare a table to be layout, not data.
LAYOUT_ROLES = frozenset({"presentation", "none"})
#: Most words in one cell of a data table: layout tables hold whole articles in one cell.
MAX_DATA_CELL_WORDS = 80
#: Fewest non-empty cells kept for a table part; one cell alone is a box, not a table.
MIN_TABLE_CELLS = 2
#: Fewest rows of a data table: one row is a layout strip (a forum post beside its author).
MIN_TABLE_ROWS = 2


def _in_quote(block: TextBlock) -> bool:
    return _ancestor(block.element, QUOTE_ANCESTORS, QUOTE_SEARCH_DEPTH) is not None


def _ancestor(
    element: etree._Element | None, tags: frozenset[str], depth: int
) -> etree._Element | None:
    """``element`` or its nearest ancestor within ``depth`` steps whose tag is in ``tags``."""
    for _ in range(depth):
        if element is None:
            return None
        if element.tag in tags:
            return element
        element = element.getparent()
    return None


def part_kind(block: TextBlock) -> tuple[PartKind, int]:
    """The kind of body part a block makes, and its heading level."""
    level = _HEADINGS.get(block.tag)
    if level:
        return "heading", level
    kind = TAG_KINDS.get(block.tag)
    if kind:
        return kind, 0
    if _ancestor(block.element, VERBATIM_TAGS, PRE_SEARCH_DEPTH) is not None:
        return "code", 0
    return ("quote", 0) if _in_quote(block) else ("paragraph", 0)


def assemble_body(blocks: Sequence[TextBlock]) -> tuple[BodyPart, ...]:
    """Turn selected blocks (in document order) into body parts.

    A block cut from the previous one by a ``<br>`` in the same element continues the
    same part on a new line, so addresses and verses keep their shape; the blocks of one
    ``<pre>`` make one code part; a run of blocks in the cells of one data table makes one
    table part.
    """
    context = _Context()
    parts: list[BodyPart] = []
    for table, run in itertools.groupby(blocks, key=context.data_table):
        run_blocks = list(run)
        table_part = _table_part(run_blocks, context) if table is not None else None
        if table_part is not None:
            parts.append(table_part)
        else:
            _add_blocks(parts, run_blocks, context)
    return tuple(parts)


def _add_blocks(parts: list[BodyPart], blocks: Iterable[TextBlock], context: _Context) -> None:
    """Append one part per block, or continue the last part (line breaks, one ``<pre>``)."""
    previous: TextBlock | None = None
    for block in blocks:
        kind, level = part_kind(block)
        text = context.verbatim(block) if kind == "code" else block.text
        if (
            previous is not None
            and parts
            and parts[-1].kind == kind
            and _continues(previous, block, kind)
        ):
            parts[-1] = BodyPart(kind, f"{parts[-1].text}\n{text}", level)
        else:
            parts.append(BodyPart(kind, text, level))
        previous = block


def _continues(previous: TextBlock, block: TextBlock, kind: PartKind) -> bool:
    if kind == "code":
        pre = _ancestor(block.element, VERBATIM_TAGS, PRE_SEARCH_DEPTH)
        return pre is not None and pre is _ancestor(
            previous.element, VERBATIM_TAGS, PRE_SEARCH_DEPTH
        )
    return block.boundary == "line" and block.element is previous.element


# --- verbatim text ---------------------------------------------------------------------


def _raw_segments(owner: etree._Element) -> list[str]:
    """The texts ``owner`` holds between block-level tags, whitespace kept as written.

    Cut exactly where :func:`~feedsift.parsing.blocks.text_blocks` cuts blocks owned by
    ``owner``: at its block-level children and ``<br>``; inline children do not cut.
    """
    segments: list[list[str]] = [[owner.text or ""]]
    nested = 0  # depth inside block-level children, whose text other owners hold
    for event, element in etree.iterwalk(owner, events=("start", "end")):
        tag = element.tag
        if element is owner or not isinstance(tag, str):
            continue
        if tag in INLINE_TAGS:
            if not nested:
                segments[-1].append((element.text if event == "start" else element.tail) or "")
            continue
        is_block = tag not in LINE_BREAK_TAGS
        nested += (1 if event == "start" else -1) if is_block else 0
        if not nested:
            segments.append([element.tail or ""] if event == "end" else [])
    return ["".join(pieces) for pieces in segments]


def _tidy_code(raw: str) -> str:
    """Verbatim text without its leading blank lines and trailing whitespace."""
    lines = raw.translate(CODE_SPACES).splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(line.rstrip() for line in lines).rstrip()


# --- tables ------------------------------------------------------------------------------


def _words(element: etree._Element) -> int:
    return sum(len(str(text).split()) for text in element.itertext())


def _is_data_table(table: etree._Element) -> bool:
    """Whether ``table`` holds data (rows of short cells) rather than a page's layout."""
    if str(table.get("role", "")).strip().lower() in LAYOUT_ROLES:
        return False
    if next(table.iterdescendants("table"), None) is not None:
        return False
    if sum(1 for _ in table.iterdescendants("tr")) < MIN_TABLE_ROWS:
        return False
    cells = list(table.iterdescendants("td", "th"))
    if len(cells) < MIN_TABLE_CELLS:
        return False
    return all(_words(cell) <= MAX_DATA_CELL_WORDS for cell in cells)


def _row_cells(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if cell.tag in CELL_TAGS]


def _is_head_row(row: etree._Element) -> bool:
    parent = row.getparent()
    if parent is not None and parent.tag == "thead":
        return True
    cells = _row_cells(row)
    return bool(cells) and all(cell.tag == "th" for cell in cells)


def _table_part(blocks: Sequence[TextBlock], context: _Context) -> BodyPart | None:
    """One table part from a run of blocks in one data table, or ``None`` if too small.

    Every cell of a touched row is kept (empty when none of its blocks was selected), so
    columns line up; a cell's blocks are joined by spaces.
    """
    rows: list[list[str]] = []
    heads: list[bool] = []
    cells: list[etree._Element] = []
    for block in blocks:
        cell = context.cell_of(block)
        row = cell.getparent() if cell is not None else None
        if cell is None or row is None:
            return None
        if not any(c is cell for c in cells):
            cells = _row_cells(row)
            rows.append([""] * len(cells))
            heads.append(_is_head_row(row))
        column = next(i for i, c in enumerate(cells) if c is cell)
        rows[-1][column] = f"{rows[-1][column]} {block.text}".lstrip()
    if sum(bool(text) for row in rows for text in row) < MIN_TABLE_CELLS:
        return None
    head_rows = next((i for i, head in enumerate(heads) if not head), len(heads))
    return BodyPart.table(tuple(tuple(row) for row in rows), head_rows)


class _Context:
    """What assembling one body looks up more than once: tables, cells, ``<pre>`` texts.

    Elements are keys and values here on purpose: lxml keeps one proxy object per node only
    while a reference to it lives, so identity comparisons need the references kept.
    """

    def __init__(self) -> None:
        self._cells: dict[etree._Element, tuple[etree._Element | None, etree._Element | None]] = {}
        self._tables: dict[etree._Element, bool] = {}
        self._segments: dict[etree._Element, list[str]] = {}
        self._cursor: dict[etree._Element, int] = {}

    def _lookup(self, block: TextBlock) -> tuple[etree._Element | None, etree._Element | None]:
        """The block's cell and that cell's table, when the table holds data."""
        found = self._cells.get(block.element)
        if found is None:
            cell = _ancestor(block.element, CELL_TAGS, CELL_SEARCH_DEPTH)
            table = _ancestor(cell, TABLE_TAGS, TABLE_SEARCH_DEPTH)
            if table is not None and table not in self._tables:
                self._tables[table] = _is_data_table(table)
            keep = table is not None and self._tables[table]
            found = self._cells[block.element] = (cell, table) if keep else (None, None)
        return found

    def data_table(self, block: TextBlock) -> etree._Element | None:
        return self._lookup(block)[1]

    def cell_of(self, block: TextBlock) -> etree._Element | None:
        return self._lookup(block)[0]

    def verbatim(self, block: TextBlock) -> str:
        """The block's text as written in the page, else its collapsed text."""
        owner = block.element
        segments = self._segments.get(owner)
        if segments is None:
            segments = self._segments[owner] = _raw_segments(owner)
        start = self._cursor.get(owner, 0)
        for index in range(start, len(segments)):
            if normalize_space(segments[index]) == block.text:
                self._cursor[owner] = index + 1
                return _tidy_code(segments[index])
        return block.text
