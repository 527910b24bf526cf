"""Title block finding (title-finding paper, section 3; template-independent paper, IV.A).

Candidates are the short blocks of the upper part of the page. Their features follow the
papers: position (vertical position, order), title features (agreement with the
``<title>`` element and the other title fields of the page), appearance (heading tag,
font size and weight from the layout) and content (length, link state, end punctuation),
plus role masks and how much prose follows. A classifier scores them; the best one above a
threshold is the title block, the start of the post.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import numpy as np

from feedsift.extractors.roles import role_bits
from feedsift.extractors.signals import PageSignals
from feedsift.parsing.blocks import BlockView, TextBlock
from feedsift.text.tokens import normalize_space, token_f1, tokenize_lower

__all__ = [
    "MAX_TITLE_WORDS",
    "TitleCandidates",
    "title_candidates",
    "title_match",
    "title_zone",
]

#: Longest block (in words) considered as a title.
MAX_TITLE_WORDS = 40
#: Titles are looked for in this leading share of the page's blocks that are not links ...
TITLE_ZONE_SHARE = 0.6
#: ... but never fewer than this many of them (short pages).
TITLE_ZONE_MIN = 40
#: Link share from which a block is a link (a menu item, a teaser) and does not count
#: towards the zone: a news site's menus of hundreds of links before the headline pushed
#: the headline of a fifth of Fundus's train pages out of a zone counted in all blocks.
ZONE_LINK_SHARE = 0.9
#: Blocks after a candidate inspected for following prose.
FOLLOW_WINDOW = 12
#: Short, fully linked blocks that are not headings are menu items, never titles (none of
#: the 336 gold titles of the train split is one; they are over half of all candidates).
MENU_ITEM_MAX_WORDS = 3
MENU_ITEM_MIN_LINK = 0.99
#: Token F1 with the gold title above which a block is labelled the title.
TITLE_LABEL_F1 = 0.8


@dataclass(frozen=True, slots=True)
class TitleCandidates:
    """Block indices of the title candidates and their feature rows."""

    index: np.ndarray
    features: np.ndarray


def title_match(text: str, gold: str) -> float:
    """How well a block matches a gold title: 1.0 for equal text, else token F1."""
    if normalize_space(text).casefold() == normalize_space(gold).casefold():
        return 1.0
    return token_f1(tokenize_lower(text), tokenize_lower(gold))


def _link_state(element: object, host: str) -> float:
    """0 no link, 1 internal link, 2 external link (paper's Link feature)."""
    iterate = getattr(element, "iter", None)
    if iterate is None:
        return 0.0
    for anchor in iterate("a"):
        href = anchor.get("href")
        if href is None:
            continue
        if "//" not in href:
            return 1.0  # relative link: same site
        target = href.split("//", 1)[1].split("/", 1)[0].rpartition("@")[2].lower()
        return 2.0 if target and host and target != host else 1.0
    return 0.0


def _bag_f1(tokens: Counter[str], size: int, reference: Counter[str], ref_size: int) -> float:
    if not size or not ref_size:
        return 0.0
    common = 0  # the size of ``tokens & reference``, without building that Counter
    for word, count in tokens.items():
        other = reference.get(word, 0)
        common += count if count < other else other
    return 2 * common / (size + ref_size)


def _similarity(
    block: TextBlock, references: Sequence[tuple[Counter[str], int]], folded: Sequence[str],
    vocabulary: frozenset[str],
) -> list[float]:
    if vocabulary.isdisjoint(map(str.lower, block.tokens)):
        return [0.0, 0.0, 0.0, 0.0]  # no word in common: nothing to compare
    words = list(map(str.lower, block.tokens))
    bag, size = Counter(words), len(words)
    key = block.text.casefold()  # a block's whitespace is collapsed already
    best = max((_bag_f1(bag, size, ref, n) for ref, n in references), default=0.0)
    exact = float(any(key == f for f in folded))
    inside = float(bool(key) and any(key in f for f in folded))
    prefix = float(bool(key) and any(f.startswith(key) for f in folded))
    return [best, exact, inside, prefix]


def title_zone(link: np.ndarray) -> int:
    """How many leading blocks may hold the title: the first :data:`TITLE_ZONE_SHARE` of
    the blocks that are not links (at least :data:`TITLE_ZONE_MIN`), with the links among
    them; ``link`` is each block's link share."""
    plain = _plain_before(link)
    limit = max(TITLE_ZONE_MIN, int(int(plain[-1]) * TITLE_ZONE_SHARE))
    return int(np.searchsorted(plain[1:], limit, side="right"))


def _plain_before(link: np.ndarray) -> np.ndarray:
    """For i = 0 .. n: how many of the first i blocks are not links."""
    counts: np.ndarray = np.concatenate([[0], np.cumsum(link < ZONE_LINK_SHARE)])
    return counts


def _host(url: str | None) -> str:
    try:
        return urlsplit(url or "").netloc.lower()
    except ValueError:
        return ""


def _text_columns(
    view: BlockView, signals: PageSignals, idx: np.ndarray, references: Sequence[str],
    url: str | None,
) -> np.ndarray:  # fmt: skip
    """Title-field similarity (4 columns) and link state of each candidate."""
    ref_tokens = [(Counter(t), len(t)) for t in (tokenize_lower(r) for r in references if r)]
    folded = [normalize_space(r).casefold() for r in references if r]
    host = _host(url)
    blocks = view.blocks
    vocabulary = frozenset(word for bag, _ in ref_tokens for word in bag)
    chosen = idx.tolist()  # Python ints: indexing with numpy scalars costs more
    link = signals.link.tolist()
    similarity = [_similarity(blocks[i], ref_tokens, folded, vocabulary) for i in chosen]
    links = [_link_state(blocks[i].element, host) if link[i] > 0 else 0.0 for i in chosen]
    return np.column_stack([np.array(similarity).reshape(len(idx), 4), links])


def _plain_position(link: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Each candidate's position among the page's blocks that are not links (a share: 0 at
    the top), so a long menu before the headline does not make it look like the page's end."""
    plain = _plain_before(link)
    position: np.ndarray = plain[idx] / max(1, int(plain[-1]))
    return position


def _layout_columns(
    signals: PageSignals, idx: np.ndarray, has_references: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Position and appearance columns, then content columns, of each candidate."""
    n = signals.n
    prose = np.concatenate([[0.0], np.cumsum((signals.words >= 10) & (signals.link < 0.3))])
    ahead = prose[np.minimum(n, idx + 1 + FOLLOW_WINDOW)] - prose[idx + 1]
    group = signals.tag_group[idx]
    layout = signals.layout[idx]
    return np.column_stack([
        group == 4, group == 5, group == 6, layout[:, 0], layout[:, 1],
        np.minimum(layout[:, 2], 20.0), _plain_position(signals.link, idx),
        np.cumsum(signals.tag_group == 4)[idx], np.log1p(signals.words[idx]),
        signals.link[idx],
    ]).astype(np.float64), np.column_stack([
        signals.text[idx, 4], signals.text[idx, 6], signals.text[idx, 1], ahead,
        np.full(len(idx), float(has_references)), signals.repeats[idx],
    ]).astype(np.float64)


def title_candidates(
    view: BlockView, signals: PageSignals, references: Sequence[str], url: str | None
) -> TitleCandidates:
    """Candidate title blocks and their features; ``references`` are the page's title
    fields (``<title>``, ``og:title``, JSON-LD headline ...)."""
    zone = title_zone(signals.link)
    words, link, group = signals.words[:zone], signals.link[:zone], signals.tag_group[:zone]
    menu_item = (words <= MENU_ITEM_MAX_WORDS) & (link >= MENU_ITEM_MIN_LINK) & (
        (group < 4) | (group > 6)
    )
    idx = np.flatnonzero((words <= MAX_TITLE_WORDS) & (words > 0) & ~menu_item)
    if not len(idx):
        return TitleCandidates(idx, np.zeros((0, 0)))
    text = _text_columns(view, signals, idx, references, url)
    before, after = _layout_columns(signals, idx, bool(references))
    owner = signals.owner[idx]
    features = np.hstack([
        text[:, :4], before, text[:, 4:], after,
        role_bits(signals.roles.near[owner]), role_bits(signals.roles.inherited[owner]),
    ])
    return TitleCandidates(idx, features)
