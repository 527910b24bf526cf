"""Whole-number command-line values, with the reason a wrong one is refused."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["whole_number"]


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type`` that reads a whole number of at least ``minimum``."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more: {text!r}")
        return value

    return read
