"""The gold-to-block aligner (Hypothesis properties and hand-made cases)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from feedsift.training.align import align_blocks, label_from_snippets

WORDS = [f"w{i}" for i in range(400)]


@st.composite
def pages(draw: st.DrawFn) -> tuple[list[str], list[bool]]:
    """Blocks of distinct words, and which of them the gold keeps."""
    n = draw(st.integers(min_value=1, max_value=12))
    pool = iter(draw(st.permutations(WORDS)))
    blocks = [" ".join(next(pool) for _ in range(draw(st.integers(1, 12)))) for _ in range(n)]
    keep = [draw(st.booleans()) for _ in range(n)]
    return blocks, keep


@given(pages())
@settings(max_examples=200)
def test_gold_made_of_blocks_labels_exactly_those_blocks(
    page: tuple[list[str], list[bool]],
) -> None:
    blocks, keep = page
    gold = "\n".join(b for b, k in zip(blocks, keep, strict=True) if k)
    alignment = align_blocks(blocks, gold)
    assert list(alignment.labels) == keep
    assert alignment.coverage == (1.0 if any(keep) else 0.0)


@given(pages(), st.randoms(use_true_random=False))
@settings(max_examples=100)
def test_whitespace_and_case_do_not_matter(page: tuple[list[str], list[bool]], rnd) -> None:  # type: ignore[no-untyped-def]
    blocks, keep = page
    gold = "\n\n".join(b.upper() for b, k in zip(blocks, keep, strict=True) if k)
    assert list(align_blocks(blocks, gold).labels) == keep


def test_a_lone_common_word_is_not_a_match() -> None:
    blocks = ["Home", "The storm hit the coast on Monday night and left many without power."]
    gold = "The storm hit the coast on Monday night, and home owners were left without power."
    labels = align_blocks(blocks, gold).labels
    assert labels == (False, True)


def test_a_heading_line_of_the_gold_matches_its_block() -> None:
    blocks = ["Menu", "Introduction", "This is the first paragraph of the text."]
    gold = "Introduction\nThis is the first paragraph of the text."
    assert align_blocks(blocks, gold).labels == (False, True, True)


def test_partial_block_share() -> None:
    blocks = ["one two three four five six seven eight"]
    alignment = align_blocks(blocks, "one two three four")
    assert alignment.shares[0] == 0.5
    assert alignment.labels == (True,)


def test_snippet_labels() -> None:
    blocks = ["Impressum", "Die Sitzung begann um neun Uhr.", "Teilen auf", "Twitter"]
    labels = label_from_snippets(blocks, ["Sitzung begann"], ["Impressum", "Teilen auf Twitter"])
    assert labels == (False, True, False, False)
