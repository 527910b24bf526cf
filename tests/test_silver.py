"""Silver titles: a gold text's opening line that is one of the page's title strings."""

from __future__ import annotations

from feedsift.metadata.record import TitleCandidate
from feedsift.training.silver import silver_title

CANDIDATES = [
    TitleCandidate("BBC NEWS | Technology | Apple iTunes phone due to launch", "title-tag",
                   "title"),
    TitleCandidate("BBC NEWS", "title-tag", "title-part:0"),
    TitleCandidate("Technology", "title-tag", "title-part:1"),
    TitleCandidate("Apple iTunes phone due to launch", "title-tag", "title-part:2"),
]  # fmt: skip


def test_the_headline_line_of_the_gold_text_is_the_silver_title() -> None:
    gold = "Technology\nMonday, 5 September 2005\nApple ITunes phone due to LAUNCH\n\nApple..."
    assert silver_title(gold, CANDIDATES) == "Apple iTunes phone due to launch"  # page's spelling


def test_no_silver_title_from_a_section_name_a_date_or_a_late_line() -> None:
    assert silver_title("Technology\n\nA paragraph of text.", CANDIDATES) is None  # 1 word
    dated = [*CANDIDATES, TitleCandidate("Monday, 5 September 2005", "dom", "h1")]
    assert silver_title("Monday, 5 September 2005\nText.", dated) is None
    late = "a\nb\nc\nd\nApple iTunes phone due to launch"
    assert silver_title(late, CANDIDATES) is None  # the fifth line is past the top
