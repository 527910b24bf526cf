"""``--render`` and ``--render-timeout``, as extract, crawl, watch and serve take them."""

from __future__ import annotations

import argparse

from feedsift.cli.numbers import whole_number
from feedsift.rendering.browser import RenderOptions

__all__ = ["DEFAULT_RENDER_TIMEOUT_MS", "add_render_arguments"]

#: Default of ``--render-timeout``: the renderer's own default page limit (ms).
DEFAULT_RENDER_TIMEOUT_MS = RenderOptions().page_timeout_ms


def add_render_arguments(parser: argparse.ArgumentParser, title: str, render_help: str) -> None:
    """The two options in a group named ``title``; ``render_help``: what ``--render`` does
    in this command."""
    group = parser.add_argument_group(title)
    group.add_argument("--render", action="store_true", help=render_help)
    group.add_argument(
        "--render-timeout",
        type=whole_number(1),
        default=DEFAULT_RENDER_TIMEOUT_MS,
        metavar="MS",
        help="with --render: use the markup estimate for a page not rendered within MS "
        "milliseconds (default: %(default)s)",
    )
