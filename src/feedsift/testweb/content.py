"""Deterministic English prose for the test web: titles, paragraphs, names, comments.

A :class:`ProseWriter` draws from an explicit :class:`random.Random`, so the same seed gives
the same texts on every machine and Python version (string seeds are hashed with SHA-512).
Sentences come from the frames of :mod:`feedsift.testweb.vocabulary`, filled with one
topic's words; each post keeps a *focus* noun that recurs, as real posts stay on a subject.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from feedsift.testweb.vocabulary import (
    ADJECTIVES,
    ADVERBS,
    COMMENT_FRAMES,
    CONNECTORS,
    FIRST_NAMES,
    FRAMES,
    HEADLINES,
    LAST_NAMES,
    MONTHS,
    OPINIONS,
    SEASONS,
    SUBHEADINGS,
    TIMES,
    TOPICS,
    WEEKDAYS,
    Topic,
)

__all__ = ["Prose", "ProseWriter", "plural", "slugify"]

#: Share of ``{noun}`` fields filled with the post's focus noun (keeps a post on topic).
FOCUS_SHARE = 0.45
#: Sentences per paragraph (inclusive bounds).
SENTENCES_PER_PARAGRAPH = (3, 6)
#: Counts that frames quote ("{number} years", "the vote was {number} to {number}").
NUMBERS = tuple(str(n) for n in (2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 17, 20, 23, 31, 40))
#: Percentages that news frames quote.
PERCENTAGES = tuple(str(n) for n in range(2, 49))
#: Plurals that the suffix rules get wrong.
IRREGULAR_PLURALS = {"loaf": "loaves", "jellyfish": "jellyfish", "index": "indexes"}
#: "a" followed by a vowel-initial word becomes "an" (the frames always write "a").
_ARTICLE_RE = re.compile(r"\b([Aa]) (?=[aeiouAEIOU])")
_SLUG_DROP_RE = re.compile(r"[^a-z0-9]+")


def plural(noun: str) -> str:
    """English plural of one of the vocabulary's nouns."""
    if noun in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[noun]
    if noun.endswith(("s", "sh", "ch", "x", "z")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def slugify(title: str) -> str:
    """The URL slug a CMS derives from a title: lower case, ASCII words joined by dashes."""
    return _SLUG_DROP_RE.sub("-", title.lower()).strip("-")


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class Prose:
    """The text of one post: title, paragraphs and where a subheading goes (if any)."""

    title: str
    paragraphs: tuple[str, ...]
    topic: str
    focus: str
    second: str  #: another noun of the topic (the post's second tag)
    subheading: tuple[int, str] | None = None  #: (index of the paragraph it precedes, text)


class _Fields(dict[str, str]):
    """Frame fields generated on first use (``{number}`` is drawn anew at every use)."""

    def __init__(self, writer: ProseWriter, topic: Topic, focus: str) -> None:
        super().__init__()
        self._writer, self._topic, self._focus = writer, topic, focus

    def __missing__(self, key: str) -> str:
        if key[:1].isupper():
            return _capitalise(self[key.lower()])
        value = self._writer.field(key, self._topic, self._focus, self)
        if key != "number":
            self[key] = value
        return value


class ProseWriter:
    """Writes titles, paragraphs, names and comments in one register ("essay", "field", "news")."""

    def __init__(self, rng: random.Random, register: str) -> None:
        self.rng = rng
        self.register = register
        self._noun_forms: dict[str, tuple[tuple[str, str], ...]] = {}

    def topic(self) -> Topic:
        return self.rng.choice(TOPICS[self.register])

    def person_name(self) -> str:
        return f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(LAST_NAMES)}"

    def fill(self, frame: str, topic: Topic, focus: str) -> str:
        """One frame filled in, with "a"/"an" fixed and the first letter capitalised."""
        text = frame.format_map(_Fields(self, topic, focus))
        return _capitalise(_ARTICLE_RE.sub(r"\1n ", text))

    def field(self, key: str, topic: Topic, focus: str, known: dict[str, str]) -> str:
        """The value of one frame field (``known`` holds the fields already filled)."""
        rng = self.rng
        if key in ("noun", "noun2", "nouns", "nouns2"):
            return self._noun(key, topic, focus, known)
        if key in ("past", "base", "ing"):
            return rng.choice(topic.verbs)[("base", "past", "ing").index(key)]
        pools: dict[str, tuple[str, ...]] = {
            "adj": ADJECTIVES,
            "adj2": ADJECTIVES,
            "adverb": ADVERBS,
            "place": topic.places,
            "person": topic.people,
            "time": TIMES,
            "connector": CONNECTORS,
            "opinion": OPINIONS,
            "weekday": WEEKDAYS,
            "month": MONTHS,
            "season": SEASONS,
            "first": FIRST_NAMES,
            "number": NUMBERS,
            "pct": PERCENTAGES,
        }
        if key in pools:
            return rng.choice(pools[key])
        if key == "when":
            time = rng.choice(TIMES)
            return time[:1].lower() + time[1:]
        if key == "name":
            return self.person_name()
        raise KeyError(key)

    def _forms(self, topic: Topic) -> tuple[tuple[str, str], ...]:
        """The topic's nouns as written (no dashes) with their plurals; computed once."""
        if topic.name not in self._noun_forms:
            spelled = [noun.replace("-", " ") for noun in topic.nouns]
            self._noun_forms[topic.name] = tuple((n, plural(n)) for n in spelled)
        return self._noun_forms[topic.name]

    def _noun(self, key: str, topic: Topic, focus: str, known: dict[str, str]) -> str:
        if key == "noun" and self.rng.random() < FOCUS_SHARE:
            noun = focus
        else:
            taken = {focus.replace("-", " "), *known.values()}
            forms = self._forms(topic)
            noun = self.rng.choice([n for n, p in forms if n not in taken and p not in taken])
        noun = noun.replace("-", " ")
        return plural(noun) if key.startswith("nouns") else noun

    def paragraph(self, topic: Topic, focus: str, deck: list[str]) -> str:
        """3-6 sentences; ``deck`` is the post's shuffled frames, refilled when empty."""
        sentences = []
        for _ in range(self.rng.randint(*SENTENCES_PER_PARAGRAPH)):
            if not deck:
                deck.extend(self.rng.sample(FRAMES[self.register], len(FRAMES[self.register])))
            sentences.append(self.fill(deck.pop(), topic, focus))
        return " ".join(sentences)

    def prose(self, paragraphs: int, used_titles: set[str]) -> Prose:
        """A new post's text, its title different from every title in ``used_titles``."""
        topic = self.topic()
        focus = self.rng.choice(topic.nouns)
        title = self.fill(self.rng.choice(HEADLINES[self.register]), topic, focus)
        while title in used_titles or not slugify(title):
            title = self.fill(self.rng.choice(HEADLINES[self.register]), topic, focus)
        used_titles.add(title)
        deck: list[str] = []
        body = tuple(self.paragraph(topic, focus, deck) for _ in range(paragraphs))
        subheading = None
        if paragraphs >= 5 and self.register != "news":
            heading = self.fill(self.rng.choice(SUBHEADINGS), topic, focus)
            subheading = (paragraphs // 2, heading)
        second = self.rng.choice([n for n in topic.nouns if n != focus]).replace("-", " ")
        return Prose(title, body, topic.name, focus.replace("-", " "), second, subheading)

    def comment(self, topic: Topic | None = None) -> str:
        """One reader comment."""
        chosen = topic or self.topic()
        return self.fill(self.rng.choice(COMMENT_FRAMES), chosen, self.rng.choice(chosen.nouns))
