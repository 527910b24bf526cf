"""Query normalisation rules: which query parameters of a URL identify the document.

Step 3 of the URL-key procedure of the URL Tree paper (Section 3, Table 1): a rule is a
regular expression (the *trigger*) plus the query parameters to keep. The first rule whose
trigger matches the URL, and whose parameters the URL has, filters its query down to those
parameters; when no rule applies, only tracking parameters and the title hash are dropped
(:mod:`feedsift.dedup.urlkeys` says why feedsift departs from the paper there).

How a trigger is matched: against the URL *without its scheme* (``host[:port]/path?query``)
and anchored at its start (``re.match``). The paper's Table 1 prints its triggers without the
leading ``http://`` for the same reason; dropping the scheme lets one rule serve http and
https. A trigger should look only at the host and the path (and at most at the presence of a
query or of a parameter it keeps), never at the values of parameters it drops: otherwise the
key of a key could pick another rule and keys would not be idempotent.

The rule files (the shipped ``feedsift/data/url_rules.txt`` and the user's) hold one rule a
line: ``REGEX  PARAM[,PARAM...]  [# reason]``; blank lines and ``#`` comment lines are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from feedsift.errors import ConfigError

__all__ = [
    "DEFAULT_RULES_RESOURCE",
    "DEFAULT_USER_RULES",
    "QueryRule",
    "load_rules",
    "parse_rules",
    "strip_scheme",
]

#: The user's own rules: read only when the caller expands it and passes it to ``load_rules``.
DEFAULT_USER_RULES = Path("~/.config/feedsift/url_rules.txt")
#: The shipped rules, a package data file of ``feedsift``.
DEFAULT_RULES_RESOURCE = "data/url_rules.txt"

#: A trigger written with its scheme would never match (triggers see the URL without it).
_SCHEME_IN_TRIGGER = re.compile(r"\^?\(?https?\S{0,8}:/")
#: A parameter name is one query name: no separators of the query syntax inside.
_BAD_PARAM_CHARS = frozenset("=&#? \t")


@dataclass(frozen=True, slots=True)
class QueryRule:
    """One query normalisation rule: where it applies and which parameters it keeps."""

    trigger: re.Pattern[str]
    keep: tuple[str, ...]
    reason: str = ""

    def applies(self, url: str) -> bool:
        """Whether the trigger matches ``url`` (scheme removed, anchored at the start)."""
        return self.trigger.match(strip_scheme(url)) is not None

    def keeps(self, name: str) -> bool:
        """Whether the query parameter called ``name`` (decoded) survives this rule."""
        return name in self.keep


def strip_scheme(url: str) -> str:
    """``url`` without its ``scheme://`` prefix, the text triggers are matched against."""
    _, sep, rest = url.partition("://")
    return rest if sep else url


def parse_rules(text: str, source: str) -> tuple[QueryRule, ...]:
    """The rules of a rule file's ``text``; errors name ``source:line`` and the reason."""
    rules: list[QueryRule] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            rules.append(_parse_line(line))
        except ValueError as err:
            raise ConfigError(f"{source}:{number}: {err}") from None
    return tuple(rules)


def _parse_line(line: str) -> QueryRule:
    """One rule line; ``ValueError`` with the reason when it is malformed."""
    fields = line.split(maxsplit=2)
    if len(fields) < 2 or fields[1].startswith("#"):
        raise ValueError(f"rule {fields[0]!r} has no query parameters to keep")
    reason = ""
    if len(fields) == 3:
        if not fields[2].startswith("#"):
            raise ValueError(f"unexpected text {fields[2]!r} (a reason starts with '#')")
        reason = fields[2][1:].strip()
    return QueryRule(_compile_trigger(fields[0]), _parse_params(fields[1]), reason)


def _compile_trigger(pattern: str) -> re.Pattern[str]:
    if _SCHEME_IN_TRIGGER.match(pattern):
        raise ValueError(
            f"trigger {pattern!r} starts with a scheme; write it without 'http://' or 'https://'"
        )
    try:
        return re.compile(pattern)
    except re.error as err:
        raise ValueError(f"bad regular expression {pattern!r}: {err}") from None


def _parse_params(field: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in field.split(","))
    for name in names:
        if not name or _BAD_PARAM_CHARS.intersection(name):
            raise ValueError(f"bad query parameter list {field!r}")
    return names


def load_rules(*extra_files: Path, include_defaults: bool = True) -> tuple[QueryRule, ...]:
    """The user's rule files, in the order given, then the shipped rules.

    User rules come first so that they override the shipped ones (the first applicable
    rule wins). A file that cannot be read or parsed raises ``ConfigError``.
    """
    rules: list[QueryRule] = []
    for path in extra_files:
        rules.extend(parse_rules(_read_user_file(path), str(path)))
    if include_defaults:
        resource = resources.files("feedsift").joinpath(DEFAULT_RULES_RESOURCE)
        source = f"feedsift/{DEFAULT_RULES_RESOURCE}"
        rules.extend(parse_rules(resource.read_text(encoding="utf-8"), source))
    return tuple(rules)


def _read_user_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read URL rules: {err}") from None
