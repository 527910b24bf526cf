"""Command-line options shared by the commands that use the database or fetch pages."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from feedsift.acquisition.fetcher import FetchPolicy
from feedsift.dedup.rules import DEFAULT_USER_RULES
from feedsift.storage import DEFAULT_DB
from feedsift.storage.location import DatabaseTarget, describe_target, parse_target

__all__ = [
    "DB_ENV",
    "add_db_argument",
    "add_fetch_arguments",
    "add_rules_argument",
    "db_type",
    "default_db",
    "fetch_policy",
    "rule_files",
]

#: Environment variable naming the database when ``--db`` is not given.
DB_ENV = "FEEDSIFT_DB"
_POLICY = FetchPolicy()


def db_type(text: str) -> DatabaseTarget:
    """``--db``'s type: a ``postgresql://`` URL, or the path of a SQLite file."""
    return parse_target(text)


def default_db() -> DatabaseTarget:
    """``$FEEDSIFT_DB`` (a path or a URL), else ``feedsift.db`` in the current folder."""
    return parse_target(os.environ.get(DB_ENV) or str(DEFAULT_DB))


def add_db_argument(
    parser: argparse.ArgumentParser, help_text: str = "the feedsift database"
) -> None:
    parser.add_argument(
        "--db", type=db_type, default=default_db(), metavar="DB",
        help=f"{help_text}: a SQLite file, or a PostgreSQL URL such as "
        f"postgresql://user@host/feedsift (default: ${DB_ENV} or "
        f"{describe_target(default_db())})",
    )  # fmt: skip


def add_fetch_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("politeness and safety")
    group.add_argument(
        "--delay",
        type=float,
        default=_POLICY.min_delay,
        metavar="SECONDS",
        help="least time between two requests to one host; robots.txt "
        "crawl-delay can raise it (default: %(default)s)",
    )
    group.add_argument(
        "--per-host",
        type=int,
        default=_POLICY.per_host,
        metavar="N",
        help="requests at once to one host (default: %(default)s)",
    )
    group.add_argument(
        "--timeout",
        type=float,
        default=_POLICY.timeout,
        metavar="SECONDS",
        help="limit for one fetch, redirects and body included (default: %(default)s)",
    )
    group.add_argument(
        "--allow-private",
        action="store_true",
        help="fetch private, loopback and link-local addresses too (refused by "
        "default: a feed must not make feedsift probe your network)",
    )


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", type=Path, action="append", default=[], metavar="FILE",
        help=f"URL-key rule files tried before the shipped rules (default: {DEFAULT_USER_RULES} "
        "when it exists); repeatable",
    )  # fmt: skip


def rule_files(args: argparse.Namespace) -> tuple[Path, ...]:
    """The ``--rules`` files, or the user's own rule file when none is given and it exists."""
    user_rules = DEFAULT_USER_RULES.expanduser()
    if not args.rules and user_rules.exists():
        return (user_rules,)
    return tuple(args.rules)


def fetch_policy(args: argparse.Namespace) -> FetchPolicy:
    return FetchPolicy(
        min_delay=max(0.0, args.delay), per_host=max(1, args.per_host),
        timeout=args.timeout, allow_private=args.allow_private,
    )  # fmt: skip
