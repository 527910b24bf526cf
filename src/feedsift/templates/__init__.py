"""Feed-learned templates: key-paths from feed items, post detection, property extraction."""

from feedsift.templates.apply import TemplatePaths, apply_paths
from feedsift.templates.feedvalues import ItemValues, clean_value, is_comment_feed, item_values
from feedsift.templates.finding import ItemPaths, find_item_paths
from feedsift.templates.judge import PostJudge, Verdict, is_site_page
from feedsift.templates.learner import PROPERTIES, FeedTemplate, PathCluster, fit_template
from feedsift.templates.paths import (
    AttrTest,
    KeyPath,
    PathNode,
    find,
    matches,
    merge,
    parse_path,
    path_of,
    shared_prefix,
)

__all__ = [
    "PROPERTIES",
    "AttrTest",
    "FeedTemplate",
    "ItemPaths",
    "ItemValues",
    "KeyPath",
    "PathCluster",
    "PathNode",
    "PostJudge",
    "TemplatePaths",
    "Verdict",
    "apply_paths",
    "clean_value",
    "find",
    "find_item_paths",
    "fit_template",
    "is_comment_feed",
    "is_site_page",
    "item_values",
    "matches",
    "merge",
    "parse_path",
    "path_of",
    "shared_prefix",
]
