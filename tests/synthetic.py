"""Small synthetic gold pages for tests that need to train: known body, known boilerplate."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

WORDS = (
    "harbour river garden winter engine village market station bridge library teacher "
    "painter morning evening council museum festival weather journey island mountain "
    "kitchen printer bicycle orchard lantern carpenter signal ferry meadow tower"
).split()
NAV = ["Home", "News", "Sport", "Culture", "About us", "Contact", "Archive", "Subscribe"]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(9, 16))]
    return f"The {' '.join(words)}, and the {rng.choice(WORDS)} stayed open."


def page(rng: random.Random, title: str) -> tuple[str, str]:
    """One page and its gold body text."""
    paragraphs = [" ".join(_sentence(rng) for _ in range(rng.randint(2, 4)))
                  for _ in range(rng.randint(3, 6))]  # fmt: skip
    wrapper = rng.choice(["article", "div", "section"])
    body_class = rng.choice(["entry-content", "story-body", "post", "text"])
    nav = "".join(f'<li><a href="/{n.lower()}/">{n}</a></li>' for n in NAV)
    related = "".join(f'<li><a href="/r{i}/">{_sentence(rng)[:40]}</a></li>' for i in range(4))
    html = (
        f"<html><head><title>{title} | The Gazette</title>"
        f'<meta property="og:title" content="{title}"></head><body>'
        f'<header><nav class="menu"><ul>{nav}</ul></nav></header>'
        f'<{wrapper} class="{body_class}"><h1>{title}</h1>'
        + "".join(f"<p>{p}</p>" for p in paragraphs)
        + f'</{wrapper}><aside class="related"><h3>Related</h3><ul>{related}</ul></aside>'
        "<footer><p>Copyright 2024 The Gazette. All rights reserved.</p></footer>"
        "</body></html>"
    )
    return html, "\n\n".join(paragraphs)


def write_dataset(folder: Path, pages: int, split: str, seed: int = 7) -> None:
    """A dataset folder in the benchmark layout with ``pages`` synthetic pages."""
    rng = random.Random(seed)
    (folder / "pages").mkdir(parents=True, exist_ok=True)
    rows = []
    for number in range(pages):
        title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} report number {number}"
        html, text = page(rng, title)
        (folder / "pages" / f"p{number}.html.gz").write_bytes(gzip.compress(html.encode()))
        rows.append({"id": f"p{number}", "url": f"https://gazette.example/{number}/story/",
                     "split": split, "title": title, "text": text})  # fmt: skip
    (folder / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "README.txt").write_text("synthetic pages written by tests/synthetic.py\n")
