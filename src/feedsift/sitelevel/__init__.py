"""Site-level learners: a site's boilerplate learned from the site's own pages."""

from feedsift.sitelevel.base import BlockMask, SiteLearner, article_from_mask
from feedsift.sitelevel.combiner import FieldChoice, FieldCombiner, FieldScore
from feedsift.sitelevel.diffpost import DiffPost
from feedsift.sitelevel.hybrid import HybridExtractor, masked_decision
from feedsift.sitelevel.models import SavedSite, SiteLearners, SiteMode, SiteModels, SiteOptions
from feedsift.sitelevel.tree import Eviction
from feedsift.sitelevel.urltree import UrlTree

__all__ = [
    "BlockMask",
    "DiffPost",
    "Eviction",
    "FieldChoice",
    "FieldCombiner",
    "FieldScore",
    "HybridExtractor",
    "SavedSite",
    "SiteLearner",
    "SiteLearners",
    "SiteMode",
    "SiteModels",
    "SiteOptions",
    "UrlTree",
    "article_from_mask",
    "masked_decision",
]
